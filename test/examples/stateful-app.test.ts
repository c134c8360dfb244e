import { Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { build } from '../../examples/stateful-app/main';

beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());

const docs = () => parseAllDocuments(build(Testing.app()).synthYaml()).map(d => d.toJSON());

test('the stateful example runs a parallel, in-place updated Advanced StatefulSet with a claim template', () => {
  const all = docs();
  const sts = all.find(d => d.kind === 'StatefulSet');
  const svc = all.find(d => d.kind === 'Service');
  expect(sts.apiVersion).toBe('apps.kruise.io/v1beta1');
  expect(sts.spec.replicas).toBe(3);
  expect(sts.spec.podManagementPolicy).toBe('Parallel');
  expect(sts.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: 2 } });
  expect(sts.spec.template.spec.readinessGates).toEqual([{ conditionType: 'InPlaceUpdateReady' }]);
  expect(sts.spec.persistentVolumeClaimRetentionPolicy).toEqual({ whenScaled: 'Delete' });
  expect(sts.spec.volumeClaimTemplates).toEqual([{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '20Gi' } } } }]);
  expect(sts.spec.template.spec.containers[0].volumeMounts).toEqual([{ name: 'data', mountPath: '/var/lib/postgresql/data' }]);
  expect(sts.spec.template.spec.volumes).toBeUndefined();
  expect(svc.spec.clusterIP).toBe('None');
  expect(sts.spec.serviceName).toBe(svc.metadata.name);
  expect(svc.spec.ports).toEqual([{ port: 5432, targetPort: 5432 }]);
});

test('the stateful example output is deterministic', () => {
  expect(build(Testing.app()).synthYaml()).toEqual(build(Testing.app()).synthYaml());
});
