import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import Ajv from 'ajv';
import { parseAllDocuments } from 'yaml';
import { convertCrds, hasPyYaml, judge, kubeconformBinary, kubeconformLocation, Verdict } from './kubeconform';
import { main } from '../../src/cli';
import { schemaIndex } from '../../src/validation/schemas';
import { exampleApps, exampleSynth } from '../cluster/sources';
import { admissionCases, rolloutAdmissionCases } from '../fixtures/admission';
import { docPages, fencedBlocks } from '../util/markdown';
import { REFERENCE_DIR, SKIPPED_GROUP } from '../util/reference';

function run(args: string[], cwd?: string): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = main(args, { out: t => { out += t; }, err: t => { err += t; }, cwd });
  return { code, out, err };
}

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'kruise-schemas-'));
const read = (f: string) => JSON.parse(fs.readFileSync(f, 'utf8'));
const KRUISE = /^(apps|policy|rollouts)\.kruise\.io\//;

describe('cdk8s-kruise schemas', () => {
  test('every kind and served version of the default releases, in kubeconform\'s layout, and one file for editors', () => {
    const dir = tmp();
    const r = run(['schemas', '--out', dir]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const entries = schemaIndex();
    expect(r.out).toBe(`wrote ${entries.length} schemas (22 kinds) of OpenKruise v1.9.1 and Kruise Rollouts v0.6.2 into ${dir}, and ${path.join(dir, 'openkruise.json')}\n`);
    const files = fs.readdirSync(dir, { recursive: true }).map(String).filter(f => f.endsWith('.json')).sort();
    expect(files).toEqual([...entries.map(e => {
      const [group, version] = e.apiVersion.split('/');
      return path.join(group, `${e.kind.toLowerCase()}_${version}.json`);
    }), 'openkruise.json'].sort());
    expect(files).toContain(path.join('apps.kruise.io', 'cloneset_v1alpha1.json'));
    expect(files).toContain(path.join('rollouts.kruise.io', 'rollout_v1beta1.json'));
    // the schema synth validates with, found by path (no $id), open at the top unless --strict
    const ours = read(path.join(dir, 'apps.kruise.io', 'cloneset_v1alpha1.json'));
    const model = read(path.join(__dirname, '..', '..', 'schemas', 'apps.kruise.io_v1alpha1_cloneset.json'));
    const { $id, additionalProperties, ...rest } = model;
    expect([$id, additionalProperties]).toEqual([expect.any(String), false]);
    expect(ours).toEqual(rest);
    expect(ours.properties.spec.additionalProperties).toBe(false);
    run(['schemas', '--out', dir, '--strict']);
    expect(read(path.join(dir, 'apps.kruise.io', 'cloneset_v1alpha1.json')).additionalProperties).toBe(false);
  });

  test('--openkruise and --rollouts choose the releases\' lines: 1.8 serves no v1beta1 of the kinds 1.9 added it to, Rollouts 0.5 serves v1beta1', () => {
    const dir = tmp();
    const r = run(['schemas', '--out', 'out', '--openkruise', '1.8', '--rollouts', '0.5.5'], dir);
    expect(r.out).toMatch(/^wrote \d+ schemas \(22 kinds\) of OpenKruise v1\.8\.\d+ and Kruise Rollouts v0\.5\.5 into out, and out\/openkruise\.json\n$/);
    const files = fs.readdirSync(path.join(dir, 'out', 'apps.kruise.io'));
    expect(files).toContain('cloneset_v1alpha1.json');
    expect(files).toContain('statefulset_v1beta1.json');
    expect(files).not.toContain('broadcastjob_v1beta1.json');
    expect(files).toContain('broadcastjob_v1alpha1.json');
    expect(fs.readdirSync(path.join(dir, 'out', 'rollouts.kruise.io'))).toContain('rollout_v1beta1.json');
  });

  test('usage errors name the fix', () => {
    expect(run(['schemas'])).toEqual({ code: 1, out: '', err: 'cdk8s-kruise schemas: give --out DIR, the folder to write the schemas into (cdk8s-kruise schemas --help)\n' });
    const bad = run(['schemas', '--out', tmp(), '--openkruise', '2.0']);
    expect(bad.code).toBe(1);
    expect(bad.err).toBe('cdk8s-kruise schemas: --openkruise: OpenKruise 2.0 is not a line this library models; give one of 1.7 (1.7.0 to 1.7.4), '
      + '1.8 (1.8.0 to 1.8.4) or 1.9 (1.9.0 to 1.9.1) (a line stands for its newest release) (cdk8s-kruise schemas --help)\n');
    expect(run(['schemas', '--out'])).toEqual({ code: 1, out: '', err: 'cdk8s-kruise schemas: Option \'--out <value>\' argument missing (cdk8s-kruise schemas --help)\n' });
    expect(run(['schemas', '--help']).out).toMatch(/^usage: cdk8s-kruise schemas --out DIR \[--openkruise V\] \[--rollouts V\] \[--strict\]\n/);
    expect(run(['--help']).out).toContain('schemas   JSON schemas of a release\'s kinds for kubeconform and editors (the YAML language server) (cdk8s-kruise schemas --help)');
  });

  test('the editor file picks the kind\'s schema by apiVersion and kind, and leaves other documents alone (draft-07, as the YAML language server reads it)', () => {
    const dir = tmp();
    run(['schemas', '--out', dir]);
    const editor = read(path.join(dir, 'openkruise.json'));
    expect(editor.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(editor.allOf).toHaveLength(schemaIndex().length);
    // every branch points at the kind's kubeconform file, as written beside it
    for (const branch of editor.allOf) {
      const { apiVersion, kind } = branch.if.properties;
      const [group, version] = apiVersion.const.split('/');
      const file = path.join(dir, group, `${kind.const.toLowerCase()}_${version}.json`);
      expect({ file, schema: editor.definitions[branch.then.$ref.replace('#/definitions/', '')] }).toEqual({ file, schema: read(file) });
    }
    // compiled whole, the file takes ajv a minute: the branches of the other kinds stand in as `true`
    const cloneSetOnly = { ...editor, definitions: Object.fromEntries(Object.entries(editor.definitions).map(([k, v]) => [k, k === 'apps.kruise.io_v1alpha1_CloneSet' ? v : true])) };
    const validate = new Ajv({ strict: false, allErrors: true, logger: false }).compile(cloneSetOnly);
    const cloneSet = (spec: any) => ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'web' }, spec });
    const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } };
    expect(validate(cloneSet({ replicas: 2, selector: { matchLabels: { app: 'web' } }, template }))).toBe(true);
    expect(validate(cloneSet({ replicas: 'two', selector: { matchLabels: { app: 'web' } }, template }))).toBe(false);
    expect(validate.errors!.map(e => e.instancePath)).toContain('/spec/replicas');
    expect(validate(cloneSet({ selector: { matchLabels: { app: 'web' } }, template, replica: 2 }))).toBe(false);
    expect(validate({ apiVersion: 'apps/v1', kind: 'Deployment', spec: { replicas: 'two' } })).toBe(true);
  });
});

