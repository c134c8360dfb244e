import { KindModel, Schema, int32, list, obj, str, untyped } from '../schema';

/** A named object with a snapshot of its content. */
const snapshot = (more: Record<string, Schema> = {}): Schema => obj({
  'data': untyped(),
  'name!': str(),
  ...more,
});

/** A record of one release, written by the controller when the RolloutHistory gate is on. */
export const ROLLOUT_HISTORY: KindModel = {
  group: 'rollouts.kruise.io',
  kind: 'RolloutHistory',
  plural: 'rollouthistories',
  singular: 'rollouthistory',
  scope: 'Namespaced',
  versions: [{
    name: 'v1alpha1',
    served: true,
    storage: true,
    description: 'What one release of a Rollout changed: the Rollout, workload, Service and routes, and the pods of each step.',
    spec: obj({
      rollout: snapshot({ 'rolloutID!': str() }),
      service: snapshot(),
      trafficRouting: obj({
        httpRoute: snapshot(),
        ingress: snapshot(),
      }),
      workload: snapshot({ apiVersion: str(), kind: str() }),
    }),
    status: obj({
      canarySteps: list(obj({
        canaryStepIndex: int32(),
        pods: list(obj({ ip: str(), name: str(), nodeName: str() })),
      })),
      phase: str(),
    }),
    statusSubresource: true,
  }],
};
