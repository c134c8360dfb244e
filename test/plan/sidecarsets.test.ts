import { UpdatePlan, UpdateType } from '../../src/plan';

const ss = (containers: any[], spec: any = {}) => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'SidecarSet',
  metadata: { name: 'mesh' },
  spec: { selector: { matchLabels: { mesh: 'on' } }, containers, ...spec },
});
const c = (name: string, image: string, extra: any = {}) => ({ name, image, command: ['sleep', '3600'], ...extra });
const cs = (name: string, ns: string, replicas: number, labels: any) => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name, namespace: ns },
  spec: { replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10' }] } } },
});
const deploy = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'legacy', namespace: 'shop' }, spec: { replicas: 2, selector: { matchLabels: { mesh: 'on' } }, template: { metadata: { labels: { mesh: 'on' } }, spec: { containers: [{ name: 'a', image: 'p' }] } } } };
const plan = (a: any, b: any, workloads: any[] = [cs('web', 'default', 4, { mesh: 'on' })]) => {
  const r = UpdatePlan.compare([a, ...workloads], [b, ...workloads]);
  expect(r.sidecarSets).toHaveLength(1);
  return r.sidecarSets[0];
};

test('image-only change: in place on running pods, cold upgrade by default, selected workloads named', () => {
  const p = plan(ss([c('proxy', 'busybox:1.36')]), ss([c('proxy', 'busybox:1.37')]), [cs('web', 'default', 4, { mesh: 'on' }), deploy, cs('other', 'default', 3, { mesh: 'off' })]);
  expect([p.updateType, p.hotUpgrade, p.selectedWorkloads, p.podsSelected, p.podsUpdated, p.batches])
    .toEqual([UpdateType.IN_PLACE, [], ['CloneSet default/web', 'Deployment shop/legacy'], 6, 6, [1, 1, 1, 1, 1, 1]]);
  expect(p.summary).toContain('"proxy" busybox:1.36 -> busybox:1.37 (container restart)');
});

test('hot upgrade sidecars are named as such', () => {
  const hot = { upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'busybox:1.36' } };
  const p = plan(ss([c('proxy', 'busybox:1.36', hot)]), ss([c('proxy', 'busybox:1.37', hot)]));
  expect(p.hotUpgrade).toEqual(['proxy']);
});

test('an image change next to any other container change reaches only new pods, images included', () => {
  const p = plan(ss([c('proxy', 'busybox:1.36'), c('log', 'busybox:1.36')]), ss([c('proxy', 'busybox:1.37'), c('log', 'busybox:1.36', { args: ['-v'] })]));
  expect(p.updateType).toBe(UpdateType.NEW_PODS_ONLY);
  expect(p.inPlaceImages).toEqual([]);
  expect(p.newPodsOnly).toEqual(['spec.containers[1].args (sidecar "log")', 'spec.containers image of sidecar "proxy" busybox:1.36 -> busybox:1.37']);
  expect([p.podsUpdated, p.podsOnOldRevision]).toEqual([0, 4]);
});

test('explicit container defaults are not changes (pull policy by tag for sidecars)', () => {
  const p = UpdatePlan.compare([ss([c('proxy', 'busybox:1.36')])], [ss([c('proxy', 'busybox:1.36', { imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' })])]);
  expect(p.sidecarSets).toEqual([]);
  expect(p.unchanged).toBe(1);
});

test('volumes and non-native init containers reach only new pods', () => {
  const p = plan(ss([c('proxy', 'p')]), ss([c('proxy', 'p')], { volumes: [{ name: 'v', emptyDir: {} }], initContainers: [c('init', 'p')] }));
  expect(p.newPodsOnly).toEqual(['spec.initContainers', 'spec.volumes']);
});

test('partition, maxUnavailable and updateStrategy.selector shape the sidecar rollout', () => {
  const us = { updateStrategy: { partition: '50%', maxUnavailable: 2 } };
  const p = plan(ss([c('proxy', 'a:1')], us), ss([c('proxy', 'a:2')], us));
  expect([p.podsUpdated, p.podsOnOldRevision, p.batches]).toEqual([2, 2, [2]]);
  const sel = { updateStrategy: { selector: { matchLabels: { canary: 'yes' } } } };
  const q = plan(ss([c('proxy', 'a:1')], sel), ss([c('proxy', 'a:2')], sel), [cs('web', 'default', 4, { mesh: 'on' }), cs('canary', 'default', 1, { mesh: 'on', canary: 'yes' })]);
  expect([q.podsSelected, q.podsUpdated, q.podsOnOldRevision]).toEqual([5, 1, 4]);
});

test('NotUpdate keeps the running pods on the old sidecars', () => {
  const us = { updateStrategy: { type: 'NotUpdate' } };
  const p = plan(ss([c('proxy', 'a:1')], us), ss([c('proxy', 'a:2')], us));
  expect([p.updateType, p.podsUpdated, p.podsOnOldRevision]).toEqual([UpdateType.IN_PLACE, 0, 4]);
});

test('namespaceSelector matches the labels of Namespace objects and kubernetes.io/metadata.name', () => {
  const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop', labels: { mesh: 'enabled' } } };
  const sel = { namespaceSelector: { matchLabels: { mesh: 'enabled' } } };
  const p = plan(ss([c('proxy', 'a:1')], sel), ss([c('proxy', 'a:2')], sel), [cs('web', 'default', 4, { mesh: 'on' }), deploy, ns]);
  expect(p.selectedWorkloads).toEqual(['Deployment shop/legacy']);
});

test('the webhook refuses a new sidecar container and an upgradeType change', () => {
  const added = plan(ss([c('proxy', 'a:1')]), ss([c('proxy', 'a:1'), c('extra', 'a:1')]));
  expect([added.updateType, added.rejectedField]).toEqual([UpdateType.REJECTED, 'spec.containers[1].name']);
  expect(added.rejection).toBe('spec.containers[1].name: "extra" is a new sidecar container, and a SidecarSet update cannot add containers; add the sidecar in a new SidecarSet, or delete and recreate this one');
  const hot = { upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'e:1' } };
  expect(plan(ss([c('proxy', 'a:1')]), ss([c('proxy', 'a:1', hot)])).rejectedField).toBe('spec.containers[0].upgradeStrategy.upgradeType');
});

test('v1alpha1 namespace is read as a namespaceSelector', () => {
  const a = { ...ss([c('proxy', 'a:1')], { namespace: 'shop' }), apiVersion: 'apps.kruise.io/v1alpha1' };
  const b = { ...ss([c('proxy', 'a:2')], { namespace: 'shop' }), apiVersion: 'apps.kruise.io/v1alpha1' };
  expect(plan(a, b, [cs('web', 'default', 4, { mesh: 'on' }), deploy]).selectedWorkloads).toEqual(['Deployment shop/legacy']);
});
