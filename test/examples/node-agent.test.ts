import { Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { build } from '../../examples/node-agent/main';

const docs = () => parseAllDocuments(build(Testing.app()).synthYaml()).map(d => d.toJSON());

test('the node agent example rolls an Advanced DaemonSet in place, canary nodes first', () => {
  const [ds] = docs();
  expect(ds.apiVersion).toBe('apps.kruise.io/v1beta1');
  expect(ds.kind).toBe('DaemonSet');
  expect(ds.metadata.name).toBe('log-agent');
  expect(ds.spec.minReadySeconds).toBe(10);
  expect(ds.spec.burstReplicas).toBe(50);
  expect(ds.spec.updateStrategy).toEqual({
    type: 'RollingUpdate',
    rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: '10%', selector: { matchLabels: { 'node-pool': 'canary' } } },
  });
  expect(ds.spec.template.spec.tolerations).toEqual([{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists' }]);
  expect(ds.spec.template.spec.volumes).toEqual([{ name: 'varlog', hostPath: { path: '/var/log', type: '' } }]);
});

test('the node agent example output is deterministic', () => {
  expect(build(Testing.app()).synthYaml()).toEqual(build(Testing.app()).synthYaml());
});
