/**
 * Feature-gate bookkeeping of the control plane: defaults, the start-up rules
 * of kruise-manager v1.9.0, and the checks of the `featureGates` prop.
 */
import { fieldError } from '../validation/report';

/** Gate name -> default in v1.9.0 (pkg/features/kruise_features.go). */
export const GATE_DEFAULTS: Record<string, boolean> = {
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

/** Gates kruise-manager forces off when PodWebhook is off. */
const OFF_WITHOUT_POD_WEBHOOK = [
  'KruisePodReadinessGate', 'PodUnavailableBudgetDeleteGate', 'PodUnavailableBudgetUpdateGate', 'WorkloadSpread',
  'SidecarSetPatchPodMetadataDefaultsAllowed', 'EnhancedLivenessProbe', 'EnablePodProbeMarkerOnServerless',
];
/** Gates kruise-manager forces off when KruiseDaemon is off. */
const OFF_WITHOUT_DAEMON = [
  'PreDownloadImageForInPlaceUpdate', 'DaemonWatchingPod', 'InPlaceUpdateEnvFromMetadata', 'PreDownloadImageForDaemonSetUpdate',
  'PodProbeMarkerGate', 'SidecarTerminator', 'ImagePullJobGate', 'EnhancedLivenessProbe',
];
/** Gates that force ImagePullJobGate on. */
const FORCE_IMAGE_PULL_JOB = ['PreDownloadImageForInPlaceUpdate', 'PreDownloadImageForDaemonSetUpdate'];

/** Where a gate setting comes from, for messages. */
export interface _GateSetting {
  readonly value: boolean;
  /** The prop that set it, e.g. `featureGates.WorkloadSpread`. */
  readonly origin: string;
  /** True when the user wrote it in `featureGates`. */
  readonly explicit: boolean;
}

/**
 * The gates of one installation: what the `--feature-gates` flag says, and
 * what kruise-manager ends up with after its start-up rules.
 * @internal
 */
export class _GateSet {
  /** Settings written into the flag, by gate. */
  public readonly settings: ReadonlyMap<string, _GateSetting>;
  private readonly effective: Map<string, boolean>;

  constructor(settings: Map<string, _GateSetting>) {
    this.settings = settings;
    this.effective = resolve(settings);
  }

  /** The value of the `--feature-gates` flag: `Gate=bool` pairs sorted by name. */
  public flag(): string {
    return [...this.settings.keys()].sort().map(g => `${g}=${this.settings.get(g)!.value}`).join(',');
  }

  /** Whether the gate is on in kruise-manager (defaults and start-up rules applied). */
  public isEnabled(gate: string): boolean {
    const v = this.effective.get(gate);
    if (v === undefined) throw new Error(`unknown OpenKruise v1.9.0 feature gate '${gate}'`);
    return v;
  }

  /**
   * Problems with the settings: unknown names, and gates the user set on that
   * kruise-manager forces off (or off that it forces on).
   */
  public problems(): string[] {
    const out: string[] = [];
    for (const [gate, s] of this.settings) {
      if (GATE_DEFAULTS[gate] === undefined) {
        out.push(fieldError(s.origin, s.value, `is not an OpenKruise v1.9.0 feature gate${suggest(gate)}`,
          `use one of the names in KruiseFeatureGate (${Object.keys(GATE_DEFAULTS).sort().join(', ')})`));
      }
    }
    if (out.length > 0) return out;
    const value = (g: string) => this.settings.get(g)?.value ?? GATE_DEFAULTS[g];
    const explicitOn = (g: string) => this.settings.get(g)?.explicit === true && this.settings.get(g)?.value === true;
    if (!value('PodWebhook')) {
      for (const g of OFF_WITHOUT_POD_WEBHOOK.filter(explicitOn)) {
        out.push(fieldError(`featureGates.${g}`, true, 'has no effect: kruise-manager turns it off when PodWebhook is off',
          'remove it, or set featureGates.PodWebhook to true'));
      }
    }
    if (!value('KruiseDaemon')) {
      for (const g of OFF_WITHOUT_DAEMON.filter(explicitOn)) {
        out.push(fieldError(`featureGates.${g}`, true, 'has no effect: kruise-manager turns it off when KruiseDaemon is off',
          'remove it, or set featureGates.KruiseDaemon to true'));
      }
    }
    const ipj = this.settings.get('ImagePullJobGate');
    if (ipj?.explicit && ipj.value === false && value('KruiseDaemon')) {
      for (const g of FORCE_IMAGE_PULL_JOB.filter(explicitOn)) {
        out.push(fieldError('featureGates.ImagePullJobGate', false, `has no effect: kruise-manager turns it on because ${g} is on`,
          `remove it, or turn ${g} off`));
      }
    }
    if (!value('ResourcesDeletionProtection') && explicitOn('DeletionProtectionForCRDCascadingGate')) {
      out.push(fieldError('featureGates.DeletionProtectionForCRDCascadingGate', true,
        'has no effect: kruise-manager turns it off when ResourcesDeletionProtection is off',
        'set featureGates.ResourcesDeletionProtection to true as well'));
    }
    return out;
  }
}

/** Apply the v1.9.0 defaults and start-up rules (features.SetDefaultFeatureGates) to the settings. */
function resolve(settings: Map<string, _GateSetting>): Map<string, boolean> {
  const gates = new Map<string, boolean>();
  for (const [g, d] of Object.entries(GATE_DEFAULTS)) gates.set(g, settings.get(g)?.value ?? d);
  if (!gates.get('PodWebhook')) for (const g of OFF_WITHOUT_POD_WEBHOOK) gates.set(g, false);
  if (!gates.get('KruiseDaemon')) for (const g of OFF_WITHOUT_DAEMON) gates.set(g, false);
  if (FORCE_IMAGE_PULL_JOB.some(g => gates.get(g))) gates.set('ImagePullJobGate', true);
  if (!gates.get('ResourcesDeletionProtection')) gates.set('DeletionProtectionForCRDCascadingGate', false);
  return gates;
}

/** ", did you mean X?" for a near miss (case or spelling), else "". */
function suggest(name: string): string {
  const lower = name.toLowerCase();
  const hit = Object.keys(GATE_DEFAULTS).find(g => g.toLowerCase() === lower || g.toLowerCase() === `${lower}gate` || `${g.toLowerCase()}gate` === lower);
  return hit ? ` (did you mean '${hit}'?)` : '';
}

/**
 * Which other gates a gate needs so that kruise-manager keeps it on.
 * @internal
 */
export function _gatePrerequisites(gate: string): string[] {
  const out: string[] = [];
  if (OFF_WITHOUT_POD_WEBHOOK.includes(gate)) out.push('PodWebhook');
  if (OFF_WITHOUT_DAEMON.includes(gate)) out.push('KruiseDaemon');
  if (gate === 'DeletionProtectionForCRDCascadingGate') out.push('ResourcesDeletionProtection');
  return out;
}
