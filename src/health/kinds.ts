/**
 * The health of every OpenKruise and Kruise Rollouts kind whose status says
 * something, read from the statuses the v1.9.0 and v0.6.2 controllers write
 * (counters with `omitempty` are absent when 0, so every read names 0 as its
 * default). One rule per kind; `lua.ts` and `cel.ts` compile it for Argo CD
 * and Flux.
 *
 * Outcomes: Healthy, the update the spec asks for is done; Progressing, an
 * update or a job is under way, or the controller has not yet observed the
 * spec; Suspended, the update stopped where the spec says (a partition
 * reached, paused, OnDelete pods waiting to be deleted, a paused job or
 * Rollout step); Degraded, a job failed or a progress deadline passed.
 */
import {
  and, anyItem, clause, Clause, condition, conditionField, eq, Expr, flag, ge, gt, has, iff, KindRule,
  lit, lt, minus, ne, not, num, or, partitionCount, plus, ref, size, str, sumItems,
} from './rule';

/** Flux's own first check, made by Argo CD's script too: the controller has seen the spec. */
function generation(title: string): Clause {
  return {
    ...clause(
      and(has('status.observedGeneration'), ne(num('status.observedGeneration'), num('metadata.generation'))),
      'Progressing', `${title}: generation `, num('metadata.generation'), ' is not observed yet (observed ', num('status.observedGeneration'), ')'),
    fluxBuiltIn: true,
  };
}

const KRUISE = 'apps.kruise.io';

const R = ref('replicas');

const CLONE_SET: KindRule = {
  group: KRUISE,
  kind: 'CloneSet',
  apiVersion: 'apps.kruise.io/v1alpha1',
  title: 'CloneSet',
  lets: [
    ['replicas', num('spec.replicas', 1)],
    ['pods', num('status.replicas')],
    ['updated', num('status.updatedReplicas')],
    ['updatedAvailable', num('status.updatedAvailableReplicas')],
    // the controller's own count: spec.replicas less the partition, rounded as OpenKruise rounds it
    ['expected', num('status.expectedUpdatedReplicas')],
  ],
  clauses: [
    generation('CloneSet'),
    clause(condition('Progressing', { status: 'False', reason: 'ProgressDeadlineExceeded' }),
      'Degraded', 'CloneSet: ', conditionField('Progressing', 'message')),
    clause(and(eq(ref('pods'), R), eq(ref('updated'), R), eq(ref('updatedAvailable'), R)),
      'Healthy', 'CloneSet: ', R, ' of ', R, ' pods updated and available'),
    clause(flag('spec.updateStrategy.paused'),
      'Suspended', 'CloneSet: update paused (updateStrategy.paused) with ', ref('updated'), ' of ', R, ' pods updated'),
    clause(and(lt(ref('expected'), R), ge(ref('updatedAvailable'), ref('expected')), eq(ref('pods'), R)),
      'Suspended', 'CloneSet: partition reached, ', ref('updated'), ' of ', R, ' pods updated; move updateStrategy.partition to update more'),
  ],
  otherwise: {
    outcome: 'Progressing',
    message: ['CloneSet: ', ref('updated'), ' of ', R, ' pods updated, ', ref('updatedAvailable'), ' of them available (', ref('pods'), ' pods)'],
  },
};

