/**
 * The webhooks' update rules (src/admission/update.ts), per release: what
 * cannot change between the stored object and the one applied. The cluster
 * tier's releases files judge generated updates by each release's webhooks
 * (a create for real, then a dry-run update).
 */
import { LAST_APPLIED, appliedOver, asApplied } from '../../src/admission/apply';
import { judgeUpdate, updateRuleErrors } from '../../src/admission/update';
import { contextFromFlags } from '../../src/releases/flags';
import { admissionCases, rolloutAdmissionCases } from '../fixtures/admission';

const ctx = (openkruise?: string) => contextFromFlags({ openkruise, featureGates: { ImagePullJobGate: true, ResourceDistributionGate: true } });
const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x));
const valid = (id: string) => {
  const c = [...admissionCases(), ...rolloutAdmissionCases()].find(x => x.id === id);
  if (!c || !c.allowed) throw new Error(`no admitted case ${id}`);
  return clone(c.manifest);
};
const changed = (m: any, change: (x: any) => void) => {
  const x = clone(m);
  change(x);
  return x;
};

test('an unchanged object, and a change of what may change, is admitted as an update', () => {
  const cs = valid('CloneSet/valid');
  expect(judgeUpdate(cs, cs, ctx()).errors).toEqual([]);
  expect(judgeUpdate(cs, changed(cs, m => { m.spec.replicas = 7; m.spec.template.spec.containers[0].image = 'nginx:1.28'; }), ctx()).errors).toEqual([]);
});

test('CloneSet: a field other than the ones an update may change is refused, naming the field, its old value and what may change', () => {
  const cs = valid('CloneSet/valid');
  const next = changed(cs, m => { m.spec.selector = { matchLabels: { app: 'web', tier: 'front' } }; m.spec.template.metadata.labels.tier = 'front'; });
  expect(updateRuleErrors(cs, next, ctx())).toEqual([
    'spec.selector: {"matchLabels":{"app":"web","tier":"front"}} cannot change on an update of a CloneSet (it was {"matchLabels":{"app":"web"}}): '
    + 'the webhook lets an update change only replicas, template, lifecycle, scaleStrategy, updateStrategy, minReadySeconds, progressDeadlineSeconds, '
    + 'volumeClaimTemplates and revisionHistoryLimit; keep the old value, or delete the CloneSet and create it again',
  ]);
});

test('CloneSet InPlaceOnly: an update may change container images only', () => {
  const cs = changed(valid('CloneSet/valid'), m => { m.spec.updateStrategy = { type: 'InPlaceOnly' }; });
  expect(updateRuleErrors(cs, changed(cs, m => { m.spec.template.spec.containers[0].image = 'nginx:1.28'; }), ctx())).toEqual([]);
  expect(updateRuleErrors(cs, changed(cs, m => { m.spec.template.spec.containers[0].env = [{ name: 'MODE', value: 'x' }]; }), ctx())).toEqual([
    'spec.template.spec: (unset) changes more than container images, which updateStrategy.type InPlaceOnly does not allow on an update; '
    + 'change only images, or use InPlaceIfPossible (pods are then recreated for this change)',
  ]);
});

test('Advanced StatefulSet: serviceName cannot change; replicas can', () => {
  const sts = valid('StatefulSet/valid-v1beta1');
  expect(updateRuleErrors(sts, changed(sts, m => { m.spec.replicas = 5; }), ctx())).toEqual([]);
  expect(updateRuleErrors(sts, changed(sts, m => { m.spec.serviceName = 'other'; }), ctx())[0]).toMatch(/^spec.serviceName: "other" cannot change on an update of an Advanced StatefulSet/);
});

test('PodUnavailableBudget: the selector and targetRef cannot change', () => {
  const pub = valid('PodUnavailableBudget/valid');
  const field = pub.spec.targetRef ? 'targetRef' : 'selector';
  const next = changed(pub, m => { if (field === 'targetRef') m.spec.targetRef.name = 'other'; else m.spec.selector = { matchLabels: { app: 'other' } }; });
  expect(updateRuleErrors(pub, next, ctx())).toHaveLength(1);
  expect(updateRuleErrors(pub, next, ctx())[0]).toMatch(new RegExp(`^spec.${field}: .* cannot change on an update of a PodUnavailableBudget`));
});

test('ImagePullJob pullSecrets cannot change from OpenKruise 1.9; 1.8 lets them change', () => {
  const job = changed(valid('ImagePullJob/v1beta1-valid'), m => { m.apiVersion = 'apps.kruise.io/v1alpha1'; m.spec.pullSecrets = ['a']; });
  const next = changed(job, m => { m.spec.pullSecrets = ['b']; });
  expect(updateRuleErrors(job, next, ctx('1.9'))).toEqual([
    'spec.pullSecrets: ["b"] cannot change on an update of an ImagePullJob (it was ["a"]); keep the old value, or delete the ImagePullJob and create it again',
  ]);
  expect(updateRuleErrors(job, next, ctx('1.8'))).toEqual([]);
});

