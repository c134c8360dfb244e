import { ApiObject, Chart, JsonPatch, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { DistributedResource, ResourceDistribution } from '../src';
import { manifestWarnings } from '../src/admission/judge';
import { resourceDistributionErrors } from '../src/admission/resource-distribution';
import { _registerGateSource } from '../src/validation/gates';

const find = (chart: Chart) => Testing.synth(chart).find(o => o.kind === 'ResourceDistribution');

test('distributes a Secret to labelled namespaces: the Secret moves into the distribution, without namespace', () => {
  const app = Testing.app();
  const chart = new Chart(app, 'platform', { namespace: 'platform' });
  const secret = new kplus.Secret(chart, 'creds', { metadata: { name: 'registry-creds' }, stringData: { token: 's3cr3t' } });
  const rd = new ResourceDistribution(chart, 'rd', {
    metadata: { name: 'registry-creds' },
    resource: DistributedResource.fromSecret(secret),
    namespaceLabelSelector: kplus.LabelSelector.of({ labels: { 'registry.io/pull': 'enabled' } }),
    excludedNamespaces: ['legacy'],
  });
  const out = Testing.synth(chart);
  expect(out.map(o => o.kind)).toEqual(['ResourceDistribution']);
  const m = out[0];
  expect(m.apiVersion).toBe('apps.kruise.io/v1alpha1');
  expect(m.metadata).toEqual({ name: 'registry-creds' });
  expect(m.spec.resource).toEqual({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'registry-creds' }, immutable: false, stringData: { token: 's3cr3t' } });
  expect(m.spec.targets).toEqual({ namespaceLabelSelector: { matchLabels: { 'registry.io/pull': 'enabled' } }, excludedNamespaces: { list: [{ name: 'legacy' }] } });
  expect(rd.resource.apiObject.kind).toBe('Secret');
});

test('distributes a ConfigMap to all namespaces or a list, and a raw ApiObject', () => {
  const chart = Testing.chart();
  const cm = new kplus.ConfigMap(chart, 'cm', { metadata: { name: 'settings' }, data: { 'app.yaml': 'x: 1' } });
  new ResourceDistribution(chart, 'all', { metadata: { name: 'all' }, resource: DistributedResource.fromConfigMap(cm), allNamespaces: true });
  const raw = new ApiObject(chart, 'raw', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'raw' }, data: { a: 'b' } } as any);
  new ResourceDistribution(chart, 'list', { metadata: { name: 'list' }, resource: DistributedResource.fromApiObject(raw), includedNamespaces: ['a', 'b'] });
  const [all, list] = Testing.synth(chart);
  expect(all.spec).toEqual({ resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, immutable: false, data: { 'app.yaml': 'x: 1' } }, targets: { allNamespaces: true } });
  expect(list.spec).toEqual({ resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'raw' }, data: { a: 'b' } }, targets: { includedNamespaces: { list: [{ name: 'a' }, { name: 'b' }] } } });
});

