/**
 * OpenKruise 1.9, the default line: the releases v1.9.0 (tag v1.9.0, commit
 * b1e001a9), whose API the model in src/api describes as it is, and v1.9.1:
 * v1.9.0 with one fix (upstream PR #2504, the cherry-pick of #2502:
 * `pkg/client/registry.go` no longer panics on a /version minor with a suffix);
 * its CRDs, webhooks and feature gates are v1.9.0's (config/crd, pkg/webhook
 * and pkg/features of the two sources are identical).
 */
import type { ReleaseLine } from '../registry';

/** kruise-manager's feature gates and their defaults in v1.9.0 (pkg/features/kruise_features.go). */
export const OPENKRUISE_1_9_GATES: Readonly<Record<string, boolean>> = {
  KruiseDaemon: true,
  PodWebhook: true,
  DaemonWatchingPod: true,
  CloneSetShortHash: false,
  KruisePodReadinessGate: false,
  PreDownloadImageForInPlaceUpdate: false,
  CloneSetPartitionRollback: false,
  ResourcesDeletionProtection: false,
  PodUnavailableBudgetDeleteGate: true,
  PodUnavailableBudgetUpdateGate: false,
  WorkloadSpread: true,
  TemplateNoDefaults: false,
  InPlaceUpdateEnvFromMetadata: true,
  StatefulSetAutoDeletePVC: true,
  SidecarSetPatchPodMetadataDefaultsAllowed: false,
  SidecarTerminator: false,
  PodProbeMarkerGate: true,
  PreDownloadImageForDaemonSetUpdate: false,
  CloneSetEventHandlerOptimization: false,
  PreparingUpdateAsUpdate: false,
  ImagePullJobGate: false,
  ResourceDistributionGate: false,
  DeletionProtectionForCRDCascadingGate: false,
  EnhancedLivenessProbe: false,
  RecreatePodWhenChangeVCTInCloneSetGate: false,
  StatefulSetStartOrdinal: false,
  PodIndexLabel: true,
  EnableExternalCerts: false,
  StatefulSetAutoResizePVCGate: false,
  ForceDeleteTimeoutExpectationGate: false,
  InPlaceWorkloadVerticalScaling: false,
  EnablePodProbeMarkerOnServerless: false,
  EnableSortSidecarContainerByName: false,
  InPlacePodVerticalScaling: false,
};

export const OPENKRUISE_1_9: ReleaseLine = {
  product: 'openkruise',
  line: '1.9',
  releases: [
    { version: '1.9.0', imageTag: 'v1.9.0', fixes: ['pod-update-resize-from-1.32'] },
    { version: '1.9.1', imageTag: 'v1.9.1', fixes: ['suffixed-minor-panic'] },
  ],
  gates: { all: OPENKRUISE_1_9_GATES },
  // go.mod of v1.9.0 and v1.9.1: k8s.io/kubernetes v1.32.10, k8s.io/api v0.32.10
  kubernetesLibraries: '1.32',
  // there is no chart 1.9.0 yet: the newest, 1.9.0-alpha.3, installs a pre-release image
  controlPlane: { chart: '1.9.0-alpha.3', chartImageTag: 'v1.9.0-alpha3' },
};
