import { condition, labelSelector, nodeSelectorTerm, toleration, workloadRef } from '../blocks';
import { KindModel, Schema, bool, doc, int32, int64, intOrString, list, mapOf, obj, oneOf, str, strings, time, untyped } from '../schema';

/** One subset (a topology domain) pods of the target workload are spread over. */
const workloadSpreadSubset = (): Schema => obj({
  'maxReplicas': intOrString({ description: 'The most pods (or percent of the workload) this subset may hold; unset means no limit.' }),
  'name!': str(),
  'patch': doc('A patch applied to the pods placed in this subset.', untyped()),
  'preferredNodeSelectorTerms': list(obj({
    'preference!': nodeSelectorTerm(),
    'weight!': int32(),
  })),
  'requiredNodeSelectorTerm': nodeSelectorTerm(),
  'tolerations': list(toleration()),
});

/** How pods are scheduled over the subsets. */
const workloadSpreadScheduleStrategy = (): Schema => obj({
  adaptive: obj({
    disableSimulationSchedule: bool(),
    rescheduleCriticalSeconds: int32({ description: 'How long a pod may stay pending in a subset before it is moved to the next one.' }),
  }),
  type: oneOf(['Adaptive', 'Fixed', ''], { description: 'Fixed keeps pods in their subset; Adaptive reschedules pods that cannot be placed.' }),
});

const workloadSpreadSpec = (): Schema => obj({
  'scheduleStrategy': workloadSpreadScheduleStrategy(),
  'subsets!': list(workloadSpreadSubset(), { description: 'The subsets, in order of preference.' }),
  'targetFilter': obj({
    replicasPathList: strings({ description: 'Paths in the workload whose integer values add up to the replicas the spread counts.' }),
    selector: labelSelector(),
  }),
  'targetRef!': workloadRef(),
});

/** What the controller knows about one subset. */
const workloadSpreadSubsetStatus = (): Schema => obj({
  'conditions': list(condition()),
  'creatingPods': mapOf(time(), { description: 'Pods being created in this subset, by name, with the time they were counted.' }),
  'deletingPods': mapOf(time(), { description: 'Pods being deleted from this subset, by name, with the time they were counted.' }),
  'missingReplicas!': int32(),
  'name!': str(),
  'replicas!': int32(),
});

const workloadSpreadStatus = (): Schema => obj({
  observedGeneration: int64(),
  subsetStatuses: list(workloadSpreadSubsetStatus()),
  versionedSubsetStatuses: mapOf(list(workloadSpreadSubsetStatus()), { description: 'Subset statuses kept per workload revision.' }),
});

export const WORKLOAD_SPREAD: KindModel = {
  group: 'apps.kruise.io',
  kind: 'WorkloadSpread',
  plural: 'workloadspreads',
  singular: 'workloadspread',
  shortNames: ['ws'],
  scope: 'Namespaced',
  versions: [{
    name: 'v1alpha1',
    served: true,
    storage: true,
    description: 'Spreads the pods of an existing workload over subsets of nodes, with a quota per subset.',
    spec: workloadSpreadSpec(),
    status: workloadSpreadStatus(),
    statusSubresource: true,
    printerColumns: [
      { name: 'WorkloadName', type: 'string', jsonPath: '.spec.targetRef.name' },
      { name: 'WorkloadKind', type: 'string', jsonPath: '.spec.targetRef.kind' },
      { name: 'Adaptive', type: 'boolean', jsonPath: '.spec.scheduleStrategy.type[?(@ == "Adaptive")]' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
  }],
};
