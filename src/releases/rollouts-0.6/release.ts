/**
 * Kruise Rollouts 0.6, the default line: the releases v0.6.0 to v0.6.2 (the
 * model is v0.6.2, commit 6f9f871d, which the Go module proxy serves), whose
 * API the model in src/api describes as it is.
 */
import type { ReleaseLine } from '../registry';

export const ROLLOUTS_0_6: ReleaseLine = {
  product: 'rollouts',
  line: '0.6',
  releases: [
    { version: '0.6.0', imageTag: 'v0.6.0' },
    { version: '0.6.1', imageTag: 'v0.6.1' },
    { version: '0.6.2', imageTag: 'v0.6.2' },
  ],
  gates: { all: { AdvancedDeployment: false, RolloutHistory: false, AppendPodSelector: false } },
  controlPlane: { chart: '0.6.2', chartImageTag: 'v0.6.2' },
};
