import { Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { build } from '../../examples/distribute-secret/main';

test('the Secret is embedded in a ResourceDistribution to labelled namespaces, not emitted on its own', () => {
  const out = parseAllDocuments(build(Testing.app()).synthYaml()).map(d => d.toJSON());
  expect(out.map(o => o.kind)).toEqual(['ResourceDistribution']);
  const rd = out[0];
  expect(rd.metadata).toEqual({ name: 'registry-creds' });
  expect(rd.spec.resource.kind).toBe('Secret');
  expect(rd.spec.resource.type).toBe('kubernetes.io/dockerconfigjson');
  expect(rd.spec.resource.metadata).toEqual({ name: 'registry-creds' });
  expect(rd.spec.targets).toEqual({ namespaceLabelSelector: { matchLabels: { 'registry.io/pull': 'enabled' } }, excludedNamespaces: { list: [{ name: 'sandbox' }] } });
  expect(build(Testing.app()).synthYaml()).toEqual(build(Testing.app()).synthYaml());
});
