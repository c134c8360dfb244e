import { condition, labelSelector, lifecycle, podTemplate } from '../blocks';
import { KindModel, PrinterColumn, Schema, bool, int32, int64, intOrString, list, obj, str } from '../schema';

/** The rolling update settings of an Advanced DaemonSet. */
const daemonSetRollingUpdate = (): Schema => obj({
  maxSurge: intOrString({ description: 'Nodes that may run an extra, updated pod next to the old one during the update.' }),
  maxUnavailable: intOrString({ description: 'Nodes whose pod may be unavailable at once during the update.' }),
  partition: intOrString({ description: 'Pods (or percent) that keep the old revision.' }),
  paused: bool({ description: 'Stop updating pods.' }),
  rollingUpdateType: str({ description: 'Standard, Surging or InPlaceIfPossible.' }),
  selector: labelSelector(),
});

/** The fields both versions of the Advanced DaemonSet spec have. */
const daemonSetSpecFields = (): Record<string, Schema> => ({
  'burstReplicas': intOrString({ description: 'The most pods created at once in one reconcile.' }),
  'lifecycle': lifecycle(),
  'minReadySeconds': int32(),
  'revisionHistoryLimit': int32(),
  'selector!': labelSelector(),
  'template!': podTemplate(),
  'updateStrategy': obj({
    rollingUpdate: daemonSetRollingUpdate(),
    type: str({ description: 'RollingUpdate or OnDelete.' }),
  }),
});

const daemonSetSpecV1alpha1 = (): Schema => obj(daemonSetSpecFields());

/** The spec of an Advanced DaemonSet v1beta1. */
export const daemonSetSpec = (): Schema => obj({
  ...daemonSetSpecFields(),
  scaleStrategy: obj({
    partitionedScaling: bool({ description: 'Only create pods on new nodes up to the partition of the update strategy.' }),
  }),
});

/** The status fields both versions share. */
const daemonSetStatusFields = (): Record<string, Schema> => ({
  'collisionCount': int32(),
  'conditions': list(condition()),
  'currentNumberScheduled!': int32(),
  'desiredNumberScheduled!': int32(),
  'numberAvailable': int32(),
  'numberMisscheduled!': int32(),
  'numberReady!': int32(),
  'numberUnavailable': int32(),
  'observedGeneration': int64(),
  'updatedNumberScheduled!': int32(),
});

/** v1alpha1 records the revision hash as daemonSetHash; v1beta1 names it updateRevision. */
const daemonSetStatusV1alpha1 = (): Schema => obj({
  ...daemonSetStatusFields(),
  daemonSetHash: str(),
});

const daemonSetStatus = (): Schema => obj({
  ...daemonSetStatusFields(),
  updateRevision: str(),
});

const printerColumns: PrinterColumn[] = [
  { name: 'DESIRED', type: 'integer', jsonPath: '.status.desiredNumberScheduled' },
  { name: 'CURRENT', type: 'integer', jsonPath: '.status.currentNumberScheduled' },
  { name: 'READY', type: 'integer', jsonPath: '.status.numberReady' },
  { name: 'UP-TO-DATE', type: 'integer', jsonPath: '.status.updatedNumberScheduled' },
  { name: 'AVAILABLE', type: 'integer', jsonPath: '.status.numberAvailable' },
  { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  { name: 'CONTAINERS', type: 'string', jsonPath: '.spec.template.spec.containers[*].name', priority: 1 },
  { name: 'IMAGES', type: 'string', jsonPath: '.spec.template.spec.containers[*].image', priority: 1 },
];

const description = 'A DaemonSet with in-place update, surging and partitioned rollout, and lifecycle hooks.';

export const DAEMON_SET: KindModel = {
  group: 'apps.kruise.io',
  kind: 'DaemonSet',
  plural: 'daemonsets',
  singular: 'daemonset',
  shortNames: ['daemon', 'ads'],
  scope: 'Namespaced',
  versions: [{
    name: 'v1alpha1',
    served: true,
    storage: false,
    description,
    spec: daemonSetSpecV1alpha1(),
    status: daemonSetStatusV1alpha1(),
    statusSubresource: true,
    printerColumns,
  }, {
    name: 'v1beta1',
    served: true,
    storage: true,
    description,
    spec: daemonSetSpec(),
    status: daemonSetStatus(),
    statusSubresource: true,
    printerColumns,
  }],
};
