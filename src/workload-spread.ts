import { ApiObject, ApiObjectMetadata, Duration, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import * as kruise from '../imports/kruise';
import { appObjects, groupOf, namespaceOf } from './fleet/objects';
import { resolveTarget, targetNamespace } from './fleet/targets';
import { _requireGates } from './validation/gates';
import { dns1123SubdomainProblems, labelValueProblems, qualifiedNameProblems } from './validation/names';
import { parseUpstreamPercent } from './validation/percent';
import { _renderForChecks } from './validation/render';
import { fieldError, Warnings } from './validation/report';
import { selectorProblems } from './validation/selectors';
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
    return new WorkloadSpreadScheduleStrategy({ type: kruise.WorkloadSpreadSpecScheduleStrategyType.FIXED });
  }

  /**
   * Pods that stay pending are moved to the next subset.
   * @param options reschedule time
   */
  public static adaptive(options: WorkloadSpreadAdaptiveOptions = {}): WorkloadSpreadScheduleStrategy {
    return new WorkloadSpreadScheduleStrategy({
      type: kruise.WorkloadSpreadSpecScheduleStrategyType.ADAPTIVE,
      adaptive: { rescheduleCriticalSeconds: options.rescheduleCritical?.toSeconds(), disableSimulationSchedule: options.disableSimulationSchedule },
    });
  }

  private constructor(private readonly spec: kruise.WorkloadSpreadSpecScheduleStrategy) {}

  /** @internal */
  public _toKube(): kruise.WorkloadSpreadSpecScheduleStrategy {
    return this.spec;
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
    if (!props.target === !props.targetRef) throw new Error(`WorkloadSpread at '${this.node.path}': set exactly one of 'target' or 'targetRef'`);
    this.props = props;
    this.scheduleStrategy = props.scheduleStrategy;
    this.apiObject = new kruise.KubeWorkloadSpread(this, 'Resource', {
      metadata: { ...props.metadata, namespace: props.metadata?.namespace ?? targetNamespace(props.target) },
      spec: Lazy.any({ produce: () => this._toKube() }),
    });
    for (const s of props.subsets ?? []) this.addSubset(s);
    _requireGates(this, 'WorkloadSpread', ['WorkloadSpread']);
    this.node.addValidation({ validate: () => this.validateSelf() });
    Warnings._addProducer(this, () => this.warnings());
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
          : typeof s.maxReplicas.value === 'number' ? kruise.WorkloadSpreadSpecSubsetsMaxReplicas.fromNumber(s.maxReplicas.value)
            : kruise.WorkloadSpreadSpecSubsetsMaxReplicas.fromString(String(s.maxReplicas.value)),
        patch: s.patch,
      })),
      scheduleStrategy: this.scheduleStrategy?._toKube(),
    };
  }

  private validateSelf(): string[] {
    if (this._subsets.length === 0) return [fieldError('spec.subsets', [], 'is empty, so the WorkloadSpread has no subsets', 'add at least one with addSubset()')];
    const json = _renderForChecks(this.apiObject);
    const errors = workloadSpreadErrors(json);
    const t = resolveTarget(this.props.target, this.props.targetRef)!;
    if (t.namespace !== undefined && t.namespace !== namespaceOf(json)) {
      errors.push(fieldError('metadata.namespace', namespaceOf(json), `differs from the namespace of the target ${t.ref.kind} "${t.ref.name}" (${t.namespace})`, 'create the WorkloadSpread in the target\'s namespace'));
    }
    for (const other of appObjects(this, 'apps.kruise.io', 'WorkloadSpread')) {
      if (other.apiObject === this.apiObject || namespaceOf(other.json) !== namespaceOf(json)) continue;
      const r = other.json.spec?.targetRef ?? {};
      const same = groupOf(r.apiVersion) === groupOf(t.ref.apiVersion) && r.kind === t.ref.kind && r.name === t.ref.name;
      if (same && other.owner.node.path > this.node.path) {
        errors.push(fieldError('spec.targetRef', t.ref, `is also the target of WorkloadSpread "${other.json.metadata?.name}" at '${other.owner.node.path}', which OpenKruise refuses`, 'keep one WorkloadSpread per workload'));
      }
    }
    return errors;
  }

  private warnings(): string[] {
    const t = resolveTarget(this.props.target, this.props.targetRef)!;
    const out: string[] = [];
    if (!builtInTarget(t.ref)) {
      out.push(`spec.targetRef is a ${t.ref.kind} (${t.ref.apiVersion}), which OpenKruise accepts only when it is listed in WorkloadSpread_Watch_Custom_Workload_WhiteList of the kruise-configuration ConfigMap`);
    }
    if (this._subsets.some(s => s.patch !== undefined) && (groupOf(t.ref.apiVersion) === 'apps.kruise.io' && t.ref.kind === 'StatefulSet')) {
      out.push('subset patches of a WorkloadSpread on an Advanced StatefulSet are not validated by OpenKruise; a bad patch surfaces only when pods are created');
    }
    return out;
  }
}

