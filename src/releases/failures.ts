/**
 * Known failures of a release on some clusters, as data: which releases
 * have it (from `since` until a release whose entry `fixes` it), on which
 * Kubernetes (./kubernetes.ts), under which feature gate of the manager,
 * and whether a target that meets it is refused or warned. An app's synth
 * and `cdk8s-kruise check` read them through the target (./target.ts):
 * nothing is found when the target does not say which Kubernetes the
 * cluster runs.
 *
 * Each failure carries the upstream sources it was read from (the released
 * sources in ../shared/vendor, Kubernetes' at the tag named);
 * docs/existing-clusters.md states them for users.
 */
import { KubernetesCluster, clusterText, minorText } from './kubernetes';
import { PRODUCT_NAME, Product, Release, ReleaseLine, atLeast, releaseEntries, releaseOrder } from './registry';

/** The clusters a failure happens on (every condition given must hold). */
export interface ClusterCondition {
  /** `/version`'s minor has a suffix (`"31+"`: EKS, GKE, any build from a tree past a tag). */
  readonly minorSuffixed?: true;
  /** The Kubernetes minor is this one or newer. */
  readonly minorFrom?: number;
  /** The Kubernetes minor is older than this one. */
  readonly minorBelow?: number;
}

/** One known failure of some releases on some clusters. */
export interface ClusterFailure {
  /** How release entries name it (`ReleaseEntry.fixes`). */
  readonly id: string;
  /** What it is, in a few words (a plan of a release change lists it). */
  readonly title: string;
  readonly product: Product;
  /** The first release that has it (it lasts until a release whose entry fixes it). */
  readonly since: string;
  /** The clusters it happens on. */
  readonly on: ClusterCondition;
  /** A feature gate of the manager it needs on, if any (the failure is in what the gate turns on). */
  readonly gate?: string;
  /**
   * `refuse`: the target fails synth and check (the cluster's manager cannot
   * do its work there); `warn`: a warning (it fails only when the app makes
   * the change the failure is in, which synth cannot see).
   */
  readonly verdict: 'refuse' | 'warn';
  /** Whether each workload that updates its pods in place is refused too, naming its strategy field. */
  readonly inPlaceWorkloads?: boolean;
  /** What the manager does there (after `kruise-manager vX.Y.Z on Kubernetes K, with the gate on,`): the problem. */
  readonly problem: string;
  /** In a workload's message: what goes wrong with its update. */
  readonly workloadProblem?: string;
  /** The way out that needs no other release, if there is one (after the fixing release, when there is one). */
  readonly otherwise?: string;
  /** The upstream sources of the facts. */
  readonly sources: readonly string[];
}

const VERTICAL = 'InPlaceWorkloadVerticalScaling';

