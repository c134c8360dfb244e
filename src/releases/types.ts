/**
 * The shapes of the release data: a product, a release line's facts, one
 * release's entry, a release as targeted. Each line's folder
 * (`<product>-<line>/release.ts`) fills them in; the registry
 * (./registry.ts) lists the lines and answers questions about them.
 */
/** The two products whose releases are modelled. */
export type Product = 'openkruise' | 'rollouts';

/** The facts of one release line. */
export interface ReleaseLine {
  readonly product: Product;
  /** `major.minor`, e.g. `1.8`. */
  readonly line: string;
  /** The releases of the line, oldest first; the last is the one the line stands for. */
  readonly releases: readonly ReleaseEntry[];
  /** Versions that read like this line's but are not (a tag on another line's code): version -> why. */
  readonly traps?: Readonly<Record<string, string>>;
  /**
   * Where the generated schemas of the line are, under schemas/ of the
   * package (`openkruise-1.8/`); absent for the default line, whose files are
   * schemas/ itself.
   */
  readonly folder?: string;
  /** The next newer line, whose model this line's `model.ts` changes; absent for the default line. */
  readonly newer?: string;
  /** Feature gates of kruise-manager (OpenKruise) or kruise-rollout-manager (Kruise Rollouts). */
  readonly gates: GateChanges;
  /** CRDs upstream ships that the line's Helm chart does not install (e.g. `EphemeralJob`). */
  readonly chartLeavesOut?: readonly string[];
  /**
   * The Kubernetes minor whose libraries (go.mod `k8s.io/kubernetes`, `k8s.io/api`) the
   * line's webhooks decode and validate pod templates with, e.g. `1.30` (OpenKruise only).
   */
  readonly kubernetesLibraries?: string;
  /** What the line's control plane installs, where it differs from the default line's, and the chart it is matched to. */
  readonly controlPlane: ControlPlaneFacts;
}

/**
 * The control plane of a line (`KruiseControlPlane`, `KruiseRolloutControlPlane`):
 * the Helm chart of the line it is matched to, and what its managers do
 * differently from the default line's. The CRDs come from the line's model,
 * the gates from `gates`; these are the rest.
 */
export interface ControlPlaneFacts {
  /** The openkruise/charts chart the control plane is matched to (`versions/kruise/<chart>/` or `versions/kruise-rollout/<chart>/`). */
  readonly chart: string;
  /** The image tag that chart installs. */
  readonly chartImageTag: string;
  /**
   * Kinds (lower case) whose webhooks the line's manager serves at a path
   * with the API version, for v1alpha1 only (`/mutate-apps-kruise-io-v1alpha1-daemonset`),
   * where the default line's serves them without it for every version.
   */
  readonly versionedWebhookPaths?: readonly string[];
  /** Resources of the default line's manager ClusterRole that the line's manager does not use: `group|resource`. */
  readonly managerRoleLacks?: readonly string[];
  /** The line's chart installs no aggregated ClusterRoles (`aggregate-kruise-view`, `-edit`, `-admin`). */
  readonly noAggregateRoles?: boolean;
  /** Command-line flags of the default line's binaries that the line's refuse (they exit on an unknown flag): `binary --flag`. */
  readonly lacksFlags?: readonly string[];
  /** Webhooks of the line's chart that its manager serves and the default line's does not (whose control plane leaves them out). */
  readonly extraWebhooks?: readonly string[];
}

/**
 * One release of a line, and what differs in it from the release before it
 * (the first release of a line: from the line before, whose differences are
 * the line's `model.ts`, `gates` and the kinds' line-level `releaseRules`).
 * The next patch release is one more entry: e.g.
 * `{ version: '1.9.2', imageTag: 'v1.9.2' }`, with `rules`, `gates` or
 * `fixes` when it changes any (test/releases/release-data.test.ts holds each
 * entry to the data it names).
 */
export interface ReleaseEntry {
  /** `x.y.z`. */
  readonly version: string;
  /** The tag of the release's images (kruise-manager, which kruise-daemon runs too; kruise-rollout): `v1.9.1`. */
  readonly imageTag: string;
  /**
   * Webhook rules that change from this release on, each as
   * `<Kind>: <what>` of a `releaseRules` entry of the kind (src/admission)
   * whose `release` is this version.
   */
  readonly rules?: readonly string[];
  /** Feature gates of the manager that first appear in this release of the line. */
  readonly gates?: readonly string[];
  /** Known failures on some clusters (ids of `CLUSTER_FAILURES`, ./failures.ts) that this release fixes. */
  readonly fixes?: readonly string[];
}

/**
 * A line's feature gates, as changes against the next newer line (the
 * default line lists them all): gates it lacks, gates it has that the newer
 * one does not, defaults that differ. Gates that only some of its releases
 * have are in those releases' entries (`ReleaseEntry.gates`).
 */
export interface GateChanges {
  /** Every gate and its default (the default line only). */
  readonly all?: Readonly<Record<string, boolean>>;
  /** Gates of the newer line this line does not know (kruise-manager refuses to start with them). */
  readonly absent?: readonly string[];
  /** Gates this line has beyond the newer line's, with their defaults. */
  readonly extra?: Readonly<Record<string, boolean>>;
  /** Defaults that differ from the newer line's. */
  readonly defaults?: Readonly<Record<string, boolean>>;
}

/** One release of a product, as an app or a command targets it. */
export interface Release {
  readonly product: Product;
  /** Its line. */
  readonly line: ReleaseLine;
  /** `x.y.z`: the release given, or the newest of the line when the line was given. */
  readonly version: string;
  /** Only the line was given (`1.8`). */
  readonly lineOnly: boolean;
}
