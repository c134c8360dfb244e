/**
 * Kruise Rollouts 0.5: v0.5.0 to v0.5.5 (the model is v0.5.5: the Go module
 * proxy's version, whose origin is the tag v0.5.5, commit 163895a6). The
 * CRDs are the same in every release of the line.
 */
import type { ReleaseLine } from '../registry';

export const ROLLOUTS_0_5: ReleaseLine = {
  product: 'rollouts',
  line: '0.5',
  releases: [
    { version: '0.5.0', imageTag: 'v0.5.0' },
    { version: '0.5.1', imageTag: 'v0.5.1' },
    { version: '0.5.2', imageTag: 'v0.5.2' },
    { version: '0.5.3', imageTag: 'v0.5.3' },
    // pkg/feature/rollout_features.go: v0.5.4 and v0.5.5 have a gate 0.6 dropped
    { version: '0.5.4', imageTag: 'v0.5.4', gates: ['KeepWorkloadPausedOnRolloutDeletion'] },
    { version: '0.5.5', imageTag: 'v0.5.5' },
  ],
  folder: 'rollouts-0.5',
  newer: '0.6',
  gates: {
    // pkg/feature/rollout_features.go: a gate 0.6 dropped (from v0.5.4, its release's entry says)
    extra: { KeepWorkloadPausedOnRolloutDeletion: false },
  },
  controlPlane: {
    // versions/kruise-rollout/0.5.2, the newest 0.5 chart; the control plane installs the line's newest release
    chart: '0.5.2',
    chartImageTag: 'v0.5.2',
    // config/rbac/role.yaml of v0.5.5: no HorizontalPodAutoscalers
    managerRoleLacks: ['autoscaling|horizontalpodautoscalers'],
    // main.go and pkg/ of v0.5.5: no partition limit, no grace timeout
    lacksFlags: ['kruise-rollout-manager --partition-percent-limit'],
    // pkg/webhook/workload/mutating of v0.5.5 still handles native and Advanced StatefulSets (0.6 dropped both)
    extraWebhooks: ['mstatefulset.kb.io', 'madvancedstatefulset.kb.io'],
  },
};
