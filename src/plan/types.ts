/**
 * The data an update plan is made of: plain structs and enums, so every jsii
 * language reads the same plan.
 */

/** What a change does to the running pods of a workload. */
export enum UpdateType {
  /** The pod template did not change: no pod is touched (scaling may still happen). */
  NONE = 'None',
  /** Pods are updated in place: same pod, same node, same IP; only the changed containers restart. */
  IN_PLACE = 'InPlace',
  /** Pods are deleted and created again with the new template. */
  RECREATE = 'Recreate',
  /** The cluster refuses the change (the webhook rejects it, or the controller refuses to update the pods). */
  REJECTED = 'Rejected',
  /** `OnDelete` strategy: pods take the new template only when someone deletes them. */
  ON_DELETE = 'OnDelete',
  /** SidecarSet: the change reaches only pods created from now on; running pods keep the old sidecars. */
  NEW_PODS_ONLY = 'NewPodsOnly',
  /** The object is new: its pods are created. */
  CREATE = 'Create',
  /** The object is gone from the new manifests: its pods are deleted when it is pruned. */
  DELETE = 'Delete',
}

/** Who refuses a rejected change. */
export enum RejectedBy {
  /** The OpenKruise validating webhook refuses the update: `kubectl apply` fails. */
  WEBHOOK = 'Webhook',
  /** The object is accepted, but the controller refuses to update the pods (an error event, pods stay old). */
  CONTROLLER = 'Controller',
}

/** How a Kruise Rollouts release moves the pods of a workload (the BatchRelease controller that runs it). */
export enum RolloutReleaseStyle {
  /**
   * Batches on the workload itself: its partition is lowered step by step
   * (CloneSet, Advanced StatefulSet, StatefulSet, Advanced DaemonSet, and a
   * Deployment with the AdvancedDeployment gate). Each moved pod is updated
   * as the workload's own update type says (in place or recreated).
   */
  PARTITION = 'Partition',
  /**
   * An extra canary Deployment runs the new pods next to all the old ones; the
   * Deployment itself is updated (every pod recreated) when the release completes.
   */
  CANARY_DEPLOYMENT = 'CanaryDeployment',
  /**
   * Blue-green: new pods are created next to every old pod (surge); the old
   * pods are removed when the release completes.
   */
  BLUE_GREEN = 'BlueGreen',
}

/** What a plan says about a Rollout object itself. */
export enum RolloutChange {
  /** The Rollout is new. */
  CREATE = 'Create',
  /** The Rollout changes, and the cluster accepts it. */
  UPDATE = 'Update',
  /** The Rollout is gone from the new manifests. */
  DELETE = 'Delete',
  /** The Rollout webhook refuses the update (a release is in progress). */
  REJECTED = 'Rejected',
}

/** One step of a Kruise Rollouts release. */
export interface RolloutStepPlan {
  /** The step number, from 1. */
  readonly step: number;
  /** The step's `replicas` as written (`1`, `"20%"`); a v1alpha1 step without replicas uses its weight. */
  readonly replicas: string;
  /**
   * Pods on the new revision once the step is done.
   *
   * @default - unknown (an Advanced DaemonSet without `daemonSetNodes`), or never (a step after the one the release stalls at)
   */
  readonly podsOnNewRevision?: number;
  /**
   * Pods on the old revision once the step is done.
   *
   * @default - unknown (see `podsOnNewRevision`)
   */
  readonly podsOnOldRevision?: number;
  /**
   * A StatefulSet: the ordinals on the new revision once the step is done, highest first.
   *
   * @default - not a StatefulSet
   */
  readonly ordinals?: number[];
  /**
   * The share of the traffic sent to the new pods (`"20%"`), when the Rollout routes traffic.
   *
   * @default - no weight: the step sends no traffic share of its own
   */
  readonly traffic?: string;
  /** Requests sent to the new pods whatever the weight (headers, query parameters, path), one line each. */
  readonly matches: string[];
  /**
   * Seconds the step waits before the next one starts by itself.
   *
   * @default - no timed wait (see `manualApproval`)
   */
  readonly pauseSeconds?: number;
  /** Whether the step waits until someone approves it (`kubectl-kruise rollout approve`). */
  readonly manualApproval: boolean;
  /**
   * Whether the release stops at this step for good: the workload's controller never brings as many pods to
   * the new revision as the step asks for, so the step never reaches its pause and the later steps and the
   * completion never run. `podsOnNewRevision` is where it stops.
   *
   * @default false
   */
  readonly stalls?: boolean;
  /** One sentence: the pods after the step, the traffic, the wait. */
  readonly summary: string;
}

