/**
 * Live objects as the OpenKruise v1.9.0 and Kruise Rollouts v0.6.2 controllers
 * leave them, with the health each rule gives them. Statuses are written as
 * the controllers serialize them: counters tagged `omitempty` in the Go types
 * are absent when 0 (CloneSet `updatedAvailableReplicas` and
 * `expectedUpdatedReplicas`, Advanced StatefulSet `updatedReadyReplicas` and
 * `updatedAvailableReplicas`, Advanced DaemonSet `numberAvailable` and
 * `numberUnavailable`, SidecarSet `updatedReadyPods`, UnitedDeployment
 * `readyReplicas` and `updatedReadyReplicas`, ...), the others always there.
 * The real node's tests (test/cluster/nodes/9-gitops) judge the statuses the
 * controllers really write.
 */
import type { HealthOutcome } from '../../src/health/rule';

export interface HealthFixture {
  readonly name: string;
  readonly object: { apiVersion: string; kind: string; metadata: any; spec?: any; status?: any };
  readonly outcome: HealthOutcome;
  /** The Argo CD message, where a test holds it word for word. */
  readonly message?: string;
}

const meta = (generation: number) => ({ name: 'web', namespace: 'shop', generation });
const cs = (generation: number, spec: any, status?: any) =>
  ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: meta(generation), spec: { selector: { matchLabels: { app: 'web' } }, ...spec }, status });
const csStatus = (generation: number, s: Record<string, unknown>) => ({
  observedGeneration: generation,
  replicas: 0,
  readyReplicas: 0,
  availableReplicas: 0,
  updatedReplicas: 0,
  updatedReadyReplicas: 0,
  updateRevision: 'web-7d9c',
  currentRevision: 'web-6f4b',
  labelSelector: 'app=web',
  ...s,
});
/** CloneSet counters: pods, ready (and available), updated, updated ready, updated available (omitempty), expected updated (omitempty). */
const csc = (pods: number, ready: number, updated: number, updatedReady: number, updatedAvailable: number, expected: number) => ({
  replicas: pods,
  readyReplicas: ready,
  availableReplicas: ready,
  updatedReplicas: updated,
  updatedReadyReplicas: updatedReady,
  ...(updatedAvailable ? { updatedAvailableReplicas: updatedAvailable } : {}),
  ...(expected ? { expectedUpdatedReplicas: expected } : {}),
});
const asts = (generation: number, spec: any, status?: any, apiVersion = 'apps.kruise.io/v1beta1') =>
  ({ apiVersion, kind: 'StatefulSet', metadata: meta(generation), spec: { serviceName: 'db', ...spec }, status });
