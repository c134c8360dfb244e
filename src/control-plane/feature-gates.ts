/**
 * The OpenKruise v1.9.0 feature gates: names, defaults, and the rules
 * kruise-manager applies at start-up when one gate forces others.
 */
import { GATE_DEFAULTS } from './_gates';

/**
 * The names of the OpenKruise v1.9.0 feature gates, for the `featureGates`
 * map of `KruiseControlPlane` (`{ [KruiseFeatureGate.WORKLOAD_SPREAD]: true }`).
 *
 * The default of each gate is the one kruise-manager v1.9.0 applies when the
 * gate is not set.
 */
export class KruiseFeatureGate {
  /** Features that need kruise-daemon (image pulling, container restarts). Beta, default on. */
  public static readonly KRUISE_DAEMON = 'KruiseDaemon';
  /** The webhook for Pod creation, update and eviction (SidecarSet, PUB, WorkloadSpread). Beta, default on. */
  public static readonly POD_WEBHOOK = 'PodWebhook';
  /** kruise-daemon watches the Pods of its node. Beta, default on. */
  public static readonly DAEMON_WATCHING_POD = 'DaemonWatchingPod';
  /** CloneSet writes only the short revision hash into Pod labels. Alpha, default off. */
  public static readonly CLONE_SET_SHORT_HASH = 'CloneSetShortHash';
  /** Inject the KruisePodReady readiness gate into every Pod. Alpha, default off. */
  public static readonly KRUISE_POD_READINESS_GATE = 'KruisePodReadinessGate';
  /** Pre-download images before in-place updates of CloneSet / Advanced StatefulSet. Alpha, default off. */
  public static readonly PRE_DOWNLOAD_IMAGE_FOR_IN_PLACE_UPDATE = 'PreDownloadImageForInPlaceUpdate';
  /** CloneSet rolls Pods back to the current revision when the partition grows. Alpha, default off. */
  public static readonly CLONE_SET_PARTITION_ROLLBACK = 'CloneSetPartitionRollback';
  /** The `policy.kruise.io/delete-protection` label. Beta, default off. */
  public static readonly RESOURCES_DELETION_PROTECTION = 'ResourcesDeletionProtection';
  /** PodUnavailableBudget protects Pods from deletion and eviction. Beta, default on. */
  public static readonly POD_UNAVAILABLE_BUDGET_DELETE_GATE = 'PodUnavailableBudgetDeleteGate';
  /** PodUnavailableBudget protects Pods from in-place updates. Alpha, default off. */
  public static readonly POD_UNAVAILABLE_BUDGET_UPDATE_GATE = 'PodUnavailableBudgetUpdateGate';
  /** WorkloadSpread. Beta, default on. */
  public static readonly WORKLOAD_SPREAD = 'WorkloadSpread';
  /** The webhooks inject no Kubernetes defaults into pod and PVC templates. Alpha, default off. */
  public static readonly TEMPLATE_NO_DEFAULTS = 'TemplateNoDefaults';
  /** In-place restart of containers whose env comes from changed labels/annotations. Beta, default on. */
  public static readonly IN_PLACE_UPDATE_ENV_FROM_METADATA = 'InPlaceUpdateEnvFromMetadata';
  /** Advanced StatefulSet PVC retention policies. Beta, default on. */
  public static readonly STATEFUL_SET_AUTO_DELETE_PVC = 'StatefulSetAutoDeletePVC';
  /** SidecarSet may patch any Pod metadata when no whitelist exists. Alpha, default off. */
  public static readonly SIDECAR_SET_PATCH_POD_METADATA_DEFAULTS_ALLOWED = 'SidecarSetPatchPodMetadataDefaultsAllowed';
  /** Stop sidecar containers once the main containers of a Job-like Pod exited. Alpha, default off. */
  public static readonly SIDECAR_TERMINATOR = 'SidecarTerminator';
  /** PodProbeMarker. Beta, default on. */
  public static readonly POD_PROBE_MARKER_GATE = 'PodProbeMarkerGate';
  /** Pre-download images before Advanced DaemonSet updates. Alpha, default off. */
  public static readonly PRE_DOWNLOAD_IMAGE_FOR_DAEMON_SET_UPDATE = 'PreDownloadImageForDaemonSetUpdate';
  /** Fewer CloneSet reconciles on Pod updates. Alpha, default off. */
  public static readonly CLONE_SET_EVENT_HANDLER_OPTIMIZATION = 'CloneSetEventHandlerOptimization';
  /** Count preparing-update Pods as updated while scaling. Alpha, default off. */
  public static readonly PREPARING_UPDATE_AS_UPDATE = 'PreparingUpdateAsUpdate';
  /** ImagePullJob and ImageListPullJob. Alpha, default off (the Helm chart turns it on). */
  public static readonly IMAGE_PULL_JOB_GATE = 'ImagePullJobGate';
  /** ResourceDistribution. Alpha, default off. */
  public static readonly RESOURCE_DISTRIBUTION_GATE = 'ResourceDistributionGate';
  /** `Cascading` delete protection of CustomResourceDefinitions. Alpha, default off. */
  public static readonly DELETION_PROTECTION_FOR_CRD_CASCADING_GATE = 'DeletionProtectionForCRDCascadingGate';
  /** The enhanced liveness probe. Alpha, default off. */
  public static readonly ENHANCED_LIVENESS_PROBE = 'EnhancedLivenessProbe';
  /** Recreate CloneSet Pods when volumeClaimTemplates change. Alpha, default off. */
  public static readonly RECREATE_POD_WHEN_CHANGE_VCT_IN_CLONE_SET_GATE = 'RecreatePodWhenChangeVCTInCloneSetGate';
  /** Advanced StatefulSet ordinals start at `spec.ordinals.start`. Alpha, default off. */
  public static readonly STATEFUL_SET_START_ORDINAL = 'StatefulSetStartOrdinal';
  /** Pod completion index as a Pod label for indexed jobs. Beta, default on. */
  public static readonly POD_INDEX_LABEL = 'PodIndexLabel';
  /** Webhook certificates come from outside (cert-manager, ...). Alpha, default off. */
  public static readonly ENABLE_EXTERNAL_CERTS = 'EnableExternalCerts';
  /** Advanced StatefulSet resizes PVCs when volumeClaimTemplates grow. Alpha, default off. */
  public static readonly STATEFUL_SET_AUTO_RESIZE_PVC_GATE = 'StatefulSetAutoResizePVCGate';
  /** Scale expectations time out and are force-deleted. Alpha, default off. */
  public static readonly FORCE_DELETE_TIMEOUT_EXPECTATION_GATE = 'ForceDeleteTimeoutExpectationGate';
  /** In-place vertical scaling of CloneSet / Advanced StatefulSet Pods. Alpha, default off. */
  public static readonly IN_PLACE_WORKLOAD_VERTICAL_SCALING = 'InPlaceWorkloadVerticalScaling';
  /** PodProbeMarker on serverless Pods. Alpha, default off. */
  public static readonly ENABLE_POD_PROBE_MARKER_ON_SERVERLESS = 'EnablePodProbeMarkerOnServerless';
  /** SidecarSet injects sidecars sorted by container name. Alpha, default off. */
  public static readonly ENABLE_SORT_SIDECAR_CONTAINER_BY_NAME = 'EnableSortSidecarContainerByName';
  /** The cluster has in-place Pod resize enabled. Alpha, default off. */
  public static readonly IN_PLACE_POD_VERTICAL_SCALING = 'InPlacePodVerticalScaling';

  /**
   * Every gate name of OpenKruise v1.9.0, sorted.
   */
  public static all(): string[] {
    return Object.keys(GATE_DEFAULTS).sort();
  }

  /**
   * The default of a gate in kruise-manager v1.9.0 (before the start-up rules
   * that force gates off or on).
   *
   * @param gate a gate name
   */
  public static defaultOf(gate: string): boolean {
    const d = GATE_DEFAULTS[gate];
    if (d === undefined) throw new Error(`unknown OpenKruise v1.9.0 feature gate '${gate}'`);
    return d;
  }

  private constructor() {}
}
