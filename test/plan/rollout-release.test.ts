import * as fs from 'fs';
import * as path from 'path';
import {
  PlanFormat, RejectedBy, RolloutChange, RolloutReleaseStyle, UpdatePlan, UpdateType, WorkloadPlan,
} from '../../src/plan';
import { batchReplicas, deploymentNewPods, partitionPercent, stepPods } from '../../src/plan/rollout-release';
import { PLAN_ROLLOUT_GOLDEN } from '../fixtures/plan-golden';

const LABEL = 'rollouts.kruise.io/workload-type';
const OLD = 'registry.k8s.io/pause:3.9';
const NEW = 'registry.k8s.io/pause:3.10';

const template = (image: string, labels: Record<string, string> = { app: 'web' }, extra: any = {}) => ({
  metadata: { labels }, spec: { containers: [{ name: 'app', image, ...extra }] },
});

interface CloneSetOptions { replicas?: number; strategy?: any; labelled?: boolean; annotations?: any; status?: any; extra?: any }

function cloneSet(image: string, o: CloneSetOptions = {}): any {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: {
      name: 'web', namespace: 'default', ...(o.labelled === false ? {} : { labels: { [LABEL]: 'cloneset' } }), ...(o.annotations ? { annotations: o.annotations } : {}),
    },
    spec: { replicas: o.replicas ?? 4, selector: { matchLabels: { app: 'web' } }, updateStrategy: o.strategy ?? { type: 'InPlaceIfPossible' }, template: template(image), ...o.extra },
    ...(o.status ? { status: o.status } : {}),
  };
}

function rollout(ref: any, strategy: any, spec: any = {}, meta: any = {}): any {
  return { apiVersion: 'rollouts.kruise.io/v1beta1', kind: 'Rollout', metadata: { name: 'web', namespace: 'default', ...meta }, spec: { workloadRef: ref, strategy, ...spec } };
}
const CS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web' };
const DEP = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const canary = (steps: any[], extra: any = {}) => ({ canary: { steps, ...extra } });
const STEPS = [{ replicas: 1 }, { replicas: '50%', pause: { duration: 60 } }, { replicas: '100%' }];

function only(old: any[], next: any[], opts: any = {}): WorkloadPlan {
  const r = UpdatePlan.compare(old, next, opts);
  expect(r.workloads).toHaveLength(1);
  return r.workloads[0];
}

/** An image bump of a CloneSet under a Rollout with `steps` (the Rollout on both sides). */
const released = (steps: any[], o: Parameters<typeof cloneSet>[1] = {}, strategyExtra: any = {}) =>
  only([rollout(CS, canary(steps, strategyExtra)), cloneSet(OLD, o)], [rollout(CS, canary(steps, strategyExtra)), cloneSet(NEW, o)]);

const news = (w: WorkloadPlan) => w.rollout!.steps.map(s => [s.podsOnNewRevision, s.podsOnOldRevision]);

describe('the BatchRelease arithmetic', () => {
  test('a step\'s planned pods: rounded up, within 0..replicas', () => {
    expect([batchReplicas(1, 4), batchReplicas('20%', 4), batchReplicas('50%', 3), batchReplicas(9, 4), batchReplicas('100%', 7)]).toEqual([1, 1, 2, 4, 7]);
  });
  test.each([
    // stable, replicas, step -> the CloneSet partition written
    [3, 4, '25%', '75%'], [1, 3, '67%', '33%'], [98, 99, '1%', '98%'], [1, 101, '99%', '1%'], [0, 4, '100%', '0%'], [4, 4, '1%', '100%'],
    [1, 200, '99%', '1%'], [1, 200, '100%', '0%'],
  ])('%p stable of %p (step %p): partition %p', (stable, replicas, s, out) => {
    expect(partitionPercent(stable, replicas, s)).toBe(out);
  });
  test('a CloneSet of more than 100 pods: the percentage partition keeps fewer pods than the step asks, so more move', () => {
    // 50% of 201: 101 planned, 100 stable -> "49%" -> 99 kept -> 102 on the new revision
    expect(stepPods('apps.kruise.io/CloneSet', RolloutReleaseStyle.PARTITION, 201, ['50%'])).toEqual([{ newPods: 102, oldPods: 99 }]);
    // 99% of 200: 198 planned, 2 stable -> "1%" -> 2 kept; 100% of 200 -> all
    expect(stepPods('apps.kruise.io/CloneSet', RolloutReleaseStyle.PARTITION, 200, ['99%', '100%'])).toEqual([{ newPods: 198, oldPods: 2 }, { newPods: 200, oldPods: 0 }]);
  });
  test('a partition is only ever lowered: a smaller later step keeps the pods already moved', () => {
    expect(stepPods('apps.kruise.io/CloneSet', RolloutReleaseStyle.PARTITION, 10, [3, '10%', '100%']).map(s => s.newPods)).toEqual([3, 3, 10]);
    expect(stepPods('apps.kruise.io/DaemonSet', RolloutReleaseStyle.PARTITION, 5, [3, 1]).map(s => s.newPods)).toEqual([3, 3]);
  });
  test('StatefulSet-like: an integer partition from the top, ordinals above it move', () => {
    const ords = [3, 2, 1, 0].map(o => ({ ordinal: o, index: o }));
    expect(stepPods('apps.kruise.io/StatefulSet', RolloutReleaseStyle.PARTITION, 4, [1, '50%', '90%'], ords).map(s => s.ordinals)).toEqual([[3], [3, 2], [3, 2, 1, 0]]);
  });
  test('a partition-style Deployment: the new ReplicaSet\'s limit, one pod short of all for a percentage other than 100%', () => {
    expect([deploymentNewPods('90%', 4), deploymentNewPods('100%', 4), deploymentNewPods(4, 4), deploymentNewPods('50%', 1)]).toEqual([3, 4, 4, 1]);
    expect(stepPods('apps/Deployment', RolloutReleaseStyle.PARTITION, 4, [1, '90%']).map(s => s.newPods)).toEqual([1, 3]);
  });
  test('blue-green: new pods next to every old pod; an extra canary Deployment: canary pods next to every old pod', () => {
    expect(stepPods('apps.kruise.io/CloneSet', RolloutReleaseStyle.BLUE_GREEN, 5, ['20%', '50%'])).toEqual([{ newPods: 1, oldPods: 5 }, { newPods: 3, oldPods: 5 }]);
    // a CloneSet surges min(maxSurge, replicas - new pods so far): 3 of 10, then 6, then at most 6 again
    expect(stepPods('apps.kruise.io/CloneSet', RolloutReleaseStyle.BLUE_GREEN, 10, ['30%', '60%', '100%']))
      .toEqual([{ newPods: 3, oldPods: 10 }, { newPods: 6, oldPods: 10 }, { newPods: 6, oldPods: 10, stallsShortOf: 10 }]);
    expect(stepPods('apps.kruise.io/CloneSet', RolloutReleaseStyle.BLUE_GREEN, 4, [3, 4])).toEqual([{ newPods: 3, oldPods: 4 }, { newPods: 3, oldPods: 4, stallsShortOf: 4 }]);
    expect(stepPods('apps/Deployment', RolloutReleaseStyle.CANARY_DEPLOYMENT, 5, [1, '50%'])).toEqual([{ newPods: 1, oldPods: 5 }, { newPods: 3, oldPods: 5 }]);
  });
  test('a DaemonSet without a node count: no pod counts', () => {
    expect(stepPods('apps.kruise.io/DaemonSet', RolloutReleaseStyle.PARTITION, undefined, [1])).toEqual([{}]);
  });
});

