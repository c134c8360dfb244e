/**
 * The data a fleet check is made of: plain structs and enums, so every jsii
 * language reads the same report.
 */

/** Where a fleet check's workloads come from. */
export enum FleetSourceKind {
  /** An app repository's synth output (`--workloads`). */
  WORKLOADS = 'Workloads',
  /** A cluster's live objects, saved with `kubectl get ... -A -o json` (`--live`). */
  LIVE = 'Live',
}

/** One input of workloads: an app's output or a cluster. Each has its own Namespaces and their labels. */
export interface FleetSource {
  /** The name the report gives it, e.g. the app's repository or the cluster. */
  readonly name: string;
  /** An app's output or a cluster's live state. */
  readonly kind: FleetSourceKind;
  /** Its objects in wire form: workloads, Namespaces, and the SidecarSets and budgets it has of its own. */
  readonly manifests: any[];
}

/** What a fleet check compares. */
export interface FleetCheckInput {
  /** The policies under review, in wire form: SidecarSets, WorkloadSpreads, PodUnavailableBudgets, PersistentPodStates (Namespaces among them count in every source). */
  readonly policies: any[];
  /** The apps' outputs and the clusters the policies act on. */
  readonly sources: FleetSource[];
  /**
   * The policies as they are now: the report then says what the change does.
   *
   * @default - no change report
   */
  readonly oldPolicies?: any[];

  /**
   * The OpenKruise release the clusters run: a line (`"1.8"`) or a release
   * (`"1.8.2"`). The policies are judged by it (its schema, webhook rules and
   * gate defaults).
   *
   * @default "1.9"
   */
  readonly openKruise?: string;

  /**
   * The Kruise Rollouts release the clusters run: a line (`"0.5"`) or a release (`"0.5.3"`).
   *
   * @default "0.6"
   */
  readonly kruiseRollouts?: string;
}

/** Paths of what a fleet check reads (what the `cdk8s-kruise fleet` flags take). */
export interface FleetCheckPaths {
  /** Files or folders of the policies under review. */
  readonly policies: string[];
  /**
   * Apps' synth outputs (files or folders), one per app: `path` or `name=path`.
   *
   * @default - none
   */
  readonly workloads?: string[];
  /**
   * Clusters' live objects (`kubectl get ... -A -o json` files), one per cluster: `path` or `name=path`
   * (the name defaults to the file name without its extension).
   *
   * @default - none
   */
  readonly live?: string[];
  /**
   * Files or folders of the policies as they are now.
   *
   * @default - no change report
   */
  readonly oldPolicies?: string[];
  /**
   * The OpenKruise release the clusters run: a line (`"1.8"`) or a release
   * (`"1.8.2"`). The policies are judged by it.
   *
   * @default "1.9"
   */
  readonly openKruise?: string;
  /**
   * The Kruise Rollouts release the clusters run: a line (`"0.5"`) or a release (`"0.5.3"`).
   *
   * @default "0.6"
   */
  readonly kruiseRollouts?: string;
  /**
   * Threads that read and check the sources at once, this one included. The
   * report is the same for any number; an input of less than about 6 MB per
   * thread, or of one source, is checked in this thread alone.
   *
   * @default - the cores available
   */
  readonly jobs?: number;
}

/** How a fleet report is printed. */
export enum FleetFormat {
  /** A table for the terminal. */
  TABLE = 'table',
  /** Markdown, for a pull-request comment. */
  MARKDOWN = 'markdown',
  /** JSON: the `FleetReport` itself. */
  JSON = 'json',
}

/** What the cluster does about a problem. */
export enum FleetProblemSeverity {
  /** The cluster refuses it: a webhook refuses the policy, or the API server refuses the pods. */
  REFUSED = 'Refused',
  /** The cluster accepts it and silently replaces an app container with a sidecar. */
  REPLACES_APP_CONTAINER = 'ReplacesAppContainer',
  /** The cluster accepts it, but the pods do not work as written (a port clash, the wrong volume). */
  WARNING = 'Warning',
  /** The inputs do not say what the cluster does: a namespace selector against a namespace in no input. */
  UNKNOWN = 'Unknown',
}

