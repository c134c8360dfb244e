import { Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { build } from '../../examples/web-cloneset/main';

beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());

const docs = () => parseAllDocuments(build(Testing.app()).synthYaml()).map(d => d.toJSON());

test('the web example runs a partitioned in-place rollout with targeted scale-in behind a Service', () => {
  const all = docs();
  const cs = all.find(d => d.kind === 'CloneSet');
  const svc = all.find(d => d.kind === 'Service');
  expect(cs.apiVersion).toBe('apps.kruise.io/v1alpha1');
  expect(cs.metadata.name).toBe('web');
  expect(cs.spec.replicas).toBe(6);
  expect(cs.spec.minReadySeconds).toBe(5);
  expect(cs.spec.updateStrategy).toEqual({ type: 'InPlaceIfPossible', partition: '50%', maxUnavailable: 1, inPlaceUpdateStrategy: { gracePeriodSeconds: 10 } });
  expect(cs.spec.scaleStrategy).toEqual({ maxUnavailable: 2, podsToDelete: ['web-7xk2p'] });
  expect(cs.spec.template.metadata.labels.app).toBe('web');
  expect(cs.spec.template.spec.containers[0].resources).toEqual({ requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '500m', memory: '256Mi' } });
  expect(svc.metadata.name).toBe('web');
  expect(svc.spec.ports).toEqual([{ port: 80, targetPort: 8080 }]);
  expect(svc.spec.selector).toEqual(cs.spec.selector.matchLabels);
});

test('the web example output is deterministic', () => {
  expect(build(Testing.app()).synthYaml()).toEqual(build(Testing.app()).synthYaml());
});
