import { ApiObject, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { AdvancedDaemonSet, AdvancedStatefulSet, CloneSet, DeleteProtection, DeleteProtectionMode, kruise } from '../src';
import { _registerGateSource } from '../src/validation/gates';

const source = (on: string[]) => ({ path: 'test/kruise', isEnabled: (g: string) => on.includes(g), howToEnable: (g: string) => `set featureGates ${g}=true` });

test('labels a Namespace, a Deployment, a CRD and a Kruise workload', () => {
  const chart = Testing.chart();
  const ns = new kplus.Namespace(chart, 'ns', { metadata: { name: 'payments' } });
  const d = new kplus.Deployment(chart, 'web', { containers: [{ image: 'nginx:1.27' }] });
  const crd = new ApiObject(chart, 'crd', { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'things.x.io' } });
  const cs = new kruise.KubeCloneSet(chart, 'cs', { metadata: { name: 'cs' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i:1' }] } } } });
  const p = DeleteProtection.of(ns, DeleteProtectionMode.ALWAYS);
  DeleteProtection.of(d, DeleteProtectionMode.CASCADING);
  DeleteProtection.of(crd, DeleteProtectionMode.ALWAYS);
  DeleteProtection.of(cs, DeleteProtectionMode.CASCADING);
  const out = Testing.synth(chart);
  const label = (kind: string) => out.find(o => o.kind === kind).metadata.labels['policy.kruise.io/delete-protection'];
  expect(label('Namespace')).toBe('Always');
  expect(label('Deployment')).toBe('Cascading');
  expect(label('CustomResourceDefinition')).toBe('Always');
  expect(label('CloneSet')).toBe('Cascading');
  expect(p.mode).toBe(DeleteProtectionMode.ALWAYS);
});

test('fails on kinds upstream does not protect, Cascading where it is ignored, and twice', () => {
  const chart = Testing.chart();
  const ds = new kplus.DaemonSet(chart, 'ds', { containers: [{ image: 'agent:1' }] });
  expect(() => DeleteProtection.of(ds, DeleteProtectionMode.ALWAYS)).toThrow("DeleteProtection at 'test/ds': OpenKruise does not protect DaemonSet (apps/v1) from deletion; protect a Namespace");
  const svc = new kplus.Service(chart, 'svc', { ports: [{ port: 80 }] });
  expect(() => DeleteProtection.of(svc, DeleteProtectionMode.CASCADING)).toThrow("DeleteProtection at 'test/svc': OpenKruise ignores Cascading on a Service; use DeleteProtectionMode.ALWAYS");
  DeleteProtection.of(svc, DeleteProtectionMode.ALWAYS);
  expect(() => DeleteProtection.of(svc, DeleteProtectionMode.ALWAYS)).toThrow('the object is already protected');
});

test('fails when ResourcesDeletionProtection is off in the app\'s control plane', () => {
  const chart = Testing.chart();
  _registerGateSource(chart, source([]));
  DeleteProtection.of(new kplus.Namespace(chart, 'ns', { metadata: { name: 'payments' } }), DeleteProtectionMode.ALWAYS);
  expect(() => Testing.synth(chart)).toThrow('[test/ns/Resource/DeleteProtection] Namespace "payments" (v1) metadata.labels["policy.kruise.io/delete-protection"]: "Always" needs the OpenKruise feature gate '
    + "ResourcesDeletionProtection, which is off in the control plane at 'test/kruise', so nothing is protected; set featureGates ResourcesDeletionProtection=true");
});

test('fails on Cascading CRD protection without DeletionProtectionForCRDCascadingGate', () => {
  const chart = Testing.chart();
  _registerGateSource(chart, source(['ResourcesDeletionProtection']));
  DeleteProtection.of(new ApiObject(chart, 'crd', { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'things.x.io' } }), DeleteProtectionMode.CASCADING);
  expect(() => Testing.synth(chart)).toThrow('[test/crd/DeleteProtection] CustomResourceDefinition "things.x.io" (apiextensions.k8s.io/v1) metadata.labels["policy.kruise.io/delete-protection"]: "Cascading" '
    + "needs the OpenKruise feature gate DeletionProtectionForCRDCascadingGate, which is off in the control plane at 'test/kruise', so OpenKruise refuses every deletion of the CustomResourceDefinition; "
    + 'set featureGates DeletionProtectionForCRDCascadingGate=true, or use DeleteProtectionMode.ALWAYS');
  const ok = Testing.chart();
  _registerGateSource(ok, source(['ResourcesDeletionProtection', 'DeletionProtectionForCRDCascadingGate']));
  DeleteProtection.of(new ApiObject(ok, 'crd', { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'things.x.io' } }), DeleteProtectionMode.CASCADING);
  expect(() => Testing.synth(ok)).not.toThrow();
});

test('labels the OpenKruise workload constructs it protects and refuses the Advanced DaemonSet', () => {
  const chart = Testing.chart();
  const cs = new CloneSet(chart, 'web', { containers: [{ image: 'nginx:1.27' }] });
  const sts = new AdvancedStatefulSet(chart, 'db', { containers: [{ image: 'postgres:17', portNumber: 5432 }] });
  const ds = new AdvancedDaemonSet(chart, 'agent', { containers: [{ image: 'agent:1' }] });
  const rs = new ApiObject(chart, 'rs', { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'rs' } });
  DeleteProtection.of(cs, DeleteProtectionMode.CASCADING);
  DeleteProtection.of(sts, DeleteProtectionMode.ALWAYS);
  DeleteProtection.of(rs, DeleteProtectionMode.CASCADING);
  expect(() => DeleteProtection.of(ds, DeleteProtectionMode.ALWAYS)).toThrow("DeleteProtection at 'test/agent': OpenKruise does not protect DaemonSet (apps.kruise.io/v1beta1) from deletion");
  const out = Testing.synth(chart);
  const labels = (kind: string) => out.find(o => o.kind === kind).metadata.labels;
  expect(labels('CloneSet')).toEqual({ 'policy.kruise.io/delete-protection': 'Cascading' });
  expect(labels('StatefulSet')).toEqual({ 'policy.kruise.io/delete-protection': 'Always' });
  expect(labels('ReplicaSet')).toEqual({ 'policy.kruise.io/delete-protection': 'Cascading' });
  expect(out.find(o => o.kind === 'DaemonSet').metadata.labels).toBeUndefined();
});
