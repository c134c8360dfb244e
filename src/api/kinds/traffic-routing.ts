import { headerMatches, requestHeaderModifier, trafficRoutingRef } from './_rollouts';
import { KindModel, int32, int64, list, obj, str } from '../schema';

/** Traffic routing on its own, without a workload release (for other controllers to drive). */
export const TRAFFIC_ROUTING: KindModel = {
  group: 'rollouts.kruise.io',
  kind: 'TrafficRouting',
  plural: 'trafficroutings',
  singular: 'trafficrouting',
  scope: 'Namespaced',
  versions: [{
    name: 'v1alpha1',
    served: true,
    storage: true,
    description: 'A traffic split between a stable and a canary Service, without a workload release.',
    spec: obj({
      'objectRef!': list(trafficRoutingRef()),
      'strategy!': obj({
        matches: list(obj({ headers: headerMatches(false) })),
        requestHeaderModifier: requestHeaderModifier(),
        weight: int32({ description: 'Percent of the traffic sent to the canary.' }),
      }),
    }),
    status: obj({
      message: str(),
      observedGeneration: int64(),
      phase: str(),
    }),
    statusSubresource: true,
    printerColumns: [
      { name: 'STATUS', type: 'string', jsonPath: '.status.phase', description: 'Phase of the TrafficRouting.' },
      { name: 'MESSAGE', type: 'string', jsonPath: '.status.message', description: 'What it is doing.' },
      { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
  }],
};
