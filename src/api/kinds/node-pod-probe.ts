import { containerProbe } from '../blocks';
import { KindModel, Schema, list, obj, str, time } from '../schema';

/** The probes kruise-daemon runs against one pod of the node. */
const podProbe = (): Schema => obj({
  'IP!': str({ description: 'The pod IP.' }),
  'name!': str(),
  'namespace!': str(),
  'probes': list(containerProbe()),
  'uid!': str(),
});

/** The spec of a NodePodProbe. */
export const nodePodProbeSpec = (): Schema => obj({
  podProbes: list(podProbe(), { description: 'The pods of the node to probe, and their probes.' }),
});

/** The latest result of one probe. */
const probeState = (): Schema => obj({
  'lastProbeTime': time(),
  'lastTransitionTime': time(),
  'message': str(),
  'name!': str(),
  'state!': str(),
});

const nodePodProbeStatus = (): Schema => obj({
  podProbeStatuses: list(obj({
    'name!': str(),
    'namespace!': str(),
    'probeStates': list(probeState()),
    'uid!': str(),
  })),
});

export const NODE_POD_PROBE: KindModel = {
  group: 'apps.kruise.io',
  kind: 'NodePodProbe',
  plural: 'nodepodprobes',
  singular: 'nodepodprobe',
  scope: 'Cluster',
  versions: [{
    name: 'v1alpha1',
    served: true,
    storage: true,
    description: 'The probes one node runs for its pods (one object per node, managed by kruise), and their results.',
    spec: nodePodProbeSpec(),
    status: nodePodProbeStatus(),
    statusSubresource: true,
  }],
};