const ASTS_RU = 'spec.updateStrategy.rollingUpdate';
const STATEFUL_SET: KindRule = {
  group: KRUISE,
  kind: 'StatefulSet',
  apiVersion: 'apps.kruise.io/v1beta1',
  title: 'Advanced StatefulSet',
  lets: [
    ['replicas', num('spec.replicas', 1)],
    ['pods', num('status.replicas')],
    ['updated', num('status.updatedReplicas')],
    // v1alpha1 has no updatedAvailableReplicas: every pod available is read in both versions
    ['available', num('status.availableReplicas')],
    ['partition', iff(lt(num(`${ASTS_RU}.partition`), lit(0)), lit(0), iff(gt(num(`${ASTS_RU}.partition`), R), R, num(`${ASTS_RU}.partition`)))],
  ],
  clauses: [
    generation('Advanced StatefulSet'),
    clause(and(eq(ref('pods'), R), eq(ref('updated'), R), eq(ref('available'), R)),
      'Healthy', 'Advanced StatefulSet: ', R, ' of ', R, ' pods updated and available'),
    clause(flag(`${ASTS_RU}.paused`),
      'Suspended', 'Advanced StatefulSet: update paused (rollingUpdate.paused) with ', ref('updated'), ' of ', R, ' pods updated'),
    clause(and(eq(str('spec.updateStrategy.type'), lit('OnDelete')), eq(ref('pods'), R), eq(ref('available'), R)),
      'Suspended', 'Advanced StatefulSet: OnDelete, ', ref('updated'), ' of ', R, ' pods updated; the others update when they are deleted'),
    clause(and(gt(ref('partition'), lit(0)), eq(ref('pods'), R), ge(ref('updated'), minus(R, ref('partition'))), eq(ref('available'), R)),
      'Suspended', 'Advanced StatefulSet: partition reached, ', ref('updated'), ' of ', R, ' pods updated; lower rollingUpdate.partition to update more'),
  ],
  otherwise: {
    outcome: 'Progressing',
    message: ['Advanced StatefulSet: ', ref('updated'), ' of ', R, ' pods updated, ', ref('available'), ' available (', ref('pods'), ' pods)'],
  },
};

const ADS_RU = 'spec.updateStrategy.rollingUpdate';
const D = ref('desired');
const DAEMON_SET: KindRule = {
  group: KRUISE,
  kind: 'DaemonSet',
  apiVersion: 'apps.kruise.io/v1beta1',
  title: 'Advanced DaemonSet',
  lets: [
    ['desired', num('status.desiredNumberScheduled')],
    ['updated', num('status.updatedNumberScheduled')],
    ['available', num('status.numberAvailable')],
    // the pods a partition keeps: a number, or a percentage of the desired pods rounded down
    ['partition', partitionCount(`${ADS_RU}.partition`, D, 'floor', false)],
  ],
  clauses: [
    generation('Advanced DaemonSet'),
    clause(lt(ref('partition'), lit(0)),
      'Progressing', 'Advanced DaemonSet: rollingUpdate.partition ', str(`${ADS_RU}.partition`), ' is not read; write a number or a whole percentage from 0% to 100%'),
    clause(and(eq(ref('updated'), D), eq(ref('available'), D)),
      'Healthy', 'Advanced DaemonSet: ', D, ' of ', D, ' pods updated and available'),
    clause(flag(`${ADS_RU}.paused`),
      'Suspended', 'Advanced DaemonSet: update paused (rollingUpdate.paused) with ', ref('updated'), ' of ', D, ' pods updated'),
    clause(and(eq(str('spec.updateStrategy.type'), lit('OnDelete')), eq(ref('available'), D)),
      'Suspended', 'Advanced DaemonSet: OnDelete, ', ref('updated'), ' of ', D, ' pods updated; the others update when they are deleted'),
    clause(and(gt(ref('partition'), lit(0)), ge(ref('updated'), minus(D, ref('partition'))), eq(ref('available'), D)),
      'Suspended', 'Advanced DaemonSet: partition reached, ', ref('updated'), ' of ', D, ' pods updated; lower rollingUpdate.partition to update more'),
    clause(and(has(`${ADS_RU}.selector`), eq(ref('available'), D)),
      'Suspended', 'Advanced DaemonSet: ', ref('updated'), ' of ', D, ' pods updated, every pod available; only nodes rollingUpdate.selector matches are updated'),
  ],
  otherwise: {
    outcome: 'Progressing',
    message: ['Advanced DaemonSet: ', ref('updated'), ' of ', D, ' pods updated, ', ref('available'), ' available'],
  },
};