test('rules that compare with reflect.DeepEqual: an empty list or map is a change from none; a false in a bool that is no pointer is none', () => {
  const job = changed(valid('ImagePullJob/v1beta1-valid'), m => { m.apiVersion = 'apps.kruise.io/v1alpha1'; delete m.spec.pullSecrets; });
  expect(updateRuleErrors(job, changed(job, m => { m.spec.pullSecrets = []; }), ctx('1.9'))).toEqual([
    'spec.pullSecrets: [] cannot change on an update of an ImagePullJob (it was unset; the webhook compares the Go values with reflect.DeepEqual, where an empty list or map is not an unset one); keep the old value, or delete the ImagePullJob and create it again',
  ]);
  expect(updateRuleErrors(job, changed(job, m => { m.spec.pullSecrets = null; }), ctx('1.9'))).toEqual([]);
  const pub = valid('PodUnavailableBudget/valid');
  expect(updateRuleErrors(pub, changed(pub, m => { m.spec.selector.matchExpressions = []; }), ctx('1.9'))).toHaveLength(pub.spec.selector ? 1 : 0);
  const crr = changed(valid('ContainerRecreateRequest/minimal'), m => { m.spec.strategy = { failurePolicy: 'Fail' }; });
  expect(updateRuleErrors(crr, changed(crr, m => { m.spec.strategy.orderedRecreate = false; m.spec.strategy.minStartedSeconds = 0; }), ctx('1.9'))).toEqual([]);
  expect(updateRuleErrors(crr, changed(crr, m => { m.spec.strategy.unreadyGracePeriodSeconds = 0; }), ctx('1.9'))).toHaveLength(1);
  expect(updateRuleErrors(crr, changed(crr, m => { m.metadata.labels = { 'crr.apps.kruise.io/pod-uid': 'other' }; }), ctx('1.9'))).toEqual([
    'metadata.labels["crr.apps.kruise.io/pod-uid"]: "other" cannot change on an update of a ContainerRecreateRequest (it was ""); keep the label the webhook set when the ContainerRecreateRequest was created',
  ]);
});

test('SidecarSet: an update may not add a sidecar container', () => {
  const sc = valid('SidecarSet/valid-v1beta1');
  const next = changed(sc, m => { m.spec.containers.push({ name: 'second', image: 'busybox:1.36' }); });
  expect(updateRuleErrors(sc, next, ctx())).toEqual([
    `spec.containers[${sc.spec.containers.length}].name: "second" is a container the SidecarSet did not have: an update may not add a sidecar container; `
    + 'keep the containers the SidecarSet has, or create another SidecarSet for the new container',
  ]);
});

test('a kind without update rules is judged as a create', () => {
  const ws = valid('WorkloadSpread/valid');
  expect(judgeUpdate(ws, ws, ctx()).errors).toEqual([]);
});

test('an update is judged as kubectl apply makes it: a merge patch from the last applied manifest, applied to the stored object', () => {
  const manifest = valid('ContainerRecreateRequest/minimal');
  // the stored object: what the webhook set on create (a label, the container's status context) and the last applied manifest
  const stored = changed(asApplied(manifest), m => {
    m.metadata.labels = { 'crr.apps.kruise.io/pod-uid': 'uid-1', 'crr.apps.kruise.io/node-name': 'node-1' };
    m.metadata.uid = 'uid-crr';
    m.spec.containers[0].statusContext = { containerID: 'containerd://abc', restartCount: 0 };
    m.spec.strategy = { failurePolicy: 'Fail' };
  });
  expect(judgeUpdate(stored, manifest, ctx('1.9')).errors).toEqual([]);
  expect(appliedOver(stored, manifest).metadata.labels['crr.apps.kruise.io/pod-uid']).toBe('uid-1');
  // a field the last manifest had and the new one drops is removed
  const withDeadline = changed(manifest, m => { m.spec.activeDeadlineSeconds = 60; });
  expect(appliedOver(asApplied(withDeadline), manifest).spec.activeDeadlineSeconds).toBeUndefined();
  expect(judgeUpdate(asApplied(withDeadline), manifest, ctx('1.9')).errors).toHaveLength(1);
  // without the annotation (created otherwise), nothing is removed
  const created = changed(withDeadline, m => { delete m.metadata.annotations?.[LAST_APPLIED]; });
  expect(appliedOver(created, manifest).spec.activeDeadlineSeconds).toBe(60);
  expect(judgeUpdate(created, manifest, ctx('1.9')).errors).toEqual([]);
});
