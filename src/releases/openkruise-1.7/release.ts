/**
 * OpenKruise 1.7: v1.7.0 to v1.7.4 (the model is v1.7.4, tag v1.7.4, commit
 * 5461ece5). The CRDs are the same in every release of the line, and no
 * webhook rule, gate or known failure this library models differs between
 * them.
 */
import type { ReleaseLine } from '../registry';

export const OPENKRUISE_1_7: ReleaseLine = {
  product: 'openkruise',
  line: '1.7',
  releases: [
    { version: '1.7.0', imageTag: 'v1.7.0' },
    { version: '1.7.1', imageTag: 'v1.7.1' },
    { version: '1.7.2', imageTag: 'v1.7.2' },
    { version: '1.7.3', imageTag: 'v1.7.3' },
    { version: '1.7.4', imageTag: 'v1.7.4' },
  ],
  traps: {
    // the tag v1.7.5 points at the commit of v1.8.3 (branch release-1.8)
    '1.7.5': 'is not 1.7 code: its tag is the commit of 1.8.3 (the 1.7 line ends at 1.7.4), so give 1.8.3 for a manager built from it',
  },
  folder: 'openkruise-1.7',
  newer: '1.8',
  gates: {
    // pkg/features/kruise_features.go of v1.7.4: four gates fewer than 1.8, and deletion protection on by default
    absent: ['EnablePodProbeMarkerOnServerless', 'ForceDeleteTimeoutExpectationGate', 'InPlaceWorkloadVerticalScaling', 'StatefulSetAutoResizePVCGate'],
    defaults: { ResourcesDeletionProtection: true },
  },
  chartLeavesOut: ['EphemeralJob'],
  // go.mod of v1.7.4: k8s.io/kubernetes v1.28.9, k8s.io/api v0.28.9
  kubernetesLibraries: '1.28',
  controlPlane: {
    // versions/kruise/1.7.5, whose image v1.7.5 is 1.8.3 code: the control plane installs v1.7.4
    chart: '1.7.5',
    chartImageTag: 'v1.7.5',
    // the seven kinds 1.9 gives a v1beta1 are served at their v1alpha1 paths (pkg/webhook/*/webhooks.go), as the chart registers them
    versionedWebhookPaths: ['advancedcronjob', 'broadcastjob', 'daemonset', 'imagelistpulljob', 'imagepulljob', 'nodeimage', 'sidecarset'],
    // config/rbac/role.yaml of v1.7.4: no in-place resize of pods, and the Advanced StatefulSet controller reads no StorageClasses
    managerRoleLacks: ['|pods/resize', 'storage.k8s.io|storageclasses'],
    // the 1.7 chart has no aggregate-kruise-view/edit/admin ClusterRoles
    noAggregateRoles: true,
    lacksFlags: ['kruise-daemon --rest-config-qps', 'kruise-daemon --rest-config-burst'],
  },
};
