import { workloadRef } from '../blocks';
import { KindModel, Schema, int32, int64, list, mapOf, obj, str, stringMap, strings } from '../schema';

/** Node label keys whose values a recreated pod should find again. */
const persistentTopology = (): Schema => obj({
  'nodeTopologyKeys!': strings(),
});

const persistentPodStateSpec = (): Schema => obj({
  'persistentPodAnnotations': list(obj({ 'key!': str() }), { description: 'Pod annotations recorded and restored on the recreated pod.' }),
  'persistentPodStateRetentionPolicy': str({ description: 'When recorded states are dropped: WhenScaled or WhenDeleted.' }),
  'preferredPersistentTopology': list(obj({
    'preference!': persistentTopology(),
    'weight!': int32(),
  })),
  'requiredPersistentTopology': persistentTopology(),
  'targetRef!': workloadRef(),
});

/** What was recorded about one pod. */
const podState = (): Schema => obj({
  annotations: stringMap(),
  nodeName: str(),
  nodeTopologyLabels: stringMap(),
});

const persistentPodStateStatus = (): Schema => obj({
  'observedGeneration!': int64(),
  'podStates': mapOf(podState(), { description: 'Recorded states, by pod name.' }),
});

export const PERSISTENT_POD_STATE: KindModel = {
  group: 'apps.kruise.io',
  kind: 'PersistentPodState',
  plural: 'persistentpodstates',
  singular: 'persistentpodstate',
  scope: 'Namespaced',
  versions: [{
    name: 'v1alpha1',
    served: true,
    storage: true,
    description: 'Remembers the node topology and annotations of a StatefulSet\'s pods so recreated pods land in the same place.',
    spec: persistentPodStateSpec(),
    status: persistentPodStateStatus(),
    statusSubresource: true,
  }],
};