const M = ref('matched');
const SIDECAR_SET: KindRule = {
  group: KRUISE,
  kind: 'SidecarSet',
  apiVersion: 'apps.kruise.io/v1beta1',
  title: 'SidecarSet',
  lets: [
    ['matched', num('status.matchedPods')],
    ['updated', num('status.updatedPods')],
    ['updatedReady', num('status.updatedReadyPods')],
    // OpenKruise's CalculatePartitionReplicas over the matched pods
    ['partition', partitionCount('spec.updateStrategy.partition', M, 'ceil', true)],
  ],
  clauses: [
    generation('SidecarSet'),
    clause(lt(ref('partition'), lit(0)),
      'Progressing', 'SidecarSet: updateStrategy.partition ', str('spec.updateStrategy.partition'), ' is not read; write a number or a whole percentage from 0% to 100%'),
    clause(and(eq(ref('updated'), M), eq(ref('updatedReady'), M)),
      'Healthy', 'SidecarSet: ', M, ' of ', M, ' pods updated and ready'),
    clause(eq(str('spec.updateStrategy.type'), lit('NotUpdate')),
      'Healthy', 'SidecarSet: NotUpdate, new pods get the new sidecars (', ref('updated'), ' of ', M, ' pods updated)'),
    clause(flag('spec.updateStrategy.paused'),
      'Suspended', 'SidecarSet: update paused (updateStrategy.paused) with ', ref('updated'), ' of ', M, ' pods updated'),
    clause(and(gt(ref('partition'), lit(0)), ge(ref('updated'), minus(M, ref('partition'))), eq(ref('updatedReady'), ref('updated'))),
      'Suspended', 'SidecarSet: partition reached, ', ref('updated'), ' of ', M, ' pods updated; lower updateStrategy.partition to update more'),
    clause(and(has('spec.updateStrategy.selector'), eq(ref('updatedReady'), ref('updated'))),
      'Suspended', 'SidecarSet: ', ref('updated'), ' of ', M, ' pods updated and ready; only pods updateStrategy.selector matches are updated'),
  ],
  otherwise: {
    outcome: 'Progressing',
    message: ['SidecarSet: ', ref('updated'), ' of ', M, ' pods updated, ', ref('updatedReady'), ' of them ready'],
  },
};

const N = ref('pods');
const UNITED_DEPLOYMENT: KindRule = {
  group: KRUISE,
  kind: 'UnitedDeployment',
  apiVersion: 'apps.kruise.io/v1alpha1',
  title: 'UnitedDeployment',
  lets: [
    ['pods', num('status.replicas')],
    ['updated', num('status.updatedReplicas')],
    ['updatedReady', num('status.updatedReadyReplicas')],
    // the partitions in force, per subset (manualUpdate.partitions as the controller applies them)
    ['partition', sumItems('status.subsetStatuses', 'partition', 16)],
  ],
  clauses: [
    generation('UnitedDeployment'),
    clause(lt(ref('partition'), lit(0)),
      'Progressing', 'UnitedDeployment: more than 16 subsets, which the health rule does not read'),
    clause(and(or(not(has('spec.replicas')), eq(N, num('spec.replicas'))), eq(ref('updated'), N), eq(ref('updatedReady'), N)),
      'Healthy', 'UnitedDeployment: ', N, ' of ', N, ' pods updated and ready'),
    clause(and(gt(ref('partition'), lit(0)), ge(ref('updatedReady'), minus(N, ref('partition'))),
      or(not(has('spec.replicas')), eq(N, num('spec.replicas')))),
    'Suspended', 'UnitedDeployment: partitions reached, ', ref('updated'), ' of ', N, ' pods updated; lower manualUpdate.partitions to update more'),
    clause(condition('SubsetFailure', { status: 'True' }),
      'Progressing', 'UnitedDeployment: a subset fails: ', conditionField('SubsetFailure', 'message')),
  ],
  otherwise: {
    outcome: 'Progressing',
    message: ['UnitedDeployment: ', ref('updated'), ' of ', N, ' pods updated, ', ref('updatedReady'), ' of them ready'],
  },
};

const phase = (v: string): Expr => eq(str('status.phase'), lit(v));
const never = eq(str('spec.completionPolicy.type'), lit('Never'));

