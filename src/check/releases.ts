/**
 * Which release `cdk8s-kruise check` judges against: its `--openkruise V`
 * and `--rollouts V` flags, read as every command reads them
 * (`targetFromFlags`, src/releases/flags.ts): a line (`1.8`) or a release of
 * it (`1.8.2`, `v1.8.2`) of any modelled release; a flag not given takes the
 * release of the cluster's manager in `--live` when its image tag names one,
 * else the default line. The cluster's Kubernetes: `--kubernetes V`
 * (`--kubernetes-vendor`), and a saved `/version` given with `--live`.
 */
import { RELEASE_FLAG, targetFromFlags } from '../releases/flags';
import { KubernetesCluster, kubernetesDisagreement, kubernetesText, mergeKubernetes } from '../releases/kubernetes';
import { isManagerOf, managerImage, managerRelease } from '../releases/live';
import { Product, PRODUCT_NAME, Release, ReleaseError, preciser, releaseName, releaseText, sameRelease } from '../releases/registry';
import { Target, TargetKubernetes, TargetRelease } from '../releases/target';

/** The releases a check judges against. */
export interface CheckTarget {
  /** The OpenKruise release, as the report names it, e.g. `v1.8.4` (a line given stands for its newest release). */
  readonly openKruise: string;
  /** The Kruise Rollouts release, e.g. `v0.6.2`. */
  readonly rollouts: string;
  /** The cluster's Kubernetes, as the report names it (`v1.31.4-eks-2d5f260`), when given. */
  readonly kubernetes?: string;
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

/** A cluster's `/version` given with `--live`. */
export interface LiveVersion {
  readonly cluster: KubernetesCluster;
  readonly file: string;
}

/** The cluster's Kubernetes of `--kubernetes` and the `/version`s of `--live`: one cluster, or a usage error naming both. */
function kubernetesOf(given: TargetKubernetes | undefined, versions: readonly LiveVersion[]): TargetKubernetes | undefined {
  let k = given;
  for (const v of versions) {
    if (!k) {
      k = { cluster: v.cluster, declared: `given with --live ${v.file}` };
      continue;
    }
    const why = kubernetesDisagreement(k.cluster, v.cluster);
    if (why !== undefined) {
      throw new ReleaseError(`--live ${v.file}: the cluster's /version (Kubernetes ${kubernetesText(v.cluster)}) disagrees with Kubernetes ${kubernetesText(k.cluster)} `
        + `(${k.declared}): ${why}; a check judges by one cluster: give the Kubernetes the cluster runs, or leave one out`);
    }
    k = { ...k, cluster: mergeKubernetes(k.cluster, v.cluster) };
  }
  return k;
}

/**
 * The target of `--openkruise V` and `--rollouts V` (either may be absent),
 * and of the managers in the live state (`--live`): the release each runs, by
 * its image tag, when no flag gives one; the cluster's Kubernetes of
 * `--kubernetes V` (`--kubernetes-vendor V`) and of a saved `/version` in
 * `--live`. A version that is not a modelled release, or a flag that
 * disagrees with the live state, is a usage error naming the flag and
 * listing the supported releases.
 */
export function checkTarget(openKruise: string | undefined, rollouts: string | undefined,
  live: ReadonlyArray<{ json: any; file: string }> = [],
  cluster: { kubernetes?: string; kubernetesVendor?: string; versions?: readonly LiveVersion[] } = {}): CheckTarget {
  try {
    const flags = targetFromFlags({ openkruise: openKruise, rollouts, kubernetes: cluster.kubernetes, kubernetesVendor: cluster.kubernetesVendor });
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
    const kubernetes = kubernetesOf(flags.kubernetes, cluster.versions ?? []);
    const releases: Target = { ...flags, openKruise: follow('openkruise', flags.openKruise), rollouts: follow('rollouts', flags.rollouts), kubernetes };
    return {
      openKruise: `v${releases.openKruise.release.version}`,
      rollouts: `v${releases.rollouts.release.version}`,
      kubernetes: kubernetes ? kubernetesText(kubernetes.cluster) : undefined,
      releases,
    };
  } catch (e) {
    if (e instanceof ReleaseError) throw new CheckUsageError(e.message);
    throw e;
  }
}