function builtInTarget(r: WorkloadRef): boolean {
  const g = groupOf(r.apiVersion);
  return (r.kind === 'CloneSet' && g === 'apps.kruise.io') || (['Deployment', 'ReplicaSet'].includes(r.kind) && g === 'apps')
    || (r.kind === 'Job' && g === 'batch') || (r.kind === 'StatefulSet' && (g === 'apps' || g === 'apps.kruise.io'));
}

function termErrors(field: string, term: any): string[] {
  const out: string[] = [];
  (term?.matchFields ?? []).forEach((e: any, i: number) => {
    const at = `${field}.matchFields[${i}]`;
    if (e.key !== 'metadata.name') out.push(fieldError(`${at}.key`, e.key, 'is not a supported node field', 'use metadata.name (or match node labels with matchExpressions)'));
    const vals: string[] = e.values ?? [];
    if (!['In', 'NotIn'].includes(e.operator)) out.push(fieldError(`${at}.operator`, e.operator, 'is not allowed for a node field', 'use In or NotIn'));
    else if (vals.length !== 1) out.push(fieldError(`${at}.values`, e.values, `must be exactly one node name for operator ${e.operator}`, 'give one node name'));
    vals.forEach((v, j) => { for (const p of dns1123SubdomainProblems(v)) out.push(fieldError(`${at}.values[${j}]`, v, p, 'use a valid node name')); });
  });
  (term?.matchExpressions ?? []).forEach((e: any, i: number) => {
    const at = `${field}.matchExpressions[${i}]`;
    for (const p of qualifiedNameProblems(e.key ?? '')) out.push(fieldError(`${at}.key`, e.key, p, 'use a valid node label key'));
    const vals: string[] = e.values ?? [];
    if (['In', 'NotIn'].includes(e.operator) && vals.length === 0) out.push(fieldError(`${at}.values`, e.values, `must list at least one value for operator ${e.operator}`, 'add values'));
    else if (['Exists', 'DoesNotExist'].includes(e.operator) && vals.length > 0) out.push(fieldError(`${at}.values`, e.values, `must be empty for operator ${e.operator}`, 'drop the values'));
    else if (['Gt', 'Lt'].includes(e.operator) && (vals.length !== 1 || !/^-?\d+$/.test(vals[0]))) out.push(fieldError(`${at}.values`, e.values, `must be exactly one integer for operator ${e.operator}`, 'give one integer value'));
    else if (!['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'].includes(e.operator)) out.push(fieldError(`${at}.operator`, e.operator, 'is not a node selector operator', 'use In, NotIn, Exists, DoesNotExist, Gt or Lt'));
    vals.forEach((v, j) => { for (const p of labelValueProblems(v)) out.push(fieldError(`${at}.values[${j}]`, v, p, 'use a valid label value')); });
  });
  return out;
}

