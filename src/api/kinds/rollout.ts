import {
  ROLLOUT_CONVERSION, headerMatches, httpRouteMatch, patchPodTemplateMetadata, pause, requestHeaderModifier, rolloutCondition,
  rolloutWorkloadRef, trafficRoutingRef,
} from './_rollouts';
import { KindModel, PrinterColumn, Schema, bool, int32, int64, intOrString, list, obj, str, time } from '../schema';

/** One step of a v1beta1 canary or blue-green release. */
const step = (): Schema => obj({
  matches: list(httpRouteMatch(), { description: 'Requests that go to the canary whatever the traffic weight (A/B testing).' }),
  pause: pause(),
  replicas: intOrString({ description: 'Canary pods of this step: a number, or a whole percent of the replicas.' }),
  requestHeaderModifier: requestHeaderModifier(),
  traffic: str({ description: 'Share of the traffic sent to the canary, e.g. "20%".' }),
});

/** What canary and blue-green releases both have. */
const releaseCommon = (): Record<string, Schema> => ({
  disableGenerateCanaryService: bool({ description: 'Do not create the <service>-canary Service (custom providers only).' }),
  failureThreshold: intOrString({ description: 'Pods (or percent) that may fail in a batch before the release stops.' }),
  steps: list(step()),
  trafficRoutingRef: str({ description: 'A TrafficRouting object that routes the traffic instead of trafficRoutings.' }),
  trafficRoutings: list(trafficRoutingRef()),
});

/** Progress of the current release (canary or blue-green status). */
const stepStatus = (more: Record<string, Schema>): Schema => obj({
  'currentStepIndex': int32(),
  'currentStepState!': str(),
  'finalisingStep!': str(),
  'lastUpdateTime': time(),
  'message': str(),
  'nextStepIndex!': int32(),
  'observedRolloutID': str(),
  'observedWorkloadGeneration': int64(),
  'podTemplateHash!': str(),
  'rolloutHash': str(),
  'stableRevision': str(),
  ...more,
});

const canaryStatus = () => stepStatus({
  'canaryReadyReplicas!': int32(),
  'canaryReplicas!': int32(),
  'canaryRevision!': str(),
});

const v1beta1Spec = (): Schema => obj({
  'disabled': bool({ default: false, description: 'Stop managing the workload; a release in progress finishes at once.' }),
  'strategy!': obj({
    blueGreen: obj(releaseCommon(), { description: 'Blue-green: new pods next to the old ones, traffic switched by step.' }),
    canary: obj({
      ...releaseCommon(),
      enableExtraWorkloadForCanary: bool({ description: 'Canary pods in an extra Deployment (Deployments only).' }),
      patchPodTemplateMetadata: patchPodTemplateMetadata(),
    }, { description: 'Canary: pods updated in batches, traffic shifted by step.' }),
    paused: bool({ description: 'Pause the release.' }),
  }),
  'workloadRef!': rolloutWorkloadRef(),
});

const v1beta1Status = (): Schema => obj({
  'blueGreenStatus': stepStatus({
    'updatedReadyReplicas!': int32(),
    'updatedReplicas!': int32(),
    'updatedRevision!': str(),
  }),
  'canaryStatus': canaryStatus(),
  'conditions': list(rolloutCondition()),
  'currentStepIndex!': int32(),
  'currentStepState!': str(),
  'message': str(),
  'observedGeneration': int64(),
  'phase': str(),
});

/** One step of a v1alpha1 canary release. */
const v1alpha1Step = (): Schema => obj({
  matches: list(obj({ headers: headerMatches(false) })),
  pause: pause(),
  replicas: intOrString(),
  requestHeaderModifier: requestHeaderModifier(),
  weight: int32({ description: 'Percent of the traffic sent to the canary.' }),
});

const v1alpha1Spec = (): Schema => obj({
  'disabled': bool({ default: false }),
  'objectRef!': obj({ workloadRef: rolloutWorkloadRef() }),
  'rolloutID': str({ description: 'Deprecated; not kept when stored.' }),
  'strategy!': obj({
    canary: obj({
      disableGenerateCanaryService: bool(),
      failureThreshold: intOrString(),
      patchPodTemplateMetadata: patchPodTemplateMetadata(),
      steps: list(v1alpha1Step()),
      trafficRoutings: list(trafficRoutingRef()),
    }),
    paused: bool(),
  }),
});

const v1alpha1Status = (): Schema => obj({
  canaryStatus: canaryStatus(),
  conditions: list(rolloutCondition()),
  message: str(),
  observedGeneration: int64(),
  phase: str(),
});

const columns = (stepPath: string, state: string): PrinterColumn[] => [
  { name: 'STATUS', type: 'string', jsonPath: '.status.phase', description: 'Phase of the Rollout.' },
  { name: 'CANARY_STEP', type: 'integer', jsonPath: stepPath, description: 'The current step.' },
  { name: 'CANARY_STATE', type: 'string', jsonPath: state, description: 'State of the current step.' },
  { name: 'MESSAGE', type: 'string', jsonPath: '.status.message', description: 'What the Rollout is doing.' },
  { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

export const ROLLOUT: KindModel = {
  group: 'rollouts.kruise.io',
  kind: 'Rollout',
  plural: 'rollouts',
  singular: 'rollout',
  scope: 'Namespaced',
  conversion: ROLLOUT_CONVERSION,
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: false,
      description: 'A progressive release of a workload (older form: canary only, weights as numbers).',
      spec: v1alpha1Spec(),
      status: v1alpha1Status(),
      statusSubresource: true,
      printerColumns: columns('.status.canaryStatus.currentStepIndex', '.status.canaryStatus.currentStepState'),
    },
    {
      name: 'v1beta1',
      served: true,
      storage: true,
      description: 'A progressive release of a workload: canary, blue-green or A/B steps with traffic routing.',
      spec: v1beta1Spec(),
      status: v1beta1Status(),
      statusSubresource: true,
      printerColumns: columns('.status.currentStepIndex', '.status.currentStepState'),
    },
  ],
};
