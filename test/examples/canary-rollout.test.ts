import { Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { build } from '../../examples/canary-rollout/main';

beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());

const docs = () => parseAllDocuments(build(Testing.app()).synthYaml()).map(d => d.toJSON());

test('the canary example: a CloneSet, its Service and Ingress, and a Rollout of three canary steps through the Ingress', () => {
  const all = docs();
  expect(all.map(d => `${d.kind} ${d.metadata.name}`).sort()).toEqual(['CloneSet web', 'Ingress web', 'Rollout web', 'Service web']);
  const cs = all.find(d => d.kind === 'CloneSet');
  const svc = all.find(d => d.kind === 'Service');
  const ing = all.find(d => d.kind === 'Ingress');
  const ro = all.find(d => d.kind === 'Rollout');
  for (const d of all) expect(d.metadata.namespace).toBe('storefront');
  expect(cs.metadata.labels).toEqual({ 'rollouts.kruise.io/workload-type': 'cloneset' });
  expect(cs.spec.replicas).toBe(4);
  expect(cs.spec.updateStrategy).toEqual({ type: 'InPlaceIfPossible', inPlaceUpdateStrategy: { gracePeriodSeconds: 10 } });
  expect(svc.spec.ports).toEqual([{ port: 80, targetPort: 8080 }]);
  expect(svc.spec.selector).toEqual(cs.spec.selector.matchLabels);
  expect(ing.spec.rules).toEqual([{ host: 'web.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }] } }]);
  expect(ro).toEqual({
    apiVersion: 'rollouts.kruise.io/v1beta1',
    kind: 'Rollout',
    metadata: { name: 'web', namespace: 'storefront' },
    spec: {
      workloadRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web' },
      strategy: {
        canary: {
          steps: [
            { replicas: 1, traffic: '20%', pause: {} },
            { replicas: '50%', traffic: '50%', pause: { duration: 600 } },
            { replicas: '100%' },
          ],
          trafficRoutings: [{ service: 'web', ingress: { name: 'web' } }],
        },
      },
    },
  });
});

test('the canary example output is deterministic', () => {
  expect(build(Testing.app()).synthYaml()).toEqual(build(Testing.app()).synthYaml());
});
