import { Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { ZONES, build } from '../../examples/multi-domain/main';

beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());

const docs = () => parseAllDocuments(build(Testing.app()).synthYaml()).map(d => d.toJSON());

test('the multi-domain example spreads a CloneSet over three zones, rolled out zone by zone', () => {
  const all = docs();
  expect(all.map(d => `${d.apiVersion} ${d.kind} ${d.metadata.name}`)).toEqual([
    'apps.kruise.io/v1alpha1 UnitedDeployment shop',
    'apps.kruise.io/v1alpha1 UnitedDeployment checkout',
  ]);
  const shop = all[0].spec;
  expect(shop.replicas).toBe(6);
  expect(shop.revisionHistoryLimit).toBe(5);
  expect(shop.topology.subsets.map((s: any) => [s.name, s.nodeSelectorTerm.matchExpressions[0].values, s.replicas])).toEqual([
    ['zone-a', ['zone-a'], 2], ['zone-b', ['zone-b'], 2], ['zone-c', ['zone-c'], undefined],
  ]);
  const spot = shop.topology.subsets[2];
  expect(spot.tolerations).toEqual([{ key: 'node.example.com/spot', operator: 'Equal', value: 'true', effect: 'NoSchedule' }]);
  expect(spot.patch).toEqual({ spec: { containers: [{ name: 'shop', env: [{ name: 'CAPACITY', value: 'spot' }] }] } });
  expect(shop.updateStrategy).toEqual({ manualUpdate: { partitions: { 'zone-a': 0, 'zone-b': 2, 'zone-c': 2 } } });
  const cs = shop.template.cloneSetTemplate;
  expect(cs.metadata.labels.app).toBe('shop');
  expect(cs.spec.selector).toEqual(shop.selector);
  expect(cs.spec.updateStrategy).toEqual({ type: 'InPlaceIfPossible', maxUnavailable: 1 });
  expect(cs.spec.replicas).toBeUndefined();
});

test('the checkout UnitedDeployment places Deployments adaptively, with a minimum on on-demand nodes', () => {
  const checkout = docs()[1].spec;
  expect(checkout.replicas).toBe(5);
  expect(checkout.topology.scheduleStrategy).toEqual({ type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 60 } });
  expect(checkout.topology.subsets).toEqual([
    {
      name: 'on-demand',
      nodeSelectorTerm: {
        matchExpressions: [
          { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['zone-a'] },
          { key: 'node.example.com/capacity', operator: 'In', values: ['on-demand'] },
        ],
      },
      minReplicas: 2,
      maxReplicas: 4,
    },
    { name: 'elsewhere', nodeSelectorTerm: { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ZONES }] } },
  ]);
  const d = checkout.template.deploymentTemplate.spec;
  expect(d.strategy.rollingUpdate.maxUnavailable).toBe(1);
  expect(d.replicas).toBeUndefined();
  expect(d.template.metadata.labels.app).toBe('checkout');
});

test('the multi-domain example output is deterministic', () => {
  expect(build(Testing.app()).synthYaml()).toEqual(build(Testing.app()).synthYaml());
});
