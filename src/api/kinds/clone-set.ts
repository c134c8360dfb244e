import {
  inPlaceUpdateStrategy, labelSelector, lifecycle, podTemplate, pvcTemplates, scatterStrategy,
  updatedCondition, updatePriorityStrategy,
} from '../blocks';
import { KindModel, Schema, bool, int32, int64, intOrString, list, obj, str, strings } from '../schema';

/** CloneSet's scale strategy: how many pods may be unavailable while scaling, which to delete. */
export const cloneSetScaleStrategy = (): Schema => obj({
  disablePVCReuse: bool({ description: 'Delete the PVCs of a deleted pod instead of reusing them for its replacement.' }),
  maxUnavailable: intOrString({ description: 'Upper bound of unavailable pods while scaling up.' }),
  podsToDelete: strings({ description: 'Names of pods to delete first when scaling in (targeted scale-in).' }),
});

/** CloneSet's update strategy. */
export const cloneSetUpdateStrategy = (): Schema => obj({
  inPlaceUpdateStrategy: inPlaceUpdateStrategy(),
  maxSurge: intOrString({ description: 'Pods created above the desired replicas during an update.' }),
  maxUnavailable: intOrString({ description: 'Pods that may be unavailable during an update.' }),
  partition: intOrString({ description: 'Pods (or percent) that stay at the old revision.' }),
  paused: bool({ description: 'Stop creating or updating pods for the rollout.' }),
  priorityStrategy: updatePriorityStrategy(),
  scatterStrategy: scatterStrategy(),
  type: str({ description: 'ReCreate, InPlaceIfPossible or InPlaceOnly.' }),
});

/** The spec of a CloneSet (also embedded by UnitedDeployment's cloneSetTemplate). */
export const cloneSetSpec = (): Schema => obj({
  'lifecycle': lifecycle(),
  'minReadySeconds': int32(),
  'progressDeadlineSeconds': int32(),
  'replicas': int32(),
  'revisionHistoryLimit': int32(),
  'scaleStrategy': cloneSetScaleStrategy(),
  'selector!': labelSelector(),
  'template!': podTemplate(),
  'updateStrategy': cloneSetUpdateStrategy(),
  'volumeClaimTemplates': pvcTemplates(),
});

const cloneSetStatus = (): Schema => obj({
  'availableReplicas!': int32(),
  'collisionCount': int32(),
  'conditions': list(updatedCondition()),
  'currentRevision': str(),
  'expectedUpdatedReplicas': int32(),
  'labelSelector': str(),
  'observedGeneration': int64(),
  'readyReplicas!': int32(),
  'replicas!': int32(),
  'updateRevision': str(),
  'updatedAvailableReplicas': int32(),
  'updatedReadyReplicas!': int32(),
  'updatedReplicas!': int32(),
});

export const CLONE_SET: KindModel = {
  group: 'apps.kruise.io',
  kind: 'CloneSet',
  plural: 'clonesets',
  singular: 'cloneset',
  shortNames: ['clone'],
  scope: 'Namespaced',
  versions: [{
    name: 'v1alpha1',
    served: true,
    storage: true,
    description: 'A set of identical pods with in-place update, targeted scale-in and partitioned rollout.',
    spec: cloneSetSpec(),
    status: cloneSetStatus(),
    statusSubresource: true,
    scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.labelSelector' },
    printerColumns: [
      { name: 'DESIRED', type: 'integer', jsonPath: '.spec.replicas' },
      { name: 'UPDATED', type: 'integer', jsonPath: '.status.updatedReplicas' },
      { name: 'UPDATED_READY', type: 'integer', jsonPath: '.status.updatedReadyReplicas' },
      { name: 'UPDATED_AVAILABLE', type: 'integer', jsonPath: '.status.updatedAvailableReplicas' },
      { name: 'READY', type: 'integer', jsonPath: '.status.readyReplicas' },
      { name: 'TOTAL', type: 'integer', jsonPath: '.status.replicas' },
      { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      { name: 'CONTAINERS', type: 'string', jsonPath: '.spec.template.spec.containers[*].name', priority: 1 },
      { name: 'IMAGES', type: 'string', jsonPath: '.spec.template.spec.containers[*].image', priority: 1 },
      { name: 'SELECTOR', type: 'string', jsonPath: '.status.labelSelector', priority: 1 },
    ],
  }],
};
