import { labelSelector, scatterStrategy, updatePriorityStrategy } from '../blocks';
import {
  KindModel, PrinterColumn, Schema, bool, doc, int32, int64, intOrString, list, obj, oneOf, str, strings, stringMap, untyped,
} from '../schema';

/** CPU and memory quantities, written as expressions over the target containers' resources. */
const cpuMemoryExpr = (): Schema => obj({
  cpu: str(),
  memory: str(),
});

/** How a sidecar's resources are derived from the resources of the pod's other containers. */
const sidecarResourcesPolicy = (): Schema => obj({
  'resourcesExpr!': obj({
    limits: cpuMemoryExpr(),
    requests: cpuMemoryExpr(),
  }),
  'targetContainersMode!': oneOf(['sum', 'max'], { description: 'Combine the target containers\' resources by their sum or their maximum.' }),
  'targetContainersNameRegex': str({ default: '.*', description: 'Which of the pod\'s containers the expressions read from.' }),
});

/** An environment variable (or several) copied from another container of the pod. */
const sidecarTransferEnv = (): Schema => obj({
  envName: str(),
  envNames: strings(),
  sourceContainerName: str(),
  sourceContainerNameFrom: obj({
    fieldRef: obj({
      'apiVersion': str(),
      'fieldPath!': str(),
    }, { atomic: true }),
  }),
});

/**
 * A sidecar (or init) container: any corev1.Container field is kept as written,
 * next to the OpenKruise-specific fields declared here.
 */
export const sidecarContainer = (): Schema => obj({
  podInjectPolicy: str({ description: 'Inject before (BeforeAppContainer) or after (AfterAppContainer) the pod\'s own containers.' }),
  resourcesPolicy: sidecarResourcesPolicy(),
  shareVolumeDevicePolicy: obj({ type: str() }),
  shareVolumePolicy: obj({ type: str({ description: 'enabled or disabled: mount the volumes of the pod\'s other containers.' }) }),
  transferEnv: list(sidecarTransferEnv()),
  upgradeStrategy: obj({
    hotUpgradeEmptyImage: str({ description: 'The placeholder image that the idle container of a hot-upgrade pair runs.' }),
    upgradeType: str({ description: 'ColdUpgrade or HotUpgrade.' }),
  }),
}, { preserveUnknown: true, k8sType: 'Container' });

/** Which revision of the SidecarSet is injected into new pods. */
const sidecarSetInjectionStrategy = (): Schema => obj({
  paused: bool({ description: 'Stop injecting the sidecars into new pods.' }),
  revision: obj({
    customVersion: str(),
    policy: oneOf(['Always', 'Partial'], { default: 'Always' }),
    revisionName: str(),
  }),
});

/** How injected sidecars of existing pods are updated. */
const sidecarSetUpdateStrategy = (): Schema => obj({
  maxUnavailable: intOrString({ description: 'Pods whose sidecars may be unavailable at once during an update.' }),
  partition: intOrString({ description: 'Pods (or percent) that keep the old sidecar revision.' }),
  paused: bool(),
  priorityStrategy: updatePriorityStrategy(),
  scatterStrategy: scatterStrategy(),
  selector: labelSelector(),
  type: str({ description: 'RollingUpdate or NotUpdate.' }),
});

/** The spec fields every SidecarSet version has. */
const sidecarSetSpecFields = (): Record<string, Schema> => ({
  containers: list(sidecarContainer(), { description: 'Sidecar containers injected into the matched pods.' }),
  imagePullSecrets: list(obj({ name: str({ default: '' }) }, { atomic: true })),
  initContainers: list(sidecarContainer(), { description: 'Init containers injected into the matched pods.' }),
  injectionStrategy: sidecarSetInjectionStrategy(),
  namespaceSelector: labelSelector(),
  patchPodMetadata: list(obj({
    annotations: stringMap(),
    patchPolicy: str(),
  })),
  revisionHistoryLimit: int32(),
  selector: labelSelector(),
  updateStrategy: sidecarSetUpdateStrategy(),
  volumes: doc('Volumes the sidecar containers may mount (corev1.Volume list, kept as written).', untyped('Volume[]')),
});

const sidecarSetStatus = (): Schema => obj({
  'collisionCount': int32(),
  'latestRevision': str(),
  'matchedPods!': int32(),
  'observedGeneration': int64(),
  'readyPods!': int32(),
  'updatedPods!': int32(),
  'updatedReadyPods': int32(),
});

const printerColumns: PrinterColumn[] = [
  { name: 'MATCHED', type: 'integer', jsonPath: '.status.matchedPods', description: 'Pods the SidecarSet selects.' },
  { name: 'UPDATED', type: 'integer', jsonPath: '.status.updatedPods', description: 'Selected pods that run the latest sidecars.' },
  { name: 'READY', type: 'integer', jsonPath: '.status.readyPods', description: 'Selected pods that are ready.' },
  { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

export const SIDECAR_SET: KindModel = {
  group: 'apps.kruise.io',
  kind: 'SidecarSet',
  plural: 'sidecarsets',
  singular: 'sidecarset',
  scope: 'Cluster',
  versions: [{
    name: 'v1alpha1',
    served: true,
    storage: false,
    description: 'Sidecar containers injected into, and updated in, every pod a selector matches.',
    spec: obj({
      ...sidecarSetSpecFields(),
      namespace: str({ description: 'Only inject into pods of this namespace.' }),
    }),
    status: sidecarSetStatus(),
    statusSubresource: true,
    printerColumns,
  }, {
    name: 'v1beta1',
    served: true,
    storage: true,
    description: 'Sidecar containers injected into, and updated in, every pod a selector matches.',
    spec: obj({
      ...sidecarSetSpecFields(),
      customVersion: str({ description: 'A version label of your own, recorded with each revision.' }),
    }),
    status: sidecarSetStatus(),
    statusSubresource: true,
    printerColumns,
  }],
};