const BROADCAST_JOB: KindRule = {
  group: KRUISE,
  kind: 'BroadcastJob',
  apiVersion: 'apps.kruise.io/v1beta1',
  title: 'BroadcastJob',
  lets: [
    ['desired', num('status.desired')],
    ['active', num('status.active')],
    ['succeeded', num('status.succeeded')],
    ['failed', num('status.failed')],
  ],
  clauses: [
    generation('BroadcastJob'),
    clause(or(phase('failed'), condition('Failed', { status: 'True' })),
      'Degraded', 'BroadcastJob failed: ', conditionField('Failed', 'message'), ' (', ref('succeeded'), ' of ', D, ' pods succeeded, ', ref('failed'), ' failed)'),
    clause(and(phase('completed'), gt(ref('failed'), lit(0))),
      'Degraded', 'BroadcastJob completed with ', ref('failed'), ' of ', D, ' pods failed'),
    clause(phase('completed'),
      'Healthy', 'BroadcastJob completed: ', ref('succeeded'), ' of ', D, ' pods succeeded'),
    clause(phase('paused'),
      'Suspended', 'BroadcastJob paused: ', ref('succeeded'), ' of ', D, ' pods succeeded, ', ref('failed'), ' failed'),
    clause(and(never, gt(ref('failed'), lit(0))),
      'Degraded', 'BroadcastJob (completionPolicy Never): ', ref('failed'), ' of ', D, ' pods failed'),
    clause(and(never, ge(plus(ref('active'), ref('succeeded')), D)),
      'Healthy', 'BroadcastJob (completionPolicy Never) runs on every node: ', ref('active'), ' running, ', ref('succeeded'), ' succeeded'),
  ],
  otherwise: {
    outcome: 'Progressing',
    message: ['BroadcastJob running: ', ref('active'), ' active, ', ref('succeeded'), ' of ', D, ' pods succeeded'],
  },
};

const ADVANCED_CRON_JOB: KindRule = {
  group: KRUISE,
  kind: 'AdvancedCronJob',
  apiVersion: 'apps.kruise.io/v1beta1',
  title: 'AdvancedCronJob',
  // the controller writes no status until the first run; the jobs it creates have their own health
  statusRequired: false,
  clauses: [
    clause(flag('spec.paused'), 'Suspended', 'AdvancedCronJob paused (spec.paused)'),
  ],
  otherwise: {
    outcome: 'Healthy',
    message: ['AdvancedCronJob scheduled (', str('spec.schedule'), '), ', size('status.active'), ' job(s) running, last run ', str('status.lastScheduleTime', 'never')],
  },
};

const finished = or(has('status.completionTime'), never);
const IMAGE_PULL_JOB: KindRule = {
  group: KRUISE,
  kind: 'ImagePullJob',
  apiVersion: 'apps.kruise.io/v1beta1',
  title: 'ImagePullJob',
  lets: [
    ['desired', num('status.desired')],
    ['active', num('status.active')],
    ['succeeded', num('status.succeeded')],
    ['failed', num('status.failed')],
  ],
  clauses: [
    clause(and(gt(ref('failed'), lit(0)), eq(ref('active'), lit(0)), finished),
      'Degraded', 'ImagePullJob: ', ref('failed'), ' of ', D, ' nodes failed to pull: ', str('status.message')),
    clause(and(eq(ref('active'), lit(0)), ge(ref('succeeded'), D), finished),
      'Healthy', 'ImagePullJob: pulled on ', ref('succeeded'), ' of ', D, ' nodes'),
  ],
  otherwise: {
    outcome: 'Progressing',
    message: ['ImagePullJob: pulled on ', ref('succeeded'), ' of ', D, ' nodes, ', ref('active'), ' pulling, ', ref('failed'), ' failed'],
  },
};

const IMAGE_LIST_PULL_JOB: KindRule = {
  group: KRUISE,
  kind: 'ImageListPullJob',
  apiVersion: 'apps.kruise.io/v1beta1',
  title: 'ImageListPullJob',
  lets: [
    ['desired', num('status.desired')],
    ['completed', num('status.completed')],
    ['succeeded', num('status.succeeded')],
  ],
  clauses: [
    clause(and(ge(ref('completed'), D), lt(ref('succeeded'), D), finished),
      'Degraded', 'ImageListPullJob: ', minus(D, ref('succeeded')), ' of ', D, ' images failed to pull on some node (', size('status.failedImageStatuses'), ' listed in status.failedImageStatuses)'),
    clause(and(ge(ref('succeeded'), D), finished),
      'Healthy', 'ImageListPullJob: ', ref('succeeded'), ' of ', D, ' images pulled'),
  ],
  otherwise: {
    outcome: 'Progressing',
    message: ['ImageListPullJob: ', ref('completed'), ' of ', D, ' images done, ', ref('succeeded'), ' pulled'],
  },
};