describe('a change the Rollout releases', () => {
  test('CloneSet in place: the steps, the pause of each, the completion; the summary keeps how each pod is updated', () => {
    const w = released(STEPS);
    expect([w.updateType, w.podsUpdated, w.podsOnOldRevision, w.batches]).toEqual([UpdateType.IN_PLACE, 4, 0, [1, 1, 2]]);
    expect(w.rollout).toMatchObject({ rollout: 'web', style: RolloutReleaseStyle.PARTITION, inEffect: true });
    expect(news(w)).toEqual([[1, 3], [2, 2], [4, 0]]);
    expect(w.rollout!.steps.map(s => [s.manualApproval, s.pauseSeconds])).toEqual([[true, undefined], [false, 60], [false, undefined]]);
    expect(w.summary).toBe('in place: image of "app" registry.k8s.io/pause:3.9 -> registry.k8s.io/pause:3.10; released by Rollout web in batches on the workload itself in 3 steps (pods on the new revision after each: 1, 2, 4)');
    expect(w.rollout!.steps[0].summary).toBe('step 1 (replicas 1): 1 of 4 pods on the new revision, 3 on the old one; waits for approval (kubectl-kruise rollout approve rollout/web -n default)');
    expect(w.rollout!.steps[2].summary).toContain('then the release completes (a last step at "100%" does not pause)');
  });
  test('a last step that is not exactly "100%" still waits, even at every pod; a pause of 0 goes on at once', () => {
    const w = released([{ replicas: 1, pause: { duration: 0 } }, { replicas: 4 }]);
    expect(w.rollout!.steps.map(s => [s.manualApproval, s.pauseSeconds])).toEqual([[false, 0], [true, undefined]]);
    expect(w.rollout!.steps[0].summary).toContain('goes on at once');
  });
  test('the last step below every pod: the completion moves the rest', () => {
    const w = released([{ replicas: 1 }]);
    expect(w.batches).toEqual([1, 3]);
    expect(w.summary).toContain('(pods on the new revision after each: 1), then all 4');
    expect(w.rollout!.completion).toBe('after the last step the release completes: the partition is removed and the remaining 3 pods move, as the workload\'s update strategy paces them');
  });
  test('the release takes over the manifest\'s partition and paused: every pod moves in the end', () => {
    const w = released([{ replicas: 1 }, { replicas: '100%' }], { strategy: { type: 'InPlaceIfPossible', partition: 3, paused: true } });
    expect([w.podsUpdated, w.podsOnOldRevision]).toEqual([4, 0]);
    expect(w.notes[0]).toMatch(/^the release takes over spec.updateStrategy.partition 3, spec.updateStrategy.paused true from the manifest/);
    expect(w.notes.join('\n')).not.toContain('partition 3 keeps');
  });
  test('recreate stays recreate, with the field that forces it', () => {
    const o = cloneSet(OLD);
    const n = cloneSet(OLD, { extra: {} });
    n.spec.template.spec.containers[0].env = [{ name: 'MODE', value: 'green' }];
    const w = only([rollout(CS, canary(STEPS)), o], [rollout(CS, canary(STEPS)), n]);
    expect([w.updateType, w.forcedBy, w.rollout!.inEffect]).toEqual([UpdateType.RECREATE, 'spec.template.spec.containers[0].env', true]);
  });
  test('a paused Rollout takes the change and holds every pod', () => {
    const paused = rollout(CS, { ...canary(STEPS), paused: true });
    const w = only([paused, cloneSet(OLD)], [paused, cloneSet(NEW)]);
    expect([w.rollout!.inEffect, w.podsUpdated, w.podsOnOldRevision, w.batches]).toEqual([true, 0, 4, []]);
    expect(w.notes.join('\n')).toContain('is paused (spec.strategy.paused)');
  });
  test('traffic: weights and matches when the Rollout routes traffic, and a word when nothing routes them', () => {
    const steps = [
      { replicas: 1, traffic: '10%', matches: [{ headers: [{ name: 'x-user', value: '^beta', type: 'RegularExpression' }], queryParams: [{ name: 'canary', value: '1' }] }, { path: { value: '/api' } }] },
      { replicas: '100%' },
    ];
    const routed = released(steps, {}, { trafficRoutings: [{ service: 'web', ingress: { name: 'web' } }] });
    expect(routed.rollout!.steps[0]).toMatchObject({ traffic: '10%', matches: ['header x-user matching ^beta and query canary=1', 'path prefix /api'] });
    expect(routed.rollout!.steps[1].summary).toContain('no traffic split');
    const unrouted = released(steps);
    expect(unrouted.rollout!.steps[0]).toMatchObject({ traffic: undefined, matches: [] });
    expect(unrouted.rollout!.steps[0].summary).toContain('its traffic and matches do nothing (the Rollout routes no traffic)');
  });
  test('enableExtraWorkloadForCanary on a CloneSet: still batches on the CloneSet itself', () => {
    expect(released(STEPS, {}, { enableExtraWorkloadForCanary: true }).rollout!.style).toBe(RolloutReleaseStyle.PARTITION);
  });
  test('a v1alpha1 Rollout: a step with only a weight takes its replicas from it', () => {
    const v1alpha1 = {
      apiVersion: 'rollouts.kruise.io/v1alpha1',
      kind: 'Rollout',
      metadata: { name: 'web', namespace: 'default' },
      spec: { objectRef: { workloadRef: CS }, strategy: { canary: { steps: [{ weight: 30 }, { replicas: '100%' }], trafficRoutings: [{ service: 'web', ingress: { name: 'web' } }] } } },
    };
    const w = only([v1alpha1, cloneSet(OLD)], [v1alpha1, cloneSet(NEW)]);
    expect(w.rollout!.steps.map(s => [s.replicas, s.podsOnNewRevision, s.traffic])).toEqual([['30%', 2, '30%'], ['100%', 4, undefined]]);
  });
  test('a new Rollout before a labelled workload in the manifests takes the change, and says the order matters', () => {
    const w = only([cloneSet(OLD)], [rollout(CS, canary(STEPS)), cloneSet(NEW)]);
    expect(w.rollout!.inEffect).toBe(true);
    expect(w.notes.join('\n')).toContain('the Rollout must reach kruise-rollout-manager before the CloneSet update');
  });
  test('Advanced DaemonSet: pod counts need the nodes; with them, the steps', () => {
    const ds = (image: string) => ({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'default', labels: { [LABEL]: 'daemonset' } },
      spec: { selector: { matchLabels: { app: 'a' } }, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible' } }, template: template(image, { app: 'a' }) },
    });
    const ro = { ...rollout({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet', name: 'agent' }, canary([{ replicas: 2 }, { replicas: '100%' }])) };
    const unknown = only([ro, ds(OLD)], [ro, ds(NEW)]);
    expect([unknown.podsUpdated, unknown.rollout!.steps[0].podsOnNewRevision, unknown.rollout!.steps[0].summary]).toEqual([undefined, undefined, expect.stringContaining('2 of the nodes\' pods on the new revision')]);
    const known = only([ro, ds(OLD)], [ro, ds(NEW)], { daemonSetNodes: 5 });
    expect([known.updateType, known.podsUpdated, news(known)]).toEqual([UpdateType.IN_PLACE, 5, [[2, 3], [5, 0]]]);
  });
  test('Deployment, extra canary Deployment: canary pods next to the old ones, then the Deployment replaces all', () => {
    const dep = (image: string) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default', labels: { [LABEL]: 'deployment' } },
      spec: { replicas: 5, selector: { matchLabels: { app: 'web' } }, template: template(image) },
    });
    const ro = rollout(DEP, canary([{ replicas: '20%' }, { replicas: '50%' }], { enableExtraWorkloadForCanary: true }));
    const w = only([ro, dep(OLD)], [ro, dep(NEW)]);
    expect([w.kind, w.updateType, w.rollout!.style, news(w), w.batches]).toEqual(['Deployment', UpdateType.RECREATE, RolloutReleaseStyle.CANARY_DEPLOYMENT, [[1, 5], [3, 5]], [1, 2, 5]]);
    expect(w.rollout!.completion).toContain('the Deployment is resumed and replaces its 5 pods');
    // no Rollout: a Deployment stays an other object, as before
    const plain = UpdatePlan.compare([dep(OLD)], [dep(NEW)]);
    expect([plain.workloads, plain.otherChanges]).toEqual([[], ['Deployment default/web: changed']]);
  });
  test('a native StatefulSet: ordinals from the top', () => {
    const sts = (image: string) => ({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'default', labels: { [LABEL]: 'statefulset' } },
      spec: { replicas: 3, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: template(image, { app: 'db' }) },
    });
    const ro = rollout({ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db' }, canary([{ replicas: 1 }, { replicas: '100%' }]));
    const w = only([ro, sts(OLD)], [ro, sts(NEW)]);
    expect([w.updateType, w.rollout!.steps.map(s => s.ordinals)]).toEqual([UpdateType.RECREATE, [[2], [2, 1, 0]]]);
  });
});

describe('a Rollout that does not take the change', () => {
  const reason = (w: WorkloadPlan) => w.rollout!.reason;
  test('disabled: the workload\'s own strategy, as planned without the Rollout', () => {
    const ro = rollout(CS, canary(STEPS), { disabled: true });
    const w = only([ro, cloneSet(OLD)], [ro, cloneSet(NEW)]);
    expect([w.rollout!.inEffect, w.podsUpdated, w.batches]).toEqual([false, 4, [1, 1, 1, 1]]);
    expect(reason(w)).toBe('Rollout web is disabled (spec.disabled: true), so updates roll out by the workload\'s own strategy');
    expect(w.notes[0]).toMatch(/^not released by Rollout web: Rollout web is disabled/);
  });
  test('disabled in the same apply as the change: a race, said so', () => {
    const w = only([rollout(CS, canary(STEPS)), cloneSet(OLD)], [rollout(CS, canary(STEPS), { disabled: true }), cloneSet(NEW)]);
    expect(reason(w)).toContain('disable the Rollout in an earlier apply');
    expect([w.rollout!.inEffect, w.rollout!.racesController]).toEqual([false, true]);
  });
  test('a new Rollout with an unlabelled workload races the controller labelling it; after the workload in the manifests it is certain', () => {
    const raced = only([cloneSet(OLD, { labelled: false })], [rollout(CS, canary(STEPS)), cloneSet(NEW, { labelled: false })]);
    expect(reason(raced)).toBe('Rollout web is new in this apply and the CloneSet has no rollouts.kruise.io/workload-type label: the webhook sees only labelled workloads, '
      + 'and kruise-rollout-manager adds the label as soon as it reconciles the new Rollout, so the update is released step by step only when the controller wins that race against the CloneSet update; '
      + 'label the CloneSet in its manifest (rollout() does) to release it step by step, or create the Rollout in an earlier apply');
    expect([raced.rollout!.inEffect, raced.rollout!.racesController, raced.podsUpdated, raced.batches]).toEqual([false, true, 4, [1, 1, 1, 1]]);
    expect(raced.notes[0]).toMatch(/^released by Rollout web or not, and no plan can know which: Rollout web is new in this apply/);
    expect(raced.notes[0]).toMatch(/; when it is not, the workload's own update strategy releases it \(the counts of this plan\)$/);
    // labelled in the manifest: certain, released step by step
    expect(only([cloneSet(OLD, { labelled: false })], [rollout(CS, canary(STEPS)), cloneSet(NEW)]).rollout!).toMatchObject({ inEffect: true });
    const after = only([cloneSet(OLD)], [cloneSet(NEW), rollout(CS, canary(STEPS))]);
    expect(reason(after)).toContain('comes after the CloneSet in the manifests');
    expect(after.rollout!.racesController).toBeUndefined();
  });
  test('the first deploy', () => {
    const r = UpdatePlan.compare([], [rollout(CS, canary(STEPS)), cloneSet(NEW)]);
    expect([r.workloads[0].updateType, r.workloads[0].rollout!.inEffect, r.rollouts.map(x => x.change)])
      .toEqual([UpdateType.CREATE, false, [RolloutChange.CREATE]]);
    expect(reason(r.workloads[0])).toContain('first deploy is never released by a Rollout');
  });
  test('replicas 0, an unchanged rollout-id, an OnDelete StatefulSet', () => {
    const ro = rollout(CS, canary(STEPS));
    expect(reason(only([ro, cloneSet(OLD)], [ro, cloneSet(NEW, { replicas: 0 })]))).toBe('the workload has replicas 0: nothing to release step by step');
    const id = { 'rollouts.kruise.io/rollout-id': 'r1' };
    expect(reason(only([ro, cloneSet(OLD, { annotations: id })], [ro, cloneSet(NEW, { annotations: id })])))
      .toContain('the same rollouts.kruise.io/rollout-id annotation ("r1")');
    expect(released(STEPS, { annotations: id }).rollout!.inEffect).toBe(false);
    const sts = (image: string) => ({
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'default', labels: { [LABEL]: 'statefulset' } },
      spec: { replicas: 2, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, updateStrategy: { type: 'OnDelete' }, template: template(image, { app: 'db' }) },
    });
    const stsRollout = rollout({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'db' }, canary(STEPS));
    const w = only([stsRollout, sts(OLD)], [stsRollout, sts(NEW)]);
    expect([w.updateType, reason(w)]).toEqual([UpdateType.ON_DELETE, 'an OnDelete StatefulSet\'s updates are never taken by the Kruise Rollouts webhook']);
  });
  test('live objects: the workload without the label, a Disabled Rollout, two revisions under traffic routing', () => {
    const ro = rollout(CS, canary(STEPS));
    const unlabelled = cloneSet(OLD, { labelled: false });
    const n = cloneSet(NEW, { labelled: false });
    expect(reason(only([{ ...ro, status: { phase: 'Healthy' } }, unlabelled], [ro, n], { oldIsLive: true }))).toContain('is kruise-rollout-manager running?');
    expect(reason(only([{ ...ro, status: { phase: 'Disabled' } }, cloneSet(OLD)], [ro, cloneSet(NEW)], { oldIsLive: true }))).toContain('is Disabled in the cluster');
    const routed = rollout(CS, canary(STEPS, { trafficRoutings: [{ service: 'web', ingress: { name: 'web' } }] }));
    expect(reason(only([{ ...routed, status: { phase: 'Healthy' } }, cloneSet(OLD, { status: { replicas: 4, updatedReplicas: 2 } })], [routed, cloneSet(NEW)], { oldIsLive: true })))
      .toContain('runs two revisions now (2 of 4 pods updated)');
  });
});

describe('a release the controller refuses', () => {
  test('blue-green on a CloneSet that is not ReCreate', () => {
    const ro = rollout(CS, { blueGreen: { steps: [{ replicas: '50%' }, { replicas: '100%' }] } });
    const w = only([ro, cloneSet(OLD)], [ro, cloneSet(NEW)]);
    expect([w.updateType, w.rejectedBy, w.rejectedField, w.podsUpdated, w.podsOnOldRevision]).toEqual([UpdateType.REJECTED, RejectedBy.CONTROLLER, 'spec.updateStrategy.type', 0, 4]);
    expect(w.rejection).toBe('spec.updateStrategy.type: "InPlaceIfPossible" is not ReCreate, and the blue-green release of Rollout web updates only a ReCreate CloneSet (its batch controller stops with an error, so no pod moves); '
      + 'set spec.updateStrategy.type to ReCreate, or release the CloneSet with a canary strategy');
    expect(UpdatePlan.compare([ro, cloneSet(OLD)], [ro, cloneSet(NEW)]).rejected).toBe(true);
    const ok = only([ro, cloneSet(OLD, { strategy: { type: 'ReCreate' } })], [ro, cloneSet(NEW, { strategy: { type: 'ReCreate' } })]);
    expect([ok.updateType, ok.rollout!.style, news(ok)]).toEqual([UpdateType.RECREATE, RolloutReleaseStyle.BLUE_GREEN, [[2, 4], [2, 4]]]);
  });
  test('blue-green on a CloneSet waits at every step, the last "100%" too', () => {
    const ro = rollout(CS, { blueGreen: { steps: [{ replicas: '25%' }, { replicas: '50%' }] } });
    const w = only([ro, cloneSet(OLD, { replicas: 8, strategy: { type: 'ReCreate' } })], [ro, cloneSet(NEW, { replicas: 8, strategy: { type: 'ReCreate' } })]);
    expect([news(w), w.batches, w.rollout!.stallsAtStep]).toEqual([[[2, 8], [4, 8]], [2, 2, 4], undefined]);
    expect(w.rollout!.steps.map(s => s.manualApproval)).toEqual([true, true]);
    const one = only([rollout(CS, { blueGreen: { steps: [{ replicas: '100%' }] } }), cloneSet(OLD, { strategy: { type: 'ReCreate' } })],
      [rollout(CS, { blueGreen: { steps: [{ replicas: '100%' }] } }), cloneSet(NEW, { strategy: { type: 'ReCreate' } })]);
    expect([news(one), one.rollout!.steps.map(s => s.manualApproval), one.rollout!.stallsAtStep]).toEqual([[[4, 4]], [true], undefined]);
  });
  test('blue-green on a CloneSet stops for good at a step that asks for more new pods than the CloneSet surges', () => {
    const ro = rollout(CS, { blueGreen: { steps: [{ replicas: '50%' }, { replicas: '100%' }, { replicas: '100%', pause: { duration: 30 } }] } });
    const w = only([ro, cloneSet(OLD, { strategy: { type: 'ReCreate' } })], [ro, cloneSet(NEW, { strategy: { type: 'ReCreate' } })]);
    expect([w.podsUpdated, w.podsOnOldRevision, w.batches, w.rollout!.stallsAtStep]).toEqual([2, 4, [2], 2]);
    expect(w.rollout!.steps.map(s => [s.podsOnNewRevision, s.podsOnOldRevision, s.manualApproval, s.stalls]))
      .toEqual([[2, 4, true, undefined], [2, 4, false, true], [undefined, undefined, false, undefined]]);
    expect(w.rollout!.steps[1].summary).toBe('step 2 (replicas "100%"): the release stops here for good with 2 pods of the new revision next to all 4 pods of the old one: '
      + 'the step asks for 4 pods, but with 2 pods already new the CloneSet controller surges at most 2 (the old pods it still has to replace), '
      + 'and a blue-green release never lets it replace one; the step never pauses and nothing after it runs');
    expect(w.rollout!.steps[2].summary).toBe('step 3 (replicas "100%"): never runs (the release stops at step 2)');
    expect(w.rollout!.completion).toBe('the release never completes: it stops at step 2, with the old pods running next to the new ones, until the Rollout or the workload changes');
    expect(w.summary).toMatch(/released by Rollout web blue-green in 3 steps \(new pods after each: 2, 2\), and stops for good at step 2$/);
    expect(w.notes).toContainEqual(expect.stringMatching(/^the blue-green release of Rollout web stops at step 2: .* make the first step the largest/));
    // a Deployment's ReplicaSets surge to the step: the same steps reach every pod
    expect(stepPods('apps/Deployment', RolloutReleaseStyle.BLUE_GREEN, 4, ['50%', '100%']).map(s => s.newPods)).toEqual([2, 4]);
  });
  test('blue-green on a Recreate Deployment', () => {
    const dep = (image: string) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default', labels: { [LABEL]: 'deployment' } },
      spec: { replicas: 2, strategy: { type: 'Recreate' }, selector: { matchLabels: { app: 'web' } }, template: template(image) },
    });
    const ro = rollout(DEP, { blueGreen: { steps: [{ replicas: '100%' }] } });
    expect(only([ro, dep(OLD)], [ro, dep(NEW)]).rejectedField).toBe('spec.strategy.type');
  });
});

