import {
  condition, inPlaceUpdateStrategy, labelSelector, lifecycle, podTemplate, pvcTemplates, updatePriorityStrategy,
} from '../blocks';
import { KindModel, PrinterColumn, Schema, ScaleSubresource, bool, int32, int64, intOrString, list, obj, str } from '../schema';

/** The rolling update settings of an Advanced StatefulSet (the same in both versions). */
const statefulSetRollingUpdate = (): Schema => obj({
  inPlaceUpdateStrategy: inPlaceUpdateStrategy(),
  maxUnavailable: intOrString({ description: 'Pods that may be unavailable at once during the update.' }),
  minReadySeconds: int32({ description: 'Seconds an updated pod must be ready before the next one is updated.' }),
  partition: int32({ description: 'Pods with an ordinal below this number keep the old revision.' }),
  paused: bool({ description: 'Stop updating pods.' }),
  podUpdatePolicy: str({ description: 'ReCreate, InPlaceIfPossible or InPlaceOnly.' }),
  unorderedUpdate: obj({
    priorityStrategy: updatePriorityStrategy(),
  }),
});

/** The fields both versions of the Advanced StatefulSet spec have. */
const statefulSetSpecFields = (): Record<string, Schema> => ({
  'podManagementPolicy': str({ description: 'OrderedReady or Parallel.' }),
  'replicas': int32(),
  'revisionHistoryLimit': int32(),
  'selector!': labelSelector(),
  'serviceName': str({ description: 'The headless service that gives the pods their network identity.' }),
  'template!': podTemplate(),
  'updateStrategy': obj({
    rollingUpdate: statefulSetRollingUpdate(),
    type: str({ description: 'RollingUpdate or OnDelete.' }),
  }),
  'volumeClaimTemplates': pvcTemplates(),
});

const statefulSetSpecV1alpha1 = (): Schema => obj(statefulSetSpecFields());

/** The spec of an Advanced StatefulSet v1beta1 (also embedded by UnitedDeployment's advancedStatefulSetTemplate). */
export const statefulSetSpec = (): Schema => obj({
  ...statefulSetSpecFields(),
  lifecycle: lifecycle(),
  ordinals: obj({
    start: int32({ description: 'The ordinal of the first pod.' }),
  }),
  persistentVolumeClaimRetentionPolicy: obj({
    whenDeleted: str({ description: 'Retain or Delete the PVCs when the StatefulSet is deleted.' }),
    whenScaled: str({ description: 'Retain or Delete the PVCs of pods removed by a scale-in.' }),
  }),
  reserveOrdinals: list(intOrString(), { description: 'Ordinals (or ranges such as "1-3") that are skipped when pods are created.' }),
  scaleStrategy: obj({
    maxUnavailable: intOrString({ description: 'Upper bound of unavailable pods while scaling.' }),
  }),
  volumeClaimUpdateStrategy: obj({
    type: str({ description: 'How PVCs follow changes to volumeClaimTemplates: OnDelete or OnPodRollingUpdate.' }),
  }),
});

/** The status fields both versions share. */
const statefulSetStatusFields = (): Record<string, Schema> => ({
  'availableReplicas!': int32(),
  'collisionCount': int32(),
  'conditions': list(condition()),
  'currentReplicas!': int32(),
  'currentRevision': str(),
  'labelSelector': str(),
  'observedGeneration': int64(),
  'readyReplicas!': int32(),
  'replicas!': int32(),
  'updateRevision': str(),
  'updatedReplicas!': int32(),
});

const statefulSetStatusV1alpha1 = (): Schema => obj(statefulSetStatusFields());

const statefulSetStatus = (): Schema => obj({
  ...statefulSetStatusFields(),
  updatedAvailableReplicas: int32(),
  updatedReadyReplicas: int32(),
  volumeClaims: list(obj({
    'compatibleReadyReplicas!': int32(),
    'compatibleReplicas!': int32(),
    'volumeClaimName!': str(),
  }), { description: 'How many pods use PVCs that match the current claim templates, per template.' }),
});

const printerColumns: PrinterColumn[] = [
  { name: 'DESIRED', type: 'integer', jsonPath: '.spec.replicas' },
  { name: 'CURRENT', type: 'integer', jsonPath: '.status.replicas' },
  { name: 'UPDATED', type: 'integer', jsonPath: '.status.updatedReplicas' },
  { name: 'READY', type: 'integer', jsonPath: '.status.readyReplicas' },
  { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  { name: 'CONTAINERS', type: 'string', jsonPath: '.spec.template.spec.containers[*].name', priority: 1 },
  { name: 'IMAGES', type: 'string', jsonPath: '.spec.template.spec.containers[*].image', priority: 1 },
];

const scale: ScaleSubresource = {
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
  labelSelectorPath: '.status.labelSelector',
};

const description = 'A StatefulSet with in-place update, parallel and unordered rollout, reserved ordinals and more.';

export const STATEFUL_SET: KindModel = {
  group: 'apps.kruise.io',
  kind: 'StatefulSet',
  plural: 'statefulsets',
  singular: 'statefulset',
  shortNames: ['sts', 'asts'],
  scope: 'Namespaced',
  versions: [{
    name: 'v1alpha1',
    served: true,
    storage: false,
    description,
    spec: statefulSetSpecV1alpha1(),
    status: statefulSetStatusV1alpha1(),
    statusSubresource: true,
    scale,
    printerColumns,
  }, {
    name: 'v1beta1',
    served: true,
    storage: true,
    description,
    spec: statefulSetSpec(),
    status: statefulSetStatus(),
    statusSubresource: true,
    scale,
    printerColumns,
  }],
};