/** Every known failure, by product. */
export const CLUSTER_FAILURES: readonly ClusterFailure[] = [
  {
    id: 'suffixed-minor-panic',
    title: 'kruise-manager panics in every in-place update on a cluster whose /version minor has a suffix (EKS, GKE)',
    product: 'openkruise',
    since: '1.9.0',
    on: { minorSuffixed: true },
    verdict: 'refuse',
    inPlaceWorkloads: true,
    problem: 'reads /version\'s minor as a number in every in-place update of a CloneSet, Advanced StatefulSet or Advanced DaemonSet and panics there, '
      + 'after marking the pod not ready (InPlaceUpdateReady false): the update never completes and the pod stays out of its Services, '
      + 'and an Advanced DaemonSet\'s update, run in a goroutine of its own, stops the whole kruise-manager and its webhooks (upstream issue #2404)',
    workloadProblem: 'each pod it updates in place is marked not ready, then kruise-manager panics and the update never completes',
    sources: [
      'kruise v1.9.0 pkg/client/registry.go:57-59 (semver.New of "<major>.<minor>.0" panics on "1.31+.0")',
      'kruise v1.9.0 pkg/util/inplaceupdate/inplace_update_defaults.go:215 (called at the end of every in-place patch, whatever the gates)',
      'kruise v1.9.0 pkg/util/inplaceupdate/inplace_update.go:326-350, 392-397 (InPlaceUpdateReady set false first, then the patch)',
      'kruise v1.9.0 pkg/controller/daemonset/daemonset_update.go:421 (the Advanced DaemonSet updates pods in goroutines without recover)',
      'kruise v1.9.1 pkg/client/registry.go:58-96 (the minor read from gitVersion\'s digits, and a recover)',
    ],
  },
  {
    id: 'pod-update-resize-from-1.32',
    title: 'with InPlaceWorkloadVerticalScaling on, in-place cpu and memory changes fail from Kubernetes 1.32 (sent in the pod update)',
    product: 'openkruise',
    since: '1.8.0',
    on: { minorFrom: 32 },
    gate: VERTICAL,
    verdict: 'warn',
    problem: 'changes cpu and memory in place by updating the pod, which Kubernetes refuses from 1.32 on (resources change only through the pods/resize subresource there): '
      + 'every in-place update that changes them fails',
    otherwise: `or turn ${VERTICAL} off (cpu and memory changes then recreate pods)`,
    sources: [
      'kruise v1.8.4 pkg/util/inplaceupdate/inplace_update_defaults.go:158-176 (resources written into the pod update)',
      'kubernetes v1.32.10 pkg/apis/core/validation/validation.go:5283-5291 (ValidatePodUpdate lets only images change in containers)',
    ],
  },
  {
    id: 'resize-alpha-before-1.32',
    title: 'with InPlaceWorkloadVerticalScaling on, in-place cpu and memory changes before Kubernetes 1.32 need its alpha InPlacePodVerticalScaling gate',
    product: 'openkruise',
    since: '1.8.0',
    on: { minorBelow: 32 },
    gate: VERTICAL,
    verdict: 'warn',
    problem: 'changes cpu and memory in place by updating the pod, which Kubernetes before 1.32 accepts only with its InPlacePodVerticalScaling '
      + 'feature gate on (alpha from 1.27, off by default): without it every in-place update that changes them fails',
    otherwise: `turn ${VERTICAL} off (cpu and memory changes then recreate pods), or turn InPlacePodVerticalScaling on in the cluster's API server`,
    sources: [
      'kruise v1.8.4 pkg/util/inplaceupdate/inplace_update_defaults.go:158-176; v1.9.0 the same at 161-180 below 1.32 (client.ShouldUpdateResourceByResize false)',
      'kubernetes v1.30.10 pkg/apis/core/validation/validation.go:5151-5180 (cpu and memory munged only with InPlacePodVerticalScaling)',
      'kubernetes v1.32.10 pkg/features/versioned_kube_features.go:409-411 (InPlacePodVerticalScaling alpha since 1.27, off by default)',
    ],
  },
  {
    id: 'resize-subresource-alpha-in-1.32',
    title: 'with InPlaceWorkloadVerticalScaling on, in-place cpu and memory changes on Kubernetes 1.32 need its alpha InPlacePodVerticalScaling gate (pods/resize)',
    product: 'openkruise',
    since: '1.9.0',
    on: { minorFrom: 32, minorBelow: 33 },
    gate: VERTICAL,
    verdict: 'warn',
    problem: 'changes cpu and memory in place through the pods/resize subresource, which Kubernetes 1.32 serves only with its InPlacePodVerticalScaling '
      + 'feature gate on (alpha, off by default; on by default from 1.33): without it every in-place update that changes them fails',
    otherwise: `turn ${VERTICAL} off (cpu and memory changes then recreate pods), turn InPlacePodVerticalScaling on in the cluster's API server, or run Kubernetes 1.33 or newer`,
    sources: [
      'kruise v1.9.0 pkg/client/registry.go:55-59 and pkg/util/inplaceupdate/inplace_update.go:236, 288, 397 (pods/resize from 1.32 on)',
      'kruise v1.9.0 pkg/util/podadapter/adapter.go:64-66, 93-99 (the PATCH of pods/resize)',
      'kubernetes v1.32.10 pkg/registry/core/rest/storage_core.go:245-247 (pods/resize registered only with InPlacePodVerticalScaling)',
      'kubernetes v1.37.2 pkg/features/kube_features.go:1698-1702 (InPlacePodVerticalScaling beta and on by default from 1.33, GA in 1.35)',
    ],
  },
];