describe('Rollout objects', () => {
  const live = (m: any, phase: string) => ({ ...m, metadata: { ...m.metadata, annotations: { 'rollouts.kruise.io/hash': 'x' } }, status: { phase } });
  const ro = rollout(CS, canary(STEPS, { trafficRoutings: [{ service: 'web', ingress: { name: 'web' } }] }));
  const plan = (o: any[], n: any[], opts: any = {}) => UpdatePlan.compare(o, n, opts).rollouts;

  test('added, removed, unchanged (the CRD defaults and the controller\'s annotations do not count)', () => {
    expect(plan([], [ro]).map(r => [r.change, r.workload])).toEqual([[RolloutChange.CREATE, 'CloneSet default/web']]);
    expect(plan([ro], []).map(r => r.change)).toEqual([RolloutChange.DELETE]);
    const defaulted = rollout(CS, canary(STEPS, { trafficRoutings: [{ service: 'web', ingress: { name: 'web' }, gracePeriodSeconds: 3 }] }));
    expect(plan([live(defaulted, 'Healthy')], [ro], { oldIsLive: true })).toEqual([]);
  });
  test.each([
    ['the workload reference', (m: any) => { m.spec.workloadRef = { ...CS, name: 'api' }; }, 'spec.workloadRef'],
    ['the traffic routing', (m: any) => { m.spec.strategy.canary.trafficRoutings[0].service = 'web2'; }, 'spec.strategy.canary.trafficRoutings'],
    ['the style', (m: any) => { m.spec.strategy.canary.enableExtraWorkloadForCanary = true; }, 'spec.strategy.canary.enableExtraWorkloadForCanary'],
    ['the number of steps', (m: any) => { m.spec.strategy.canary.steps.pop(); }, 'spec.strategy.canary.steps'],
  ])('%s: refused while a release is Progressing (live), a note otherwise', (_what, change, field) => {
    const n = JSON.parse(JSON.stringify(ro));
    change(n);
    const refused = UpdatePlan.compare([live(ro, 'Progressing')], [n], { oldIsLive: true });
    expect([refused.rejected, refused.rollouts[0].change, refused.rollouts[0].rejectedField, refused.rollouts[0].livePhase]).toEqual([true, RolloutChange.REJECTED, field, 'Progressing']);
    expect(refused.rollouts[0].rejection).toMatch(new RegExp(`^${field.replace(/\./g, '\\.')}: .* while the release is Progressing, which the Rollout webhook refuses; apply this Rollout change after the release completes`));
    const healthy = UpdatePlan.compare([live(ro, 'Healthy')], [n], { oldIsLive: true });
    expect([healthy.rejected, healthy.rollouts[0].change, healthy.rollouts[0].notes]).toEqual([false, RolloutChange.UPDATE, []]);
    const manifests = UpdatePlan.compare([ro], [n]);
    expect(manifests.rollouts[0].notes[0]).toBe(`refused by the Rollout webhook if a release is in progress when it is applied (${field}: ${refused.rollouts[0].rejection!.split(' changes ')[1].split(' while')[0]}); `
      + 'the plan reads manifests, not the cluster: compare with live objects (--old-live) to know');
  });
  test('step values may change during a release: the release recomputes its current step', () => {
    const n = JSON.parse(JSON.stringify(ro));
    n.spec.strategy.canary.steps[0].replicas = 2;
    const r = plan([live(ro, 'Progressing')], [n], { oldIsLive: true })[0];
    expect([r.change, r.summary, r.notes]).toEqual([RolloutChange.UPDATE, 'changes the steps', ['the release in progress recomputes its current step from the new steps']]);
  });
  test('v1alpha1: the rolling-style annotation is frozen during a release, the step count is not', () => {
    const a = (steps: any[], style?: string) => ({
      apiVersion: 'rollouts.kruise.io/v1alpha1',
      kind: 'Rollout',
      metadata: { name: 'web', namespace: 'default', ...(style ? { annotations: { 'rollouts.kruise.io/rolling-style': style } } : {}) },
      spec: { objectRef: { workloadRef: CS }, strategy: { canary: { steps } } },
    });
    const liveOld = { ...rollout(CS, canary([{ replicas: 1 }, { replicas: 2 }], { enableExtraWorkloadForCanary: false })), status: { phase: 'Progressing' } };
    expect(plan([liveOld], [a([{ replicas: 1 }])], { oldIsLive: true })[0].change).toBe(RolloutChange.UPDATE);
    const r = plan([liveOld], [a([{ replicas: 1 }, { replicas: 2 }], 'canary')], { oldIsLive: true })[0];
    expect([r.change, r.rejectedField]).toEqual([RolloutChange.REJECTED, 'metadata.annotations["rollouts.kruise.io/rolling-style"]']);
  });
  test('disabling or deleting a Rollout mid-release releases every remaining pod at once: a conflict (exit 3)', () => {
    const disabled = rollout(CS, canary(STEPS, { trafficRoutings: [{ service: 'web', ingress: { name: 'web' } }] }), { disabled: true });
    const r = UpdatePlan.compare([live(ro, 'Progressing')], [disabled], { oldIsLive: true });
    expect([r.rejected, r.releaseConflict, r.rollouts[0].releaseConflicts]).toEqual([false, true,
      ['disabling Rollout web while its release is Progressing ends the release by releasing every remaining pod of CloneSet default/web at once; disable it after the release completes']]);
    expect(UpdatePlan.compare([live(ro, 'Progressing')], [], { oldIsLive: true }).rollouts[0].releaseConflicts[0]).toMatch(/^deleting Rollout web while its release is Progressing/);
    expect(UpdatePlan.compare([ro], [disabled]).rollouts[0].notes[0]).toMatch(/^disabling it while a release is in progress ends the release/);
  });
});

