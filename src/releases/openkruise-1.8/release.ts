/**
 * OpenKruise 1.8: v1.8.0 to v1.8.4 (the model is v1.8.4, tag v1.8.4, commit
 * a081ad61). The CRDs are the same in every release of the line; v1.8.3 adds
 * a webhook rule (PodProbeMarker tcpSocket.host refused, in the kind's rules).
 */
import type { ReleaseLine } from '../registry';

export const OPENKRUISE_1_8: ReleaseLine = {
  product: 'openkruise',
  line: '1.8',
  releases: [
    { version: '1.8.0', imageTag: 'v1.8.0' },
    { version: '1.8.1', imageTag: 'v1.8.1' },
    { version: '1.8.2', imageTag: 'v1.8.2' },
    { version: '1.8.3', imageTag: 'v1.8.3', rules: ['PodProbeMarker: a host in a tcpSocket probe'] },
    { version: '1.8.4', imageTag: 'v1.8.4' },
  ],
  folder: 'openkruise-1.8',
  newer: '1.9',
  gates: {
    // pkg/features/kruise_features.go of v1.8.4: two gates fewer than 1.9, the same defaults
    absent: ['EnableSortSidecarContainerByName', 'InPlacePodVerticalScaling'],
  },
  // the kruise chart 1.8.x renders every CRD of config/crd/bases but EphemeralJob's
  chartLeavesOut: ['EphemeralJob'],
  // go.mod of v1.8.4: k8s.io/kubernetes v1.30.10, k8s.io/api v0.30.10
  kubernetesLibraries: '1.30',
  controlPlane: {
    // versions/kruise/1.8.3 (there is no chart 1.8.4; its CRDs are the line's)
    chart: '1.8.3',
    chartImageTag: 'v1.8.3',
    // the seven kinds 1.9 gives a v1beta1 are served at their v1alpha1 paths (pkg/webhook/*/webhooks.go), as the chart registers them
    versionedWebhookPaths: ['advancedcronjob', 'broadcastjob', 'daemonset', 'imagelistpulljob', 'imagepulljob', 'nodeimage', 'sidecarset'],
    // config/rbac/role.yaml of v1.8.4: no in-place resize of pods yet
    managerRoleLacks: ['|pods/resize'],
    // cmd/daemon of v1.8.4 has no rest-config flags
    lacksFlags: ['kruise-daemon --rest-config-qps', 'kruise-daemon --rest-config-burst'],
  },
};