/** The release that fixes a failure (the first after `since` whose entry lists it), if any. */
export function fixedIn(f: ClusterFailure): string | undefined {
  const after = releaseOrder(f.product).indexOf(f.since);
  return releaseEntries(f.product).map(x => x.entry).find((e, i) => i > after && (e.fixes ?? []).includes(f.id))?.version;
}

/** Whether release `r` has failure `f` (from `since`, until the release that fixes it). */
export function hasFailure(r: Release, f: ClusterFailure): boolean {
  if (r.product !== f.product || !atLeast(r, f.since)) return false;
  const fix = fixedIn(f);
  return fix === undefined || !atLeast(r, fix);
}

/** Whether the cluster meets a condition; undefined when the cluster's description does not say. */
export function meets(k: KubernetesCluster, on: ClusterCondition): boolean | undefined {
  if (on.minorFrom !== undefined || on.minorBelow !== undefined) {
    if (k.minor === undefined) return undefined;
    if (on.minorFrom !== undefined && k.minor < on.minorFrom) return false;
    if (on.minorBelow !== undefined && k.minor >= on.minorBelow) return false;
  }
  if (on.minorSuffixed) return k.minorSuffixed;
  return true;
}

/** A failure the target meets. */
export interface MetFailure {
  readonly failure: ClusterFailure;
  readonly release: Release;
  readonly cluster: KubernetesCluster;
  /** The release that fixes it, if one does. */
  readonly fixedIn?: string;
}

/**
 * The known failures of `release` on `cluster`: those the release has, that
 * the cluster meets for sure, whose gate (if any) `gate` says is on.
 */
export function failuresOf(release: Release, cluster: KubernetesCluster, gate: (name: string) => boolean): MetFailure[] {
  const out: MetFailure[] = [];
  for (const f of CLUSTER_FAILURES) {
    if (!hasFailure(release, f) || meets(cluster, f.on) !== true) continue;
    if (f.gate !== undefined && !gate(f.gate)) continue;
    out.push({ failure: f, release, cluster, fixedIn: fixedIn(f) });
  }
  return out;
}

/**
 * `kruise-manager v1.9.0 on Kubernetes v1.31.4-eks-2d5f260 (/version minor
 * "31+", declared at 'cluster')`: the subject of a failure's message;
 * `declared` says where the Kubernetes was declared, if the message says it.
 */
export function failureSubject(m: MetFailure, declared?: string): string {
  const manager = m.release.product === 'openkruise' ? 'kruise-manager' : 'kruise-rollout-manager';
  const suffix = m.cluster.minor === undefined ? '/version minor with a suffix' : `/version minor "${minorText(m.cluster)}"`;
  const notes = [...(m.failure.on.minorSuffixed ? [suffix] : []), ...(declared ? [declared] : [])];
  const on = clusterText(m.cluster);
  return `${manager} v${m.release.version} on ${on}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`;
}

/**
 * The fix of a met failure: move to the newest release of the line that
 * fixes it (`moveTo` says how, in the terms of what declared the release),
 * when that release has no known failure on the cluster itself; else the way
 * out without another release.
 */
export function failureFix(m: MetFailure, moveTo: (version: string) => string, gate: (name: string) => boolean): string {
  const otherwise = m.failure.otherwise ?? `run another ${PRODUCT_NAME[m.release.product]} release`;
  if (m.fixedIn === undefined) return otherwise.replace(/^or /, '');
  const line = lineOfRelease(m.release.product, m.fixedIn);
  const to: Release = { product: m.release.product, line, version: line.releases[line.releases.length - 1].version, lineOnly: false };
  if (failuresOf(to, m.cluster, gate).length > 0) return otherwise.replace(/^or /, '');
  const name = PRODUCT_NAME[m.release.product];
  const fix = `${moveTo(to.version)} (${to.version === m.fixedIn ? `${name} ${m.fixedIn} fixes it` : `fixed from ${name} ${m.fixedIn}`})`;
  return m.failure.otherwise ? `${fix}, ${m.failure.otherwise}` : fix;
}

/** The line of a release version of a product. */
function lineOfRelease(product: Product, version: string): ReleaseLine {
  return releaseEntries(product).find(x => x.entry.version === version)!.line;
}