/** The OpenKruise and Kruise Rollouts objects the docs show: their YAML blocks, and the example apps as synthesized. */
function docsExamples(): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const page of docPages()) {
    // a block with `...` in it is a sketch of an object (its elided parts are not YAML values), not an example to apply
    for (const b of fencedBlocks(page).filter(x => x.lang === 'yaml' && !/(^|[\s:{[,])\.\.\.([\s}\],]|$)/m.test(x.code))) {
      parseAllDocuments(b.code).map(d => d.toJSON()).forEach((doc: any, i) => {
        if (doc && KRUISE.test(String(doc.apiVersion)) && doc.kind) out.set(`${page}:${b.line} #${i + 1} ${doc.kind}`, doc);
      });
    }
  }
  for (const name of exampleApps()) {
    for (const m of exampleSynth(name).objects) {
      if (KRUISE.test(String(m.apiVersion))) out.set(`examples/${name} ${m.kind} ${m.metadata?.name}`, m);
    }
  }
  return out;
}

const UPSTREAM_CRDS = [path.join(REFERENCE_DIR, 'kruise-v1.9.0', 'crds'), path.join(REFERENCE_DIR, 'kruise-rollout-v0.6.2', 'crds')];

function describeWithKubeconform(name: string, fn: () => void): void {
  if (kubeconformBinary()) {
    describe(name, fn);
    return;
  }
  describe(name, () => {
    test.skip(`${SKIPPED_GROUP}the Go toolchain (go) is not on PATH to build kubeconform (build-tools/bench-kubeconform.sh)`, () => undefined);
  });
}