/** How a Rollout releases (or does not release) a workload's change. */
export interface RolloutReleasePlan {
  /** The Rollout's name (in the workload's namespace). */
  readonly rollout: string;
  /** The Rollout's apiVersion (`rollouts.kruise.io/v1beta1` or `v1alpha1`). */
  readonly apiVersion: string;
  /** How the release moves the pods. */
  readonly style: RolloutReleaseStyle;
  /**
   * Whether this change is released by the Rollout. When false, `reason`
   * says why and the workload's own update strategy releases it.
   */
  readonly inEffect: boolean;
  /**
   * Why the Rollout does not release this change.
   *
   * @default - it does
   */
  readonly reason?: string;
  /**
   * Whether the outcome races kruise-rollout-manager, so no plan can say it: the change is released step by step
   * only if the controller reconciles the Rollout (labels the workload, marks the Rollout Disabled or enabled)
   * before the workload update arrives. `inEffect` is false and the counts are the workload's own update; `reason`
   * says how to make the outcome certain.
   *
   * @default false
   */
  readonly racesController?: boolean;
  /** The steps, in order (empty when the Rollout does not release this change). */
  readonly steps: RolloutStepPlan[];
  /**
   * The step the release stops at for good (see `RolloutStepPlan.stalls`).
   *
   * @default - the release does not stall
   */
  readonly stallsAtStep?: number;
  /** What happens after the last step: the release completes (or, when it stalls, that it never does). */
  readonly completion: string;
}

/** The plan of one Rollout object: what the cluster does with the Rollout itself. */
export interface RolloutPlan {
  /** apiVersion of the new object (of the old one when deleted). */
  readonly apiVersion: string;
  /** Namespace. */
  readonly namespace: string;
  /** Name. */
  readonly name: string;
  /** The workload it releases (`Kind namespace/name`). */
  readonly workload: string;
  /** What happens to the Rollout. */
  readonly change: RolloutChange;
  /** One sentence saying what happens and why. */
  readonly summary: string;
  /**
   * For `REJECTED`: the field the webhook refuses.
   *
   * @default - not rejected
   */
  readonly rejectedField?: string;
  /**
   * For `REJECTED`: the error, with what to do about it.
   *
   * @default - not rejected
   */
  readonly rejection?: string;
  /**
   * The Rollout's `status.phase` in the cluster (known when the old side is live objects).
   *
   * @default - unknown
   */
  readonly livePhase?: string;
  /** Changes that fight the release in progress (known when the old side is live objects). */
  readonly releaseConflicts: string[];
  /** Everything else worth knowing. */
  readonly notes: string[];
}

/** How a plan is printed. */
export enum PlanFormat {
  /** A table for the terminal. */
  TABLE = 'table',
  /** Markdown, for a pull-request comment. */
  MARKDOWN = 'markdown',
  /** JSON: the `PlanReport` itself. */
  JSON = 'json',
}

/** A container whose image changes. */
export interface ImageChange {
  /** The container name. */
  readonly container: string;
  /** The image before the change. */
  readonly oldImage: string;
  /** The image after the change. */
  readonly newImage: string;
}

/** Options of an update plan. */
export interface UpdatePlanOptions {
  /**
   * OpenKruise feature gates of the cluster (`Name: true|false`), as passed to
   * kruise-manager's `--feature-gates`. The gates that decide the plan are
   * InPlaceWorkloadVerticalScaling, InPlaceUpdateEnvFromMetadata (and
   * KruiseDaemon, which it needs), RecreatePodWhenChangeVCTInCloneSetGate,
   * TemplateNoDefaults, StatefulSetStartOrdinal and StatefulSetAutoResizePVCGate.
   *
   * @default - the OpenKruise 1.9 defaults
   */
  readonly featureGates?: { [gate: string]: boolean };

  /**
   * How many nodes run a pod of each Advanced DaemonSet, for pod counts and
   * batches of DaemonSets (manifests do not say).
   *
   * @default - DaemonSet plans give the rule, not pod counts
   */
  readonly daemonSetNodes?: number;