/** A kind of fleet problem. */
export enum FleetProblemKind {
  /** Two SidecarSets whose selectors can match the same pods inject the same name (the webhook refuses the second). */
  SIDECAR_SET_CONFLICT = 'SidecarSetConflict',
  /** A SidecarSet update the webhook refuses (a new sidecar container, a changed upgrade type). */
  SIDECAR_SET_UPDATE_REFUSED = 'SidecarSetUpdateRefused',
  /** Two PodUnavailableBudgets of one namespace with the same target or overlapping selectors (the webhook refuses the second). */
  BUDGET_CONFLICT = 'BudgetConflict',
  /** Two WorkloadSpreads of one workload (the webhook refuses the second). */
  WORKLOAD_SPREAD_CONFLICT = 'WorkloadSpreadConflict',
  /** Two PersistentPodStates of one workload (the webhook refuses the second). */
  PERSISTENT_POD_STATE_CONFLICT = 'PersistentPodStateConflict',
  /** A sidecar has the name of an app container, which OpenKruise silently replaces. */
  REPLACES_APP_CONTAINER = 'ReplacesAppContainer',
  /** A sidecar init container has the name of an app init container, which OpenKruise silently replaces. */
  REPLACES_APP_INIT_CONTAINER = 'ReplacesAppInitContainer',
  /** A sidecar has the name of an app container of the other list (init or not): the API server refuses the pods. */
  NAME_IN_OTHER_LIST = 'NameInOtherList',
  /** Two SidecarSets inject a sidecar of the same name into one pod: the API server refuses the pods. */
  INJECTED_TWICE = 'InjectedTwice',
  /** A sidecar volume has the name of a different app volume: the sidecar mounts the app's. */
  VOLUME = 'Volume',
  /** Two containers of a pod listen on the same port. */
  PORT = 'Port',
  /** Two containers of a pod name a port alike. */
  PORT_NAME = 'PortName',
  /**
   * A SidecarSet selects the pods of a workload, but its namespaceSelector
   * reads labels of a namespace that is in no input: whether it injects
   * cannot be judged (and is not assumed either way).
   */
  NAMESPACE_UNKNOWN = 'NamespaceUnknown',
}

/** An object of the fleet. */
export interface FleetObjectRef {
  /** Kind. */
  readonly kind: string;
  /** Name. */
  readonly name: string;
  /**
   * Namespace.
   *
   * @default - cluster-scoped
   */
  readonly namespace?: string;
  /** `policies`, `old policies`, or the name of the source (app output or cluster) it belongs to. */
  readonly source: string;
  /**
   * The file it was read from.
   *
   * @default - unknown (given as an object)
   */
  readonly file?: string;
}

/** A conflict or collision, naming both sides. */
export interface FleetProblem {
  /** What is wrong. */
  readonly kind: FleetProblemKind;
  /** What the cluster does about it. */
  readonly severity: FleetProblemSeverity;
  /** The policy under review. */
  readonly policy: FleetObjectRef;
  /** The other side: another policy, or the workload whose pods collide. */
  readonly other: FleetObjectRef;
  /** One line naming both sides, what happens and the fix. */
  readonly message: string;
}

/** A workload of the fleet. */
export interface FleetWorkload {
  /** The source (app output or cluster) it belongs to. */
  readonly source: string;
  /** Kind. */
  readonly kind: string;
  /** Namespace. */
  readonly namespace: string;
  /** Name. */
  readonly name: string;
  /**
   * Pods it runs (replicas).
   *
   * @default - unknown (a DaemonSet, a CronJob)
   */
  readonly pods?: number;
  /**
   * The file it was read from.
   *
   * @default - unknown
   */
  readonly file?: string;
}

/** The pods of one workload once the SidecarSets are injected. */
export interface FleetInjection {
  /** The workload. */
  readonly workload: FleetWorkload;
  /** The SidecarSets injected, in the order the webhook applies them (policies and the source's own). */
  readonly sidecarSets: string[];
  /** The containers of its pods, in order. */
  readonly containers: string[];
  /** The init containers of its pods, in order. */
  readonly initContainers: string[];
  /**
   * Whether the container order is fixed. It is not when sidecars of two
   * SidecarSets go on the same side of the app containers: OpenKruise v1.9.0
   * injects SidecarSets in the order its cache lists them, which varies;
   * `containers` then lists them by SidecarSet name.
   */
  readonly containerOrderFixed: boolean;
}

/** What a policy covers in one source. */
export interface FleetSourceSelection {
  /** The source (app output or cluster). */
  readonly source: string;
  /** The namespaces of the workloads it covers there. */
  readonly namespaces: string[];
  /** How many workloads it covers there. */
  readonly workloads: number;
  /**
   * How many pods.
   *
   * @default - unknown (a covered workload's pod count is unknown)
   */
  readonly pods?: number;
}

