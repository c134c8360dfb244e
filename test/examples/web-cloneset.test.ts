import { Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { WebChart, build } from '../../examples/web-cloneset/main';

beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());

const docs = () => parseAllDocuments(build(Testing.app()).synthYaml()).map(d => d.toJSON());

test('the web example runs a partitioned in-place rollout behind a Service', () => {
  const all = docs();
  const cs = all.find(d => d.kind === 'CloneSet');
  const svc = all.find(d => d.kind === 'Service');
  expect(cs.apiVersion).toBe('apps.kruise.io/v1alpha1');
  expect(cs.metadata.name).toBe('web');
  expect(cs.spec.replicas).toBe(6);
  expect(cs.spec.minReadySeconds).toBe(5);
  expect(cs.spec.updateStrategy).toEqual({ type: 'InPlaceIfPossible', partition: '50%', maxUnavailable: 1, inPlaceUpdateStrategy: { gracePeriodSeconds: 10 } });
  expect(cs.spec.scaleStrategy).toEqual({ maxUnavailable: 2 });
  expect(cs.spec.template.metadata.labels.app).toBe('web');
  expect(cs.spec.template.spec.containers[0].resources).toEqual({ requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '500m', memory: '256Mi' } });
  expect(svc.metadata.name).toBe('web');
  expect(svc.spec.ports).toEqual([{ port: 80, targetPort: 8080 }]);
  expect(svc.spec.selector).toEqual(cs.spec.selector.matchLabels);
});

test('the web example output is deterministic', () => {
  expect(build(Testing.app()).synthYaml()).toEqual(build(Testing.app()).synthYaml());
});

test('a first synth warns about nothing; the day-2 podsToDelete of the running CloneSet is written once asked for', () => {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  warn.mockClear();
  build(Testing.app()).synthYaml();
  expect(warn).not.toHaveBeenCalled();
  const app = Testing.app();
  new WebChart(app, 'web-cloneset', { podsToDelete: ['web-7xk2p'] });
  const cs = parseAllDocuments(app.synthYaml()).map(d => d.toJSON()).find(d => d.kind === 'CloneSet');
  expect(cs.spec.scaleStrategy).toEqual({ maxUnavailable: 2, podsToDelete: ['web-7xk2p'] });
});
