import { ROLLOUT_CONVERSION, releasePlan, rolloutCondition, rolloutWorkloadRef } from './_rollouts';
import { KindModel, PrinterColumn, Schema, int32, int64, list, obj, str, time } from '../schema';

const status = (withMessage: boolean): Schema => obj({
  canaryStatus: obj({
    'batchReadyTime': time(),
    'batchState': str(),
    'currentBatch!': int32(),
    'noNeedUpdateReplicas': int32(),
    'updatedReadyReplicas': int32(),
    'updatedReplicas': int32(),
  }),
  collisionCount: int32(),
  conditions: list(rolloutCondition()),
  ...(withMessage ? { message: str() } : {}),
  observedGeneration: int64(),
  observedReleasePlanHash: str(),
  observedRolloutID: str(),
  observedWorkloadReplicas: int32(),
  phase: str(),
  stableRevision: str(),
  updateRevision: str(),
});

const columns: PrinterColumn[] = [
  { name: 'KIND', type: 'string', jsonPath: '.spec.targetReference.workloadRef.kind' },
  { name: 'PHASE', type: 'string', jsonPath: '.status.phase' },
  { name: 'BATCH', type: 'integer', jsonPath: '.status.canaryStatus.currentBatch' },
  { name: 'BATCH-STATE', type: 'string', jsonPath: '.status.canaryStatus.batchState' },
  { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

/** The batches of one release, created and owned by the Rollout controller (not written by users). */
export const BATCH_RELEASE: KindModel = {
  group: 'rollouts.kruise.io',
  kind: 'BatchRelease',
  plural: 'batchreleases',
  singular: 'batchrelease',
  scope: 'Namespaced',
  conversion: ROLLOUT_CONVERSION,
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: false,
      description: 'The batches of one release of a workload (older form).',
      spec: obj({
        'releasePlan!': releasePlan(),
        'targetReference!': obj({ workloadRef: rolloutWorkloadRef() }),
      }),
      status: status(false),
      statusSubresource: true,
      printerColumns: columns,
    },
    {
      name: 'v1beta1',
      served: true,
      storage: true,
      description: 'The batches of one release of a workload, driven by its Rollout.',
      spec: obj({
        'releasePlan!': releasePlan(),
        'workloadRef': rolloutWorkloadRef(),
      }),
      status: status(true),
      statusSubresource: true,
      printerColumns: columns,
    },
  ],
};
