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
   * @default - the OpenKruise v1.9.0 defaults
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

/** A whole update plan: old manifests versus new. */
export interface PlanReport {
  /** One entry per changed workload (CloneSet, Advanced StatefulSet, Advanced DaemonSet, UnitedDeployment subset). */
  readonly workloads: WorkloadPlan[];
  /** One entry per changed SidecarSet. */
  readonly sidecarSets: SidecarSetPlan[];
  /** Other objects that were added, removed or changed (`Kind namespace/name: added|removed|changed`). */
  readonly otherChanges: string[];
  /** Workloads and SidecarSets compared that did not change at all. */
  readonly unchanged: number;
  /** True when the cluster will refuse part of the change: the CI gate. */
  readonly rejected: boolean;
  /** The feature gates the plan assumed (only those that decide it). */
  readonly featureGates: { [gate: string]: boolean };
}