  /**
   * The namespace of namespaced objects whose manifest has none (where
   * `kubectl apply` would put them).
   *
   * @default 'default'
   */
  readonly defaultNamespace?: string;

  /**
   * The old manifests are live objects (`kubectl get -o json`, with their
   * status): other objects are compared for presence only, and the state of
   * Kruise Rollouts releases is read from them (a release in progress, the
   * Rollout's phase, the workload's labels), so changes the Rollout webhook
   * refuses during a release and changes that fight a release in progress
   * are flagged instead of noted as possible.
   *
   * @default false
   */
  readonly oldIsLive?: boolean;

  /**
   * The folder the new manifests are applied from, as the commands of a
   * migration write it (`kubectl apply ... -f DIR`).
   *
   * @default "dist"
   */
  readonly newManifestsDir?: string;

  /**
   * The OpenKruise release the cluster runs: a line (`"1.8"`) or a release
   * (`"1.8.2"`). For an upgrade or downgrade, `"1.8..1.9"` (the release now,
   * then the one the change moves to). The control planes in the manifests
   * say it too (the image of a kruise-manager in the old and the new
   * manifests); a release given here must agree with them.
   *
   * @default - the release of the control planes in the manifests, else "1.9"
   */
  readonly openKruise?: string;

  /**
   * The Kruise Rollouts release the cluster runs (`"0.5"`, `"0.5.3"`, or
   * `"0.5..0.6"` for an upgrade), as `openKruise`.
   *
   * @default - the release of the Kruise Rollouts control planes in the manifests, else "0.6"
   */
  readonly kruiseRollouts?: string;
}

/** The plan of one workload (or of one UnitedDeployment subset). */
export interface WorkloadPlan {
  /** apiVersion of the new object (of the old one when deleted). */
  readonly apiVersion: string;
  /** Kind, e.g. `CloneSet`. */
  readonly kind: string;
  /** Namespace. */
  readonly namespace: string;
  /** Name. */
  readonly name: string;
  /**
   * The UnitedDeployment subset this entry is about.
   *
   * @default - the entry is a whole workload
   */
  readonly subset?: string;
  /**
   * The kind of workload a UnitedDeployment subset runs (`CloneSet`,
   * `StatefulSet`, `Deployment`...).
   *
   * @default - not a subset
   */
  readonly subsetKind?: string;
  /** What happens to the pods. */
  readonly updateType: UpdateType;
  /** One sentence saying what happens and why. */
  readonly summary: string;
  /**
   * For `RECREATE`: the first field whose change forces pods to be recreated.
   *
   * @default - not a recreate
   */
  readonly forcedBy?: string;
  /**
   * For `REJECTED`: the field the cluster refuses.
   *
   * @default - not rejected
   */
  readonly rejectedField?: string;
  /**
   * For `REJECTED`: who refuses it.
   *
   * @default - not rejected
   */
  readonly rejectedBy?: RejectedBy;
  /**
   * For `REJECTED`: the error, with what to do about it.
   *
   * @default - not rejected
   */
  readonly rejection?: string;
  /** Containers whose image changes. */
  readonly imageChanges: ImageChange[];
  /** Whether pod labels/annotations change (applied to running pods in place when the update is in place). */
  readonly metadataChanged: boolean;
  /** Containers restarted in place because an env var they read from a changed label/annotation changes. */
  readonly envFromMetadataRestarts: string[];
  /** Containers whose cpu/memory is resized in place (InPlaceWorkloadVerticalScaling). */
  readonly resizedContainers: string[];
  /**
   * Desired pods after the change.
   *
   * @default - unknown (DaemonSet without `daemonSetNodes`, or a UnitedDeployment subset sized by capacity)
   */
  readonly replicas?: number;
  /**
   * Pods this change moves to the new template (in place, recreated or created).
   *
   * @default - unknown (see `replicas`)
   */
  readonly podsUpdated?: number;
  /**
   * Pods that stay on the old template once the rollout stops (partition, paused, OnDelete, rejected).
   *
   * @default - unknown (see `replicas`)
   */
  readonly podsOnOldRevision?: number;
  /** Pods per step of the rollout, each step waiting for the previous one to be available. */
  readonly batches: number[];
  /**
   * Advanced StatefulSet / StatefulSet: the ordinals updated, in update order.
   *
   * @default - not a StatefulSet
   */
  readonly updatedOrdinals?: number[];
  /**
   * Advanced StatefulSet / StatefulSet: the ordinals that stay on the old template.
   *
   * @default - not a StatefulSet
   */
  readonly keptOrdinals?: number[];
  /**
   * Advanced DaemonSet: the nodes whose pods are updated (`rollingUpdate.selector`).
   *
   * @default - not a DaemonSet
   */
  readonly nodeSelector?: string;
  /**
   * The Rollout (Kruise Rollouts) of the workload, when the new manifests
   * hold one: whether it releases this change and, step by step, which pods
   * move. `podsUpdated`, `podsOnOldRevision` and `batches` then describe the
   * whole release (the pods each step moves, then those the completion moves).
   *
   * @default - no Rollout targets the workload
   */
  readonly rollout?: RolloutReleasePlan;
  /**
   * Manifest changes that fight the release in progress (a re-applied
   * partition that releases pods outside the steps...). Known only when the
   * old side is live objects.
   */
  readonly releaseConflicts: string[];
  /** Everything else worth knowing (claims, scaling, gates, paused...). */
  readonly notes: string[];
}

