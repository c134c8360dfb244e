import { Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { build } from '../../examples/spread-and-budget/main';

const docs = () => parseAllDocuments(build(Testing.app()).synthYaml()).map(d => d.toJSON());

test('a CloneSet spread over two zones and spot capacity, with a budget', () => {
  const out = docs();
  const cs = out.find(o => o.kind === 'CloneSet');
  const ws = out.find(o => o.kind === 'WorkloadSpread');
  const pub = out.find(o => o.kind === 'PodUnavailableBudget');
  expect(cs.metadata).toMatchObject({ name: 'checkout', namespace: 'checkout' });
  expect(ws.metadata).toEqual({ name: 'checkout', namespace: 'checkout' });
  expect(ws.spec.targetRef).toEqual({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'checkout' });
  expect(ws.spec.subsets.map((s: any) => [s.name, s.maxReplicas])).toEqual([['zone-a', 4], ['zone-b', 4], ['elastic', undefined]]);
  expect(ws.spec.subsets[2].tolerations).toEqual([{ key: 'node.io/capacity', operator: 'Equal', value: 'spot', effect: 'NoSchedule' }]);
  expect(ws.spec.scheduleStrategy).toEqual({ type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 30 } });
  expect(pub.metadata).toEqual({ name: 'checkout', namespace: 'checkout', annotations: { 'kruise.io/pub-protect-operations': 'DELETE,EVICT,UPDATE' } });
  expect(pub.spec).toEqual({ targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'checkout' }, maxUnavailable: '20%' });
});

test('the output is deterministic', () => {
  expect(build(Testing.app()).synthYaml()).toEqual(build(Testing.app()).synthYaml());
});
