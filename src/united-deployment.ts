/**
 * UnitedDeployment: one workload template, rolled out as one workload per
 * subset of nodes (zones, node pools), with the replicas split over them.
 *
 * The workload template is chosen with a factory of `UnitedDeploymentTemplate`
 * (`cloneSet()`, `advancedStatefulSet()`, `statefulSet()`, `deployment()`),
 * which takes the props of the matching construct. As in AdvancedCronJob, the
 * UnitedDeployment builds a hidden child workload from those props (id
 * 'WorkloadTemplate') and removes that child's own API object at once: only
 * its spec is synthesized, inside `spec.template`. Children the workload
 * makes besides its object stay (the governing headless Service of a
 * stateful template, a NetworkPolicy from `isolate`, ImagePullJobs from
 * `prePullImages()`); they take the UnitedDeployment's name and namespace,
 * and select the pods of the UnitedDeployment, which carry the template's
 * pod labels.
 *
 * The subset replicas (they must not add up to more than `replicas`), the
 * subset names, node terms and tolerations, and the template are judged at
 * synth by the admission layer for every UnitedDeployment of the app; each
 * subset-level message names the subset. This file renders only what was
 * set, minus what the UnitedDeployment sets on each subset workload itself
 * (its replicas; the template's selector is the UnitedDeployment's, which the
 * schema requires there).
 */