const ephemeralPhase = (v: string): Expr => eq(str('status.phase'), lit(v));
const EPHEMERAL_JOB: KindRule = {
  group: KRUISE,
  kind: 'EphemeralJob',
  apiVersion: 'apps.kruise.io/v1alpha1',
  title: 'EphemeralJob',
  clauses: [
    clause(or(ephemeralPhase('Failed'), ephemeralPhase('Error')),
      'Degraded', 'EphemeralJob ', str('status.phase'), ': ', num('status.failed'), ' of ', num('status.match'), ' pods failed'),
    clause(ephemeralPhase('Succeeded'),
      'Healthy', 'EphemeralJob succeeded in ', num('status.succeeded'), ' of ', num('status.match'), ' pods'),
    clause(ephemeralPhase('Paused'), 'Suspended', 'EphemeralJob paused (spec.paused)'),
  ],
  otherwise: {
    outcome: 'Progressing',
    message: ['EphemeralJob ', str('status.phase', 'Waiting'), ': ', num('status.running'), ' running, ', num('status.succeeded'), ' of ', num('status.match'), ' pods succeeded'],
  },
};

const CONTAINER_RECREATE_REQUEST: KindRule = {
  group: KRUISE,
  kind: 'ContainerRecreateRequest',
  apiVersion: 'apps.kruise.io/v1alpha1',
  title: 'ContainerRecreateRequest',
  clauses: [
    clause(or(phase('Failed'), and(or(phase('Completed'), phase('Succeeded')), anyItem('status.containerRecreateStates', 'phase', 'Failed'))),
      'Degraded', 'ContainerRecreateRequest failed: ', str('status.message')),
    clause(or(phase('Completed'), phase('Succeeded')), 'Healthy', 'ContainerRecreateRequest completed'),
  ],
  otherwise: { outcome: 'Progressing', message: ['ContainerRecreateRequest ', str('status.phase', 'Pending')] },
};

const RESOURCE_DISTRIBUTION: KindRule = {
  group: KRUISE,
  kind: 'ResourceDistribution',
  apiVersion: 'apps.kruise.io/v1alpha1',
  title: 'ResourceDistribution',
  lets: [
    ['desired', num('status.desired')],
    ['succeeded', num('status.succeeded')],
    ['failed', num('status.failed')],
  ],
  clauses: [
    generation('ResourceDistribution'),
    clause(gt(ref('failed'), lit(0)),
      'Degraded', 'ResourceDistribution: ', ref('failed'), ' of ', D, ' namespaces failed (see status.conditions)'),
    clause(ge(ref('succeeded'), D), 'Healthy', 'ResourceDistribution: distributed to ', ref('succeeded'), ' of ', D, ' namespaces'),
  ],
  otherwise: {
    outcome: 'Progressing',
    message: ['ResourceDistribution: distributed to ', ref('succeeded'), ' of ', D, ' namespaces'],
  },
};

/** A policy: healthy once its controller has seen its spec. */
function policy(kind: string, apiVersion: string, group: string, what: (string | Expr)[]): KindRule {
  return {
    group,
    kind,
    apiVersion,
    title: kind,
    statusRequired: false,
    clauses: [generation(kind)],
    otherwise: { outcome: 'Healthy', message: [`${kind}: `, ...what] },
  };
}

const POD_UNAVAILABLE_BUDGET = policy('PodUnavailableBudget', 'policy.kruise.io/v1alpha1', 'policy.kruise.io',
  [num('status.currentAvailable'), ' of ', num('status.totalReplicas'), ' pods available, ', num('status.unavailableAllowed'), ' may be disrupted']);
