import { condition, labelSelector, nodeSelectorTerm, toleration } from '../blocks';
import { KindModel, Schema, bool, doc, int32, int64, intOrString, list, mapOf, obj, oneOf, str, time, untyped } from '../schema';
import { cloneSetSpec } from './clone-set';
import { statefulSetSpec } from './stateful-set';

/** A workload template: free-form metadata plus the spec of the workload created per subset. */
const workloadTemplate = (spec: Schema): Schema => obj({
  'metadata': doc('Labels and annotations of the workload created for each subset.', untyped('ObjectMeta')),
  'spec!': spec,
});

/** The workload UnitedDeployment creates in each subset; set exactly one of these. */
const unitedDeploymentTemplate = (): Schema => obj({
  advancedStatefulSetTemplate: workloadTemplate(statefulSetSpec()),
  cloneSetTemplate: workloadTemplate(cloneSetSpec()),
  deploymentTemplate: workloadTemplate(doc('An apps/v1 DeploymentSpec, kept as written.', untyped('DeploymentSpec'))),
  statefulSetTemplate: workloadTemplate(doc('An apps/v1 StatefulSetSpec, kept as written.', untyped('StatefulSetSpec'))),
});

/** One subset: a group of nodes and the share of replicas it runs. */
const unitedDeploymentSubset = (): Schema => obj({
  'maxReplicas': intOrString({ description: 'The most pods (or percent) this subset may run under the Adaptive strategy.' }),
  'minReplicas': intOrString({ description: 'The fewest pods (or percent) this subset runs before others get any under the Adaptive strategy.' }),
  'name!': str(),
  'nodeSelectorTerm': nodeSelectorTerm(),
  'patch': doc('A patch applied to the workload template of this subset.', untyped()),
  'replicas': intOrString({ description: 'The pods (or percent of the total) this subset runs.' }),
  'tolerations': list(toleration()),
});

const unitedDeploymentTopology = (): Schema => obj({
  scheduleStrategy: obj({
    adaptive: obj({
      rescheduleCriticalSeconds: int32({ description: 'How long a pod may stay pending before its subset is treated as unschedulable.' }),
      reserveUnschedulablePods: bool({ description: 'Keep pending pods in an unschedulable subset instead of deleting them.' }),
      unschedulableDuration: int32({ description: 'Seconds a subset stays marked unschedulable.' }),
    }),
    type: oneOf(['Adaptive', 'Fixed', ''], { description: 'Fixed keeps replicas in their subsets; Adaptive moves pods that cannot be scheduled.' }),
  }),
  subsets: list(unitedDeploymentSubset(), { description: 'The subsets, in order of preference.' }),
});

const unitedDeploymentSpec = (): Schema => obj({
  'replicas': int32(),
  'revisionHistoryLimit': int32(),
  'selector!': labelSelector(),
  'template': unitedDeploymentTemplate(),
  'topology': unitedDeploymentTopology(),
  'updateStrategy': obj({
    manualUpdate: obj({
      partitions: mapOf(int32(), { description: 'The partition of each subset\'s workload, by subset name.' }),
    }),
    type: str({ description: 'How subsets are updated; Manual uses manualUpdate.' }),
  }),
});

/** A condition of the UnitedDeployment itself; upstream marks none of its fields required. */
const unitedDeploymentCondition = (): Schema => obj({
  lastTransitionTime: time(),
  message: str(),
  reason: str(),
  status: str(),
  type: str(),
});

const unitedDeploymentStatus = (): Schema => obj({
  'collisionCount': int32(),
  'conditions': list(unitedDeploymentCondition()),
  'currentRevision!': str(),
  'labelSelector': str(),
  'observedGeneration': int64(),
  'readyReplicas': int32(),
  'replicas!': int32(),
  'reservedPods': int32(),
  'subsetReplicas': mapOf(int32(), { description: 'Replicas assigned to each subset, by name.' }),
  'subsetStatuses': list(obj({
    conditions: list(condition()),
    name: str(),
    partition: int32(),
    readyReplicas: int32(),
    replicas: int32(),
    reservedPods: int32(),
  })),
  'updateStatus': obj({
    currentPartitions: mapOf(int32(), { description: 'The partition in force for each subset, by name.' }),
    updatedRevision: str(),
  }),
  'updatedReadyReplicas': int32(),
  'updatedReplicas!': int32(),
});

export const UNITED_DEPLOYMENT: KindModel = {
  group: 'apps.kruise.io',
  kind: 'UnitedDeployment',
  plural: 'uniteddeployments',
  singular: 'uniteddeployment',
  shortNames: ['ud'],
  scope: 'Namespaced',
  versions: [{
    name: 'v1alpha1',
    served: true,
    storage: true,
    description: 'Runs one workload per subset of nodes (a zone, a node pool) and spreads replicas over them.',
    spec: unitedDeploymentSpec(),
    status: unitedDeploymentStatus(),
    statusSubresource: true,
    scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.labelSelector' },
    printerColumns: [
      { name: 'DESIRED', type: 'integer', jsonPath: '.spec.replicas' },
      { name: 'CURRENT', type: 'integer', jsonPath: '.status.replicas' },
      { name: 'UPDATED', type: 'integer', jsonPath: '.status.updatedReplicas' },
      { name: 'READY', type: 'integer', jsonPath: '.status.readyReplicas' },
      { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
  }],
};
