/**
 * The API of Kruise Rollouts 0.5 (config/crd/bases of v0.5.5 as the Go module
 * proxy serves it), as changes against 0.6's. Kept equal to those CRDs by
 * test/releases/conformance.test.ts.
 */
import type { LineModel } from '../changes';
import { columnPath, keys, remove } from '../changes';

export const MODEL: LineModel = {
  changes: [
    // BatchRelease: no rolling style or extra canary workload on the release plan, no status message
    remove('BatchRelease', 'spec.releasePlan.enableExtraWorkloadForCanary', ['v1alpha1']),
    remove('BatchRelease', 'spec.releasePlan.rollingStyle'),
    remove('BatchRelease', 'status.message', ['v1beta1']),
    // Rollout: canary only (no blue-green), a canary Service always, header and weight matches only
    remove('Rollout', 'spec.strategy.blueGreen'),
    remove('Rollout', 'spec.strategy.canary.disableGenerateCanaryService'),
    remove('Rollout', 'spec.strategy.canary.steps[].matches[].path'),
    remove('Rollout', 'spec.strategy.canary.steps[].matches[].queryParams'),
    keys('Rollout', 'spec.strategy.canary.steps[].matches[].headers', { 'x-kubernetes-list-type': undefined, 'x-kubernetes-list-map-keys': undefined }),
    keys('Rollout', 'spec.strategy.canary.trafficRoutings[].gracePeriodSeconds', { default: undefined }),
    keys('TrafficRouting', 'spec.objectRef[].gracePeriodSeconds', { default: undefined }),
    // Rollout status: the step is the canary's only
    remove('Rollout', 'status.blueGreenStatus'),
    remove('Rollout', 'status.currentStepIndex'),
    remove('Rollout', 'status.currentStepState'),
    remove('Rollout', 'status.canaryStatus.finalisingStep'),
    remove('Rollout', 'status.canaryStatus.nextStepIndex'),
    columnPath('Rollout', 'v1beta1', 'CANARY_STEP', '.status.canaryStatus.currentStepIndex'),
    columnPath('Rollout', 'v1beta1', 'CANARY_STATE', '.status.canaryStatus.currentStepState'),
  ],
};