/** The plan of one SidecarSet. */
export interface SidecarSetPlan {
  /** apiVersion of the new object (of the old one when deleted). */
  readonly apiVersion: string;
  /** Name (SidecarSets are cluster-scoped). */
  readonly name: string;
  /** `IN_PLACE` (running pods get new sidecar images), `NEW_PODS_ONLY`, `NONE`, `REJECTED`, `CREATE`, `DELETE`. */
  readonly updateType: UpdateType;
  /** One sentence saying what happens and why. */
  readonly summary: string;
  /** Sidecar containers whose image reaches running pods in place. */
  readonly inPlaceImages: ImageChange[];
  /** Of those, the ones upgraded by hot upgrade (a standby container takes over) rather than a container restart. */
  readonly hotUpgrade: string[];
  /** Changed fields that reach only pods created from now on. */
  readonly newPodsOnly: string[];
  /** The workloads of the new manifests whose pods the SidecarSet selects (`Kind namespace/name`). */
  readonly selectedWorkloads: string[];
  /**
   * Pods of those workloads (sum of their replicas).
   *
   * @default - unknown (a selected workload is a DaemonSet)
   */
  readonly podsSelected?: number;
  /**
   * Running pods that get the new sidecar images.
   *
   * @default - unknown (see `podsSelected`)
   */
  readonly podsUpdated?: number;
  /**
   * Running pods that keep the old sidecars.
   *
   * @default - unknown (see `podsSelected`)
   */
  readonly podsOnOldRevision?: number;
  /** Pods per step of the sidecar rollout. */
  readonly batches: number[];
  /**
   * For `REJECTED`: the field the webhook refuses.
   *
   * @default - not rejected
   */
  readonly rejectedField?: string;
  /**
   * For `REJECTED`: the error, with what to do about it.
   *
   * @default - not rejected
   */
  readonly rejection?: string;
  /** Everything else worth knowing. */
  readonly notes: string[];
}

/** What a migration entry of a plan moves. */
export enum MigrationKind {
  /** A running `apps/v1` StatefulSet becomes an Advanced StatefulSet of the same name, which adopts its pods. */
  STATEFUL_SET_TO_ADVANCED = 'StatefulSetToAdvancedStatefulSet',
  /** A running Deployment's pods move to a CloneSet, step by step (a CloneSet never adopts pods it does not own). */
  DEPLOYMENT_TO_CLONE_SET = 'DeploymentToCloneSet',
  /** The objects of a Helm release (the kruise chart) are taken over by the manifests. */
  HELM_TAKEOVER = 'HelmTakeover',
}

/** A running pod a migration keeps. */
export interface AdoptedPod {
  /** The pod's name. */
  readonly name: string;
  /**
   * The pod's UID (kept: the pod is adopted, not recreated).
   *
   * @default - unknown: the live objects hold no such pod
   */
  readonly uid?: string;
  /** The PersistentVolumeClaims it mounts, kept by name. */
  readonly claims: string[];
}

