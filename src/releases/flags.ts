/**
 * The target of a command (`cdk8s-kruise plan`, `fleet`, `check`): its
 * `--openkruise V` and `--rollouts V` flags, each a line (`1.8`) or a release
 * (`1.8.2`, `v1.8.2`); a flag not given leaves the default line.
 */
import { KubernetesVersionError, parseKubernetes, vendorOfName, vendorOnly } from './kubernetes';
import { Product, parseRelease } from './registry';
import { Target, TargetKubernetes, TargetRelease, defaultTarget, targetGate } from './target';
import type { AdmissionContext } from '../admission/types';

/** The flag values of a command, as given (undefined: not given). */
export interface ReleaseFlags {
  readonly openkruise?: string;
  readonly rollouts?: string;
  /** OpenKruise feature gates the command was told the cluster runs (`Gate=true,Gate2=false`), if any. */
  readonly featureGates?: Readonly<Record<string, boolean>>;
  /** `--kubernetes V`: the cluster's Kubernetes, as /version's gitVersion or a minor. */
  readonly kubernetes?: string;
  /** `--kubernetes-vendor V`: eks, gke, aks or other. */
  readonly kubernetesVendor?: string;
  /**
   * How the messages name where each release was given: an API's field
   * (`openKruise`) rather than the command's flag. Absent: the flags.
   */
  readonly names?: Readonly<Record<Product, string>>;
}

/** The flag of each product. */
export const RELEASE_FLAG: Readonly<Record<Product, string>> = { openkruise: '--openkruise', rollouts: '--rollouts' };

/**
 * The target the flags give: what the admission rules of a command judge by.
 * A value that is not a modelled release throws a `ReleaseError` whose
 * message names the flag and lists the supported versions.
 */
export function targetFromFlags(flags: ReleaseFlags): Target {
  const base = defaultTarget();
  const one = (product: Product, value: string | undefined, fallback: TargetRelease): TargetRelease => {
    if (value === undefined) return fallback;
    const flag = (flags.names ?? RELEASE_FLAG)[product];
    return { release: parseRelease(product, value, flag), declared: `given with ${flag}`, isDeclared: true };
  };
  return {
    openKruise: one('openkruise', flags.openkruise, base.openKruise),
    rollouts: one('rollouts', flags.rollouts, base.rollouts),
    featureGates: { ...(flags.featureGates ?? {}) },
    kubernetes: kubernetesFromFlags(flags),
  };
}

/** The cluster's Kubernetes of `--kubernetes` and `--kubernetes-vendor`, if given. */
function kubernetesFromFlags(flags: ReleaseFlags): TargetKubernetes | undefined {
  const given = flags.kubernetesVendor;
  const vendor = given === undefined ? undefined : vendorOfName(given);
  if (given !== undefined && vendor === undefined) {
    throw new KubernetesVersionError(`--kubernetes-vendor: '${given}' is not a vendor; give eks, gke, aks or other`);
  }
  if (flags.kubernetes !== undefined) {
    const declared = `given with --kubernetes${vendor ? ' and --kubernetes-vendor' : ''}`;
    return { cluster: parseKubernetes(flags.kubernetes, '--kubernetes', vendor), declared };
  }
  return vendor === undefined ? undefined : { cluster: vendorOnly(vendor), declared: 'given with --kubernetes-vendor' };
}

/**
 * The admission context of a command: what `judgeManifest` judges a manifest
 * by when the command was given `--openkruise V` / `--rollouts V` (each a
 * line or a release; not given: the default line). The feature gates are the
 * release's defaults, unless the flags name some. Throws a `ReleaseError`
 * (one line, naming the flag and listing the supported versions) for a
 * version that is not modelled. For a command:
 * `judgeManifest(manifest, contextFromFlags({ openkruise: values.openkruise, rollouts: values.rollouts }))`.
 */
export function contextFromFlags(flags: ReleaseFlags): AdmissionContext {
  const target = targetFromFlags(flags);
  return { target, gate: (name: string) => targetGate(target, name) };
}

/** The `--openkruise` and `--rollouts` lines of a command's usage text. */
export const RELEASE_FLAGS_USAGE = `  --openkruise V       the OpenKruise release the cluster runs: a line (1.8) or a release (1.8.2);
                       the default is 1.9
  --rollouts V         the Kruise Rollouts release the cluster runs: a line (0.5) or a release (0.5.3);
                       the default is 0.6
`;
