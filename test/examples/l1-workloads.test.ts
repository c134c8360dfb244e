import { Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { build } from '../../examples/l1-workloads/main';

const docs = () => parseAllDocuments(build(Testing.app()).synthYaml()).map(d => d.toJSON());

test('the L1 example synthesizes a CloneSet and an Advanced StatefulSet', () => {
  const [cs, sts] = docs();
  expect(cs.apiVersion).toBe('apps.kruise.io/v1alpha1');
  expect(cs.kind).toBe('CloneSet');
  expect(cs.metadata.name).toBe('web');
  expect(cs.spec.replicas).toBe(4);
  expect(cs.spec.updateStrategy).toEqual({
    type: 'InPlaceIfPossible',
    partition: '50%',
    maxUnavailable: 1,
    inPlaceUpdateStrategy: { gracePeriodSeconds: 10 },
  });
  expect(cs.spec.scaleStrategy).toEqual({ maxUnavailable: 1 });
  expect(cs.spec.template.spec.readinessGates).toEqual([{ conditionType: 'InPlaceUpdateReady' }]);
  expect(cs.spec.template.spec.containers[0].resources).toEqual({ requests: { cpu: '100m', memory: '128Mi' } });

  expect(sts.apiVersion).toBe('apps.kruise.io/v1beta1');
  expect(sts.kind).toBe('StatefulSet');
  expect(sts.spec.podManagementPolicy).toBe('Parallel');
  expect(sts.spec.serviceName).toBe('db');
  expect(sts.spec.reserveOrdinals).toEqual([1]);
  expect(sts.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: 1 } });
  expect(sts.spec.volumeClaimTemplates[0].spec.resources).toEqual({ requests: { storage: '20Gi' } });
});

test('the L1 example output is deterministic', () => {
  expect(build(Testing.app()).synthYaml()).toEqual(build(Testing.app()).synthYaml());
});