const astsStatus = (generation: number, s: Record<string, unknown>) => ({
  observedGeneration: generation,
  replicas: 0,
  readyReplicas: 0,
  availableReplicas: 0,
  currentReplicas: 0,
  updatedReplicas: 0,
  currentRevision: 'db-1',
  updateRevision: 'db-2',
  collisionCount: 0,
  labelSelector: 'app=db',
  ...s,
});
const ads = (generation: number, spec: any, status?: any) =>
  ({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet', metadata: meta(generation), spec, status });
const adsStatus = (generation: number, s: Record<string, unknown>) => ({
  observedGeneration: generation,
  currentNumberScheduled: 0,
  numberMisscheduled: 0,
  desiredNumberScheduled: 0,
  numberReady: 0,
  updatedNumberScheduled: 0,
  daemonSetHash: 'agent-5c7',
  ...s,
});
const ss = (generation: number, spec: any, status?: any) =>
  ({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', metadata: { name: 'mesh', generation }, spec: { selector: { matchLabels: { mesh: 'on' } }, ...spec }, status });
const ssStatus = (generation: number, s: Record<string, unknown>) =>
  ({ observedGeneration: generation, matchedPods: 0, updatedPods: 0, readyPods: 0, latestRevision: 'mesh-9b', collisionCount: 0, ...s });
const bj = (spec: any, status?: any) =>
  ({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'BroadcastJob', metadata: meta(1), spec, status });
const ro = (generation: number, spec: any, status?: any, apiVersion = 'rollouts.kruise.io/v1beta1') =>
  ({ apiVersion, kind: 'Rollout', metadata: meta(generation), spec, status });
const time = '2026-12-04T10:00:00Z';

export const HEALTH_FIXTURES: readonly HealthFixture[] = [
  // CloneSet
  { name: 'CloneSet just created, no status', object: cs(1, { replicas: 4 }), outcome: 'Progressing', message: 'CloneSet: waiting for the controller to write status' },
  {
    name: 'CloneSet whose new spec is not observed yet',
    object: cs(3, { replicas: 4 }, csStatus(2, csc(4, 4, 4, 4, 4, 4))),
    outcome: 'Progressing',
    message: 'CloneSet: generation 3 is not observed yet (observed 2)',
  },
  {
    name: 'CloneSet rolled out',
    object: cs(2, { replicas: 4 }, csStatus(2, { replicas: 4, readyReplicas: 4, availableReplicas: 4, updatedReplicas: 4, updatedReadyReplicas: 4, updatedAvailableReplicas: 4, expectedUpdatedReplicas: 4, currentRevision: 'web-7d9c' })),
    outcome: 'Healthy',
    message: 'CloneSet: 4 of 4 pods updated and available',
  },
  {
    name: 'CloneSet in place, mid-way (one pod restarting)',
    object: cs(2, { replicas: 4 }, csStatus(2, csc(4, 3, 2, 1, 1, 4))),
    outcome: 'Progressing',
    message: 'CloneSet: 2 of 4 pods updated, 1 of them available (4 pods)',
  },
  {
    name: 'CloneSet just bumped: no pod updated yet (updated counters absent)',
    object: cs(2, { replicas: 4 }, csStatus(2, { replicas: 4, readyReplicas: 4, availableReplicas: 4, expectedUpdatedReplicas: 4 })),
    outcome: 'Progressing',
  },
  {
    name: 'CloneSet with partition 2 reached',
    object: cs(2, { replicas: 4, updateStrategy: { partition: 2 } }, csStatus(2, csc(4, 4, 2, 2, 2, 2))),
    outcome: 'Suspended',
    message: 'CloneSet: partition reached, 2 of 4 pods updated; move updateStrategy.partition to update more',
  },
  {
    name: 'CloneSet with partition 2 on the way',
    object: cs(2, { replicas: 4, updateStrategy: { partition: 2 } }, csStatus(2, csc(4, 3, 2, 1, 1, 2))),
    outcome: 'Progressing',
  },
  {
    name: 'CloneSet with partition "50%" reached',
    object: cs(2, { replicas: 5, updateStrategy: { partition: '50%' } }, csStatus(2, csc(5, 5, 2, 2, 2, 2))),
    outcome: 'Suspended',
  },
  {
    name: 'CloneSet with partition "0%" rolled out',
    object: cs(3, { replicas: 4, updateStrategy: { partition: '0%' } }, csStatus(3, { replicas: 4, readyReplicas: 4, availableReplicas: 4, updatedReplicas: 4, updatedReadyReplicas: 4, updatedAvailableReplicas: 4, expectedUpdatedReplicas: 4, currentRevision: 'web-7d9c' })),
    outcome: 'Healthy',
  },
  {
    name: 'CloneSet paused mid-way',
    object: cs(2, { replicas: 4, updateStrategy: { paused: true } }, csStatus(2, csc(4, 4, 1, 1, 1, 4))),
    outcome: 'Suspended',
    message: 'CloneSet: update paused (updateStrategy.paused) with 1 of 4 pods updated',
  },
  { name: 'CloneSet scaled to 0', object: cs(3, { replicas: 0 }, csStatus(3, {})), outcome: 'Healthy', message: 'CloneSet: 0 of 0 pods updated and available' },
  {
    name: 'CloneSet surging one pod over replicas',
    object: cs(2, { replicas: 4, updateStrategy: { maxSurge: 1 } }, csStatus(2, csc(5, 4, 4, 3, 3, 4))),
    outcome: 'Progressing',
  },
  {
    name: 'CloneSet past its progress deadline',
    object: cs(2, { replicas: 2, progressDeadlineSeconds: 60 }, csStatus(2, {
      replicas: 2,
      readyReplicas: 1,
      availableReplicas: 1,
      updatedReplicas: 1,
      expectedUpdatedReplicas: 2,
      conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: 'CloneSet revision web-7d9c has timed out progressing', lastTransitionTime: time, lastUpdateTime: time }],
    })),
    outcome: 'Degraded',
    message: 'CloneSet: CloneSet revision web-7d9c has timed out progressing',
  },
  {
    name: 'CloneSet within its progress deadline',
    object: cs(2, { replicas: 2, progressDeadlineSeconds: 600 }, csStatus(2, {
      replicas: 2,
      readyReplicas: 1,
      availableReplicas: 1,
      updatedReplicas: 1,
      expectedUpdatedReplicas: 2,
      conditions: [{ type: 'Progressing', status: 'True', reason: 'CloneSetUpdated', message: 'CloneSet is progressing', lastTransitionTime: time, lastUpdateTime: time }],
    })),
    outcome: 'Progressing',
  },

  // Advanced StatefulSet
  {
    name: 'Advanced StatefulSet rolled out',
    object: asts(2, { replicas: 3 }, astsStatus(2, { replicas: 3, readyReplicas: 3, availableReplicas: 3, currentReplicas: 3, updatedReplicas: 3, updatedReadyReplicas: 3, updatedAvailableReplicas: 3, currentRevision: 'db-2' })),
    outcome: 'Healthy',
    message: 'Advanced StatefulSet: 3 of 3 pods updated and available',
  },
  {
    name: 'Advanced StatefulSet (read as v1alpha1) rolled out',
    object: asts(2, { replicas: 3 }, astsStatus(2, { replicas: 3, readyReplicas: 3, availableReplicas: 3, currentReplicas: 3, updatedReplicas: 3, currentRevision: 'db-2' }), 'apps.kruise.io/v1alpha1'),
    outcome: 'Healthy',
  },
  {
    name: 'Advanced StatefulSet in place, mid-way',
    object: asts(2, { replicas: 3 }, astsStatus(2, { replicas: 3, readyReplicas: 2, availableReplicas: 2, currentReplicas: 2, updatedReplicas: 1 })),
    outcome: 'Progressing',
  },
  {
    name: 'Advanced StatefulSet with partition 1 reached',
    object: asts(2, { replicas: 3, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } }, astsStatus(2, { replicas: 3, readyReplicas: 3, availableReplicas: 3, currentReplicas: 1, updatedReplicas: 2, updatedReadyReplicas: 2, updatedAvailableReplicas: 2 })),
    outcome: 'Suspended',
    message: 'Advanced StatefulSet: partition reached, 2 of 3 pods updated; lower rollingUpdate.partition to update more',
  },
  {
    name: 'Advanced StatefulSet OnDelete, pods waiting for deletion',
    object: asts(2, { replicas: 3, updateStrategy: { type: 'OnDelete' } }, astsStatus(2, { replicas: 3, readyReplicas: 3, availableReplicas: 3, currentReplicas: 3 })),
    outcome: 'Suspended',
    message: 'Advanced StatefulSet: OnDelete, 0 of 3 pods updated; the others update when they are deleted',
  },
  {
    name: 'Advanced StatefulSet paused',
    object: asts(2, { replicas: 3, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { paused: true } } }, astsStatus(2, { replicas: 3, readyReplicas: 3, availableReplicas: 3, currentReplicas: 2, updatedReplicas: 1, updatedReadyReplicas: 1, updatedAvailableReplicas: 1 })),
    outcome: 'Suspended',
  },
  { name: 'Advanced StatefulSet scaled to 0', object: asts(4, { replicas: 0 }, astsStatus(4, {})), outcome: 'Healthy' },

  // Advanced DaemonSet
  {
    name: 'Advanced DaemonSet rolled out',
    object: ads(2, {}, adsStatus(2, {
      currentNumberScheduled: 3, desiredNumberScheduled: 3, numberReady: 3, numberAvailable: 3, updatedNumberScheduled: 3,
    })),
    outcome: 'Healthy',
  },
  {
    name: 'Advanced DaemonSet with partition "50%" reached',
    object: ads(2, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: '50%' } } }, adsStatus(2, { currentNumberScheduled: 3, desiredNumberScheduled: 3, numberReady: 3, numberAvailable: 3, updatedNumberScheduled: 2 })),
    outcome: 'Suspended',
    message: 'Advanced DaemonSet: partition reached, 2 of 3 pods updated; lower rollingUpdate.partition to update more',
  },
  {
    name: 'Advanced DaemonSet with partition "50%" on the way',
    object: ads(2, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: '50%' } } }, adsStatus(2, { currentNumberScheduled: 3, desiredNumberScheduled: 3, numberReady: 2, numberAvailable: 2, numberUnavailable: 1, updatedNumberScheduled: 1 })),
    outcome: 'Progressing',
  },
  {
    name: 'Advanced DaemonSet with partition "100%"',
    object: ads(2, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: '100%' } } }, adsStatus(2, { currentNumberScheduled: 2, desiredNumberScheduled: 2, numberReady: 2, numberAvailable: 2 })),
    outcome: 'Suspended',
  },
  {
    name: 'Advanced DaemonSet with partition 1 reached',
    object: ads(2, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } }, adsStatus(2, { currentNumberScheduled: 3, desiredNumberScheduled: 3, numberReady: 3, numberAvailable: 3, updatedNumberScheduled: 2 })),
    outcome: 'Suspended',
  },
  {
    name: 'Advanced DaemonSet with a percentage the rule does not read',
    object: ads(2, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: '050%' } } }, adsStatus(2, { currentNumberScheduled: 3, desiredNumberScheduled: 3, numberReady: 3, numberAvailable: 3, updatedNumberScheduled: 2 })),
    outcome: 'Progressing',
    message: 'Advanced DaemonSet: rollingUpdate.partition 050% is not read; write a number or a whole percentage from 0% to 100%',
  },
  {
    name: 'Advanced DaemonSet paused',
    object: ads(2, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { paused: true } } }, adsStatus(2, { currentNumberScheduled: 3, desiredNumberScheduled: 3, numberReady: 3, numberAvailable: 3, updatedNumberScheduled: 1 })),
    outcome: 'Suspended',
  },
  {
    name: 'Advanced DaemonSet OnDelete',
    object: ads(2, { updateStrategy: { type: 'OnDelete' } }, adsStatus(2, { currentNumberScheduled: 3, desiredNumberScheduled: 3, numberReady: 3, numberAvailable: 3, updatedNumberScheduled: 1 })),
    outcome: 'Suspended',
  },
  { name: 'Advanced DaemonSet on no node', object: ads(1, {}, adsStatus(1, {})), outcome: 'Healthy' },

  // SidecarSet
  { name: 'SidecarSet upgraded', object: ss(2, {}, ssStatus(2, { matchedPods: 2, updatedPods: 2, readyPods: 2, updatedReadyPods: 2 })), outcome: 'Healthy' },
  { name: 'SidecarSet upgrading', object: ss(2, {}, ssStatus(2, { matchedPods: 2, updatedPods: 1, readyPods: 1 })), outcome: 'Progressing', message: 'SidecarSet: 1 of 2 pods updated, 0 of them ready' },
  {
    name: 'SidecarSet with partition "90%" of 3 pods reached (one pod updated)',
    object: ss(2, { updateStrategy: { type: 'RollingUpdate', partition: '90%' } }, ssStatus(2, { matchedPods: 3, updatedPods: 1, readyPods: 3, updatedReadyPods: 1 })),
    outcome: 'Suspended',
  },
  {
    name: 'SidecarSet with partition 1 of 3 on the way',
    object: ss(2, { updateStrategy: { type: 'RollingUpdate', partition: 1 } }, ssStatus(2, { matchedPods: 3, updatedPods: 1, readyPods: 2, updatedReadyPods: 1 })),
    outcome: 'Progressing',
  },
  { name: 'SidecarSet NotUpdate', object: ss(2, { updateStrategy: { type: 'NotUpdate' } }, ssStatus(2, { matchedPods: 3, readyPods: 3 })), outcome: 'Healthy' },
  { name: 'SidecarSet paused', object: ss(2, { updateStrategy: { type: 'RollingUpdate', paused: true } }, ssStatus(2, { matchedPods: 3, readyPods: 3, updatedPods: 1, updatedReadyPods: 1 })), outcome: 'Suspended' },
  { name: 'SidecarSet matching no pod', object: ss(1, {}, ssStatus(1, {})), outcome: 'Healthy' },

  // UnitedDeployment
  {
    name: 'UnitedDeployment rolled out',
    object: {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'UnitedDeployment',
      metadata: meta(2),
      spec: { replicas: 4 },
      status: { observedGeneration: 2, readyReplicas: 4, replicas: 4, updatedReplicas: 4, updatedReadyReplicas: 4, currentRevision: 'ud-2', updateStatus: { updatedRevision: 'ud-2', currentPartitions: { a: 0, b: 0 } }, subsetStatuses: [{ name: 'a', replicas: 2, readyReplicas: 2 }, { name: 'b', replicas: 2, readyReplicas: 2 }] },
    },
    outcome: 'Healthy',
  },
  {
    name: 'UnitedDeployment with partitions reached',
    object: {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'UnitedDeployment',
      metadata: meta(2),
      spec: { replicas: 4 },
      status: { observedGeneration: 2, readyReplicas: 4, replicas: 4, updatedReplicas: 3, updatedReadyReplicas: 3, currentRevision: 'ud-1', updateStatus: { updatedRevision: 'ud-2', currentPartitions: { a: 1, b: 0 } }, subsetStatuses: [{ name: 'a', replicas: 2, readyReplicas: 2, partition: 1 }, { name: 'b', replicas: 2, readyReplicas: 2 }] },
    },
    outcome: 'Suspended',
  },
  {
    name: 'UnitedDeployment updating',
    object: {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'UnitedDeployment',
      metadata: meta(2),
      spec: { replicas: 4 },
      status: { observedGeneration: 2, readyReplicas: 3, replicas: 4, updatedReplicas: 1, currentRevision: 'ud-1', updateStatus: { updatedRevision: 'ud-2' }, subsetStatuses: [{ name: 'a', replicas: 2, readyReplicas: 1 }, { name: 'b', replicas: 2, readyReplicas: 2 }] },
    },
    outcome: 'Progressing',
  },

  // BroadcastJob
  { name: 'BroadcastJob running', object: bj({}, { startTime: time, active: 2, succeeded: 1, failed: 0, desired: 3, phase: 'running' }), outcome: 'Progressing' },
  {
    name: 'BroadcastJob completed',
    object: bj({}, {
      startTime: time,
      completionTime: time,
      active: 0,
      succeeded: 3,
      failed: 0,
      desired: 3,
      phase: 'completed',
      conditions: [{ type: 'Complete', status: 'True', lastProbeTime: time, lastTransitionTime: time, message: 'Job completed, 3 pods succeeded, 0 pods failed' }],
    }),
    outcome: 'Healthy',
    message: 'BroadcastJob completed: 3 of 3 pods succeeded',
  },
  {
    name: 'BroadcastJob completed with a failed pod',
    object: bj({}, {
      startTime: time,
      completionTime: time,
      active: 0,
      succeeded: 2,
      failed: 1,
      desired: 3,
      phase: 'completed',
      conditions: [{ type: 'Complete', status: 'True', lastProbeTime: time, lastTransitionTime: time, message: 'Job completed, 2 pods succeeded, 1 pods failed' }],
    }),
    outcome: 'Degraded',
    message: 'BroadcastJob completed with 1 of 3 pods failed',
  },
  {
    name: 'BroadcastJob failed (FailFast)',
    object: bj({ failurePolicy: { type: 'FailFast' } }, {
      startTime: time,
      completionTime: time,
      active: 0,
      succeeded: 0,
      failed: 1,
      desired: 1,
      phase: 'failed',
      conditions: [{ type: 'Failed', status: 'True', lastProbeTime: time, lastTransitionTime: time, message: 'failure policy is FailurePolicyTypeFailFast and failed pod is found' }],
    }),
    outcome: 'Degraded',
    message: 'BroadcastJob failed: failure policy is FailurePolicyTypeFailFast and failed pod is found (0 of 1 pods succeeded, 1 failed)',
  },
  { name: 'BroadcastJob paused', object: bj({ paused: true }, { startTime: time, active: 1, succeeded: 1, failed: 0, desired: 3, phase: 'paused' }), outcome: 'Suspended' },
  { name: 'BroadcastJob with completionPolicy Never running on every node', object: bj({ completionPolicy: { type: 'Never' } }, { startTime: time, active: 3, succeeded: 0, failed: 0, desired: 3, phase: 'running' }), outcome: 'Healthy' },

  // AdvancedCronJob
  {
    name: 'AdvancedCronJob not run yet (no status)',
    object: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'AdvancedCronJob', metadata: meta(1), spec: { schedule: '*/5 * * * *' } },
    outcome: 'Healthy',
    message: 'AdvancedCronJob scheduled (*/5 * * * *), 0 job(s) running, last run never',
  },
  {
    name: 'AdvancedCronJob paused',
    object: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'AdvancedCronJob', metadata: meta(2), spec: { schedule: '*/5 * * * *', paused: true }, status: { type: 'BroadcastJob', lastScheduleTime: time } },
    outcome: 'Suspended',
  },

  // ImagePullJob, ImageListPullJob
  {
    name: 'ImagePullJob pulling',
    object: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImagePullJob', metadata: meta(1), spec: { image: 'nginx:1.27' }, status: { startTime: time, desired: 3, active: 2, succeeded: 1, failed: 0, message: '2/3 pulling' } },
    outcome: 'Progressing',
  },
  {
    name: 'ImagePullJob done',
    object: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImagePullJob', metadata: meta(1), spec: { image: 'nginx:1.27' }, status: { startTime: time, completionTime: time, desired: 3, active: 0, succeeded: 3, failed: 0, message: 'job has completed' } },
    outcome: 'Healthy',
  },
  {
    name: 'ImagePullJob with a node that failed',
    object: {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'ImagePullJob',
      metadata: meta(1),
      spec: { image: 'nginx:404' },
      status: { startTime: time, completionTime: time, desired: 1, active: 0, succeeded: 0, failed: 1, failedNodes: ['node-1'], message: 'job has completed, 1 failed' },
    },
    outcome: 'Degraded',
    message: 'ImagePullJob: 1 of 1 nodes failed to pull: job has completed, 1 failed',
  },
  {
    name: 'ImageListPullJob done',
    object: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImageListPullJob', metadata: meta(1), spec: { images: ['a:1', 'b:1'] }, status: { startTime: time, completionTime: time, desired: 2, active: 0, completed: 2, succeeded: 2 } },
    outcome: 'Healthy',
  },
  {
    name: 'ImageListPullJob with an image that failed',
    object: {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'ImageListPullJob',
      metadata: meta(1),
      spec: { images: ['a:1', 'b:404'] },
      status: { startTime: time, completionTime: time, desired: 2, active: 0, completed: 2, succeeded: 1, failedImageStatuses: [{ imagePullJob: 'list-b', name: 'b:404', message: 'failed' }] },
    },
    outcome: 'Degraded',
  },

  // EphemeralJob, ContainerRecreateRequest, ResourceDistribution
  { name: 'EphemeralJob running', object: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'EphemeralJob', metadata: meta(1), spec: {}, status: { phase: 'Running', match: 2, running: 2, succeeded: 0, waiting: 0, failed: 0 } }, outcome: 'Progressing' },
  { name: 'EphemeralJob succeeded', object: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'EphemeralJob', metadata: meta(1), spec: {}, status: { phase: 'Succeeded', match: 2, running: 0, succeeded: 2, waiting: 0, failed: 0 } }, outcome: 'Healthy' },
  { name: 'EphemeralJob failed', object: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'EphemeralJob', metadata: meta(1), spec: {}, status: { phase: 'Failed', match: 2, running: 0, succeeded: 1, waiting: 0, failed: 1 } }, outcome: 'Degraded' },
  { name: 'ContainerRecreateRequest recreating', object: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ContainerRecreateRequest', metadata: meta(1), spec: {}, status: { phase: 'Recreating' } }, outcome: 'Progressing' },
  { name: 'ContainerRecreateRequest completed', object: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ContainerRecreateRequest', metadata: meta(1), spec: {}, status: { phase: 'Completed', completionTime: time, containerRecreateStates: [{ name: 'app', phase: 'Succeeded' }] } }, outcome: 'Healthy' },
  { name: 'ContainerRecreateRequest with a container that failed', object: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ContainerRecreateRequest', metadata: meta(1), spec: {}, status: { phase: 'Completed', completionTime: time, message: 'container app failed', containerRecreateStates: [{ name: 'app', phase: 'Failed' }] } }, outcome: 'Degraded' },
  { name: 'ResourceDistribution distributed', object: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', metadata: meta(1), spec: {}, status: { desired: 3, succeeded: 3, observedGeneration: 1 } }, outcome: 'Healthy' },
  { name: 'ResourceDistribution with a conflict', object: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', metadata: meta(1), spec: {}, status: { desired: 3, succeeded: 2, failed: 1, observedGeneration: 1, conditions: [{ type: 'ConflictOccurred', status: 'True', failedNamespaces: ['b'] }] } }, outcome: 'Degraded' },

  // policies
  {
    name: 'PodUnavailableBudget',
    object: { apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodUnavailableBudget', metadata: meta(1), spec: {}, status: { observedGeneration: 1, unavailableAllowed: 1, currentAvailable: 4, desiredAvailable: 3, totalReplicas: 4 } },
    outcome: 'Healthy',
    message: 'PodUnavailableBudget: 4 of 4 pods available, 1 may be disrupted',
  },
  {
    name: 'PodUnavailableBudget not observed yet',
    object: { apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodUnavailableBudget', metadata: meta(2), spec: {}, status: { observedGeneration: 1, unavailableAllowed: 1, currentAvailable: 4, desiredAvailable: 3, totalReplicas: 4 } },
    outcome: 'Progressing',
  },
  { name: 'WorkloadSpread without status', object: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread', metadata: meta(1), spec: {} }, outcome: 'Healthy' },

  // Rollout
  { name: 'Rollout with no release in progress', object: ro(1, {}, { observedGeneration: 1, phase: 'Healthy', message: 'rollout is healthy', currentStepIndex: 0, currentStepState: '' }), outcome: 'Healthy' },
  {
    name: 'Rollout step 1 paused for approval',
    object: ro(1, {}, {
      observedGeneration: 1,
      phase: 'Progressing',
      currentStepIndex: 1,
      currentStepState: 'StepPaused',
      canaryStatus: { observedWorkloadGeneration: 2, canaryRevision: 'c', canaryReplicas: 1, canaryReadyReplicas: 1, podTemplateHash: 'h', currentStepIndex: 1, nextStepIndex: 2, finalisingStep: '', currentStepState: 'StepPaused' },
    }),
    outcome: 'Suspended',
    message: 'Rollout: step 1 paused; approve it (the Argo CD action approve, or kubectl-kruise rollout approve) or wait for its pause to end',
  },
  {
    name: 'Rollout (read as v1alpha1) step 1 paused for approval',
    object: ro(1, {}, {
      observedGeneration: 1,
      phase: 'Progressing',
      canaryStatus: { observedWorkloadGeneration: 2, canaryRevision: 'c', canaryReplicas: 1, canaryReadyReplicas: 1, podTemplateHash: 'h', currentStepIndex: 1, currentStepState: 'StepPaused' },
    }, 'rollouts.kruise.io/v1alpha1'),
    outcome: 'Suspended',
  },
  {
    name: 'Rollout upgrading step 2',
    object: ro(1, {}, {
      observedGeneration: 1,
      phase: 'Progressing',
      currentStepIndex: 2,
      currentStepState: 'StepUpgrade',
      canaryStatus: { observedWorkloadGeneration: 2, canaryRevision: 'c', canaryReplicas: 2, canaryReadyReplicas: 1, podTemplateHash: 'h', currentStepIndex: 2, nextStepIndex: 3, finalisingStep: '', currentStepState: 'StepUpgrade' },
    }),
    outcome: 'Progressing',
    message: 'Rollout Progressing: step 2 StepUpgrade',
  },
];
