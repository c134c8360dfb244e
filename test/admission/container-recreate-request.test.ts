import { containerRecreateRequestAdmission as mod } from '../../src/admission/container-recreate-request';
import { asCreated } from '../../src/admission/judge';
import { GATE_DEFAULTS } from '../../src/control-plane/_gates';
import { validateManifest } from '../../src/validation/schemas';
import { cases } from '../fixtures/admission/container-recreate-request';
import { expectCase } from '../util/admission';

const ctx = { gate: (g: string) => GATE_DEFAULTS[g] === true };
const judge = (m: Record<string, any>) => mod.validate(mod.defaults ? mod.defaults(m, ctx) : m, ctx);

describe.each(cases)('$id', c => {
  test('the manifest passes the schema', () => expect(validateManifest(asCreated(c.manifest)).filter(i => !i.missing)).toEqual([]));
  test('the module gives the case verdict, exactly', () => expect(judge(c.manifest)).toEqual(c.allowed ? [] : [c.message]));
  test('every entry path gives the same verdict', () => expectCase(c));
});

test('defaults: failure policy Fail and the active label, on a copy', () => {
  const input = JSON.parse(JSON.stringify(cases[1].manifest));
  input.metadata.labels = { team: 'web' };
  const before = JSON.stringify(input);
  const out = mod.defaults!(input, ctx);
  expect(JSON.stringify(input)).toBe(before);
  expect(out.spec.strategy).toEqual({ failurePolicy: 'Fail' });
  expect(out.metadata.labels).toEqual({ 'team': 'web', 'crr.apps.kruise.io/active': 'true' });
  expect(mod.defaults!(cases[0].manifest, ctx).spec.strategy.failurePolicy).toBe('Ignore');
});

test('an empty failure policy is allowed (it means Fail)', () => {
  const m = JSON.parse(JSON.stringify(cases[0].manifest));
  m.spec.strategy.failurePolicy = '';
  expect(mod.validate(m, ctx)).toEqual([]);
});

test('validate never throws on odd but schema-valid objects', () => {
  for (const o of [{ spec: { podName: 'p', containers: [] } }, { metadata: {}, spec: { podName: 'p', containers: [{ name: 'a' }], strategy: {} } }, {}]) {
    const m = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ContainerRecreateRequest', ...o };
    expect(() => mod.validate(m, ctx)).not.toThrow();
    expect(() => judge(m)).not.toThrow();
  }
});