/** The plan of one migration: what the switch does, in which steps, and what stops it. */
export interface MigrationPlan {
  /** What moves. */
  readonly kind: MigrationKind;
  /** The namespace (of the workload, or the Helm release's). */
  readonly namespace: string;
  /** What runs now (`StatefulSet shop/db (apps/v1)`, `Helm release kruise-system/kruise`). */
  readonly current: string;
  /** What takes over. */
  readonly target: string;
  /** True when the switch fails as written (nothing is adopted, the budget breaks, a CRD or webhook goes missing): the CI gate. */
  readonly refused: boolean;
  /**
   * For a refused switch: the cause, with the fix.
   *
   * @default - not refused
   */
  readonly cause?: string;
  /** One sentence saying what happens. */
  readonly summary: string;
  /** The steps, in order. */
  readonly steps: string[];
  /** Commands that carry out steps, in order (empty when the steps are all there is). */
  readonly commands: string[];
  /** The running pods the new workload adopts (name, UID, claims kept). */
  readonly adoptedPods: AdoptedPod[];
  /**
   * Whether pods roll once the switch is done (adopted pods whose template differs, a control plane's pods).
   *
   * @default - not known
   */
  readonly podsRoll?: boolean;
  /** Every difference between the running pod template and the new one, defaults included (empty when none). */
  readonly templateDifferences: string[];
  /** Everything else worth knowing (prune, budget, Helm's labels...). */
  readonly notes: string[];
}

/** A whole update plan: old manifests versus new. */
export interface PlanReport {
  /** One entry per changed workload (CloneSet, Advanced StatefulSet, Advanced DaemonSet, UnitedDeployment subset). */
  readonly workloads: WorkloadPlan[];
  /** One entry per changed SidecarSet. */
  readonly sidecarSets: SidecarSetPlan[];
  /** One entry per Kruise Rollouts Rollout that is added, removed or changed. */
  readonly rollouts: RolloutPlan[];
  /**
   * Migrations: an apps/v1 StatefulSet becoming an Advanced StatefulSet, a Deployment's pods moving to a
   * CloneSet, a Helm release taken over.
   */
  readonly migrations: MigrationPlan[];
  /** Other objects that were added, removed or changed (`Kind namespace/name: added|removed|changed`). */
  readonly otherChanges: string[];
  /** Workloads and SidecarSets compared that did not change at all. */
  readonly unchanged: number;
  /** True when the cluster will refuse part of the change: the CI gate. */
  readonly rejected: boolean;
  /**
   * True when part of the change fights a Kruise Rollouts release in
   * progress (known only when the old side is live objects): the CLI exits 3.
   */
  readonly releaseConflict: boolean;
  /** The feature gates the plan assumed (only those that decide it). */
  readonly featureGates: { [gate: string]: boolean };

  /**
   * The releases the plan judged by (`OpenKruise 1.9`, `Kruise Rollouts 0.6`),
   * and for each product whose release changes (an upgrade or downgrade of
   * the cluster), what the change does.
   *
   * @default - the default releases, no release change
   */
  readonly releaseChanges?: ReleaseChangePlan[];
}

/** What moving a cluster from one release of a product to another changes. */
export interface ReleaseChangePlan {
  /** `OpenKruise` or `Kruise Rollouts`. */
  readonly product: string;
  /** The release the cluster runs now, e.g. `OpenKruise 1.8`. */
  readonly fromRelease: string;
  /** The release it moves to, e.g. `OpenKruise 1.9`. */
  readonly toRelease: string;
  /** CRDs that gain or lose versions, change the version they store, or gain, lose or widen fields. */
  readonly crds: string[];
  /** Feature gates whose default flips, or that appear or go. */
  readonly gates: string[];
  /** Webhook rules that start or stop refusing, by kind. */
  readonly rules: string[];
  /**
   * Known failures of a release on some clusters (a Kubernetes minor, a
   * vendor's /version) that the move fixes or brings, e.g. `fixes:
   * kruise-manager panics in every in-place update on a cluster whose
   * /version minor has a suffix (EKS, GKE)` (docs/existing-clusters.md).
   */
  readonly knownFailures: string[];
  /**
   * Objects in the cluster the new release will refuse on their next update
   * (with the live objects only): `Kind namespace/name: the refusal`.
   */
  readonly refusedLive: string[];
}