const WORKLOAD_SPREAD = policy('WorkloadSpread', 'apps.kruise.io/v1alpha1', KRUISE,
  [size('status.subsetStatuses'), ' subset(s) tracked']);
const PERSISTENT_POD_STATE = policy('PersistentPodState', 'apps.kruise.io/v1alpha1', KRUISE,
  [size('status.podStates'), ' pod state(s) recorded']);
const POD_PROBE_MARKER = policy('PodProbeMarker', 'apps.kruise.io/v1alpha1', KRUISE,
  [num('status.matchedPods'), ' pod(s) probed']);

const ROLLOUTS = 'rollouts.kruise.io';
// v1beta1 writes the step at the top of the status and in canaryStatus or blueGreenStatus; v1alpha1 in canaryStatus
/** A field of the Rollout's step status: v1beta1 writes it in canaryStatus or blueGreenStatus and at the top, v1alpha1 in canaryStatus. */
export const stepField = (f: string): Expr => iff(has(`status.canaryStatus.${f}`), str(`status.canaryStatus.${f}`),
  iff(has(`status.blueGreenStatus.${f}`), str(`status.blueGreenStatus.${f}`), str(`status.${f}`)));
/** The Rollout's current step (0 before a release). */
export const stepIndex = iff(has('status.canaryStatus.currentStepIndex'), num('status.canaryStatus.currentStepIndex'),
  iff(has('status.blueGreenStatus.currentStepIndex'), num('status.blueGreenStatus.currentStepIndex'), num('status.currentStepIndex')));
const rolloutPhase = (v: string): Expr => eq(str('status.phase'), lit(v));
const ROLLOUT: KindRule = {
  group: ROLLOUTS,
  kind: 'Rollout',
  apiVersion: 'rollouts.kruise.io/v1beta1',
  title: 'Rollout',
  lets: [['step', stepIndex], ['state', stepField('currentStepState')]],
  clauses: [
    generation('Rollout'),
    clause(rolloutPhase('Healthy'), 'Healthy', 'Rollout: no release in progress (', str('status.message', 'healthy'), ')'),
    clause(rolloutPhase('Disabled'), 'Healthy', 'Rollout disabled: the workload updates by its own strategy'),
    clause(and(rolloutPhase('Progressing'), condition('Progressing', { status: 'True', reason: 'Paused' })),
      'Suspended', 'Rollout paused (spec.strategy.paused) at step ', ref('step')),
    clause(and(rolloutPhase('Progressing'), eq(ref('state'), lit('StepPaused'))),
      'Suspended', 'Rollout: step ', ref('step'), ' paused; approve it (the Argo CD action approve, or kubectl-kruise rollout approve) or wait for its pause to end'),
  ],
  otherwise: {
    outcome: 'Progressing',
    message: ['Rollout ', str('status.phase', 'Initial'), ': step ', ref('step'), ' ', ref('state')],
  },
};

const TRAFFIC_ROUTING: KindRule = {
  group: ROLLOUTS,
  kind: 'TrafficRouting',
  apiVersion: 'rollouts.kruise.io/v1alpha1',
  title: 'TrafficRouting',
  clauses: [
    generation('TrafficRouting'),
    clause(rolloutPhase('Healthy'), 'Healthy', 'TrafficRouting: healthy'),
  ],
  otherwise: { outcome: 'Progressing', message: ['TrafficRouting ', str('status.phase', 'Initial'), ': ', str('status.message')] },
};

/** Every rule, in the order the outputs list them. */
export const KIND_RULES: readonly KindRule[] = [
  CLONE_SET, STATEFUL_SET, DAEMON_SET, SIDECAR_SET, UNITED_DEPLOYMENT,
  BROADCAST_JOB, ADVANCED_CRON_JOB, IMAGE_PULL_JOB, IMAGE_LIST_PULL_JOB, EPHEMERAL_JOB,
  CONTAINER_RECREATE_REQUEST, RESOURCE_DISTRIBUTION, WORKLOAD_SPREAD, PERSISTENT_POD_STATE, POD_PROBE_MARKER,
  POD_UNAVAILABLE_BUDGET, ROLLOUT, TRAFFIC_ROUTING,
];