/** One policy under review, against the whole fleet. */
export interface FleetPolicyReport {
  /** Kind. */
  readonly kind: string;
  /** Name. */
  readonly name: string;
  /**
   * Namespace.
   *
   * @default - cluster-scoped
   */
  readonly namespace?: string;
  /**
   * The file it was read from.
   *
   * @default - unknown
   */
  readonly file?: string;
  /** The workloads it selects (SidecarSet), spreads, protects or records. */
  readonly workloads: FleetWorkload[];
  /** The same, per source. */
  readonly sources: FleetSourceSelection[];
  /**
   * Pods of those workloads.
   *
   * @default - unknown (a workload's pod count is unknown)
   */
  readonly pods?: number;
  /** SidecarSets: the containers each selected workload's pods will have. */
  readonly injections: FleetInjection[];
  /** Its conflicts and collisions. */
  readonly problems: FleetProblem[];
}

/** What happens to a policy in a change. */
export enum FleetChangeType {
  /** A new policy. */
  CREATE = 'Create',
  /** A policy that is removed. */
  DELETE = 'Delete',
  /** A policy that changes. */
  UPDATE = 'Update',
}

/** What a policy change does to the pods of a workload. */
export enum FleetPodChange {
  /** The SidecarSet starts selecting the workload: new pods get its sidecars, running pods only when recreated. */
  START_INJECTION = 'StartInjection',
  /** The SidecarSet stops selecting the workload: running pods keep its sidecars until recreated; new pods are created without. */
  STOP_INJECTION = 'StopInjection',
  /** Running pods get the sidecar change in place: image-only, by container restart or hot upgrade. */
  IN_PLACE = 'InPlace',
  /** Running pods keep the old sidecars; the change reaches pods created from now on. */
  ON_RECREATE = 'OnRecreate',
  /** The webhook refuses the SidecarSet update: nothing changes. */
  REFUSED = 'Refused',
  /** The budget or WorkloadSpread starts covering the workload's pods. */
  START_COVERAGE = 'StartCoverage',
  /** The budget or WorkloadSpread stops covering the workload's pods. */
  STOP_COVERAGE = 'StopCoverage',
}

/** What a policy change does to one workload. */
export interface FleetWorkloadChange {
  /** The workload. */
  readonly workload: FleetWorkload;
  /** What happens to its pods. */
  readonly change: FleetPodChange;
  /** Sidecars restarted in place with a new image (cold upgrade). */
  readonly restarted: string[];
  /** Sidecars upgraded in place by the hot-upgrade container swap. */
  readonly hotUpgraded: string[];
  /** What reaches its pods only when they are recreated. */
  readonly onRecreate: string[];
  /** One sentence. */
  readonly summary: string;
}

/** One policy of a change, against the whole fleet. */
export interface FleetPolicyChange {
  /** Kind. */
  readonly kind: string;
  /** Name. */
  readonly name: string;
  /**
   * Namespace.
   *
   * @default - cluster-scoped
   */
  readonly namespace?: string;
  /** Created, removed or changed. */
  readonly change: FleetChangeType;
  /** One sentence: what changes and how it reaches the pods. */
  readonly summary: string;
  /** What the change does to each workload it reaches. */
  readonly workloads: FleetWorkloadChange[];
  /** Everything else worth knowing (a partition, a paused update, a refused update). */
  readonly notes: string[];
}

/** One source of the check. */
export interface FleetSourceSummary {
  /** Its name. */
  readonly name: string;
  /** An app output or a cluster. */
  readonly kind: FleetSourceKind;
  /** Its workloads. */
  readonly workloads: number;
  /** Its Namespace objects (their labels decide namespace selectors there). */
  readonly namespaces: number;
}

/** The fleet check: every policy against every workload of every source, and with old policies the change. */
export interface FleetReport {
  /** The sources. */
  readonly sources: FleetSourceSummary[];
  /** Every policy under review. */
  readonly policies: FleetPolicyReport[];
  /** Every problem, once. */
  readonly problems: FleetProblem[];
  /** Whether old policies were given (then `changes` is the change report). */
  readonly compared: boolean;
  /** Every policy that is created, removed or changed. */
  readonly changes: FleetPolicyChange[];
  /** Whether the cluster refuses part of it (a policy, a policy update, or the pods). */
  readonly refused: boolean;
  /** Whether a sidecar silently replaces an app container somewhere. */
  readonly replacesAppContainer: boolean;
}