test('fails on a kind OpenKruise does not distribute, bad names and data keys (rules 2, 5, 7)', () => {
  const chart = Testing.chart();
  const sa = new kplus.ServiceAccount(chart, 'sa', { metadata: { name: 'Bad_Name' } });
  new ResourceDistribution(chart, 'rd', { metadata: { name: 'RD' }, resource: DistributedResource.fromApiObject(ApiObject.of(sa)), allNamespaces: true });
  const raw = new ApiObject(chart, 'raw', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ok' }, data: { 'bad key': 'x' } } as any);
  new ResourceDistribution(chart, 'keys', { metadata: { name: 'keys' }, resource: DistributedResource.fromApiObject(raw), allNamespaces: true });
  const err = () => Testing.synth(chart);
  expect(err).toThrow('[test/rd] ResourceDistribution "RD" (apps.kruise.io/v1alpha1) metadata.name: "RD" must consist of lowercase letters');
  expect(err).toThrow('[test/rd] ResourceDistribution "RD" (apps.kruise.io/v1alpha1) spec.resource: "v1/ServiceAccount" is not a kind OpenKruise distributes; distribute a v1 Secret or ConfigMap');
  expect(err).toThrow('[test/rd] ResourceDistribution "RD" (apps.kruise.io/v1alpha1) spec.resource.metadata.name: "Bad_Name" must consist of lowercase letters');
  expect(err).toThrow('[test/keys] ResourceDistribution "keys" (apps.kruise.io/v1alpha1) spec.resource.data["bad key"]: "bad key" is not a valid data key');
});

test('fails on an empty resource or one without kind (rules 3-4)', () => {
  const chart = Testing.chart();
  const cm = new kplus.ConfigMap(chart, 'cm', { metadata: { name: 'c' } });
  new ResourceDistribution(chart, 'a', { metadata: { name: 'a' }, resource: DistributedResource.fromConfigMap(cm), allNamespaces: true }).apiObject.addJsonPatch(JsonPatch.replace('/spec/resource', {}));
  const cm2 = new kplus.ConfigMap(chart, 'cm2', { metadata: { name: 'd' } });
  new ResourceDistribution(chart, 'b', { metadata: { name: 'b' }, resource: DistributedResource.fromConfigMap(cm2), allNamespaces: true }).apiObject.addJsonPatch(JsonPatch.remove('/spec/resource/kind'));
  // the schema refuses both before any rule (as the API server does); the rules are tested directly
  const err = () => Testing.synth(chart);
  expect(err).toThrow('[test/a] ResourceDistribution "a" (apps.kruise.io/v1alpha1) spec.resource: {} is not a whole Kubernetes object; give it an apiVersion and a kind');
  expect(err).toThrow('[test/b] ResourceDistribution "b" (apps.kruise.io/v1alpha1) spec.resource: {"apiVersion":"v1","immutable":false,"metadata":{"name":"d"}} is not a whole Kubernetes object; give it an apiVersion and a kind');
  expect(resourceDistributionErrors({ metadata: { name: 'a' }, spec: { resource: {}, targets: { allNamespaces: true } } }))
    .toEqual(['spec.resource: {} is empty; give a Secret or ConfigMap']);
  expect(resourceDistributionErrors({ metadata: { name: 'b' }, spec: { resource: { apiVersion: 'v1' }, targets: { allNamespaces: true } } }))
    .toEqual(['spec.resource.kind: (unset) is missing; give a Secret or ConfigMap']);
});

test('fails on bad namespace names, a namespace both included and excluded, a bad selector, or no target (rules 8-11)', () => {
  const chart = Testing.chart();
  const cm = (id: string) => DistributedResource.fromConfigMap(new kplus.ConfigMap(chart, id, { metadata: { name: id } }));
  new ResourceDistribution(chart, 'a', { metadata: { name: 'a' }, resource: cm('c1'), includedNamespaces: ['Shop', 'web'], excludedNamespaces: ['web', ''] });
  new ResourceDistribution(chart, 'b', { metadata: { name: 'b' }, resource: cm('c2'), namespaceLabelSelector: kplus.LabelSelector.of({ labels: { 'bad key': 'x' } }) });
  new ResourceDistribution(chart, 'c', { metadata: { name: 'c' }, resource: cm('c3') });
  const err = () => Testing.synth(chart);
  expect(err).toThrow('[test/a] ResourceDistribution "a" (apps.kruise.io/v1alpha1) spec.targets.includedNamespaces.list[0].name: "Shop" must consist of lowercase letters');
  expect(err).toThrow('[test/a] ResourceDistribution "a" (apps.kruise.io/v1alpha1) spec.targets.excludedNamespaces.list[1].name: "" must consist of lowercase letters');
  expect(err).toThrow('[test/a] ResourceDistribution "a" (apps.kruise.io/v1alpha1) spec.targets.excludedNamespaces: "web" is also an included namespace; list the namespace in one list only');
  expect(err).toThrow('[test/b] ResourceDistribution "b" (apps.kruise.io/v1alpha1) spec.targets.namespaceLabelSelector.matchLabels["bad key"]: "bad key" key name part must consist');
  expect(err).toThrow('[test/c] ResourceDistribution "c" (apps.kruise.io/v1alpha1) spec.targets: {} selects no namespace: OpenKruise admits it, but the resource is then copied nowhere; set allNamespaces, includedNamespaces or namespaceLabelSelector');
});

test('fails when ResourceDistributionGate is off in the app\'s control plane (rule 1)', () => {
  const chart = Testing.chart();
  _registerGateSource(chart, { path: 'test/kruise', isEnabled: () => false, howToEnable: g => `set featureGates ${g}=true` });
  new ResourceDistribution(chart, 'rd', { metadata: { name: 'rd' }, resource: DistributedResource.fromConfigMap(new kplus.ConfigMap(chart, 'cm', { metadata: { name: 'c' } })), allNamespaces: true });
  expect(() => Testing.synth(chart)).toThrow("[test/rd] ResourceDistribution \"rd\" (apps.kruise.io/v1alpha1) kind: \"ResourceDistribution\" needs the OpenKruise feature gate ResourceDistributionGate, which is off in the control plane at 'test/kruise' (the webhook refuses every ResourceDistribution then); set featureGates ResourceDistributionGate=true");
});

test('the output is deterministic and cluster-scoped', () => {
  const build = () => {
    const app = Testing.app();
    const chart = new Chart(app, 'c', { namespace: 'x' });
    new ResourceDistribution(chart, 'rd', { metadata: { name: 'rd' }, resource: DistributedResource.fromConfigMap(new kplus.ConfigMap(chart, 'cm', { metadata: { name: 'c' } })), allNamespaces: true });
    return find(chart);
  };
  expect(build()).toEqual(build());
  expect(build().metadata.namespace).toBeUndefined();
});

test('a namespace in the wire form of the cluster-scoped object is accepted, with a warning: the API server clears it', () => {
  const json = {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'ResourceDistribution',
    metadata: { name: 'rd', namespace: 'shop' },
    spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }, targets: { allNamespaces: true } },
  };
  expect(resourceDistributionErrors(json)).toEqual([]);
  expect(manifestWarnings(json, { gate: () => true }, { objects: () => [] })).toEqual([
    'metadata.namespace: "shop" is ignored: ResourceDistribution is cluster-scoped, so the API server clears the namespace before any webhook sees it; remove metadata.namespace',
  ]);
});
