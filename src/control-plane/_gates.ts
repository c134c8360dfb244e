/**
 * Feature-gate bookkeeping of the control plane: a release's defaults, the
 * start-up rules of kruise-manager (the same in 1.7, 1.8 and 1.9), and the
 * checks of the `featureGates` prop.
 */
import { OPENKRUISE_1_9_GATES } from '../releases/openkruise-1.9/release';
import { defaultRelease, gateDefaults, Release } from '../releases/registry';
import { fieldError } from '../validation/field-error';

/** Gate name -> default in the 1.9 line, the default (kept with the line's facts in src/releases/openkruise-1.9). */
export const GATE_DEFAULTS: Readonly<Record<string, boolean>> = OPENKRUISE_1_9_GATES;

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
  /**
   * The gates of an installation of `release`: its gates and their defaults
   * (`gateDefaults`, from the release's line in src/releases), named in
   * messages as `v<release>`.
   */
  public static forRelease(settings: Map<string, _GateSetting>, release: Release): _GateSet {
    return new _GateSet(settings, gateDefaults(release), `v${release.version}`);
  }

  /** Settings written into the flag, by gate. */
  public readonly settings: ReadonlyMap<string, _GateSetting>;
  private readonly effective: Map<string, boolean>;

  /**
   * @param settings the gates set, by name
   * @param defaults the gates of the release and their defaults (default: the 1.9 line's)
   * @param release how messages name the release (default: the default line's release, `v1.9.1`)
   */
  constructor(settings: Map<string, _GateSetting>, private readonly defaults: Readonly<Record<string, boolean>> = GATE_DEFAULTS,
    private readonly release = `v${defaultRelease('openkruise').version}`) {
    this.settings = settings;
    this.effective = resolve(settings, defaults);
  }

  /** The value of the `--feature-gates` flag: `Gate=bool` pairs sorted by name. */
  public flag(): string {
    return [...this.settings.keys()].sort().map(g => `${g}=${this.settings.get(g)!.value}`).join(',');
  }

  /** Whether the gate is on in kruise-manager (defaults and start-up rules applied). */
  public isEnabled(gate: string): boolean {
    const v = this.effective.get(gate);
    if (v === undefined) throw new Error(`unknown OpenKruise ${this.release} feature gate '${gate}'`);
    return v;
  }

  /**
   * Problems with the settings: unknown names, and gates the user set on that
   * kruise-manager forces off (or off that it forces on).
   */
  public problems(): string[] {
    const out: string[] = [];
    for (const [gate, s] of this.settings) {
      if (this.defaults[gate] === undefined) {
        const elsewhere = GATE_DEFAULTS[gate] !== undefined ? ` (a gate of 1.9, which kruise-manager ${this.release} refuses to start with)` : suggest(gate, this.defaults);
        out.push(fieldError(s.origin, s.value, `is not an OpenKruise ${this.release} feature gate${elsewhere}`,
          `use one of the names in KruiseFeatureGate${this.defaults === GATE_DEFAULTS ? '' : ` that ${this.release} has`} (${Object.keys(this.defaults).sort().join(', ')})`));
      }
    }
    if (out.length > 0) return out;
    const value = (g: string) => this.settings.get(g)?.value ?? this.defaults[g];
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

/**
 * Apply a release's defaults and the start-up rules (features.SetDefaultFeatureGates,
 * the same in 1.7, 1.8 and 1.9 for the gates each release has) to the settings.
 */
function resolve(settings: Map<string, _GateSetting>, defaults: Readonly<Record<string, boolean>>): Map<string, boolean> {
  const gates = new Map<string, boolean>();
  for (const [g, d] of Object.entries(defaults)) gates.set(g, settings.get(g)?.value ?? d);
  const off = (g: string) => {
    if (gates.has(g)) gates.set(g, false);
  };
  if (!gates.get('PodWebhook')) for (const g of OFF_WITHOUT_POD_WEBHOOK) off(g);
  if (!gates.get('KruiseDaemon')) for (const g of OFF_WITHOUT_DAEMON) off(g);
  if (FORCE_IMAGE_PULL_JOB.some(g => gates.get(g))) gates.set('ImagePullJobGate', true);
  if (!gates.get('ResourcesDeletionProtection')) off('DeletionProtectionForCRDCascadingGate');
  return gates;
}

/** ", did you mean X?" for a near miss (case or spelling), else "". */
function suggest(name: string, defaults: Readonly<Record<string, boolean>> = GATE_DEFAULTS): string {
  const lower = name.toLowerCase();
  const hit = Object.keys(defaults).find(g => g.toLowerCase() === lower || g.toLowerCase() === `${lower}gate` || `${g.toLowerCase()}gate` === lower);
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
