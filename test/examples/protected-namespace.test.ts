import { Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { build } from '../../examples/protected-namespace/main';

test('the namespace and its Deployment carry the Cascading delete-protection label', () => {
  const out = parseAllDocuments(build(Testing.app()).synthYaml()).map(d => d.toJSON());
  const ns = out.find(o => o.kind === 'Namespace');
  const d = out.find(o => o.kind === 'Deployment');
  expect(ns.metadata).toEqual({ name: 'payments', labels: { 'policy.kruise.io/delete-protection': 'Cascading' } });
  expect(d.metadata.labels).toEqual({ 'policy.kruise.io/delete-protection': 'Cascading' });
  expect(d.metadata.namespace).toBe('payments');
  expect(build(Testing.app()).synthYaml()).toEqual(build(Testing.app()).synthYaml());
});
