import { asCreated, moduleErrors } from '../../src/admission/judge';
import { podProbeMarkerAdmission as mod } from '../../src/admission/pod-probe-marker';
import { GATE_DEFAULTS } from '../../src/control-plane/_gates';
import { validateManifest } from '../../src/validation/schemas';
import { cases } from '../fixtures/admission/pod-probe-marker';
import { expectCase } from '../util/admission';

const ctx = { gate: (g: string) => GATE_DEFAULTS[g] === true };
const judge = (m: Record<string, any>) => moduleErrors(mod, mod.defaults ? mod.defaults(m, ctx) : m, ctx);

describe.each(cases)('$id', c => {
  test('the manifest passes the schema', () => expect(validateManifest(asCreated(c.manifest)).filter(i => !i.missing)).toEqual([]));
  test('the module gives the case verdict, exactly', () => expect(judge(c.manifest)).toEqual(c.allowed ? [] : [c.message]));
  test('every entry path gives the same verdict', () => expectCase(c));
});

test('every bad probe is reported, not only the first', () => {
  const m = JSON.parse(JSON.stringify(cases[0].manifest));
  m.spec.probes = [{ ...m.spec.probes[0], name: 'Ready' }, { ...m.spec.probes[0], name: 'a#b', podConditionType: 'example.com/b' }];
  expect(judge(m).map(l => l.split(':')[0])).toEqual(['spec.probes[0].name', 'spec.probes[1].name']);
});

test.each([
  ['/healthz', true], ['/a?b=%zz', true], ['/%41', true], ['/a b', true],
  ['/a%zz', false], ['/#frag%', false], [':foo', false], ['/a\u007f', false],
])('the probe path %j parses as upstream parses it: %s', (path, ok) => {
  const m = JSON.parse(JSON.stringify(cases[1].manifest));
  m.spec.probes[0].probe.httpGet.path = path;
  expect(judge(m).length === 0).toBe(ok);
});

test('validate never throws on odd but schema-valid objects', () => {
  const odd = [
    { spec: { selector: { matchLabels: { a: 'b' } }, probes: [{ name: 'p', containerName: 'c', probe: {} }] } },
    { spec: { selector: {}, probes: [{ name: 'p', containerName: 'c', probe: { httpGet: { port: 80 } }, markerPolicy: [{ state: 'Succeeded' }] }] } },
    { spec: { selector: { matchLabels: { a: 'b' } }, probes: [{ name: 'p', containerName: 'c', probe: { tcpSocket: { port: 'x' }, exec: {} } }] } },
    {},
  ];
  for (const o of odd) {
    const m = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'PodProbeMarker', ...o };
    expect(() => mod.validate(m, ctx)).not.toThrow();
    expect(mod.validate(m, ctx).length).toBeGreaterThan(0);
  }
});
