import { labelSelector } from '../blocks';
import { KindModel, Schema, int32, int64, intOrString, mapOf, obj, str, time } from '../schema';

const podUnavailableBudgetSpec = (): Schema => obj({
  maxUnavailable: intOrString({ description: 'The most pods (or percent) that may be unavailable at once.' }),
  minAvailable: intOrString({ description: 'The fewest pods (or percent) that must stay available.' }),
  selector: labelSelector(),
  targetRef: obj({
    apiVersion: str(),
    kind: str(),
    name: str(),
  }, { description: 'The workload whose pods are protected (instead of a selector).' }),
});

const podUnavailableBudgetStatus = (): Schema => obj({
  'currentAvailable!': int32(),
  'desiredAvailable!': int32(),
  'disruptedPods': mapOf(time(), { description: 'Pods being evicted or deleted, by name, with the time they were admitted.' }),
  'observedGeneration': int64(),
  'totalReplicas!': int32(),
  'unavailableAllowed!': int32(),
  'unavailablePods': mapOf(time(), { description: 'Pods being updated, by name, with the time they were admitted.' }),
});

export const POD_UNAVAILABLE_BUDGET: KindModel = {
  group: 'policy.kruise.io',
  kind: 'PodUnavailableBudget',
  plural: 'podunavailablebudgets',
  singular: 'podunavailablebudget',
  shortNames: ['pub'],
  scope: 'Namespaced',
  versions: [{
    name: 'v1alpha1',
    served: true,
    storage: true,
    description: 'Limits how many selected pods may be unavailable at once through eviction, deletion or in-place update.',
    spec: podUnavailableBudgetSpec(),
    status: podUnavailableBudgetStatus(),
    statusSubresource: true,
    printerColumns: [
      { name: 'Allowed', type: 'integer', jsonPath: '.status.unavailableAllowed' },
      { name: 'Current', type: 'integer', jsonPath: '.status.currentAvailable' },
      { name: 'Desired', type: 'integer', jsonPath: '.status.desiredAvailable' },
      { name: 'Total', type: 'integer', jsonPath: '.status.totalReplicas' },
    ],
  }],
};
