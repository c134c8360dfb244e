/**
 * The webhooks' update rules (src/admission/update.ts), per release: what
 * cannot change between the stored object and the one applied. The cluster
 * tier's releases files judge generated updates by each release's webhooks
 * (a create for real, then a dry-run update).
 */
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
