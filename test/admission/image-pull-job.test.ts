import { imagePullJobAdmission as mod, imageReferenceProblems } from '../../src/admission/image-pull-job';
import { asCreated, moduleErrors } from '../../src/admission/judge';
import { GATE_DEFAULTS } from '../../src/control-plane/_gates';
import { validateManifest } from '../../src/validation/schemas';
import { cases } from '../fixtures/admission/image-pull-job';
import { expectCase } from '../util/admission';

const ctx = { gate: (g: string) => GATE_DEFAULTS[g] === true };
const judge = (m: Record<string, any>) => moduleErrors(mod, mod.defaults!(m, ctx), ctx);

describe.each(cases)('$id', c => {
  test('the manifest passes the schema', () => expect(validateManifest(asCreated(c.manifest)).filter(i => !i.missing)).toEqual([]));
  test('the module gives the case verdict, exactly', () => expect(judge(c.manifest)).toEqual(c.allowed ? [] : [c.message]));
  test('every entry path gives the same verdict', () => expectCase(c));
});

test('the cases cover both served versions, allowed and denied', () => {
  for (const v of mod.versions) {
    expect(cases.some(c => c.allowed && c.manifest.apiVersion === `apps.kruise.io/${v}`)).toBe(true);
    expect(cases.some(c => !c.allowed && c.manifest.apiVersion === `apps.kruise.io/${v}`)).toBe(true);
  }
});

test('defaults: pull policy, completion type, image pull policy; the finalizer only in v1alpha1', () => {
  const beta = JSON.parse(JSON.stringify(cases[0].manifest));
  delete beta.spec.completionPolicy.type;
  const before = JSON.stringify(beta);
  const out = mod.defaults!(beta, ctx);
  expect(JSON.stringify(beta)).toBe(before);
  expect(out.spec).toMatchObject({ completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 }, imagePullPolicy: 'IfNotPresent' });
  expect(out.metadata.finalizers).toBeUndefined();
  const alpha = mod.defaults!({ ...cases[1].manifest, metadata: { name: 'x', finalizers: ['example.com/keep'] } }, ctx);
  expect(alpha.metadata.finalizers).toEqual(['example.com/keep', 'apps.kruise.io/deletion-protection']);
  expect(mod.defaults!(alpha, ctx).metadata.finalizers).toHaveLength(2);
});

test('activeDeadlineSeconds is compared with the timeout the user set, and may equal it', () => {
  const m = JSON.parse(JSON.stringify(cases[0].manifest));
  m.spec.pullPolicy = { timeoutSeconds: 120 };
  m.spec.completionPolicy = { type: 'Always', activeDeadlineSeconds: 120 };
  expect(judge(m)).toEqual([]);
  m.spec.completionPolicy.activeDeadlineSeconds = 100;
  expect(judge(m)).toEqual([
    'spec.completionPolicy.activeDeadlineSeconds: 100 is less than pullPolicy.timeoutSeconds (120), so the job can time out before one pull does; use at least 120 seconds, or lower pullPolicy.timeoutSeconds',
  ]);
});

test('parallelism strings are read as base-10 32-bit integers', () => {
  const at = (p: unknown) => judge({ ...cases[0].manifest, spec: { ...cases[0].manifest.spec, parallelism: p } });
  expect(at('+7')).toEqual([]);
  expect(at('0')).toEqual([]);
  expect(at('2147483647')).toEqual([]);
  expect(at('2147483648')).toEqual(['spec.parallelism: "2147483648" is not a 32-bit integer; use a number of nodes, e.g. 10']);
  expect(at('-1')).toEqual(['spec.parallelism: "-1" is negative; use 0 or more nodes pulling at the same time']);
  expect(at('0x10')).toEqual(['spec.parallelism: "0x10" is not a 32-bit integer; use a number of nodes, e.g. 10']);
});

test.each([
  ['nginx', []],
  ['localhost:5000/app:v1', []],
  ['index.docker.io/library/nginx:1', []],
  ['my-registry.io/a__b/c-d/e.f:1.0_rc-1', []],
  [`app@sha512:${'0'.repeat(128)}`, []],
  ['Registry.example.com/app', []],
  ['my_registry/app', []],
  ['foo/Bar', ['has uppercase letters in its repository name, which must be lowercase']],
  ['a___b', ['is not a valid image reference']],
  ['-nginx', ['is not a valid image reference']],
  [' nginx', ['is not a valid image reference']],
  [`app@md5:${'0'.repeat(32)}`, ['has a digest of the unsupported algorithm "md5"']],
  [`app@sha256:${'0'.repeat(63)}`, ['has a sha256 digest of 63 hex digits instead of 64']],
  [`app@sha256:${'A'.repeat(64)}`, ['has a digest with uppercase hex digits']],
  [`app:${'x'.repeat(129)}`, ['is not a valid image reference']],
  [`${'a'.repeat(250)}/b`, ['has a name of 262 characters (with its registry), more than 255']],
])('image reference %j', (ref, problems) => expect(imageReferenceProblems(ref)).toEqual(problems));

test('a long reference with a bad character is judged quickly (no backtracking blow-up)', () => {
  const start = Date.now();
  expect(imageReferenceProblems(`${'a-'.repeat(2000)}!`)).toEqual(['is not a valid image reference']);
  expect(Date.now() - start).toBeLessThan(500);
});

test('validate never throws on odd but schema-valid objects', () => {
  const odd = [
    { spec: { image: 'nginx', completionPolicy: {} } },
    { metadata: {}, spec: { image: 'nginx', completionPolicy: {}, selector: {}, pullPolicy: {} } },
    { spec: { image: 'nginx', completionPolicy: { type: 'Always', activeDeadlineSeconds: 1 }, selector: { names: [] }, podSelector: {} } },
    {},
  ];
  for (const o of odd) {
    const m = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImagePullJob', ...o };
    expect(() => mod.validate(m, ctx)).not.toThrow();
    expect(() => judge(m)).not.toThrow();
  }
});
