/**
 * The generated schemas of each older release accept and refuse what that
 * release's own CRDs accept and refuse: upstream's openAPIV3Schema (from the
 * released sources, test/releases/upstream.ts), compiled with ajv, is the
 * oracle. Each case is a valid object of a kind (test/fixtures/kinds.ts) with
 * a field set at a path of either release line (the fields that came or went
 * between the releases among them) to a value of any JSON type.
 *
 * The seed is fixed (KRUISE_PROPERTY_SEED overrides it, KRUISE_PROPERTY_RUNS scales the runs).
 */
import { ValidateFunction } from 'ajv';
import * as fc from 'fast-check';
import { CrdSource, crdFiles, describeWithSource, kruiseCrds, readCrd, rollouts05Crds } from './upstream';
import { crdFileName } from '../../src/api';
import { kindsOfLine } from '../../src/releases/model';
import { Product, parseRelease } from '../../src/releases/registry';
import { TargetRelease } from '../../src/releases/target';
import { servedVersions, validateManifest } from '../../src/validation/schemas';
import { kindFixtures, rolloutKindFixtures } from '../fixtures/kinds';
import { crdAjv, toJsonSchema } from '../util/crd-schema';

const SEED = Number(process.env.KRUISE_PROPERTY_SEED ?? 340_180);
const SCALE = Number(process.env.KRUISE_PROPERTY_RUNS ?? 1);

/** Every path of a schema down to the leaves (`a.b`, `a[]`), with `status` left out. */
function paths(s: any, at = '', out: string[] = []): string[] {
  if (!s || typeof s !== 'object') return out;
  if (at !== '' && !at.startsWith('status')) out.push(at);
  for (const [k, v] of Object.entries<any>(s.properties ?? {})) paths(v, at === '' ? k : `${at}.${k}`, out);
  if (s.items) paths(s.items, `${at}[]`, out);
  return out;
}

/** `m` with the field at `path` set to `value` (lists and objects on the way made as needed, a list's first item). */
function withField(m: any, path: string, value: unknown): any {
  const copy = JSON.parse(JSON.stringify(m));
  const steps = path.split('.');
  let node: any = copy;
  steps.forEach((seg, i) => {
    const list = seg.endsWith('[]');
    const name = list ? seg.slice(0, -2) : seg;
    const last = i === steps.length - 1;
    if (list) {
      if (!Array.isArray(node[name])) node[name] = [{}];
      if (last) {
        node[name][0] = value;
        return;
      }
      if (node[name][0] === null || typeof node[name][0] !== 'object' || Array.isArray(node[name][0])) node[name][0] = {};
      node = node[name][0];
    } else if (last) {
      node[name] = value;
    } else {
      if (node[name] === null || typeof node[name] !== 'object' || Array.isArray(node[name])) node[name] = {};
      node = node[name];
    }
  });
  return copy;
}

const VALUES = fc.oneof(
  fc.integer({ min: -3, max: 300 }), fc.constantFrom('10%', '1-3', 'abc', '', 'Always', 'Partial'), fc.boolean(),
  fc.constant({}), fc.constant([]), fc.constant({ name: 'x' }),
);

function agreement(product: Product, line: string, newer: string, title: string, source: () => CrdSource) {
  describeWithSource(`the ${title} schemas judge as that release's CRDs`, source, dir => {
    test('generated cases: the same verdict as upstream\'s schema', () => {
      const target: TargetRelease = { release: parseRelease(product, line, 'test'), declared: 'the test', isDeclared: true };
      const ajv = crdAjv();
      const upstream = new Map<string, ValidateFunction>();
      const fieldPaths = new Map<string, string[]>();
      for (const f of crdFiles(dir())) {
        const crd = readCrd(dir(), f);
        const newerKind = kindsOfLine(product, newer).find(k => crdFileName(k) === f);
        for (const v of crd.spec.versions) {
          const schema = toJsonSchema(v.schema.openAPIV3Schema);
          schema.properties = { ...schema.properties, apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' } };
          const key = `${crd.spec.group}/${v.name}/${crd.spec.names.kind}`;
          upstream.set(key, ajv.compile(schema));
          // the paths of this release and of the newer line: the fields that differ are among them
          const newerVersion = newerKind?.versions.find(x => x.name === v.name) ?? newerKind?.versions.find(x => x.storage);
          const newerPaths = paths(newerVersion ? { properties: { spec: newerVersion.spec } } : undefined);
          fieldPaths.set(key, [...new Set([...paths(v.schema.openAPIV3Schema), ...newerPaths])]);
        }
      }
      const versionsOf = (group: string, kind: string) => servedVersions(group, kind, target);
      const fixtures = (product === 'rollouts' ? rolloutKindFixtures : kindFixtures)(versionsOf);
      expect(fixtures.length).toBeGreaterThan(3);
      const cases = fc.oneof(...fixtures.map(fx => {
        const key = `${fx.apiVersion}/${fx.kind}`;
        const at = fieldPaths.get(key)!.filter(p => p.startsWith('spec.'));
        return fc.record({ fx: fc.constant(fx), path: fc.constantFrom(...at), value: VALUES });
      }));
      let refused = 0;
      fc.assert(fc.property(cases, ({ fx, path, value }) => {
        const m = withField(fx.valid, path, value);
        const oracle = upstream.get(`${fx.apiVersion}/${fx.kind}`)!(m);
        const ours = validateManifest(m, target).length === 0;
        if (!oracle) refused++;
        if (ours !== oracle) throw new Error(`${fx.kind} ${fx.apiVersion} ${path} = ${JSON.stringify(value)}: ours ${ours ? 'accepts' : 'refuses'}, upstream's schema ${oracle ? 'accepts' : 'refuses'}`);
      }), { seed: SEED, numRuns: Math.max(1, Math.round(400 * SCALE)), endOnFailure: true });
      // the cases reach both verdicts
      expect(refused).toBeGreaterThan(0);
    });
  });
}

agreement('openkruise', '1.8', '1.9', 'OpenKruise 1.8', () => kruiseCrds('1.8.4'));
agreement('openkruise', '1.7', '1.8', 'OpenKruise 1.7', () => kruiseCrds('1.7.4'));
agreement('rollouts', '0.5', '0.6', 'Kruise Rollouts 0.5', rollouts05Crds);
