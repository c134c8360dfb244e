/**
 * Which release `cdk8s-kruise check` judges against: its `--openkruise V`
 * and `--rollouts V` flags, read as every command reads them
 * (`targetFromFlags`, src/releases/flags.ts): a line (`1.8`) or a release of
 * it (`1.8.2`, `v1.8.2`) of any modelled release; a flag not given takes the
 * release of the cluster's manager in `--live` when its image tag names one,
 * else the default line.
 */
import { RELEASE_FLAG, targetFromFlags } from '../releases/flags';
import { isManagerOf, managerImage, managerRelease } from '../releases/live';
import { Product, PRODUCT_NAME, Release, ReleaseError, preciser, releaseName, releaseText, sameRelease } from '../releases/registry';
import { Target, TargetRelease } from '../releases/target';

/** The releases a check judges against. */
export interface CheckTarget {
  /** The OpenKruise release, as the report names it, e.g. `v1.8.4` (a line given stands for its newest release). */
  readonly openKruise: string;
  /** The Kruise Rollouts release, e.g. `v0.6.2`. */
  readonly rollouts: string;
  /** The target admission judges by: the releases and where each was given. */
  readonly releases: Target;
}

/** A flag value this build cannot honour; `message` is the line to print. */
export class CheckUsageError extends Error {}

/** The manager of `product` the live state holds, and the release its image tag names (undefined: none, or a tag that is no version). */
function liveRelease(live: ReadonlyArray<{ json: any; file: string }>, product: Product): { release: Release; what: string } | undefined {
  const manager = live.find(d => isManagerOf(d.json, product));
  if (!manager) return undefined;
  const name = product === 'openkruise' ? 'kruise-manager' : 'kruise-rollout-manager';
  const release = managerRelease(manager.json, product, `the ${name} in --live ${manager.file}`);
  return release ? { release, what: `the ${name} in ${manager.file} runs image '${managerImage(manager.json)}'` } : undefined;
}

/**
 * The target of `--openkruise V` and `--rollouts V` (either may be absent),
 * and of the managers in the live state (`--live`): the release each runs, by
 * its image tag, when no flag gives one. A version that is not a modelled
 * release, or a flag that disagrees with the live manager, is a usage error
 * naming the flag and listing the supported releases.
 */
export function checkTarget(openKruise: string | undefined, rollouts: string | undefined,
  live: ReadonlyArray<{ json: any; file: string }> = []): CheckTarget {
  try {
    const flags = targetFromFlags({ openkruise: openKruise, rollouts });
    const follow = (product: Product, given: TargetRelease): TargetRelease => {
      const running = liveRelease(live, product);
      if (!running) return given;
      if (!given.isDeclared) return { release: running.release, declared: `given with --live: ${running.what}`, isDeclared: true };
      // a line and a release of it agree: the release is the target
      if (sameRelease(given.release, running.release)) return { ...given, release: preciser(given.release, running.release) };
      const flag = RELEASE_FLAG[product];
      throw new ReleaseError(`${flag} ${releaseText(given.release)} disagrees with --live: ${running.what} (${releaseName(running.release)}); `
        + `a check judges by one ${PRODUCT_NAME[product]} release: give the one the cluster runs, or leave ${flag} out`);
    };
    const releases: Target = { ...flags, openKruise: follow('openkruise', flags.openKruise), rollouts: follow('rollouts', flags.rollouts) };
    return { openKruise: `v${releases.openKruise.release.version}`, rollouts: `v${releases.rollouts.release.version}`, releases };
  } catch (e) {
    if (e instanceof ReleaseError) throw new CheckUsageError(e.message);
    throw e;
  }
}
