import { imageListPullJobAdmission as mod } from '../../src/admission/image-list-pull-job';
import { asCreated, moduleErrors } from '../../src/admission/judge';
import { GATE_DEFAULTS } from '../../src/control-plane/_gates';
import { validateManifest } from '../../src/validation/schemas';
import { cases } from '../fixtures/admission/image-list-pull-job';
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

test('defaults: completion type and pull policy, but no image pull policy and no finalizer', () => {
  const input = JSON.parse(JSON.stringify(cases[1].manifest));
  input.spec.completionPolicy = {};
  const before = JSON.stringify(input);
  const out = mod.defaults!(input, ctx);
  expect(JSON.stringify(input)).toBe(before);
  expect(out.spec).toMatchObject({ completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 } });
  expect(out.spec.imagePullPolicy).toBeUndefined();
  expect(out.metadata.finalizers).toBeUndefined();
});

test('a short deadline and a percentage parallelism are refused, stricter than upstream: the ImagePullJob of each image copies them and is refused', () => {
  const m = JSON.parse(JSON.stringify(cases[0].manifest));
  m.spec.completionPolicy = { type: 'Always', activeDeadlineSeconds: 10 };
  m.spec.parallelism = '50%';
  expect(judge(m)).toEqual([
    'spec.parallelism: "50%" is a percentage, which ImagePullJobs do not support: the ImageListPullJob webhook admits it, but OpenKruise pulls each image with an ImagePullJob of the same settings, and the ImagePullJob webhook refuses every one; use a number of nodes, e.g. 10',
    'spec.completionPolicy.activeDeadlineSeconds: 10 is less than pullPolicy.timeoutSeconds (600), so the job can time out before one pull does: '
      + 'the ImageListPullJob webhook admits it, but OpenKruise pulls each image with an ImagePullJob of the same settings, and the ImagePullJob webhook refuses every one; '
      + 'use at least 600 seconds, or lower pullPolicy.timeoutSeconds',
  ]);
});

test('every bad image is reported, each under its own index', () => {
  const m = JSON.parse(JSON.stringify(cases[0].manifest));
  m.spec.images = ['Nginx', 'ok:1', 'Nginx'];
  expect(judge(m).map(l => l.split(':')[0])).toEqual(['spec.images[0]', 'spec.images[2]', 'spec.images[2]']);
});

test('validate never throws on odd but schema-valid objects', () => {
  const odd = [
    { spec: { images: [], completionPolicy: {} } },
    { metadata: {}, spec: { images: ['nginx'], completionPolicy: {}, selector: {}, podSelector: { matchExpressions: [] } } },
    { spec: { images: ['nginx'], completionPolicy: { type: 'Never' }, selector: { names: [] } } },
    {},
  ];
  for (const o of odd) {
    const m = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImageListPullJob', ...o };
    expect(() => mod.validate(m, ctx)).not.toThrow();
    expect(() => judge(m)).not.toThrow();
  }
});