describe('a release in progress (live objects)', () => {
  const inProgress = { 'rollouts.kruise.io/in-progressing': '{"rolloutName":"web"}' };
  const ro = { ...rollout(CS, canary(STEPS)), status: { phase: 'Progressing' } };
  const liveCs = (partition: any, extra: any = {}) => cloneSet(NEW, { annotations: inProgress, strategy: { type: 'InPlaceIfPossible', partition, paused: false, ...extra } });

  test('a re-applied partition releases the pods the release holds, at once', () => {
    const r = UpdatePlan.compare([ro, liveCs(3)], [rollout(CS, canary(STEPS)), cloneSet(NEW, { strategy: { type: 'InPlaceIfPossible', partition: 0 } })], { oldIsLive: true });
    expect([r.rejected, r.releaseConflict]).toEqual([false, true]);
    const w = r.workloads[0];
    expect([w.updateType, w.podsUpdated, w.podsOnOldRevision, w.batches]).toEqual([UpdateType.NONE, 3, 0, [3]]);
    expect(w.releaseConflicts).toEqual(['spec.updateStrategy.partition: 0 replaces the partition 3 that Rollout web\'s release holds, so 3 pods move at once, outside the Rollout\'s steps; remove partition from the manifest (the release drives it)']);
    // a percentage partition, as the release writes it
    expect(UpdatePlan.compare([ro, liveCs('75%')], [rollout(CS, canary(STEPS)), cloneSet(NEW, { strategy: { type: 'InPlaceIfPossible', partition: '25%' } })], { oldIsLive: true })
      .workloads[0].podsUpdated).toBe(2);
  });
  test('paused, and blue-green surge settings, fight it too; nothing fights a workload that is not in a release', () => {
    const paused = UpdatePlan.compare([ro, liveCs(3)], [rollout(CS, canary(STEPS)), cloneSet(NEW, { strategy: { type: 'InPlaceIfPossible', paused: true } })], { oldIsLive: true });
    expect(paused.workloads[0].releaseConflicts[0]).toMatch(/^spec.updateStrategy.paused: true pauses the CloneSet under Rollout web's release/);
    const bg = { ...rollout(CS, { blueGreen: { steps: [{ replicas: '50%' }] } }), status: { phase: 'Progressing' } };
    const liveBg = cloneSet(NEW, { annotations: inProgress, strategy: { type: 'ReCreate', maxSurge: '50%', maxUnavailable: 0 } });
    const r = UpdatePlan.compare([bg, liveBg], [rollout(CS, { blueGreen: { steps: [{ replicas: '50%' }] } }), cloneSet(NEW, { strategy: { type: 'ReCreate', maxUnavailable: 1 } })], { oldIsLive: true });
    expect(r.workloads[0].releaseConflicts).toEqual([expect.stringMatching(/^spec.updateStrategy.maxUnavailable: 1 replaces the value 0 Rollout web's release set for the blue-green switch/)]);
    const idle = UpdatePlan.compare([{ ...ro, status: { phase: 'Healthy' } }, cloneSet(NEW, { strategy: { type: 'InPlaceIfPossible', partition: 3 } })],
      [rollout(CS, canary(STEPS)), cloneSet(NEW, { strategy: { type: 'InPlaceIfPossible', partition: 0 } })], { oldIsLive: true });
    expect([idle.releaseConflict, idle.workloads]).toEqual([false, []]);
  });
  test('a new version mid-release: a canary release restarts from step 1; a blue-green release refuses it', () => {
    const liveOld = cloneSet(OLD, { annotations: inProgress });
    const canaryPlan = only([ro, liveOld], [rollout(CS, canary(STEPS)), cloneSet(NEW)], { oldIsLive: true });
    expect([canaryPlan.rollout!.inEffect, canaryPlan.notes[0]]).toEqual([true, 'a release of Rollout web is in progress: this new revision restarts it from step 1']);
    const bg = { ...rollout(CS, { blueGreen: { steps: [{ replicas: '50%' }] } }), status: { phase: 'Progressing' } };
    const s = { strategy: { type: 'ReCreate' } };
    const w = only([bg, cloneSet(OLD, { ...s, annotations: inProgress })], [rollout(CS, { blueGreen: { steps: [{ replicas: '50%' }] } }), cloneSet(NEW, s)], { oldIsLive: true });
    expect([w.updateType, w.rejectedBy, w.rejectedField, w.podsUpdated]).toEqual([UpdateType.REJECTED, RejectedBy.CONTROLLER, 'spec.template', 0]);
  });
});

describe('rendering', () => {
  const ro = rollout(CS, canary([{ replicas: 1, traffic: '20%' }, { replicas: '100%' }], { trafficRoutings: [{ service: 'web', ingress: { name: 'web' } }] }));
  const report = UpdatePlan.compare([ro, cloneSet(OLD)], [ro, cloneSet(NEW)]);
  test('table: the batches name the Rollout, each step on a line of its own', () => {
    const t = UpdatePlan.render(report, PlanFormat.TABLE);
    expect(t.split('\n').slice(0, 2)).toEqual([
      'OBJECT                UPDATE   UPDATED  OLD  BATCHES',
      'CloneSet default/web  InPlace        4    0  1,3 (Rollout web)',
    ]);
    expect(t).toContain('\n      step 1 (replicas 1): 1 of 4 pods on the new revision, 3 on the old one; 20% of the traffic to the new pods; waits for approval (kubectl-kruise rollout approve rollout/web -n default)\n');
    expect(t).toContain('\n      after the last step the release completes: the partition is removed\n');
  });
  test('markdown: a table of the steps', () => {
    const m = UpdatePlan.render(report, PlanFormat.MARKDOWN);
    expect(m).toContain([
      '| Step | Replicas | Pods on new revision | Pods on old revision | Traffic | Pause |',
      '|---:|---|---:|---:|---|---|',
      '| 1 | 1 | 1 | 3 | 20% | approval |',
      '| 2 | 100% | 4 | 0 | - | none (completes) |',
    ].join('\n'));
  });
  test('json: the release in the workload, the Rollout objects, the conflict flag', () => {
    const j = JSON.parse(UpdatePlan.render(report, PlanFormat.JSON));
    expect([j.workloads[0].rollout.steps.length, j.rollouts, j.releaseConflict]).toEqual([2, [], false]);
  });
  test('a conflict is bold in markdown and counted in the result', () => {
    const liveRo = { ...rollout(CS, canary(STEPS)), status: { phase: 'Progressing' } };
    const liveCs = cloneSet(NEW, { annotations: { 'rollouts.kruise.io/in-progressing': '{}' }, strategy: { type: 'InPlaceIfPossible', partition: 3 } });
    const r = UpdatePlan.compare([liveRo, liveCs], [rollout(CS, canary(STEPS)), cloneSet(NEW, { strategy: { type: 'InPlaceIfPossible', partition: 0 } })], { oldIsLive: true });
    const m = UpdatePlan.render(r, PlanFormat.MARKDOWN);
    expect(m).toContain('- **fights the release in progress:** spec.updateStrategy.partition: 0 replaces the partition 3');
    expect(m).toContain('**Result:** nothing the cluster will refuse; 1 change fights a release in progress.');
  });
});

describe('the documentation shows what the plan prints', () => {
  const block = (file: string, after: string): string => {
    const text = fs.readFileSync(path.join(__dirname, '..', '..', file), 'utf-8');
    const start = text.indexOf(after);
    expect(start).toBeGreaterThan(0);
    return text.slice(start + after.length, text.indexOf('```', start + after.length));
  };
  test('docs/progressive-delivery.md: an image bump under a Rollout that routes traffic', () => {
    const ro = rollout(CS, canary([{ replicas: 1, traffic: '20%' }, { replicas: '50%', pause: { duration: 15 } }, { replicas: '100%' }],
      { trafficRoutings: [{ service: 'web', ingress: { name: 'web' } }] }));
    const out = UpdatePlan.render(UpdatePlan.compare([ro, cloneSet(OLD)], [ro, cloneSet(NEW)]), PlanFormat.TABLE);
    expect(block('docs/progressive-delivery.md', 'has the steps `1` (20 % of the traffic, approval),\n`"50%"` (15 s) and `"100%"`:\n\n```text\n$ npx cdk8s-kruise plan --old old --new new\n')).toBe(out);
  });
  test('docs/update-plan.md: the rollout-traffic golden case', () => {
    const c = PLAN_ROLLOUT_GOLDEN.find(x => x.id === 'rollout-traffic')!;
    const out = UpdatePlan.render(UpdatePlan.compare(c.old, c.new), PlanFormat.TABLE);
    expect(block('docs/update-plan.md', '(`rollout-traffic` of the\ngolden set):\n\n```text\n$ npx cdk8s-kruise plan --old old --new new\n')).toBe(out);
  });
});