/** §5 rules 2-4, 6-10, 12-21 on a WorkloadSpread in wire form. */
export function workloadSpreadErrors(json: any): string[] {
  const errors: string[] = [];
  const spec = json?.spec ?? {};
  const ref = spec.targetRef;
  if (!ref) {errors.push(fieldError('spec.targetRef', ref, 'is required', 'set target or targetRef'));} else {
    for (const f of ['apiVersion', 'kind', 'name']) if (!ref[f]) errors.push(fieldError(`spec.targetRef.${f}`, ref[f], 'is empty', 'name the target completely'));
    if (ref.apiVersion && ref.apiVersion.split('/').length > 2) errors.push(fieldError('spec.targetRef.apiVersion', ref.apiVersion, 'is not group/version', 'use e.g. apps/v1'));
    const g = groupOf(ref.apiVersion);
    const need: Record<string, string[]> = { CloneSet: ['apps.kruise.io'], Deployment: ['apps'], ReplicaSet: ['apps'], Job: ['batch'], StatefulSet: ['apps', 'apps.kruise.io'] };
    if (need[ref.kind] && !need[ref.kind].includes(g)) errors.push(fieldError('spec.targetRef.apiVersion', ref.apiVersion, `is not a group OpenKruise accepts for kind ${ref.kind}`, `use group ${need[ref.kind].join(' or ')}`));
  }
  const subsets: any[] = spec.subsets ?? [];
  if (subsets.length === 0) errors.push(fieldError('spec.subsets', subsets, 'is empty', 'add at least one subset'));
  const names = new Set<string>();
  subsets.forEach((s, i) => {
    const at = `spec.subsets[${i}]`;
    if (!s.name) errors.push(fieldError(`${at}.name`, s.name, 'is empty', 'name the subset'));
    else if (names.has(s.name)) errors.push(fieldError(`${at}.name`, s.name, 'is used by another subset', 'give each subset a unique name'));
    names.add(s.name);
    if (s.requiredNodeSelectorTerm) errors.push(...termErrors(`${at}.requiredNodeSelectorTerm`, s.requiredNodeSelectorTerm));
    (s.preferredNodeSelectorTerms ?? []).forEach((p: any, j: number) => {
      if (!(Number.isInteger(p.weight) && p.weight >= 1 && p.weight <= 100)) errors.push(fieldError(`${at}.preferredNodeSelectorTerms[${j}].weight`, p.weight, 'is out of range', 'use 1 to 100'));
      errors.push(...termErrors(`${at}.preferredNodeSelectorTerms[${j}].preference`, p.preference));
    });
    (s.tolerations ?? []).forEach((t: any, j: number) => {
      const tat = `${at}.tolerations[${j}]`;
      if (t.key) for (const p of qualifiedNameProblems(t.key)) errors.push(fieldError(`${tat}.key`, t.key, p, 'use a valid taint key'));
      if (!t.key && t.operator !== 'Exists') errors.push(fieldError(`${tat}.operator`, t.operator, 'must be Exists when the key is empty', 'use NodeTaintQuery.any() or give a key'));
      if (t.tolerationSeconds !== undefined && t.effect !== 'NoExecute') errors.push(fieldError(`${tat}.tolerationSeconds`, t.tolerationSeconds, 'is only allowed with effect NoExecute', 'set effect NoExecute or drop evictAfter'));
      if ((!t.operator || t.operator === 'Equal')) for (const p of labelValueProblems(t.value ?? '')) errors.push(fieldError(`${tat}.value`, t.value, p, 'use a valid label value'));
      if (t.operator === 'Exists' && t.value) errors.push(fieldError(`${tat}.value`, t.value, 'must be empty for operator Exists', 'drop the value'));
      if (t.operator && !['Equal', 'Exists'].includes(t.operator)) errors.push(fieldError(`${tat}.operator`, t.operator, 'is not a toleration operator', 'use Equal or Exists'));
      if (t.effect && !['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(t.effect)) errors.push(fieldError(`${tat}.effect`, t.effect, 'is not a taint effect', 'use NoSchedule, PreferNoSchedule or NoExecute'));
    });
  });
  // rules 12-16: maxReplicas
  const withMax = subsets.map((s, i) => ({ s, i })).filter(x => x.s.maxReplicas !== undefined);
  const types = new Set(withMax.map(x => typeof x.s.maxReplicas));
  if (types.size > 1) errors.push(fieldError('spec.subsets[*].maxReplicas', withMax.map(x => x.s.maxReplicas), 'mixes numbers and percentages', 'use only numbers or only percentages'));
  if (ref?.kind === 'StatefulSet') {
    for (const x of withMax) if (typeof x.s.maxReplicas !== 'number') errors.push(fieldError(`spec.subsets[${x.i}].maxReplicas`, x.s.maxReplicas, 'is a percentage, which OpenKruise refuses for a StatefulSet target', 'use a number'));
  }
  let sum = 0;
  let percents = false;
  for (const x of withMax) {
    const p = parseUpstreamPercent(x.s.maxReplicas);
    if (!p || p.value < 0) {
      errors.push(fieldError(`spec.subsets[${x.i}].maxReplicas`, x.s.maxReplicas, 'is not a non-negative integer or integer percentage', 'use PercentOrAbsolute.absolute(n) or percent(n) with a whole n >= 0'));
      continue;
    }
    if (p.isPercent) {
      percents = true;
      sum += p.value;
      if (sum > 100) errors.push(fieldError(`spec.subsets[${x.i}].maxReplicas`, x.s.maxReplicas, `brings the percentages to ${sum}%, more than 100%`, 'lower the percentages'));
    }
  }
  const last = subsets[subsets.length - 1];
  if (percents && last?.maxReplicas !== undefined && sum !== 100 && sum <= 100) {
    errors.push(fieldError(`spec.subsets[${subsets.length - 1}].maxReplicas`, last.maxReplicas, `leaves the percentages at ${sum}%; with the last subset limited they must add up to 100%`, 'make them add up to 100%, or leave the last subset\'s maxReplicas unset'));
  }
  // rules 17-20
  const ss = spec.scheduleStrategy;
  if (ss) {
    if (ss.type !== undefined && !['', 'Fixed', 'Adaptive'].includes(ss.type)) errors.push(fieldError('spec.scheduleStrategy.type', ss.type, 'is not a schedule strategy', 'use Fixed or Adaptive'));
    if (ss.adaptive) {
      if (ss.type !== 'Adaptive') errors.push(fieldError('spec.scheduleStrategy.adaptive', ss.adaptive, 'is set but the type is not Adaptive', 'use WorkloadSpreadScheduleStrategy.adaptive()'));
      if (subsets.length > 1 && last?.maxReplicas !== undefined) errors.push(fieldError(`spec.subsets[${subsets.length - 1}].maxReplicas`, last.maxReplicas, 'is set on the last subset of an adaptive WorkloadSpread', 'leave the last subset unlimited so rescheduled pods always have a place'));
      const secs = ss.adaptive.rescheduleCriticalSeconds;
      if (secs !== undefined) {
        const max = subsets.length > 1 ? Math.floor(295 / (subsets.length - 1)) : 2147483647;
        if (secs < 0 || secs > max) errors.push(fieldError('spec.scheduleStrategy.adaptive.rescheduleCriticalSeconds', secs, `is out of range for ${subsets.length} subsets`, `use 0 to ${max} seconds`));
      }
    }
  }
  const sel = spec.targetFilter?.selector;
  if (sel) for (const p of selectorProblems(sel)) errors.push(fieldError(`spec.targetFilter.selector.${p.field}`, p.value, p.problem, 'fix the selector'));
  return errors;
}
