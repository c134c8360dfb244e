import { ApiObject, ApiObjectMetadata, Duration, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { _l1 } from './_kruise-l1';
import type * as kruise from '../imports/kruise';
import { _admitted, _objectLine } from './admission/engine';
import { groupOf, namespaceOf } from './fleet/objects';
import { resolveTarget, targetNamespace } from './fleet/targets';
import { _seconds, _withPath } from './strategies';
import { _assertOwnKplus } from './validation/foreign-kplus';
import { _renderForChecks } from './validation/render';
import { fieldError, Warnings } from './validation/report';
import { WorkloadRef } from './workload-ref';

/** A weighted node preference of a subset. */
export interface WorkloadSpreadPreference {
  /** Weight, 1 to 100. */
  readonly weight: number;
  /** The node labels preferred. */
  readonly nodeLabels: kplus.NodeLabelQuery[];
}

/** One subset (zone, node pool, elastic capacity...) a WorkloadSpread places pods in. */
export interface WorkloadSpreadSubset {
  /** Subset name (unique in the WorkloadSpread). */
  readonly name: string;
  /**
   * Nodes of the subset: every query must hold.
   * @default - any node
   */
  readonly requiredNodeLabels?: kplus.NodeLabelQuery[];
  /**
   * Preferred nodes inside the subset.
   * @default - none
   */
  readonly preferredNodeLabels?: WorkloadSpreadPreference[];
  /**
   * Tolerations added to the pods of the subset.
   * @default - none
   */
  readonly tolerations?: kplus.NodeTaintQuery[];
  /**
   * The most pods (or percent of the workload) in this subset.
   * @default - no limit (only the last subset may omit it when percentages are used)
   */
  readonly maxReplicas?: kplus.PercentOrAbsolute;
  /**
   * A strategic-merge patch applied to the pods of the subset (e.g. `{ metadata: { labels: { zone: 'a' } } }`).
   * @default - no patch
   */
  readonly patch?: any;
}

/** Options of the adaptive schedule strategy. */
export interface WorkloadSpreadAdaptiveOptions {
  /**
   * How long a pod may stay pending in a subset before it is moved to the next one.
   * @default - OpenKruise's default
   */
  readonly rescheduleCritical?: Duration;
  /**
   * Skip the scheduling simulation when choosing a subset.
   * @default false
   */
  readonly disableSimulationSchedule?: boolean;
}

/** Whether pods stay in their subset or move when they cannot be scheduled. */
export class WorkloadSpreadScheduleStrategy {
  /** Pods stay in the subset they were placed in (the default). */
  public static fixed(): WorkloadSpreadScheduleStrategy {
    return new WorkloadSpreadScheduleStrategy({ type: _l1('WorkloadSpread').WorkloadSpreadSpecScheduleStrategyType.FIXED });
  }

  /**
   * Pods that stay pending are moved to the next subset.
   * @param options reschedule time
   */
  public static adaptive(options: WorkloadSpreadAdaptiveOptions = {}): WorkloadSpreadScheduleStrategy {
    return new WorkloadSpreadScheduleStrategy({ type: _l1('WorkloadSpread').WorkloadSpreadSpecScheduleStrategyType.ADAPTIVE }, options);
  }

  private constructor(private readonly spec: kruise.WorkloadSpreadSpecScheduleStrategy, private readonly adaptive?: WorkloadSpreadAdaptiveOptions) {}

  /** @internal */
  public _toKube(): kruise.WorkloadSpreadSpecScheduleStrategy {
    const a = this.adaptive;
    if (!a) return this.spec;
    return {
      ...this.spec,
      adaptive: { rescheduleCriticalSeconds: _seconds(a.rescheduleCritical, 'scheduleStrategy.rescheduleCritical'), disableSimulationSchedule: a.disableSimulationSchedule },
    };
  }
}

/** Options of a WorkloadSpread, whatever its target (see `CloneSet.spread()`). */
export interface WorkloadSpreadOptions {
  /**
   * Metadata.
   * @default - a generated name, in the target's namespace
   */
  readonly metadata?: ApiObjectMetadata;
  /**
   * The subsets, in order of preference.
   * @default - none; add with addSubset()
   */
  readonly subsets?: WorkloadSpreadSubset[];
  /**
   * Schedule strategy.
   * @default WorkloadSpreadScheduleStrategy.fixed()
   */
  readonly scheduleStrategy?: WorkloadSpreadScheduleStrategy;
}

/** Properties of a WorkloadSpread. */
export interface WorkloadSpreadProps extends WorkloadSpreadOptions {
  /**
   * The workload spread (a Kruise CloneSet or Advanced StatefulSet, a cdk8s-plus Deployment, StatefulSet or Job).
   * @default - use targetRef
   */
  readonly target?: kplus.Workload;
  /**
   * The workload spread, by reference (e.g. a ReplicaSet).
   * @default - use target
   */
  readonly targetRef?: WorkloadRef;
}

/**
 * A WorkloadSpread (apps.kruise.io/v1alpha1): spreads the pods of one
 * workload over subsets of nodes (zones, node pools, elastic capacity), with
 * a maximum per subset.
 */
export class WorkloadSpread extends Construct {
  /** The L1 object. */
  public readonly apiObject: ApiObject;
  /** Schedule strategy. */
  public readonly scheduleStrategy?: WorkloadSpreadScheduleStrategy;

  private readonly props: WorkloadSpreadProps;
  private readonly _subsets: WorkloadSpreadSubset[] = [];

  constructor(scope: Construct, id: string, props: WorkloadSpreadProps) {
    super(scope, id);
    _assertOwnKplus(`WorkloadSpread at '${this.node.path}'`, props);
    if (!props.target === !props.targetRef) throw new Error(`WorkloadSpread at '${this.node.path}': set exactly one of 'target' or 'targetRef'`);
    this.props = props;
    this.scheduleStrategy = props.scheduleStrategy;
    this.apiObject = new (_l1('WorkloadSpread').KubeWorkloadSpread)(this, 'Resource', {
      metadata: { ...props.metadata, namespace: props.metadata?.namespace ?? targetNamespace(props.target) },
      spec: Lazy.any({ produce: () => _withPath(this, () => this._toKube()) }),
    });
    for (const s of props.subsets ?? []) this.addSubset(s);
    this.node.addValidation({ validate: () => this.validateSelf().map(l => _objectLine(this.apiObject, l)) });
    Warnings._addProducer(this, () => this.warnings().map(l => _objectLine(this.apiObject, l)));
  }

  /** The subsets (a copy; use addSubset to add). */
  public get subsets(): WorkloadSpreadSubset[] {
    return [...this._subsets];
  }

  /**
   * Add a subset (after the existing ones).
   * @param subset the subset
   */
  public addSubset(subset: WorkloadSpreadSubset): void {
    this._subsets.push(subset);
  }

  /** @internal */
  public _toKube(): kruise.WorkloadSpreadSpec {
    const t = resolveTarget(this.props.target, this.props.targetRef)!;
    return {
      targetRef: { ...t.ref },
      subsets: this._subsets.map(s => ({
        name: s.name,
        requiredNodeSelectorTerm: s.requiredNodeLabels ? { matchExpressions: s.requiredNodeLabels.map(q => q._toKube()) } : undefined,
        preferredNodeSelectorTerms: s.preferredNodeLabels?.map(p => ({
          weight: p.weight,
          preference: { matchExpressions: p.nodeLabels.map(q => q._toKube()) },
        })),
        tolerations: s.tolerations?.map(t2 => t2._toKube()),
        maxReplicas: s.maxReplicas === undefined ? undefined
          : typeof s.maxReplicas.value === 'number' ? _l1('WorkloadSpread').WorkloadSpreadSpecSubsetsMaxReplicas.fromNumber(s.maxReplicas.value)
            : _l1('WorkloadSpread').WorkloadSpreadSpecSubsetsMaxReplicas.fromString(String(s.maxReplicas.value)),
        patch: s.patch,
      })),
      scheduleStrategy: this.scheduleStrategy?._toKube(),
    };
  }

  private validateSelf(): string[] {
    // the object's own rules (no subsets, ...) are the admission layer's; these need the construct or the App
    if (!_admitted(this.apiObject)) return [];
    const json = _renderForChecks(this.apiObject);
    const errors: string[] = [];
    const t = resolveTarget(this.props.target, this.props.targetRef)!;
    if (t.namespace !== undefined && t.namespace !== namespaceOf(json)) {
      errors.push(fieldError('metadata.namespace', namespaceOf(json), `differs from the namespace of the target ${t.ref.kind} "${t.ref.name}" (${t.namespace})`, 'create the WorkloadSpread in the target\'s namespace'));
    }
    return errors;
  }

  private warnings(): string[] {
    const t = resolveTarget(this.props.target, this.props.targetRef)!;
    const out: string[] = [];
    if (!builtInTarget(t.ref)) {
      out.push(fieldError('spec.targetRef', t.ref, 'is not a CloneSet, Deployment, ReplicaSet, Job or StatefulSet, which OpenKruise accepts only when the kind is listed in '
        + 'WorkloadSpread_Watch_Custom_Workload_WhiteList of the kruise-configuration ConfigMap', 'add the kind to that whitelist, or spread a built-in workload'));
    }
    if (groupOf(t.ref.apiVersion) === 'apps.kruise.io' && t.ref.kind === 'StatefulSet') {
      this._subsets.forEach((sub, i) => {
        if (sub.patch === undefined) return;
        out.push(fieldError(`spec.subsets[${i}].patch`, sub.patch, 'is not validated by OpenKruise for an Advanced StatefulSet target, so a bad patch surfaces only when pods are created',
          'check that the patch merges into the pod template (OpenKruise applies it as a strategic merge patch to each new pod)'));
      });
    }
    return out;
  }
}

function builtInTarget(r: WorkloadRef): boolean {
  const g = groupOf(r.apiVersion);
  return (r.kind === 'CloneSet' && g === 'apps.kruise.io') || (['Deployment', 'ReplicaSet'].includes(r.kind) && g === 'apps')
    || (r.kind === 'Job' && g === 'batch') || (r.kind === 'StatefulSet' && (g === 'apps' || g === 'apps.kruise.io'));
}
