/**
 * The rollout vocabulary the OpenKruise workloads share: update strategies
 * (one union-like class per kind), partitions, update priority and scatter,
 * lifecycle hooks and the in-place update grace period. Written once, used by
 * CloneSet, AdvancedStatefulSet and AdvancedDaemonSet.
 */
import { Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { IConstruct } from 'constructs';
import { _l1 } from './_kruise-l1';
import type * as kruise from '../imports/kruise';
import { _collectRenderProblems, _reportRenderProblem } from './validation/render-problems';

/** An int-or-string L1 class (every `fromNumber`/`fromString` pair of the generated bindings). */
interface IntOrStringFactory<T> {
  fromNumber(value: number): T;
  fromString(value: string): T;
}

/**
 * Render a `PercentOrAbsolute` into an int-or-string L1 value.
 * @internal
 */
export function _intOrString<T>(v: kplus.PercentOrAbsolute | undefined, factory: IntOrStringFactory<T>): T | undefined {
  if (v === undefined) return undefined;
  return typeof v.value === 'number' ? factory.fromNumber(v.value) : factory.fromString(String(v.value));
}

/**
 * A partition as the manifest carries it: a percentage of zero ("0%") is the
 * integer 0, which it means to every controller; Argo CD's and Flux's health
 * checks and `kubectl rollout status` read a partition as an integer.
 * @internal
 */
export function _partition<T>(v: kplus.PercentOrAbsolute | undefined, factory: IntOrStringFactory<T>): T | undefined {
  if (v !== undefined && typeof v.value === 'string' && /^0+(\.0*)?%$/.test(v.value)) return factory.fromNumber(0);
  return _intOrString(v, factory);
}

/** How a `Duration` reads in messages (cdk8s cannot describe one that is not finite). */
function describeDuration(d: Duration): string {
  const ms = d.toMilliseconds({ integral: false });
  return Number.isFinite(ms) ? `${ms / 1000} seconds` : `${ms} milliseconds`;
}

/** Marks the error of a `Duration` that cannot be rendered outside a construct's render. */
const DURATION_PROBLEM = Symbol.for('cdk8s-kruise.duration-problem');

/**
 * Render a `Duration` as whole seconds; `prop` names it when it is not a
 * finite whole number of seconds. In a construct's render (`_withPath`) the
 * problem is reported with the construct's other problems at synth and the
 * field is left out; elsewhere it throws.
 * @internal
 */
export function _seconds(d: Duration | undefined, prop: string): number | undefined {
  if (d === undefined) return undefined;
  const ms = d.toMilliseconds({ integral: false });
  const s = ms / 1000;
  if (Number.isFinite(s) && Number.isInteger(s)) return s;
  const whole = Math.max(Math.round(s), s > 0 ? 1 : 0);
  const problem = Number.isFinite(s)
    ? { field: prop, value: describeDuration(d), problem: 'is not a whole number of seconds', fix: `use Duration.seconds(${whole})` }
    : { field: prop, value: describeDuration(d), problem: 'is not a finite duration', fix: 'use e.g. Duration.seconds(30)' };
  if (_reportRenderProblem(problem)) return undefined;
  const e = new Error(`'${prop}' (${problem.value}) ${problem.problem}; ${problem.fix}`);
  (e as any)[DURATION_PROBLEM] = true;
  throw e;
}

/**
 * Run `render` (a construct's spec), collecting the problems of its
 * Durations so that synth reports them under the construct with the App's
 * other problems, instead of failing while the object serializes. A
 * Duration cdk8s-plus converts in the pod template (terminationGracePeriod,
 * probe and lifecycle timings) fails the whole render: it is reported the
 * same way, and the object is left unjudged otherwise.
 * @internal
 */
export function _withPath<T>(scope: IConstruct, render: () => T, once = false): T {
  return _collectRenderProblems(scope, render, e => {
    if (e instanceof Error && /^\S+ must be a whole number of \w+\.$|cannot be converted into a whole number of/.test(e.message)) {
      return {
        field: 'a Duration of the pod template (terminationGracePeriod, a probe or a lifecycle hook)',
        value: e.message.replace(/\.$/, ''),
        problem: 'is not a whole number of seconds',
        fix: 'use whole seconds, e.g. Duration.seconds(30)',
      };
    }
    return undefined;
  }, once) as T;
}

// --- update priority and scatter ---------------------------------------------

/** One weighted term of an update priority: pods matching `selector` get `weight`. */
export interface UpdatePriorityWeightTerm {
  /**
   * The weight of matching pods; pods with a higher total weight update first.
   * OpenKruise accepts 0 to 100.
   */
  readonly weight: number;

  /** The pods this weight applies to (must not be empty). */
  readonly selector: kplus.LabelSelector;
}

/**
 * The order in which pods are updated (`priorityStrategy`): by weighted
 * selectors or by the value of pod labels. The two forms are mutually
 * exclusive upstream, so this is a union-like class.
 */
export class UpdatePriority {
  /**
   * Update pods with the highest total weight first.
   *
   * @param terms weights and the pods they apply to
   */
  public static weighted(...terms: UpdatePriorityWeightTerm[]): UpdatePriority {
    return new UpdatePriority({
      weightPriority: terms.map(t => ({ weight: t.weight, matchSelector: t.selector._toKube() })),
    });
  }

  /**
   * Update pods by the integer value of these label keys, highest first (the
   * first key decides, the next breaks ties).
   *
   * @param keys pod label keys whose values are integers
   */
  public static ordered(...keys: string[]): UpdatePriority {
    return new UpdatePriority({ orderPriority: keys.map(orderedKey => ({ orderedKey })) });
  }

  private constructor(private readonly spec: kruise.CloneSetSpecUpdateStrategyPriorityStrategy) {}

  /** @internal */
  public _toKube(): kruise.CloneSetSpecUpdateStrategyPriorityStrategy {
    return this.spec;
  }
}

/** A label pair whose pods are spread evenly over the update batches (`scatterStrategy`). */
export interface ScatterTerm {
  /** The pod label key. */
  readonly key: string;

  /** The pod label value. */
  readonly value: string;
}

// --- lifecycle hooks ----------------------------------------------------------

/**
 * A lifecycle hook: while a pod carries one of these labels or finalizers
 * (put there by the workload), it waits in the hooked state until your
 * controller removes them.
 */
export interface LifecycleHook {
  /**
   * Labels whose presence (with this value) holds the pod in the hooked state.
   *
   * @default - no label handler
   */
  readonly labels?: { [key: string]: string };

  /**
   * Finalizers whose presence holds the pod in the hooked state.
   *
   * @default - no finalizer handler
   */
  readonly finalizers?: string[];

  /**
   * Mark the pod not-ready while it is in the hooked state (honoured by the
   * preDelete and inPlaceUpdate hooks only).
   *
   * @default false
   */
  readonly markPodNotReady?: boolean;
}

/** The pod lifecycle hooks of a workload (`spec.lifecycle`). */
export interface Lifecycle {
  /**
   * Hook before a pod is deleted (scale-in, recreate update).
   *
   * @default - no hook
   */
  readonly preDelete?: LifecycleHook;

  /**
   * Hook before and after a pod is updated in place.
   *
   * @default - no hook
   */
  readonly inPlaceUpdate?: LifecycleHook;

  /**
   * Hook after a pod is created, before it is considered Normal.
   *
   * @default - no hook
   */
  readonly preNormal?: LifecycleHook;
}

function renderHook(h: LifecycleHook | undefined): kruise.CloneSetSpecLifecyclePreDelete | undefined {
  if (!h) return undefined;
  return {
    labelsHandler: h.labels && Object.keys(h.labels).length > 0 ? { ...h.labels } : undefined,
    finalizersHandler: h.finalizers && h.finalizers.length > 0 ? [...h.finalizers] : undefined,
    markPodNotReady: h.markPodNotReady,
  };
}

/**
 * Render `Lifecycle` into the L1 shape (identical for the three kinds).
 * @internal
 */
export function _renderLifecycle(l: Lifecycle | undefined): kruise.CloneSetSpecLifecycle | undefined {
  if (!l || (!l.preDelete && !l.inPlaceUpdate && !l.preNormal)) return undefined;
  return {
    preDelete: renderHook(l.preDelete),
    inPlaceUpdate: renderHook(l.inPlaceUpdate),
    preNormal: renderHook(l.preNormal),
  };
}

// --- CloneSet -----------------------------------------------------------------

/** How a CloneSet replaces pods of an old revision (`updateStrategy.type`). */
export enum CloneSetUpdateType {
  /** Delete old pods and create new ones. */
  RECREATE = 'ReCreate',
  /** Update in place when only in-place fields changed (images, metadata), recreate otherwise. */
  IN_PLACE_IF_POSSIBLE = 'InPlaceIfPossible',
  /** Only update in place; template changes that cannot be applied in place are refused. */
  IN_PLACE_ONLY = 'InPlaceOnly',
}

/** Options every CloneSet update strategy takes. */
export interface CloneSetUpdateStrategyOptions {
  /**
   * Pods (or percent of replicas) kept at the old revision. Percentages are
   * rounded up, and a percent below 100% never keeps every pod.
   *
   * @default - 0: every pod is updated
   */
  readonly partition?: kplus.PercentOrAbsolute;

  /**
   * Pods (or whole percent of replicas) that may be unavailable during the update.
   *
   * @default - 20% (the OpenKruise default; not written)
   */
  readonly maxUnavailable?: kplus.PercentOrAbsolute;

  /**
   * Pods (or whole percent of replicas) created above the desired replicas
   * during the update.
   *
   * @default - 0 (the OpenKruise default; not written)
   */
  readonly maxSurge?: kplus.PercentOrAbsolute;

  /**
   * Stop creating and updating pods for the rollout.
   *
   * @default false
   */
  readonly paused?: boolean;

  /**
   * The order in which pods are updated.
   *
   * @default - the controller's default order (unready and unscheduled pods first)
   */
  readonly priority?: UpdatePriority;

  /**
   * Label pairs whose pods are spread evenly over the update.
   *
   * @default - no scatter
   */
  readonly scatter?: ScatterTerm[];
}

/** Options of the in-place CloneSet update strategies. */
export interface CloneSetInPlaceUpdateStrategyOptions extends CloneSetUpdateStrategyOptions {
  /**
   * Time between marking a pod not-ready and updating it in place
   * (`inPlaceUpdateStrategy.gracePeriodSeconds`), so endpoints drain first.
   *
   * @default - no grace period
   */
  readonly gracePeriod?: Duration;
}

/** The update strategy of a CloneSet. */
export class CloneSetUpdateStrategy {
  /**
   * Delete old pods and create new ones.
   *
   * @param options partition, budgets, priority, scatter, pause
   */
  public static recreate(options: CloneSetUpdateStrategyOptions = {}): CloneSetUpdateStrategy {
    return new CloneSetUpdateStrategy(CloneSetUpdateType.RECREATE, options, undefined);
  }

  /**
   * Update in place when only images or metadata changed; recreate otherwise.
   *
   * @param options partition, budgets, priority, scatter, pause, grace period
   */
  public static inPlaceIfPossible(options: CloneSetInPlaceUpdateStrategyOptions = {}): CloneSetUpdateStrategy {
    return new CloneSetUpdateStrategy(CloneSetUpdateType.IN_PLACE_IF_POSSIBLE, options, options.gracePeriod);
  }

  /**
   * Only update in place: a template change other than container images is
   * refused by OpenKruise, and maxSurge must stay 0.
   *
   * @param options partition, maxUnavailable, priority, scatter, pause, grace period
   */
  public static inPlaceOnly(options: CloneSetInPlaceUpdateStrategyOptions = {}): CloneSetUpdateStrategy {
    return new CloneSetUpdateStrategy(CloneSetUpdateType.IN_PLACE_ONLY, options, options.gracePeriod);
  }

  /** The strategy type. */
  public readonly type: CloneSetUpdateType;

  private constructor(
    type: CloneSetUpdateType,
    private readonly options: CloneSetUpdateStrategyOptions,
    private readonly gracePeriod: Duration | undefined,
  ) {
    this.type = type;
  }

  /** @internal */
  public _toKube(): kruise.CloneSetSpecUpdateStrategy {
    const o = this.options;
    return {
      type: this.type,
      partition: _partition(o.partition, _l1('CloneSet').CloneSetSpecUpdateStrategyPartition),
      maxUnavailable: _intOrString(o.maxUnavailable, _l1('CloneSet').CloneSetSpecUpdateStrategyMaxUnavailable),
      maxSurge: _intOrString(o.maxSurge, _l1('CloneSet').CloneSetSpecUpdateStrategyMaxSurge),
      paused: o.paused,
      priorityStrategy: o.priority?._toKube(),
      scatterStrategy: o.scatter && o.scatter.length > 0 ? o.scatter.map(s => ({ key: s.key, value: s.value })) : undefined,
      inPlaceUpdateStrategy: this.gracePeriod ? { gracePeriodSeconds: _seconds(this.gracePeriod, 'updateStrategy.gracePeriod') } : undefined,
    };
  }
}

// --- Advanced StatefulSet -----------------------------------------------------

/** How an Advanced StatefulSet replaces a pod during a rolling update (`podUpdatePolicy`). */
export enum PodUpdatePolicy {
  /** Delete the pod and create it again. */
  RECREATE = 'ReCreate',
  /** Update in place when only in-place fields changed, recreate otherwise. */
  IN_PLACE_IF_POSSIBLE = 'InPlaceIfPossible',
  /** Only update in place. */
  IN_PLACE_ONLY = 'InPlaceOnly',
}

/** Options of `AdvancedStatefulSetUpdateStrategy.rollingUpdate`. */
export interface AdvancedStatefulSetRollingUpdateOptions {
  /**
   * Pods with an ordinal below this number keep the old revision.
   *
   * @default - 0: every pod is updated
   */
  readonly partition?: number;

  /**
   * Pods (or whole percent of replicas) updated at once. Anything other than
   * the number 1 needs `PodManagementPolicy.PARALLEL`.
   *
   * @default - 1 (the OpenKruise default; not written)
   */
  readonly maxUnavailable?: kplus.PercentOrAbsolute;

  /**
   * How each pod is replaced. The in-place policies add the
   * `InPlaceUpdateReady` readiness gate to the pod template.
   *
   * @default PodUpdatePolicy.RECREATE (the OpenKruise default; not written)
   */
  readonly podUpdatePolicy?: PodUpdatePolicy;

  /**
   * Stop updating pods.
   *
   * @default false
   */
  readonly paused?: boolean;

  /**
   * Update pods in any order instead of by ordinal (needs
   * `PodManagementPolicy.PARALLEL`).
   *
   * @default - false, unless `priority` is given
   */
  readonly unordered?: boolean;

  /**
   * The order of an unordered update (implies `unordered`).
   *
   * @default - no priority
   */
  readonly priority?: UpdatePriority;

  /**
   * How long an updated pod must be ready before the next one is updated
   * (0 to 300 seconds).
   *
   * @default - 0 (the OpenKruise default; not written)
   */
  readonly minReady?: Duration;

  /**
   * Time between marking a pod not-ready and updating it in place.
   *
   * @default - no grace period
   */
  readonly gracePeriod?: Duration;
}

/** The update strategy of an Advanced StatefulSet. */
export class AdvancedStatefulSetUpdateStrategy {
  /** Pods are only replaced when you delete them. */
  public static onDelete(): AdvancedStatefulSetUpdateStrategy {
    return new AdvancedStatefulSetUpdateStrategy(undefined);
  }

  /**
   * Replace pods from the highest ordinal down (or unordered), recreating them
   * or updating them in place.
   *
   * @param options partition, maxUnavailable, pod update policy, priority, pause, minReady, grace period
   */
  public static rollingUpdate(options: AdvancedStatefulSetRollingUpdateOptions = {}): AdvancedStatefulSetUpdateStrategy {
    return new AdvancedStatefulSetUpdateStrategy(options);
  }

  private constructor(private readonly options: AdvancedStatefulSetRollingUpdateOptions | undefined) {}

  /** The pod update policy the pods will see (ReCreate unless chosen otherwise). */
  public get podUpdatePolicy(): PodUpdatePolicy | undefined {
    return this.options ? (this.options.podUpdatePolicy ?? PodUpdatePolicy.RECREATE) : undefined;
  }

  /** @internal */
  public _toKube(): kruise.StatefulSetSpecUpdateStrategy {
    const o = this.options;
    if (!o) return { type: 'OnDelete' };
    const unordered = o.unordered === true || o.priority !== undefined;
    const rollingUpdate: kruise.StatefulSetSpecUpdateStrategyRollingUpdate = {
      partition: o.partition,
      maxUnavailable: _intOrString(o.maxUnavailable, _l1('StatefulSet').StatefulSetSpecUpdateStrategyRollingUpdateMaxUnavailable),
      podUpdatePolicy: o.podUpdatePolicy,
      paused: o.paused,
      unorderedUpdate: unordered ? { priorityStrategy: o.priority?._toKube() } : undefined,
      minReadySeconds: _seconds(o.minReady, 'updateStrategy.minReady'),
      inPlaceUpdateStrategy: o.gracePeriod ? { gracePeriodSeconds: _seconds(o.gracePeriod, 'updateStrategy.gracePeriod') } : undefined,
    };
    const empty = Object.values(rollingUpdate).every(v => v === undefined);
    return { type: 'RollingUpdate', rollingUpdate: empty ? undefined : rollingUpdate };
  }
}

// --- Advanced DaemonSet -------------------------------------------------------

/** Options every rolling Advanced DaemonSet update takes. */
export interface AdvancedDaemonSetRolloutOptions {
  /**
   * Pods (or whole percent of the scheduled pods) kept at the old revision.
   *
   * @default - 0: every pod is updated
   */
  readonly partition?: kplus.PercentOrAbsolute;

  /**
   * Stop updating pods.
   *
   * @default false
   */
  readonly paused?: boolean;

  /**
   * Only update the pods on nodes with these labels.
   *
   * @default - pods on every node are updated
   */
  readonly nodeSelector?: kplus.LabelSelector;
}

/** Options of `AdvancedDaemonSetUpdateStrategy.rollingUpdate` and `inPlaceIfPossible`. */
export interface AdvancedDaemonSetRollingUpdateOptions extends AdvancedDaemonSetRolloutOptions {
  /**
   * Nodes (or whole percent of nodes) whose pod may be unavailable at once.
   *
   * @default - 1 (the OpenKruise default; not written)
   */
  readonly maxUnavailable?: kplus.PercentOrAbsolute;
}

/** Options of `AdvancedDaemonSetUpdateStrategy.surging`. */
export interface AdvancedDaemonSetSurgingUpdateOptions extends AdvancedDaemonSetRolloutOptions {
  /**
   * Nodes (or whole percent of nodes) that may run the new pod next to the
   * old one at once.
   */
  readonly maxSurge: kplus.PercentOrAbsolute;
}

/** The update strategy of an Advanced DaemonSet. */
export class AdvancedDaemonSetUpdateStrategy {
  /** Pods are only replaced when you delete them. */
  public static onDelete(): AdvancedDaemonSetUpdateStrategy {
    return new AdvancedDaemonSetUpdateStrategy({ type: 'OnDelete' });
  }

  /**
   * Delete the old pod of a node, then create the new one (`Standard`).
   *
   * @param options maxUnavailable, partition, node selector, pause
   */
  public static rollingUpdate(options: AdvancedDaemonSetRollingUpdateOptions = {}): AdvancedDaemonSetUpdateStrategy {
    return AdvancedDaemonSetUpdateStrategy.rolling('Standard', options, options.maxUnavailable, undefined);
  }

  /**
   * Start the new pod of a node next to the old one, then delete the old one
   * (`Standard` with maxSurge; the v1alpha1 `Surging` type).
   *
   * @param options maxSurge, partition, node selector, pause
   */
  public static surging(options: AdvancedDaemonSetSurgingUpdateOptions): AdvancedDaemonSetUpdateStrategy {
    return AdvancedDaemonSetUpdateStrategy.rolling('Standard', options, undefined, options.maxSurge);
  }

  /**
   * Update pods in place when only images or metadata changed, recreate
   * otherwise (the hot-update path; needs no surge).
   *
   * @param options maxUnavailable, partition, node selector, pause
   */
  public static inPlaceIfPossible(options: AdvancedDaemonSetRollingUpdateOptions = {}): AdvancedDaemonSetUpdateStrategy {
    return AdvancedDaemonSetUpdateStrategy.rolling('InPlaceIfPossible', options, options.maxUnavailable, undefined);
  }

  private static rolling(
    rollingUpdateType: string, o: AdvancedDaemonSetRolloutOptions,
    maxUnavailable: kplus.PercentOrAbsolute | undefined, maxSurge: kplus.PercentOrAbsolute | undefined,
  ): AdvancedDaemonSetUpdateStrategy {
    return new AdvancedDaemonSetUpdateStrategy({
      type: 'RollingUpdate',
      rollingUpdate: {
        rollingUpdateType,
        maxUnavailable: _intOrString(maxUnavailable, _l1('DaemonSet').DaemonSetSpecUpdateStrategyRollingUpdateMaxUnavailable),
        maxSurge: _intOrString(maxSurge, _l1('DaemonSet').DaemonSetSpecUpdateStrategyRollingUpdateMaxSurge),
        partition: _partition(o.partition, _l1('DaemonSet').DaemonSetSpecUpdateStrategyRollingUpdatePartition),
        paused: o.paused,
        selector: o.nodeSelector?._toKube(),
      },
    });
  }

  private constructor(private readonly spec: kruise.DaemonSetSpecUpdateStrategy) {}

  /** @internal */
  public _toKube(): kruise.DaemonSetSpecUpdateStrategy {
    return this.spec;
  }
}

// --- image pre-download -------------------------------------------------------

/**
 * Pull the new images onto the nodes before an in-place update reaches them
 * (OpenKruise creates ImagePullJobs). Written as annotations on the workload;
 * needs the PreDownloadImageForInPlaceUpdate gate (CloneSet, Advanced
 * StatefulSet) or PreDownloadImageForDaemonSetUpdate (Advanced DaemonSet).
 */
export interface ImagePreDownload {
  /**
   * Nodes that pull at the same time.
   *
   * @default - 1 (the OpenKruise default; not written)
   */
  readonly parallelism?: number;

  /**
   * How long one image pull may take.
   *
   * @default - 5 minutes (the OpenKruise default; not written)
   */
  readonly timeout?: Duration;

  /**
   * Pods (or whole percent of replicas) of the new revision that must be ready
   * before pre-downloading starts (CloneSet, Advanced StatefulSet).
   *
   * @default - 0: start at once
   */
  readonly minUpdatedReadyPods?: kplus.PercentOrAbsolute;
}

const IMAGE_PREDOWNLOAD_PARALLELISM = 'apps.kruise.io/image-predownload-parallelism';
const IMAGE_PREDOWNLOAD_TIMEOUT = 'apps.kruise.io/image-predownload-timeout-seconds';
const IMAGE_PREDOWNLOAD_MIN_UPDATED_READY_PODS = 'apps.kruise.io/image-predownload-min-updated-ready-pods';

/**
 * The annotations that carry `ImagePreDownload`.
 * @internal
 */
export function _imagePreDownloadAnnotations(o: ImagePreDownload | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!o) return out;
  if (o.parallelism !== undefined) out[IMAGE_PREDOWNLOAD_PARALLELISM] = String(o.parallelism);
  const timeout = _seconds(o.timeout, 'imagePreDownload.timeout');
  if (timeout !== undefined) out[IMAGE_PREDOWNLOAD_TIMEOUT] = String(timeout);
  if (o.minUpdatedReadyPods !== undefined) out[IMAGE_PREDOWNLOAD_MIN_UPDATED_READY_PODS] = String(o.minUpdatedReadyPods.value);
  return out;
}
