import { Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { build } from '../../examples/control-plane/main';

const docs = () => parseAllDocuments(build(Testing.app()).synthYaml()).map(d => d.toJSON());

test('the control-plane example installs OpenKruise v1.9.1 with the chart defaults', () => {
  const all = docs();
  expect(all).toHaveLength(44); // the 43 objects of the chart plus the manager PodDisruptionBudget
  expect(all.filter(m => m.kind === 'CustomResourceDefinition')).toHaveLength(18);
  const ns = all.find(m => m.kind === 'Namespace' && m.metadata.name === 'kruise-system');
  expect(ns.metadata.labels).toEqual({ 'control-plane': 'openkruise', 'policy.kruise.io/delete-protection': 'Cascading' });
  const d = all.find(m => m.kind === 'Deployment');
  expect(d.metadata.name).toBe('kruise-controller-manager');
  expect(d.spec.replicas).toBe(2);
  expect(d.spec.template.spec.containers[0].image).toBe('openkruise/kruise-manager:v1.9.1');
  expect(all.find(m => m.kind === 'DaemonSet').metadata.name).toBe('kruise-daemon');
  expect(all.find(m => m.kind === 'MutatingWebhookConfiguration').webhooks).toHaveLength(12);
  expect(all.find(m => m.kind === 'ValidatingWebhookConfiguration').webhooks).toHaveLength(25);
  expect(JSON.stringify(all)).not.toContain('caBundle');
});

test('the control-plane example output is deterministic', () => {
  expect(build(Testing.app()).synthYaml()).toEqual(build(Testing.app()).synthYaml());
});
