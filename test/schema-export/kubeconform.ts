/**
 * kubeconform v0.7.0 (build-tools/bench-kubeconform.sh builds it from the Go
 * module proxy; the prebuild builds it early) and its own schema converter,
 * the openapi2jsonschema script of its module (scripts/openapi2jsonschema.py,
 * run with python3 and PyYAML), for the tests that judge our schemas by it.
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments, stringify } from 'yaml';

const ROOT = path.resolve(__dirname, '..', '..');
const BUILD = path.join(ROOT, 'build-tools', 'bench-kubeconform.sh');
export const KUBECONFORM_VERSION = 'v0.7.0';

let binary: string | undefined | null = null;

/** kubeconform's binary, built on first use when the Go toolchain is there; undefined without it. */
export function kubeconformBinary(): string | undefined {
  if (binary !== null) return binary;
  if (spawnSync('go', ['version']).status !== 0) return (binary = undefined);
  const r = spawnSync('bash', [BUILD], { encoding: 'utf8', timeout: 1_800_000 });
  if (r.status !== 0) throw new Error(`building kubeconform failed:\n${r.stderr}`);
  return (binary = r.stdout.trim());
}

/** kubeconform's module folder (the Go module cache), where its openapi2jsonschema script is. */
export function openapi2jsonschemaScript(): string {
  const dir = execFileSync('go', ['mod', 'download', '-json', `github.com/yannh/kubeconform@${KUBECONFORM_VERSION}`], { cwd: ROOT, encoding: 'utf8' });
  return path.join(JSON.parse(dir).Dir, 'scripts', 'openapi2jsonschema.py');
}

/** Whether python3 with PyYAML (the script's one requirement) is there. */
export function hasPyYaml(): boolean {
  return spawnSync('python3', ['-c', 'import yaml'], { encoding: 'utf8' }).status === 0;
}

/**
 * The upstream CRD files converted by openapi2jsonschema into `dir` in
 * kubeconform's layout (`{group}/{kind}_{version}.json`); with `denyRoot`, as
 * its DENY_ROOT_ADDITIONAL_PROPERTIES asks. Returns the `-schema-location` of them.
 */
export function convertCrds(crdFiles: readonly string[], dir: string, denyRoot: boolean): string {
  const work = path.join(dir, '.work');
  fs.mkdirSync(work, { recursive: true });
  // the Kruise Rollouts CRDs of the chart hold a Helm expression as a key of their conversion webhook, which
  // PyYAML refuses: the CRDs go to the script without spec.conversion (their schemas as they are)
  const plain = path.join(dir, '.crds');
  fs.mkdirSync(plain, { recursive: true });
  const inputs = crdFiles.map((f, i) => {
    const docs = parseAllDocuments(fs.readFileSync(f, 'utf8'), { logLevel: 'error' }).map(d => d.toJSON()).filter(Boolean);
    for (const d of docs) if (d.spec) delete d.spec.conversion;
    const out = path.join(plain, `${i}-${path.basename(f)}`);
    fs.writeFileSync(out, docs.map(d => stringify(d, { lineWidth: 0 })).join('---\n'));
    return out;
  });
  // the script writes <FILENAME_FORMAT>.json into its working folder; the group goes in the name, then becomes a folder
  const r = spawnSync('python3', [openapi2jsonschemaScript(), ...inputs], {
    cwd: work,
    encoding: 'utf8',
    env: { ...process.env, FILENAME_FORMAT: '{fullgroup}@{kind}_{version}', ...(denyRoot ? { DENY_ROOT_ADDITIONAL_PROPERTIES: '1' } : {}) },
  });
  if (r.status !== 0) throw new Error(`openapi2jsonschema failed: ${r.stderr}`);
  for (const f of fs.readdirSync(work)) {
    const [group, file] = f.split('@');
    fs.mkdirSync(path.join(dir, group), { recursive: true });
    fs.renameSync(path.join(work, f), path.join(dir, group, file));
  }
  fs.rmSync(work, { recursive: true });
  fs.rmSync(plain, { recursive: true });
  return kubeconformLocation(dir);
}

/** The `-schema-location` of a folder in kubeconform's layout. */
export function kubeconformLocation(dir: string): string {
  return path.join(dir, '{{.Group}}', '{{.ResourceKind}}_{{.ResourceAPIVersion}}.json');
}

/** kubeconform's verdict on one document. */
export interface Verdict {
  readonly filename: string;
  readonly status: 'statusValid' | 'statusInvalid' | 'statusError' | 'statusSkipped' | 'statusEmpty';
  readonly msg: string;
}

/** One file per document in `dir` (named by `names`), judged by kubeconform with `location` (and `-strict`). */
export function judge(dir: string, documents: ReadonlyMap<string, unknown>, location: string, strict: boolean): Map<string, Verdict> {
  const docs = path.join(dir, 'documents');
  fs.mkdirSync(docs, { recursive: true });
  const files = new Map<string, string>();
  let i = 0;
  for (const [name, doc] of documents) {
    const file = path.join(docs, `${String(i++).padStart(4, '0')}.yaml`);
    fs.writeFileSync(file, stringify(doc, { lineWidth: 0 }));
    files.set(file, name);
  }
  const args = ['-output', 'json', '-verbose', '-schema-location', location, ...(strict ? ['-strict'] : []), docs];
  const r = spawnSync(kubeconformBinary()!, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`kubeconform failed (${r.status}): ${r.stderr}`);
  const out = JSON.parse(r.stdout) as { resources: Verdict[] };
  const verdicts = new Map<string, Verdict>();
  for (const v of out.resources) verdicts.set(files.get(v.filename)!, v);
  return verdicts;
}
