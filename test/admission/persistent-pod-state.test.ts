import { asCreated } from '../../src/admission/judge';
import { persistentPodStateAdmission as mod } from '../../src/admission/persistent-pod-state';
import { GATE_DEFAULTS } from '../../src/control-plane/_gates';
import { validateManifest } from '../../src/validation/schemas';
import { cases } from '../fixtures/admission/persistent-pod-state';
import { expectCase } from '../util/admission';

const ctx = { gate: (g: string) => GATE_DEFAULTS[g] === true };
const judge = (m: Record<string, any>) => mod.validate(mod.defaults ? mod.defaults(m, ctx) : m, ctx);

describe.each(cases)('$id', c => {
  test('the manifest passes the schema', () => expect(validateManifest(asCreated(c.manifest)).filter(i => !i.missing)).toEqual([]));
  test('the module gives the case verdict, exactly', () => expect(judge(c.manifest)).toEqual(c.allowed ? [] : [c.message]));
  test('every entry path gives the same verdict', () => expectCase(c));
});

test('an apiVersion without a group, or a group-less StatefulSet, is refused as a target', () => {
  const m = JSON.parse(JSON.stringify(cases[0].manifest));
  m.spec.targetRef.apiVersion = 'v1';
  expect(judge(m)).toEqual([
    'spec.targetRef: {"apiVersion":"v1","kind":"StatefulSet"} is not a StatefulSet; OpenKruise refuses any other target unless the kruise-configuration ConfigMap lists it in PPS_Watch_Custom_Workload_WhiteList; target an Advanced StatefulSet (apps.kruise.io) or a StatefulSet (apps)',
  ]);
});

test('validate never throws on odd but schema-valid objects', () => {
  for (const o of [{ spec: { targetRef: { apiVersion: '', kind: '', name: '' } } }, { spec: { targetRef: {}, requiredPersistentTopology: {} } }, {}]) {
    const m = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'PersistentPodState', ...o };
    expect(() => mod.validate(m, ctx)).not.toThrow();
    expect(mod.validate(m, ctx).length).toBeGreaterThan(0);
  }
});
