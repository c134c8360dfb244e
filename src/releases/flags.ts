/**
 * The target of a command (`cdk8s-kruise plan`, `fleet`, `check`): its
 * `--openkruise V` and `--rollouts V` flags, each a line (`1.8`) or a release
 * (`1.8.2`, `v1.8.2`); a flag not given leaves the default line.
 */
import { Product, parseRelease } from './registry';
import { Target, TargetRelease, defaultTarget, targetGate } from './target';
import type { AdmissionContext } from '../admission/types';

/** The flag values of a command, as given (undefined: not given). */
export interface ReleaseFlags {
  readonly openkruise?: string;
  readonly rollouts?: string;
  /** OpenKruise feature gates the command was told the cluster runs (`Gate=true,Gate2=false`), if any. */
  readonly featureGates?: Readonly<Record<string, boolean>>;
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
    const flag = RELEASE_FLAG[product];
    return { release: parseRelease(product, value, flag), declared: `given with ${flag}`, isDeclared: true };
  };
  return {
    openKruise: one('openkruise', flags.openkruise, base.openKruise),
    rollouts: one('rollouts', flags.rollouts, base.rollouts),
    featureGates: { ...(flags.featureGates ?? {}) },
  };
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