describeWithKubeconform('kubeconform v0.7.0 with our schemas', () => {
  test('the docs\' kubeconform command, with the folders the docs write, finds every OpenKruise and Kruise Rollouts object of the docs and the example apps valid, plain and -strict', () => {
    const page = fencedBlocks('docs/checking-yaml.md');
    const block = page.find(b => b.lang === 'sh' && b.code.includes('kubeconform '))!.code.split('\n');
    const writes = block.filter(l => l.startsWith('npx cdk8s-kruise schemas '));
    expect(writes).toEqual(['npx cdk8s-kruise schemas --out .schemas/kruise', 'npx cdk8s-kruise schemas --out .schemas/kruise-strict --strict']);
    const command = block.find(l => l.startsWith('kubeconform '))!;
    const location = /-schema-location default -schema-location '([^']+)'/.exec(command)![1];
    const dir = tmp();
    for (const w of writes) expect(run(w.split(' ').slice(2), dir).code).toBe(0);
    // the editor mapping of the docs names the file the command wrote
    const settings = parseAllDocuments(page.find(b => b.lang === 'yaml' && b.code.includes('yaml.schemas'))!.code)[0].toJSON();
    const [editorFile] = Object.keys(settings['yaml.schemas']);
    expect(fs.existsSync(path.join(dir, editorFile))).toBe(true);
    const docs = docsExamples();
    expect(docs.size).toBeGreaterThan(30);
    for (const strict of [false, true]) {
      const verdicts = judge(path.join(dir, strict ? 'strict' : 'plain'), docs, path.join(dir, location), strict);
      const wrong = [...verdicts].filter(([, v]) => v.status !== 'statusValid').map(([n, v]) => `${n}: ${v.status} ${v.msg}`);
      expect({ strict, wrong }).toEqual({ strict, wrong: [] });
      expect(verdicts.size).toBe(docs.size);
    }
  });

  const upstream = UPSTREAM_CRDS.every(d => fs.existsSync(d));
  const python = hasPyYaml();
  (upstream && python ? test : test.skip)(`${upstream ? (python ? '' : `${SKIPPED_GROUP}python3 with PyYAML is not there to run openapi2jsonschema: `) : `${SKIPPED_GROUP}../shared/reference is not beside the clone: `}`
    + 'our schemas and the upstream CRDs converted by kubeconform\'s openapi2jsonschema agree on every document of the admission corpus, plain and strict', () => {
    const dir = tmp();
    const crds = UPSTREAM_CRDS.flatMap(d => fs.readdirSync(d).filter(f => /\.ya?ml$/.test(f)).map(f => path.join(d, f)));
    const cases = [...admissionCases(), ...rolloutAdmissionCases()].filter(c => KRUISE.test(String(c.manifest.apiVersion)));
    const corpus = new Map<string, unknown>(cases.map(c => [c.id, c.manifest]));
    expect(corpus.size).toBeGreaterThan(400);
    // the upstream CRDs, to read the schema node an error points at
    const upstreamSchemas = new Map<string, any>();
    for (const f of crds) {
      for (const d of parseAllDocuments(fs.readFileSync(f, 'utf8'), { logLevel: 'error' })) {
        const crd: any = d.toJSON();
        for (const v of crd?.spec?.versions ?? []) upstreamSchemas.set(`${crd.spec.group}/${v.name}/${crd.spec.names.kind}`, v.schema.openAPIV3Schema);
      }
    }
    const nodeAt = (schema: any, pointer: string): any => pointer.split('/').slice(1).reduce((n, step) => (n === undefined ? undefined
      : /^\d+$/.test(step) ? n.items : n.properties?.[step] ?? (typeof n.additionalProperties === 'object' ? n.additionalProperties : undefined)), schema);
    /**
     * openapi2jsonschema closes every object that lists properties, also one the CRD keeps open with
     * x-kubernetes-preserve-unknown-fields (a SidecarSet's containers and initContainers: the API server keeps their
     * fields, and the real webhook admits them): upstream's refusal of such fields is the converter's, not the CRD's.
     */
    const converterOnly = (id: string, ours: Verdict, theirs: Verdict): boolean => {
      if (ours.status !== 'statusValid' || theirs.status !== 'statusInvalid') return false;
      const doc = corpus.get(id) as any;
      const schema = upstreamSchemas.get(`${doc.apiVersion}/${doc.kind}`);
      const errors = [...theirs.msg.matchAll(/ - at '([^']*)': ([^-]*?)(?=\s+- at '|$)/g)];
      return errors.length > 0 && errors.every(([, at, what]) => /^additional properties .* not allowed$/.test(what.trim())
        && nodeAt(schema, at)?.['x-kubernetes-preserve-unknown-fields'] === true);
    };
    const tally: string[] = [];
    for (const strict of [false, true]) {
      run(['schemas', '--out', path.join(dir, `ours-${strict}`), ...(strict ? ['--strict'] : [])]);
      const theirs = judge(path.join(dir, `judge-theirs-${strict}`), corpus, convertCrds(crds, path.join(dir, `theirs-${strict}`), strict), strict);
      const ours = judge(path.join(dir, `judge-ours-${strict}`), corpus, kubeconformLocation(path.join(dir, `ours-${strict}`)), strict);
      const short = (v: Verdict) => v.status.replace('status', '');
      const differ = [...corpus.keys()].filter(id => ours.get(id)!.status !== theirs.get(id)!.status);
      const excused = differ.filter(id => converterOnly(id, ours.get(id)!, theirs.get(id)!));
      const disagree = differ.filter(id => !excused.includes(id))
        .map(id => `${id}: ours ${short(ours.get(id)!)} (${ours.get(id)!.msg}), upstream ${short(theirs.get(id)!)} (${theirs.get(id)!.msg})`);
      expect({ strict, disagree }).toEqual({ strict, disagree: [] });
      const invalid = [...ours.values()].filter(v => v.status === 'statusInvalid').length;
      expect(invalid).toBeGreaterThan(20);
      expect(new Set(excused.map(id => (corpus.get(id) as any).kind))).toEqual(new Set(excused.length ? ['SidecarSet'] : []));
      tally.push(`${strict ? 'strict' : 'plain'}: ${corpus.size} documents, ${corpus.size - differ.length} agree (${invalid} invalid by both), `
        + `${excused.length} SidecarSets valid by ours that the converted CRD refuses only in x-kubernetes-preserve-unknown-fields containers`);
    }
    console.log(`kubeconform, ours vs upstream CRDs: ${tally.join('; ')}`);
  });
});
