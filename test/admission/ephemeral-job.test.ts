import { ephemeralJobAdmission as mod } from '../../src/admission/ephemeral-job';
import { asCreated } from '../../src/admission/judge';
import { GATE_DEFAULTS } from '../../src/control-plane/_gates';
import { validateManifest } from '../../src/validation/schemas';
import { cases } from '../fixtures/admission/ephemeral-job';
import { expectCase } from '../util/admission';

const ctx = { gate: (g: string) => GATE_DEFAULTS[g] === true };
const judge = (m: Record<string, any>) => mod.validate(mod.defaults ? mod.defaults(m, ctx) : m, ctx);

describe.each(cases)('$id', c => {
  test('the manifest passes the schema', () => expect(validateManifest(asCreated(c.manifest)).filter(i => !i.missing)).toEqual([]));
  test('the module gives the case verdict, exactly', () => expect(judge(c.manifest)).toEqual(c.allowed ? [] : [c.message]));
  test('every entry path gives the same verdict', () => expectCase(c));
});

test('an empty forbidden field counts as unset, as upstream reads it', () => {
  const m = JSON.parse(JSON.stringify(cases[0].manifest));
  Object.assign(m.spec.template.ephemeralContainers[0], { ports: [], resources: {}, volumeMounts: [{ name: 'd', mountPath: '/d', subPath: '' }] });
  expect(judge(m)).toEqual([]);
});

test('only the ephemeral containers are checked: selector and counts are left alone, as upstream does', () => {
  const m = JSON.parse(JSON.stringify(cases[0].manifest));
  m.spec.selector = {};
  m.spec.replicas = -1;
  m.metadata.name = 'Debug.Web';
  expect(judge(m)).toEqual([]);
});

test('validate never throws on odd but schema-valid objects', () => {
  const odd = [
    { spec: { selector: {}, template: { ephemeralContainers: [] } } },
    { spec: { selector: {}, template: { ephemeralContainers: [{ name: 'a', env: [{}], envFrom: [{}], volumeMounts: [{}], securityContext: {} }] } } },
    { spec: { template: {} } },
    {},
  ];
  for (const o of odd) {
    const m = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'EphemeralJob', ...o };
    expect(() => mod.validate(m, ctx)).not.toThrow();
  }
});