import { ApiObject, ApiObjectMetadata, Duration, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { GoverningService } from './_governing-service';
import { _l1 } from './_kruise-l1';
import { AdvancedStatefulSet, AdvancedStatefulSetProps } from './advanced-stateful-set';
import { CloneSet, CloneSetProps } from './clone-set';
import { _seconds, _withPath } from './strategies';
import type * as kruise from '../imports/kruise';
import { _assertOwnKplus } from './validation/foreign-kplus';

/** The workload kinds a UnitedDeployment can spread over subsets. */
export enum UnitedDeploymentTemplateKind {
  /** An OpenKruise CloneSet per subset (`cloneSetTemplate`). */
  CLONE_SET = 'cloneSetTemplate',
  /** An OpenKruise Advanced StatefulSet per subset (`advancedStatefulSetTemplate`). */
  ADVANCED_STATEFUL_SET = 'advancedStatefulSetTemplate',
  /** A Kubernetes StatefulSet per subset (`statefulSetTemplate`). */
  STATEFUL_SET = 'statefulSetTemplate',
  /** A Kubernetes Deployment per subset (`deploymentTemplate`). */
  DEPLOYMENT = 'deploymentTemplate',
}

/** The workload every subset of a UnitedDeployment runs: pick one with a factory. */
export class UnitedDeploymentTemplate {
  /**
   * A CloneSet per subset, from the props of a `CloneSet` (its `metadata`
   * gives the labels and annotations of each subset CloneSet). `replicas` is
   * refused: set it on the UnitedDeployment and its subsets. A `partition`
   * in the update strategy is refused too: the UnitedDeployment sets the
   * partition of each subset (see `partitions`).
   *
   * @param props containers, volumes, update and scale strategy, lifecycle
   */
  public static cloneSet(props: CloneSetProps = {}): UnitedDeploymentTemplate {
    return new UnitedDeploymentTemplate(UnitedDeploymentTemplateKind.CLONE_SET, props);
  }

  /**
   * An Advanced StatefulSet per subset, from the props of an
   * `AdvancedStatefulSet`. The governing headless Service is created as for
   * the construct, named like the UnitedDeployment, and shared by every
   * subset. `replicas` and a rolling-update `partition` are refused.
   *
   * @param props containers, volume claim templates, pod management and update strategy
   */
  public static advancedStatefulSet(props: AdvancedStatefulSetProps = {}): UnitedDeploymentTemplate {
    return new UnitedDeploymentTemplate(UnitedDeploymentTemplateKind.ADVANCED_STATEFUL_SET, props);
  }

  /**
   * A Kubernetes StatefulSet per subset, from the props of a
   * `kplus.StatefulSet` (rendered as that construct renders it). Unless
   * `service` is given, a headless Service named like the UnitedDeployment
   * governs the pods of every subset (with the ports of the containers
   * given here; it needs none). `replicas` and a rolling-update `partition`
   * are refused.
   *
   * @param props containers, volumes, pod management policy, update strategy
   */
  public static statefulSet(props: kplus.StatefulSetProps = {}): UnitedDeploymentTemplate {
    return new UnitedDeploymentTemplate(UnitedDeploymentTemplateKind.STATEFUL_SET, props);
  }

  /**
   * A Kubernetes Deployment per subset, from the props of a
   * `kplus.Deployment` (rendered as that construct renders it, with its
   * strategy and deadlines). `replicas` is refused.
   *
   * @param props containers, volumes, strategy
   */
  public static deployment(props: kplus.DeploymentProps = {}): UnitedDeploymentTemplate {
    return new UnitedDeploymentTemplate(UnitedDeploymentTemplateKind.DEPLOYMENT, props);
  }

  private constructor(
    /** The workload kind. */
    public readonly kind: UnitedDeploymentTemplateKind,
    private readonly props: { readonly replicas?: number; readonly metadata?: ApiObjectMetadata },
  ) {}

  /**
   * Build the hidden workload under `scope`.
   * @internal
   */
  public _bind(scope: UnitedDeployment, ud: { name: string; namespace?: string }): kplus.Workload {
    const where = `UnitedDeployment at '${scope.node.path}': template ${this.kind}`;
    if (this.props.replicas !== undefined) {
      throw new Error(`${where} 'replicas' (${this.props.replicas}) is not used: the UnitedDeployment sets the replicas of each subset; `
        + 'set \'replicas\' on the UnitedDeployment and on its subsets instead');
    }
    for (const f of ['name', 'namespace'] as const) {
      const v = this.props.metadata?.[f];
      if (v !== undefined) {
        throw new Error(`${where} 'metadata.${f}' (${JSON.stringify(v)}) is not used: each subset workload is named after the UnitedDeployment `
          + 'and its subset, in its namespace; set only labels and annotations');
      }
    }
    // The hidden workload carries the UnitedDeployment's name and namespace:
    // its own object is never synthesized, but the children it makes (the
    // governing Service, ImagePullJobs of prePullImages()) are named after it
    // and belong in the UnitedDeployment's namespace.
    const props = { ...this.props, metadata: { ...this.props.metadata, name: ud.name, namespace: ud.namespace } };
    let w: kplus.Workload;
    switch (this.kind) {
      case UnitedDeploymentTemplateKind.CLONE_SET:
        w = new CloneSet(scope, 'WorkloadTemplate', props as CloneSetProps);
        break;
      case UnitedDeploymentTemplateKind.ADVANCED_STATEFUL_SET:
        w = new AdvancedStatefulSet(scope, 'WorkloadTemplate', props as AdvancedStatefulSetProps);
        break;
      case UnitedDeploymentTemplateKind.STATEFUL_SET: {
        const p = props as kplus.StatefulSetProps;
        let service = p.service;
        if (!service) {
          const own = new GoverningService(scope, 'Service', { clusterIP: 'None', metadata: { name: ud.name, namespace: ud.namespace } });
          for (const c of p.containers ?? []) {
            for (const port of [...(c.ports ?? []), ...(c.portNumber !== undefined ? [{ number: c.portNumber }] : [])]) {
              own.bind(port.number, { targetPort: port.number, protocol: port.protocol, name: port.name });
            }
          }
          service = own;
        }
        w = new kplus.StatefulSet(scope, 'WorkloadTemplate', { ...p, service });
        break;
      }
      default:
        w = new kplus.Deployment(scope, 'WorkloadTemplate', props as kplus.DeploymentProps);
    }
    w.node.tryRemoveChild('Resource');
    return w;
  }

  /**
   * The `spec.template` of the UnitedDeployment.
   * @internal
   */
  public _render(w: kplus.Workload): kruise.UnitedDeploymentSpecTemplate {
    // the user's labels and annotations, the selected labels, and the annotations the construct adds (image pre-download)
    const own = w.metadata.toJson();
    const labels = { ...this.props.metadata?.labels, ...w.matchLabels };
    const annotations = { ...this.props.metadata?.annotations, ...own.annotations };
    const metadata = {
      labels: Object.keys(labels).length > 0 ? labels : undefined,
      annotations: Object.keys(annotations).length > 0 ? annotations : undefined,
    };
    // The subset workloads get their replicas, selector and partition from
    // the UnitedDeployment; the selector stays where the schema requires it
    // (it is the UnitedDeployment's own).
    const noReplicas = <T extends { replicas?: unknown }>(spec: T): Omit<T, 'replicas'> => {
      const { replicas: _r, ...rest } = spec;
      return rest;
    };
    switch (this.kind) {
      case UnitedDeploymentTemplateKind.CLONE_SET:
        return {
          cloneSetTemplate: { metadata, spec: noReplicas((w as CloneSet)._toKube()) as kruise.UnitedDeploymentSpecTemplateCloneSetTemplateSpec },
        };
      case UnitedDeploymentTemplateKind.ADVANCED_STATEFUL_SET:
        return {
          advancedStatefulSetTemplate: {
            metadata,
            spec: noReplicas((w as AdvancedStatefulSet)._toKube()) as unknown as kruise.UnitedDeploymentSpecTemplateAdvancedStatefulSetTemplateSpec,
          },
        };
      case UnitedDeploymentTemplateKind.STATEFUL_SET: {
        const spec = noReplicas((w as kplus.StatefulSet)._toKube());
        // kplus writes partition 0 for every rolling update; a partition is the UnitedDeployment's, and 0 says nothing
        const ru = spec.updateStrategy?.rollingUpdate;
        const updateStrategy = ru && ru.partition === 0 && Object.keys(ru).length === 1
          ? { ...spec.updateStrategy, rollingUpdate: undefined }
          : spec.updateStrategy;
        return { statefulSetTemplate: { metadata, spec: { ...spec, updateStrategy } as k8s.StatefulSetSpec } };
      }
      default:
        return { deploymentTemplate: { metadata, spec: noReplicas((w as kplus.Deployment)._toKube()) as k8s.DeploymentSpec } };
    }
  }
}

/** The schedule strategy types of a UnitedDeployment. */
export enum UnitedDeploymentScheduleStrategyType {
  /** Every subset gets the replicas it is given (the OpenKruise default). */
  FIXED = 'Fixed',
  /** Pods a subset cannot schedule move to the next subsets, within their minReplicas/maxReplicas. */
  ADAPTIVE = 'Adaptive',
}

/** Options of `UnitedDeploymentScheduleStrategy.adaptive()`. */
export interface UnitedDeploymentScheduleStrategyAdaptiveOptions {
  /**
   * How long a pod may stay unschedulable in its subset before it is
   * rescheduled to another subset.
   *
   * @default - 30 seconds (the OpenKruise default; not written)
   */
  readonly rescheduleCritical?: Duration;

  /**
   * How long a subset that had an unschedulable pod is skipped.
   *
   * @default - 300 seconds (the OpenKruise default; not written)
   */
  readonly unschedulableDuration?: Duration;

  /**
   * Keep an unschedulable pod in its subset and run a temporary substitute
   * in another one until it is ready (CloneSet and Deployment templates only).
   *
   * @default false
   */
  readonly reserveUnschedulablePods?: boolean;
}

/** How a UnitedDeployment places replicas over its subsets (`topology.scheduleStrategy`). */
export class UnitedDeploymentScheduleStrategy {
  /** Every subset runs the replicas it is given. */
  public static fixed(): UnitedDeploymentScheduleStrategy {
    return new UnitedDeploymentScheduleStrategy(UnitedDeploymentScheduleStrategyType.FIXED, {});
  }

  /**
   * Move pods that cannot be scheduled in their subset to the next subsets
   * (in the order the subsets are listed). Subsets then take
   * `minReplicas`/`maxReplicas` instead of `replicas`.
   *
   * @param options reschedule timings and reservation
   */
  public static adaptive(options: UnitedDeploymentScheduleStrategyAdaptiveOptions = {}): UnitedDeploymentScheduleStrategy {
    return new UnitedDeploymentScheduleStrategy(UnitedDeploymentScheduleStrategyType.ADAPTIVE, options);
  }

  private constructor(
    /** The schedule strategy type. */
    public readonly type: UnitedDeploymentScheduleStrategyType,
    private readonly options: UnitedDeploymentScheduleStrategyAdaptiveOptions,
  ) {}

  /** @internal */
  public _toKube(): kruise.UnitedDeploymentSpecTopologyScheduleStrategy {
    const o = this.options;
    const adaptive = {
      rescheduleCriticalSeconds: _seconds(o.rescheduleCritical, 'scheduleStrategy.rescheduleCritical'),
      unschedulableDuration: _seconds(o.unschedulableDuration, 'scheduleStrategy.unschedulableDuration'),
      reserveUnschedulablePods: o.reserveUnschedulablePods,
    };
    return {
      type: this.type as string as kruise.UnitedDeploymentSpecTopologyScheduleStrategyType,
      adaptive: Object.values(adaptive).some(v => v !== undefined) ? adaptive : undefined,
    };
  }
}

/** One subset of a UnitedDeployment: a group of nodes that runs its own workload. */
export interface UnitedDeploymentSubset {
  /** The subset name (a DNS-1123 label); its workload is named `<UnitedDeployment>-<name>-`. */
  readonly name: string;

  /**
   * The node labels of the subset's nodes (one node selector term: every query must match).
   *
   * @default - no node constraint of its own
   */
  readonly nodes?: kplus.NodeLabelQuery[];

  /**
   * Taints the subset's pods tolerate (on top of the template's tolerations).
   *
   * @default - none
   */
  readonly tolerations?: kplus.NodeTaintQuery[];

  /**
   * Replicas of this subset: a number, or a percent of the UnitedDeployment's
   * replicas. Not with the Adaptive strategy.
   *
   * @default - the replicas the other subsets leave
   */
  readonly replicas?: kplus.PercentOrAbsolute;

  /**
   * The fewest replicas (or percent) this subset runs, filled first in subset order.
   *
   * @default - 0
   */
  readonly minReplicas?: kplus.PercentOrAbsolute;

  /**
   * The most replicas (or percent) this subset runs. At least one subset
   * must have no maximum.
   *
   * @default - no maximum
   */
  readonly maxReplicas?: kplus.PercentOrAbsolute;

  /**
   * A strategic-merge patch applied to this subset's workload template, e.g.
   * `{ spec: { template: { spec: { containers: [{ name: 'web', env: [...] }] } } } }`.
   *
   * @default - none
   */
  readonly patch?: { [key: string]: any };
}

/** Props of a `UnitedDeployment`. */
export interface UnitedDeploymentProps extends kplus.ResourceProps {
  /** The workload each subset runs. */
  readonly template: UnitedDeploymentTemplate;

  /**
   * The total number of pods over all subsets.
   *
   * @default - the sum of the subset replicas (then every subset must set a number of replicas)
   */
  readonly replicas?: number;

  /**
   * The subsets; more can be added with `addSubset()`.
   *
   * @default - none
   */
  readonly subsets?: UnitedDeploymentSubset[];

  /**
   * How replicas are placed over the subsets.
   *
   * @default - Fixed (the OpenKruise default; not written)
   */
  readonly scheduleStrategy?: UnitedDeploymentScheduleStrategy;

  /**
   * Per subset, how many of its pods keep the old revision on an update
   * (`updateStrategy.manualUpdate.partitions`).
   *
   * @default - every pod is updated
   */
  readonly partitions?: { [subset: string]: number };

  /**
   * Old revisions kept for rollback.
   *
   * @default - 10 (the OpenKruise default; not written)
   */
  readonly revisionHistoryLimit?: number;
}

function intOrString<T>(v: kplus.PercentOrAbsolute | undefined, cls: { fromNumber(n: number): T; fromString(s: string): T }): T | undefined {
  if (v === undefined) return undefined;
  return typeof v.value === 'number' ? cls.fromNumber(v.value) : cls.fromString(String(v.value));
}

/**
 * An OpenKruise UnitedDeployment (`apps.kruise.io/v1alpha1`): one workload
 * template (CloneSet, Advanced StatefulSet, StatefulSet or Deployment) that OpenKruise
 * runs as one workload per subset of nodes, with the replicas split over the
 * subsets by number or percent, or placed adaptively.
 *
 * Replaces a hand-written manifest such as
 *
 * ```yaml
 * apiVersion: apps.kruise.io/v1alpha1
 * kind: UnitedDeployment
 * spec:
 *   replicas: 6
 *   selector: { matchLabels: { app: web } }
 *   template:
 *     cloneSetTemplate:
 *       metadata: { labels: { app: web } }
 *       spec: { template: { metadata: { labels: { app: web } }, spec: { containers: [...] } } }
 *   topology:
 *     subsets:
 *     - name: zone-a
 *       nodeSelectorTerm: { matchExpressions: [{ key: topology.kubernetes.io/zone, operator: In, values: [eu-west-1a] }] }
 *       replicas: 50%
 *     - name: zone-b
 *       nodeSelectorTerm: { matchExpressions: [{ key: topology.kubernetes.io/zone, operator: In, values: [eu-west-1b] }] }
 * ```
 */
export class UnitedDeployment extends kplus.Resource {
  /** The total replicas, when set. */
  public readonly replicas?: number;

  /** The schedule strategy, when set. */
  public readonly scheduleStrategy?: UnitedDeploymentScheduleStrategy;

  /** The revisions kept, when set. */
  public readonly revisionHistoryLimit?: number;

  /** The kind of workload each subset runs. */
  public readonly templateKind: UnitedDeploymentTemplateKind;

  /**
   * The workload the template is rendered from (a `CloneSet`, an
   * `AdvancedStatefulSet`, a `kplus.StatefulSet` or a `kplus.Deployment`): add containers, volumes
   * and scheduling to it. Only its spec is synthesized, inside this
   * UnitedDeployment; its selector is the UnitedDeployment's.
   */
  public readonly workload: kplus.Workload;

  /** @see base.Resource.apiObject */
  protected readonly apiObject: ApiObject;

  public readonly resourceType = 'uniteddeployments';

  private readonly template: UnitedDeploymentTemplate;
  private readonly _subsets: UnitedDeploymentSubset[] = [];
  private readonly partitions?: { [subset: string]: number };

  public constructor(scope: Construct, id: string, props: UnitedDeploymentProps) {
    super(scope, id);
    _assertOwnKplus(`UnitedDeployment at '${this.node.path}'`, props);
    this.replicas = props.replicas;
    this.scheduleStrategy = props.scheduleStrategy;
    this.revisionHistoryLimit = props.revisionHistoryLimit;
    this.partitions = props.partitions && { ...props.partitions };
    this.template = props.template;
    this.templateKind = props.template.kind;
    this.apiObject = new (_l1('UnitedDeployment').KubeUnitedDeployment)(this, 'Resource', {
      metadata: props.metadata,
      spec: Lazy.any({ produce: () => this._toKube() }),
    });
    this.workload = props.template._bind(this, { name: this.apiObject.name, namespace: props.metadata?.namespace });
    for (const s of props.subsets ?? []) this.addSubset(s);
  }

  /** The subsets (a copy; add with `addSubset()`). */
  public get subsets(): UnitedDeploymentSubset[] {
    return [...this._subsets];
  }

  /**
   * Add a subset.
   *
   * @param subset name, nodes, tolerations, replicas and patch
   */
  public addSubset(subset: UnitedDeploymentSubset): void {
    this._subsets.push(subset);
  }

  /** @internal */
  public _toKube(): kruise.UnitedDeploymentSpec {
    return _withPath(this, () => ({
      replicas: this.replicas,
      revisionHistoryLimit: this.revisionHistoryLimit,
      selector: this.workload._toLabelSelector(),
      template: this.template._render(this.workload),
      topology: this._subsets.length > 0 || this.scheduleStrategy ? {
        scheduleStrategy: this.scheduleStrategy?._toKube(),
        subsets: this._subsets.length > 0 ? this._subsets.map(s => ({
          name: s.name,
          nodeSelectorTerm: s.nodes && s.nodes.length > 0 ? { matchExpressions: s.nodes.map(q => q._toKube()) } : undefined,
          tolerations: s.tolerations && s.tolerations.length > 0 ? s.tolerations.map(t => t._toKube()) : undefined,
          replicas: intOrString(s.replicas, _l1('UnitedDeployment').UnitedDeploymentSpecTopologySubsetsReplicas),
          minReplicas: intOrString(s.minReplicas, _l1('UnitedDeployment').UnitedDeploymentSpecTopologySubsetsMinReplicas),
          maxReplicas: intOrString(s.maxReplicas, _l1('UnitedDeployment').UnitedDeploymentSpecTopologySubsetsMaxReplicas),
          patch: s.patch,
        })) : undefined,
      } : undefined,
      updateStrategy: this.partitions ? { manualUpdate: { partitions: { ...this.partitions } } } : undefined,
    }));
  }
}
