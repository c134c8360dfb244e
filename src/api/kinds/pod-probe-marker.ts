import { containerProbe, labelSelector } from '../blocks';
import { KindModel, Schema, int64, list, obj, str, stringMap } from '../schema';

/** What to put on a pod when one of its probes reaches a state. */
const probeMarkerPolicy = (): Schema => obj({
  'annotations': stringMap({ description: 'Annotations to set on the pod in this state.' }),
  'labels': stringMap({ description: 'Labels to set on the pod in this state.' }),
  'state!': str({ description: 'Succeeded or Failed.' }),
});

/** The spec of a PodProbeMarker. */
export const podProbeMarkerSpec = (): Schema => obj({
  'probes!': list(containerProbe({
    markerPolicy: list(probeMarkerPolicy(), { description: 'Labels and annotations to apply per probe result.' }),
    podConditionType: str({ description: 'A pod condition type to which the probe result is also written.' }),
  }), { description: 'The probes to run in the selected pods.' }),
  'selector!': labelSelector(),
});

const podProbeMarkerStatus = (): Schema => obj({
  'matchedPods': int64(),
  'observedGeneration!': int64(),
});

export const POD_PROBE_MARKER: KindModel = {
  group: 'apps.kruise.io',
  kind: 'PodProbeMarker',
  plural: 'podprobemarkers',
  singular: 'podprobemarker',
  scope: 'Namespaced',
  versions: [{
    name: 'v1alpha1',
    served: true,
    storage: true,
    description: 'Custom probes run on the node against selected pods, with results written back as labels, annotations or conditions.',
    spec: podProbeMarkerSpec(),
    status: podProbeMarkerStatus(),
    statusSubresource: true,
  }],
};
