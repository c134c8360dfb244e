/**
 * Kruise Rollouts in the update plan: when a Rollout of the new manifests
 * targets a workload whose pod template changes, whether the Rollout takes
 * the change (the kruise-rollout webhook's conditions), and, step by step,
 * the pods on the new revision as the BatchRelease controller computes them
 * for the workload's kind and the release style; the traffic and the pause
 * of each step; what the completion does. Also the Rollout objects
 * themselves: what the Rollout webhook refuses while a release is in
 * progress, and manifest changes that fight a release in progress (both
 * known only when the old side is live objects).
 *
 * Facts: ../shared/reference/kruise-rollout-v0.6.2/ and Kruise Rollouts
 * v0.6.2's BatchRelease controllers (partition, canary and blue-green
 * style), its Rollout controller (steps, pauses, completion) and its
 * workload webhook (which updates start a release).
 */
import { sameJson } from './diff';
import { partitionReplicas, upstreamValue } from './rollout';
import {
  RejectedBy, RolloutChange, RolloutPlan, RolloutReleaseStyle, RolloutStepPlan, UpdateType, WorkloadPlan,
} from './types';
import { ROLLING_STYLE, RolloutStyle, WORKLOAD_TYPE_LABEL, styleOf, targetKey, workloadRefOf } from '../admission/rollout';
import { fieldError } from '../validation/field-error';
import { IntOrPercent } from '../validation/percent';

type Json = any;

/** The annotation the webhook puts on a workload whose release is in progress. */
export const IN_PROGRESSING = 'rollouts.kruise.io/in-progressing';
/** The workload annotation (and label) naming a release. */
export const ROLLOUT_ID = 'rollouts.kruise.io/rollout-id';

/** The workload kinds a Rollout releases (group/kind). */
export const RELEASED_KINDS = ['apps.kruise.io/CloneSet', 'apps.kruise.io/StatefulSet', 'apps.kruise.io/DaemonSet', 'apps/Deployment', 'apps/StatefulSet'];

/** One step as the controllers read it (the v1beta1 form). */
interface StepView {
  /** replicas, or a v1alpha1 weight as a percentage. */
  readonly replicas: IntOrPercent | undefined;
  readonly traffic?: string;
  readonly matches: string[];
  readonly pauseSeconds?: number;
}

/** A Rollout of either version as the controllers see it. */
export interface RolloutView {
  readonly obj: Json;
  readonly apiVersion: string;
  readonly name: string;
  readonly namespace: string;
  readonly ref?: Json;
  /** `group/kind` of the workload. */
  readonly key?: string;
  readonly style: RolloutReleaseStyle;
  /** The style as the update rules compare it: BlueGreen, Canary (extra workload flag) or Partition. */
  readonly coarseStyle: string;
  /** Where the active steps are, for field names. */
  readonly at: string;
  readonly steps: StepView[];
  /** The active strategy's traffic routings, with the CRD defaults. */
  readonly trafficRoutings: Json[];
  /** Whether anything routes traffic (trafficRoutings, a TrafficRouting reference). */
  readonly routed: boolean;
  readonly disabled: boolean;
  readonly paused: boolean;
  /** status.phase (live objects). */
  readonly phase?: string;
}

function describeMatch(m: Json): string {
  const parts: string[] = [];
  for (const h of m?.headers ?? []) parts.push(`header ${h.name}${h.type === 'RegularExpression' ? ' matching ' : '='}${h.value}`);
  for (const q of m?.queryParams ?? []) parts.push(`query ${q.name}${q.type === 'RegularExpression' ? ' matching ' : '='}${q.value}`);
  if (m?.path) {
    const type = m.path.type ?? 'PathPrefix';
    parts.push(`path ${type === 'Exact' ? '' : type === 'RegularExpression' ? 'matching ' : 'prefix '}${m.path.value ?? '/'}`);
  }
  return parts.join(' and ');
}

const withGrace = (routings: Json[] | undefined): Json[] => (routings ?? []).map(r => ({ gracePeriodSeconds: 3, ...r }));

/** The Rollout as the controllers read it (a v1alpha1 object as its v1beta1 conversion). */
export function rolloutView(obj: Json, defaultNamespace: string): RolloutView {
  const v1alpha1 = obj.apiVersion === 'rollouts.kruise.io/v1alpha1';
  const strategy = obj.spec?.strategy ?? {};
  const blueGreen = !v1alpha1 && strategy.blueGreen !== undefined && strategy.blueGreen !== null;
  const release = blueGreen ? strategy.blueGreen : strategy.canary ?? {};
  const ref = workloadRefOf(obj);
  const real = styleOf(obj);
  const style = real === RolloutStyle.BLUE_GREEN ? RolloutReleaseStyle.BLUE_GREEN
    : real === RolloutStyle.CANARY ? RolloutReleaseStyle.CANARY_DEPLOYMENT : RolloutReleaseStyle.PARTITION;
  const extra = v1alpha1 ? String(obj.metadata?.annotations?.[ROLLING_STYLE] ?? '').toLowerCase() !== 'partition' : release.enableExtraWorkloadForCanary === true;
  const steps: StepView[] = (release.steps ?? []).map((s: Json) => {
    const weight = v1alpha1 && typeof s.weight === 'number' ? s.weight : undefined;
    const traffic = v1alpha1 ? (weight === undefined ? undefined : `${weight}%`) : s.traffic;
    const duration = s.pause?.duration;
    return {
      replicas: s.replicas ?? (weight === undefined ? undefined : `${weight}%`),
      traffic: typeof traffic === 'string' ? traffic : undefined,
      matches: (s.matches ?? []).map(describeMatch).filter((d: string) => d !== ''),
      pauseSeconds: typeof duration === 'number' ? duration : undefined,
    };
  });
  const routings = withGrace(release.trafficRoutings);
  return {
    obj,
    apiVersion: obj.apiVersion,
    name: obj.metadata?.name,
    namespace: obj.metadata?.namespace || defaultNamespace,
    ref,
    key: targetKey(ref),
    style,
    coarseStyle: blueGreen ? 'BlueGreen' : extra ? 'Canary' : 'Partition',
    at: blueGreen ? 'spec.strategy.blueGreen' : 'spec.strategy.canary',
    steps,
    trafficRoutings: routings,
    routed: routings.length > 0 || !!release.trafficRoutingRef || !!obj.metadata?.annotations?.['rollouts.kruise.io/trafficrouting'],
    disabled: obj.spec?.disabled === true,
    paused: strategy.paused === true,
    phase: obj.status?.phase,
  };
}

/** `group/kind` of a workload object. */
export function workloadKey(obj: Json): string {
  const v = String(obj.apiVersion ?? '');
  return `${v.includes('/') ? v.split('/')[0] : ''}/${obj.kind}`;
}

// --- the BatchRelease arithmetic --------------------------------------------------------------------

/** intstr.GetScaledValueFromIntOrPercent with round-up (the controllers ignore its error: 0). */
const scaledUp = (v: IntOrPercent | undefined, total: number): number => upstreamValue(v, total, true) ?? 0;

const isPercent = (v: IntOrPercent | undefined): boolean => typeof v === 'string';

/** The planned new pods of a step: the step's replicas rounded up, within 0..replicas. */
export function batchReplicas(v: IntOrPercent | undefined, replicas: number): number {
  return Math.min(Math.max(scaledUp(v, replicas), 0), replicas);
}

/**
 * The percentage partition the CloneSet release writes for `stable` pods of
 * `replicas` when a step's replicas is a percentage: the whole percentage
 * below stable/replicas, and "1%" when that would keep no pod although the
 * step is not "100%".
 */
export function partitionPercent(stable: number, replicas: number, step: IntOrPercent | undefined): string {
  if (stable >= replicas) return '100%';
  if (stable <= 0) return '0%';
  const p = Math.trunc((stable * 100) / replicas);
  if (Math.ceil((p * replicas) / 100) <= 0 && step !== '100%') return '1%';
  return `${p}%`;
}

/** The new ReplicaSet's pods of a partition-style Deployment at `partition`. */
export function deploymentNewPods(partition: IntOrPercent, replicas: number): number {
  let n = Math.min(Math.max(scaledUp(partition, replicas), 0), replicas);
  if (replicas > 1 && isPercent(partition) && partition !== '100%') n = Math.min(n, replicas - 1);
  return n;
}

/** Pods after each step: on the new revision, on the old one, and the ordinals of a StatefulSet. */
export interface StepPods {
  readonly newPods?: number;
  readonly oldPods?: number;
  readonly ordinals?: number[];
  /** The pods the step asks for on the new revision, when the controller stops short of them for good. */
  readonly stallsShortOf?: number;
}

/**
 * The pods after each step, as the BatchRelease controller of the kind and
 * style moves them. `replicas` is the workload's (a DaemonSet's nodes);
 * `ordinalsInOrder` the StatefulSet's ordinals, highest first, with their
 * index from the start ordinal (for the partition).
 */
export function stepPods(key: string, style: RolloutReleaseStyle, replicas: number | undefined, steps: Array<IntOrPercent | undefined>,
  ordinalsInOrder?: Array<{ ordinal: number; index: number }>): StepPods[] {
  if (replicas === undefined) return steps.map(() => ({}));
  const R = replicas;
  const out: StepPods[] = [];
  if (style === RolloutReleaseStyle.BLUE_GREEN) {
    // maxSurge raised to the step (never lowered), maxUnavailable 0, pods never "available": every old pod stays
    let surge = 0;
    if (key !== 'apps.kruise.io/CloneSet') {
      for (const s of steps) {
        surge = Math.max(surge, scaledUp(s, R));
        out.push({ newPods: Math.min(surge, R), oldPods: R });
      }
      return out;
    }
    // A CloneSet surges only as many pods as the update still needs: with partition 0 and n pods already new,
    // that is min(maxSurge, replicas - n), and none of the extra pods is ever deleted (maxUnavailable 0 and
    // new pods that never become available). So a step that asks for more than max(n, replicas - n) new pods
    // is never reached, and the BatchRelease waits at it for good.
    let n = 0;
    let stalled: number | undefined;
    for (const s of steps) {
      surge = Math.max(surge, Math.min(scaledUp(s, R), R));
      if (stalled === undefined) {
        n = Math.max(n, Math.min(surge, R - n));
        if (n < surge) stalled = surge;
        out.push({ newPods: n, oldPods: R, ...(stalled !== undefined ? { stallsShortOf: surge } : {}) });
      } else {
        out.push({ newPods: n, oldPods: R });
      }
    }
    return out;
  }
  if (style === RolloutReleaseStyle.CANARY_DEPLOYMENT) {
    for (const s of steps) out.push({ newPods: batchReplicas(s, R), oldPods: R });
    return out;
  }
  if (key === 'apps.kruise.io/CloneSet') {
    // the webhook sets partition "100%"; each step lowers it (never raises it)
    let current: IntOrPercent = '100%';
    for (const s of steps) {
      const stable = R - batchReplicas(s, R);
      const desired: IntOrPercent = isPercent(s) ? partitionPercent(stable, R, s) : stable;
      if (scaledUp(current, R) > scaledUp(desired, R)) current = desired;
      const kept = partitionReplicas(current, R) ?? 0;
      out.push({ newPods: R - kept, oldPods: kept });
    }
    return out;
  }
  if (key === 'apps/Deployment') {
    // the advanced deployment controller: partition from 0 up, read as the new ReplicaSet's limit
    let current: IntOrPercent = 0;
    for (const s of steps) {
      if (s !== undefined && scaledUp(current, 10_000_000) < scaledUp(s, 10_000_000)) current = s;
      const n = deploymentNewPods(current, R);
      out.push({ newPods: n, oldPods: R - n });
    }
    return out;
  }
  // StatefulSet-like (Advanced StatefulSet, StatefulSet, Advanced DaemonSet): an integer partition from the top down
  let current = key === 'apps.kruise.io/DaemonSet' ? R : 32767;
  for (const s of steps) {
    const desired = Math.max(0, R - batchReplicas(s, R));
    if (current > desired) current = desired;
    if (ordinalsInOrder) {
      const moved = ordinalsInOrder.filter(o => o.index >= current).map(o => o.ordinal);
      out.push({ newPods: moved.length, oldPods: R - moved.length, ordinals: moved });
    } else {
      out.push({ newPods: R - Math.min(current, R), oldPods: Math.min(current, R) });
    }
  }
  return out;
}

// --- the plan of a released change --------------------------------------------------------------------

const STYLE_TEXT: Record<RolloutReleaseStyle, string> = {
  [RolloutReleaseStyle.PARTITION]: 'in batches on the workload itself',
  [RolloutReleaseStyle.CANARY_DEPLOYMENT]: 'with an extra canary Deployment',
  [RolloutReleaseStyle.BLUE_GREEN]: 'blue-green',
};

const quote = (v: IntOrPercent | undefined): string => (v === undefined ? '(none)' : JSON.stringify(v));
const pods = (n: number): string => `${n} pod${n === 1 ? '' : 's'}`;

function approveCommand(r: RolloutView): string {
  return `kubectl-kruise rollout approve rollout/${r.name} -n ${r.namespace}`;
}

/** The steps of a release, with the pods after each. */
function stepPlans(r: RolloutView, replicas: number | undefined, counts: StepPods[]): RolloutStepPlan[] {
  const last = r.steps.length - 1;
  const stallIndex = counts.findIndex(c => c.stallsShortOf !== undefined);
  return r.steps.map((s, i) => {
    if (stallIndex >= 0 && i > stallIndex) {
      return {
        step: i + 1,
        replicas: s.replicas === undefined ? '' : String(s.replicas),
        traffic: r.routed ? s.traffic : undefined,
        matches: r.routed ? s.matches : [],
        manualApproval: false,
        summary: `step ${i + 1} (replicas ${quote(s.replicas)}): never runs (the release stops at step ${stallIndex + 1})`,
      };
    }
    const c = counts[i] ?? {};
    if (c.stallsShortOf !== undefined) {
      const before = i > 0 ? counts[i - 1].newPods! : 0;
      return {
        step: i + 1,
        replicas: s.replicas === undefined ? '' : String(s.replicas),
        podsOnNewRevision: c.newPods,
        podsOnOldRevision: c.oldPods,
        traffic: r.routed ? s.traffic : undefined,
        matches: r.routed ? s.matches : [],
        manualApproval: false,
        stalls: true,
        summary: `step ${i + 1} (replicas ${quote(s.replicas)}): the release stops here for good with ${pods(c.newPods!)} of the new revision next to all ${pods(c.oldPods!)} of the old one: `
          + `the step asks for ${pods(c.stallsShortOf)}, but with ${pods(before)} already new the CloneSet controller surges at most ${replicas! - before} `
          + '(the old pods it still has to replace), and a blue-green release never lets it replace one; the step never pauses and nothing after it runs',
      };
    }
    const finalAtOnce = r.style !== RolloutReleaseStyle.BLUE_GREEN && i === last && s.replicas === '100%';
    const manual = !finalAtOnce && s.pauseSeconds === undefined;
    const parts: string[] = [];
    const of = replicas === undefined ? 'of the nodes\' pods' : `of ${replicas} pods`;
    if (c.newPods === undefined) {
      parts.push(`${quote(s.replicas)} ${of} on the new revision`);
    } else if (r.style === RolloutReleaseStyle.CANARY_DEPLOYMENT) {
      parts.push(`${pods(c.newPods)} of the new revision in an extra canary Deployment, next to the ${pods(c.oldPods!)} of the old one`);
    } else if (r.style === RolloutReleaseStyle.BLUE_GREEN) {
      parts.push(`${pods(c.newPods)} of the new revision next to all ${pods(c.oldPods!)} of the old one`);
    } else {
      parts.push(`${c.newPods} of ${replicas} pods on the new revision, ${c.oldPods} on the old one${c.ordinals ? ` (ordinals ${c.ordinals.length > 0 ? c.ordinals.join(', ') : 'none'})` : ''}`);
      const planned = batchReplicas(s.replicas, replicas!);
      if (i > 0 && c.newPods > planned && c.newPods === counts[i - 1].newPods) parts.push(`(the step asks for ${pods(planned)}, but a release never moves pods back)`);
    }
    if (r.routed) {
      if (s.traffic !== undefined) parts.push(`${s.traffic} of the traffic to the new pods`);
      if (s.matches.length > 0) parts.push(`requests with ${s.matches.join(', or ')} to the new pods`);
      if (s.traffic === undefined && s.matches.length === 0) parts.push('no traffic split: the Service sends requests to old and new pods alike');
    } else if (s.traffic !== undefined || s.matches.length > 0) {
      parts.push('its traffic and matches do nothing (the Rollout routes no traffic)');
    }
    parts.push(finalAtOnce ? 'then the release completes (a last step at "100%" does not pause)'
      : manual ? `waits for approval (${approveCommand(r)})`
        : s.pauseSeconds! <= 0 ? 'goes on at once' : `waits ${s.pauseSeconds} s, then goes on`);
    return {
      step: i + 1,
      replicas: s.replicas === undefined ? '' : String(s.replicas),
      podsOnNewRevision: c.newPods,
      podsOnOldRevision: c.oldPods,
      ...(c.ordinals ? { ordinals: c.ordinals } : {}),
      traffic: r.routed ? s.traffic : undefined,
      matches: r.routed ? s.matches : [],
      pauseSeconds: finalAtOnce || manual ? undefined : s.pauseSeconds,
      manualApproval: manual,
      summary: `step ${i + 1} (replicas ${quote(s.replicas)}): ${parts.join('; ')}`,
    };
  });
}

function completionText(r: RolloutView, key: string, replicas: number | undefined, lastNew: number | undefined): string {
  const rest = replicas !== undefined && lastNew !== undefined ? replicas - lastNew : undefined;
  switch (r.style) {
    case RolloutReleaseStyle.CANARY_DEPLOYMENT:
      return `after the last step the release completes: the Deployment is resumed and replaces its ${replicas === undefined ? '' : `${replicas} `}pods by its own rolling update, and the canary Deployment is deleted`;
    case RolloutReleaseStyle.BLUE_GREEN:
      return `after the last step the release completes: the workload's maxSurge, maxUnavailable and minReadySeconds are restored${rest ? `, the remaining ${pods(rest)} move` : ''} and the old pods are removed`;
    default:
      return `after the last step the release completes: the ${key === 'apps/Deployment' ? 'Deployment is resumed with its own strategy' : 'partition is removed'}${rest === undefined ? ' and the remaining pods move' : rest > 0 ? ` and the remaining ${pods(rest)} move, as the workload's update strategy paces them` : ''}`;
  }
}

/** Inputs of `releasePlan`. */
export interface ReleaseInput {
  /** The workload's own plan for this change (what happens without the Rollout). */
  readonly plan: WorkloadPlan;
  /** The plan of the same change with the fields the release drives taken out of the new object. */
  readonly releasedPlan: () => WorkloadPlan | undefined;
  /** How each pod is updated in `releasedPlan` ("in place: image of ..."). */
  readonly how: (p: WorkloadPlan) => string | undefined;
  readonly oldObj: Json;
  readonly newObj: Json;
  readonly rollout: RolloutView;
  /** The Rollout in the old manifests (or live). */
  readonly oldRollout?: RolloutView;
  /** Whether the Rollout comes before the workload in the new manifests. */
  readonly rolloutFirst: boolean;
  readonly oldIsLive: boolean;
  readonly daemonSetNodes?: number;
  /** A StatefulSet's first ordinal, as its plan counts it. */
  readonly ordinalStart?: number;
}

/** A reason the Rollout may not take the change: it depends on whether kruise-rollout-manager reaches the Rollout before the workload update does. */
interface Raced {
  readonly reason: string;
  readonly races: true;
}

/** Why the Rollout does not take this change (or may not: `Raced`), or undefined when it does. */
function notTaken(i: ReleaseInput, key: string): string | Raced | undefined {
  const { rollout: r, oldRollout: o, oldObj, newObj } = i;
  const n = newObj.spec ?? {};
  if (r.disabled) {
    if (o && !o.disabled && o.phase !== 'Disabled') {
      return {
        reason: `Rollout ${r.name} is disabled in this same apply, and whether the webhook still takes the change depends on the controller marking it Disabled before the ${newObj.kind} update arrives; disable the Rollout in an earlier apply`,
        races: true,
      };
    }
    return `Rollout ${r.name} is disabled (spec.disabled: true), so updates roll out by the workload's own strategy`;
  }
  if (r.steps.length === 0) return `Rollout ${r.name} has no step`;
  if (!o) {
    const labelled = newObj.metadata?.labels?.[WORKLOAD_TYPE_LABEL] !== undefined
      || (i.oldIsLive && oldObj.metadata?.labels?.[WORKLOAD_TYPE_LABEL] !== undefined);
    if (!labelled) {
      return {
        reason: `Rollout ${r.name} is new in this apply and the ${newObj.kind} has no ${WORKLOAD_TYPE_LABEL} label: the webhook sees only labelled workloads, `
          + `and kruise-rollout-manager adds the label as soon as it reconciles the new Rollout, so the update is released step by step only when the controller wins that race against the ${newObj.kind} update; `
          + `label the ${newObj.kind} in its manifest (rollout() does) to release it step by step, or create the Rollout in an earlier apply`,
        races: true,
      };
    }
    if (!i.rolloutFirst) {
      return `Rollout ${r.name} is new in this apply and comes after the ${newObj.kind} in the manifests, so it does not exist yet when the update arrives; put the Rollout first, or create it in an earlier apply`;
    }
  } else if (i.oldIsLive) {
    if (o.phase === 'Disabled') {
      return { reason: `Rollout ${r.name} is Disabled in the cluster, and re-enabling it in the same apply races the webhook; enable it in an earlier apply`, races: true };
    }
    if (oldObj.metadata?.labels?.[WORKLOAD_TYPE_LABEL] === undefined && newObj.metadata?.labels?.[WORKLOAD_TYPE_LABEL] === undefined) {
      return `the live ${newObj.kind} has no ${WORKLOAD_TYPE_LABEL} label, so the Kruise Rollouts webhook never sees its updates (the controller adds it once it reconciles Rollout ${r.name}: is kruise-rollout-manager running?)`;
    }
  }
  if (key !== 'apps.kruise.io/DaemonSet' && (n.replicas ?? 1) === 0) return 'the workload has replicas 0: nothing to release step by step';
  if ((key === 'apps/StatefulSet' || key === 'apps.kruise.io/StatefulSet') && (n.updateStrategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') {
    return `an ${n.updateStrategy?.type} StatefulSet's updates are never taken by the Kruise Rollouts webhook`;
  }
  const id = newObj.metadata?.annotations?.[ROLLOUT_ID];
  if (id && id === oldObj.metadata?.annotations?.[ROLLOUT_ID]) {
    return `the template changes under the same ${ROLLOUT_ID} annotation ("${id}"), and only a new rollout-id starts a release; change the annotation (and label) to release it step by step`;
  }
  if (r.routed && i.oldIsLive && key === 'apps.kruise.io/CloneSet') {
    const st = oldObj.status ?? {};
    if (st.replicas !== undefined && st.replicas !== st.updatedReplicas) {
      return `the CloneSet runs two revisions now (${st.updatedReplicas} of ${st.replicas} pods updated), and a Rollout that routes traffic only takes an update of a workload on a single revision`;
    }
  }
  return undefined;
}

function notInEffect(i: ReleaseInput, reason: string, extra: string[] = [], races = false): WorkloadPlan {
  const r = i.rollout;
  return {
    ...i.plan,
    rollout: {
      rollout: r.name, apiVersion: r.apiVersion, style: r.style, inEffect: false, reason, ...(races ? { racesController: true } : {}), steps: [], completion: '',
    },
    notes: [races
      ? `released by Rollout ${r.name} or not, and no plan can know which: ${reason}; when it is not, the workload's own update strategy releases it (the counts of this plan)`
      : `not released by Rollout ${r.name}: ${reason}; the workload's own update strategy releases it`, ...extra, ...i.plan.notes],
  };
}

/** The fields of the new object the release takes over, as the plan of the released change must not count them. */
export function releasedObject(newObj: Json, key: string, style: RolloutReleaseStyle): { obj: Json; overridden: string[] } {
  const obj = JSON.parse(JSON.stringify(newObj));
  const overridden: string[] = [];
  const take = (holder: Json, field: string, path: string) => {
    if (holder && holder[field] !== undefined) {
      overridden.push(`${path} ${JSON.stringify(holder[field])}`);
      delete holder[field];
    }
  };
  const spec = obj.spec ?? {};
  if (key === 'apps.kruise.io/CloneSet') {
    take(spec.updateStrategy, 'partition', 'spec.updateStrategy.partition');
    take(spec.updateStrategy, 'paused', 'spec.updateStrategy.paused');
    if (style === RolloutReleaseStyle.BLUE_GREEN) {
      take(spec.updateStrategy, 'maxSurge', 'spec.updateStrategy.maxSurge');
      take(spec.updateStrategy, 'maxUnavailable', 'spec.updateStrategy.maxUnavailable');
    }
  } else if (key === 'apps/Deployment') {
    take(spec, 'paused', 'spec.paused');
  } else {
    take(spec.updateStrategy?.rollingUpdate, 'partition', 'spec.updateStrategy.rollingUpdate.partition');
    take(spec.updateStrategy?.rollingUpdate, 'paused', 'spec.updateStrategy.rollingUpdate.paused');
  }
  return { obj, overridden };
}

/** A StatefulSet plan's ordinals, highest first, with their index from the start ordinal (what the partition compares). */
function ordinalIndex(plan: WorkloadPlan, start: number): Array<{ ordinal: number; index: number }> | undefined {
  if (!plan.updatedOrdinals) return undefined;
  return [...plan.updatedOrdinals, ...(plan.keptOrdinals ?? [])].sort((a, b) => b - a).map(ordinal => ({ ordinal, index: ordinal - start }));
}

/** The plan of a released change the release controller refuses: no pod moves. */
function refusedByController(released: WorkloadPlan, r: RolloutView, field: string, rejection: string): WorkloadPlan {
  return {
    ...released,
    updateType: UpdateType.REJECTED,
    summary: `rejected: the controller refuses to update the pods: ${rejection}`,
    rejectedField: field,
    rejectedBy: RejectedBy.CONTROLLER,
    rejection,
    podsUpdated: 0,
    podsOnOldRevision: released.replicas,
    batches: [],
    forcedBy: undefined,
    rollout: { rollout: r.name, apiVersion: r.apiVersion, style: r.style, inEffect: true, steps: [], completion: '' },
  };
}

/**
 * The plan of a workload change under a Rollout: the Rollout's release step
 * by step when it takes the change, else the workload's own plan and why.
 */
export function releasePlan(i: ReleaseInput): WorkloadPlan {
  const r = i.rollout;
  const key = workloadKey(i.newObj);
  if (![UpdateType.IN_PLACE, UpdateType.RECREATE, UpdateType.ON_DELETE].includes(i.plan.updateType)) return i.plan;
  if (i.plan.updateType === UpdateType.ON_DELETE) {
    return notInEffect(i, key === 'apps.kruise.io/DaemonSet'
      ? 'an OnDelete DaemonSet moves a pod only when it is deleted, so the release would wait for pods that never update'
      : 'an OnDelete StatefulSet\'s updates are never taken by the Kruise Rollouts webhook');
  }
  const why = notTaken(i, key);
  if (why) return typeof why === 'string' ? notInEffect(i, why) : notInEffect(i, why.reason, [], true);

  const notes: string[] = [];
  const { overridden } = releasedObject(i.newObj, key, r.style);
  const released = i.releasedPlan() ?? i.plan;
  const how = i.how(released) ?? i.plan.summary;
  if (overridden.length > 0) {
    notes.push(`the release takes over ${overridden.join(', ')} from the manifest (${key === 'apps.kruise.io/CloneSet' ? 'the webhook sets partition "100%", each step lowers it, the completion removes it' : 'each step sets the partition, the completion removes it'}); `
      + 'a re-apply of the manifest during a release puts the value back (a lower partition moves pods at once, outside the steps; paused stalls the release): leave these fields out of a workload under a Rollout');
  }
  // a release in progress (live): a new revision restarts it, except blue-green, which refuses it
  if (i.oldIsLive && i.oldObj.metadata?.annotations?.[IN_PROGRESSING] && i.oldRollout?.phase === 'Progressing') {
    if (r.style === RolloutReleaseStyle.BLUE_GREEN) {
      const rejection = fieldError('spec.template', undefined,
        `changes while blue-green Rollout ${r.name} is Progressing, and the controller refuses a new version during a blue-green release, so no pod moves`,
        'roll the workload back to the version being released (or let the release complete) first');
      return { ...refusedByController(released, r, 'spec.template', rejection), releaseConflicts: [rejection] };
    }
    notes.push(`a release of Rollout ${r.name} is in progress: this new revision restarts it from step 1`);
  }
  if (r.style === RolloutReleaseStyle.BLUE_GREEN) {
    const type = key === 'apps/Deployment' ? i.newObj.spec?.strategy?.type ?? 'RollingUpdate' : i.newObj.spec?.updateStrategy?.type ?? 'ReCreate';
    const wanted = key === 'apps/Deployment' ? 'RollingUpdate' : 'ReCreate';
    if (type !== wanted) {
      const field = key === 'apps/Deployment' ? 'spec.strategy.type' : 'spec.updateStrategy.type';
      const rejection = fieldError(field, type, `is not ${wanted}, and the blue-green release of Rollout ${r.name} updates only a ${key === 'apps/Deployment' ? 'RollingUpdate Deployment' : 'ReCreate CloneSet'} (its batch controller stops with an error, so no pod moves)`,
        `set ${field} to ${wanted}, or release the ${i.newObj.kind} with a canary strategy`);
      return { ...refusedByController(released, r, field, rejection), notes: [...notes, ...i.plan.notes] };
    }
  }

  const replicas = key === 'apps.kruise.io/DaemonSet' ? i.daemonSetNodes : released.replicas;
  const counts = stepPods(key, r.style, replicas, r.steps.map(s => s.replicas), ordinalIndex(released, i.ordinalStart ?? 0));
  const planSteps = stepPlans(r, replicas, counts);
  const lastNew = counts[counts.length - 1]?.newPods;
  const stall = counts.findIndex(c => c.stallsShortOf !== undefined);
  const completion = stall >= 0
    ? `the release never completes: it stops at step ${stall + 1}, with the old pods running next to the new ones, until the Rollout or the workload changes`
    : completionText(r, key, replicas, lastNew);
  if (stall >= 0) {
    notes.push(`the blue-green release of Rollout ${r.name} stops at step ${stall + 1}: a CloneSet surges only as many new pods as it has old pods left to replace, `
      + 'so after a first step every later step can reach at most max(new pods so far, replicas - new pods so far); '
      + 'make the first step the largest (one step of "100%" creates every new pod at once), or release the CloneSet with a canary strategy');
  }
  if (r.paused) notes.push(`Rollout ${r.name} is paused (spec.strategy.paused): the webhook holds every pod on the old revision and no step runs until it is unpaused`);
  if (r.style === RolloutReleaseStyle.PARTITION && key === 'apps/Deployment') {
    notes.push('a Deployment released in batches needs kruise-rollout-manager\'s AdvancedDeployment feature gate (on in KruiseRolloutControlPlane and the chart)');
  }
  if (!i.oldRollout) {
    notes.push(`the Rollout must reach kruise-rollout-manager before the ${i.newObj.kind} update: kubectl apply -f keeps the manifests' order, but tools that apply custom resources after workloads do not`);
  }
  if (r.routed) notes.push('with traffic routing the webhook takes the update only while every pod runs one revision');

  let batches: number[] = [];
  let podsUpdated: number | undefined;
  let podsOnOld: number | undefined;
  if (r.paused) {
    podsUpdated = 0;
    podsOnOld = replicas;
  } else if (stall >= 0) {
    let before = 0;
    for (const c of counts.slice(0, stall + 1)) {
      if (c.newPods! > before) batches.push(c.newPods! - before);
      before = Math.max(before, c.newPods!);
    }
    podsUpdated = before;
    podsOnOld = replicas;
  } else if (replicas !== undefined) {
    let before = 0;
    for (const c of counts) {
      if (c.newPods! > before) batches.push(c.newPods! - before);
      before = Math.max(before, c.newPods!);
    }
    if (r.style === RolloutReleaseStyle.CANARY_DEPLOYMENT) batches = [...batches, replicas];
    else if (replicas - before > 0) batches.push(replicas - before);
    podsUpdated = replicas;
    podsOnOld = 0;
  }
  const known = counts.every(c => c.newPods !== undefined);
  const stepList = stall >= 0 ? counts.slice(0, stall + 1).map(c => c.newPods).join(', ')
    : known ? counts.map(c => c.newPods).join(', ') : r.steps.map(s => quote(s.replicas)).join(', ');
  const then = stall >= 0 ? `, and stops for good at step ${stall + 1}`
    : known && lastNew === replicas && r.style === RolloutReleaseStyle.PARTITION ? '' : `, then ${replicas === undefined ? 'every pod' : `all ${replicas}`}`;
  const summary = `${how}; released by Rollout ${r.name} ${STYLE_TEXT[r.style]} in ${r.steps.length} step${r.steps.length === 1 ? '' : 's'} `
    + `(${r.style === RolloutReleaseStyle.PARTITION ? 'pods on the new revision' : 'new pods'} after each: ${stepList})${r.paused ? ', paused' : ''}${then}`;
  const plan: WorkloadPlan = {
    ...released,
    summary,
    replicas: replicas ?? released.replicas,
    podsUpdated,
    podsOnOldRevision: podsOnOld,
    batches,
    rollout: {
      rollout: r.name,
      apiVersion: r.apiVersion,
      style: r.style,
      inEffect: true,
      steps: planSteps,
      ...(stall >= 0 ? { stallsAtStep: stall + 1 } : {}),
      completion,
    },
    notes: [...notes, ...released.notes],
  };
  return plan;
}

// --- a release in progress (live objects) -------------------------------------------------------------

/**
 * Manifest fields that fight the release in progress on a live workload:
 * a partition that keeps fewer pods than the release holds (they move at
 * once), `paused: true` (the release stalls), blue-green's surge settings.
 */
export function workloadConflicts(live: Json, newObj: Json, r: RolloutView | undefined, daemonSetNodes: number | undefined):
{ conflicts: string[]; moved?: number; kept?: number; replicas?: number } {
  if (!live.metadata?.annotations?.[IN_PROGRESSING]) return { conflicts: [] };
  const key = workloadKey(newObj);
  const out: string[] = [];
  const ls = live.spec ?? {};
  const ns = newObj.spec ?? {};
  const who = r ? `Rollout ${r.name}'s release` : 'the release in progress';
  let moved: number | undefined;
  let kept: number | undefined;
  let replicas: number | undefined;
  if (key === 'apps.kruise.io/CloneSet') {
    replicas = ns.replicas ?? 1;
    const R = replicas!;
    const lp = ls.updateStrategy?.partition;
    const np = ns.updateStrategy?.partition;
    if (np !== undefined && lp !== undefined && !sameJson(lp, np)) {
      const held = partitionReplicas(lp, R) ?? 0;
      const next = partitionReplicas(np, R) ?? 0;
      if (next < held) {
        moved = held - next;
        kept = next;
        out.push(fieldError('spec.updateStrategy.partition', np, `replaces the partition ${JSON.stringify(lp)} that ${who} holds, so ${pods(moved)} move at once, outside the Rollout's steps`,
          'remove partition from the manifest (the release drives it)'));
      }
    }
    if (ns.updateStrategy?.paused === true && ls.updateStrategy?.paused !== true) {
      out.push(fieldError('spec.updateStrategy.paused', true, `pauses the CloneSet under ${who}, which then waits for pods that never move`, 'remove paused from the manifest (pause the Rollout instead: spec.strategy.paused)'));
    }
    if (r?.style === RolloutReleaseStyle.BLUE_GREEN) {
      for (const [f, lv, nv] of [['spec.updateStrategy.maxSurge', ls.updateStrategy?.maxSurge, ns.updateStrategy?.maxSurge],
        ['spec.updateStrategy.maxUnavailable', ls.updateStrategy?.maxUnavailable, ns.updateStrategy?.maxUnavailable], ['spec.minReadySeconds', ls.minReadySeconds, ns.minReadySeconds]] as const) {
        if (nv !== undefined && !sameJson(lv, nv)) {
          out.push(fieldError(f, nv, `replaces the value ${JSON.stringify(lv)} ${who} set for the blue-green switch, so the old pods are removed before the switch`, `remove ${f.split('.').pop()} from the manifest`));
        }
      }
    }
  } else if (['apps.kruise.io/StatefulSet', 'apps/StatefulSet', 'apps.kruise.io/DaemonSet'].includes(key)) {
    replicas = key === 'apps.kruise.io/DaemonSet' ? daemonSetNodes : ns.replicas ?? 1;
    const lp = ls.updateStrategy?.rollingUpdate?.partition;
    const np = ns.updateStrategy?.rollingUpdate?.partition;
    if (typeof np === 'number' && typeof lp === 'number' && np < lp) {
      moved = replicas === undefined ? undefined : Math.max(0, Math.min(lp, replicas) - Math.max(np, 0));
      kept = replicas === undefined ? undefined : Math.min(Math.max(np, 0), replicas);
      out.push(fieldError('spec.updateStrategy.rollingUpdate.partition', np, `replaces the partition ${lp} that ${who} holds, so ${moved === undefined ? 'more pods' : pods(moved)} move at once, outside the Rollout's steps`,
        'remove partition from the manifest (the release drives it)'));
    }
    if (ns.updateStrategy?.rollingUpdate?.paused === true && ls.updateStrategy?.rollingUpdate?.paused !== true) {
      out.push(fieldError('spec.updateStrategy.rollingUpdate.paused', true, `pauses the ${newObj.kind} under ${who}, which then waits for pods that never move`, 'remove paused from the manifest (pause the Rollout instead: spec.strategy.paused)'));
    }
  }
  return { conflicts: out, moved, kept, replicas };
}

// --- Rollout objects ----------------------------------------------------------------------------------

const IN_RELEASE = ['Progressing', 'Terminating'];

/** The annotations that change what the controllers do (not those they write, nor the rolling style read into the view). */
function userAnnotations(v: RolloutView): Json {
  const a = { ...(v.obj.metadata?.annotations ?? {}) };
  for (const k of ['rollouts.kruise.io/hash', 'kubectl.kubernetes.io/last-applied-configuration', ROLLING_STYLE]) delete a[k];
  return a;
}

function viewSpec(v: RolloutView): Json {
  return {
    ref: v.ref,
    style: v.coarseStyle,
    steps: v.steps,
    trafficRoutings: v.trafficRoutings,
    disabled: v.disabled,
    paused: v.paused,
    failureThreshold: (v.obj.spec?.strategy?.blueGreen ?? v.obj.spec?.strategy?.canary)?.failureThreshold,
  };
}

/** The first change the Rollout webhook refuses while a release is in progress (§1 rules 17-20, §2 rules 12-14). */
function frozenChange(o: RolloutView, n: RolloutView): { field: string; value: unknown; what: string } | undefined {
  const v1alpha1 = n.apiVersion === 'rollouts.kruise.io/v1alpha1';
  const refOf = (v: RolloutView) => ({ apiVersion: v.ref?.apiVersion, kind: v.ref?.kind, name: v.ref?.name });
  if (!sameJson(refOf(o), refOf(n))) return { field: v1alpha1 ? 'spec.objectRef.workloadRef' : 'spec.workloadRef', value: n.ref, what: 'the workload reference' };
  if (!sameJson(o.trafficRoutings, n.trafficRoutings)) return { field: `${n.at}.trafficRoutings`, value: n.obj.spec?.strategy?.[n.at.split('.').pop()!]?.trafficRoutings, what: 'the traffic routing' };
  if (v1alpha1) {
    const set = n.obj.metadata?.annotations?.[ROLLING_STYLE];
    const was = o.coarseStyle === 'Canary' ? 'canary' : 'partition';
    if (set !== undefined && String(set).toLowerCase() !== was) return { field: `metadata.annotations["${ROLLING_STYLE}"]`, value: set, what: 'the rolling style' };
    return undefined;
  }
  if (o.coarseStyle !== n.coarseStyle) {
    return { field: o.coarseStyle === 'BlueGreen' || n.coarseStyle === 'BlueGreen' ? 'spec.strategy' : 'spec.strategy.canary.enableExtraWorkloadForCanary', value: n.coarseStyle, what: 'the release style' };
  }
  if (o.steps.length !== n.steps.length) return { field: `${n.at}.steps`, value: `${n.steps.length} steps`, what: `the number of steps (${o.steps.length})` };
  return undefined;
}

/** The plan of one Rollout object (added, removed or changed). */
export function planRollout(o: RolloutView | undefined, n: RolloutView | undefined, oldIsLive: boolean, workloadName: string):
RolloutPlan | undefined {
  const v = (n ?? o)!;
  const base = {
    apiVersion: v.apiVersion,
    namespace: v.namespace,
    name: v.name,
    workload: workloadName,
    releaseConflicts: [] as string[],
    ...(oldIsLive && o?.phase ? { livePhase: o.phase } : {}),
  };
  const inRelease = oldIsLive && o?.phase !== undefined && IN_RELEASE.includes(o.phase);
  const notLive = 'the plan reads manifests, not the cluster: compare with live objects (--old-live) to know';
  if (!o) {
    return {
      ...base,
      change: RolloutChange.CREATE,
      summary: n!.disabled ? `new Rollout, disabled: ${workloadName} keeps rolling out by its own strategy`
        : `new Rollout: releases the next changes of the pod template of ${workloadName} ${STYLE_TEXT[n!.style]} in ${n!.steps.length} step${n!.steps.length === 1 ? '' : 's'} (not a workload's first deploy)`,
      notes: [],
    };
  }
  if (!n) {
    const plan: RolloutPlan = {
      ...base,
      change: RolloutChange.DELETE,
      summary: `removed: later changes of ${workloadName} roll out by its own strategy, all at once`,
      notes: oldIsLive ? [] : [`if a release is in progress when it is deleted, the controller ends it by releasing every remaining pod at once; ${notLive}`],
    };
    if (inRelease) plan.releaseConflicts.push(`deleting Rollout ${o.name} while its release is ${o.phase} ends the release by releasing every remaining pod of ${workloadName} at once; delete it after the release completes`);
    return plan;
  }
  if (sameJson(viewSpec(o), viewSpec(n)) && sameJson(userAnnotations(o), userAnnotations(n))) return undefined;
  const what: string[] = [];
  if (!sameJson(o.ref, n.ref)) what.push('the workload');
  if (!sameJson(o.trafficRoutings, n.trafficRoutings)) what.push('the traffic routing');
  if (o.coarseStyle !== n.coarseStyle) what.push(`the style (${o.coarseStyle} -> ${n.coarseStyle})`);
  if (o.steps.length !== n.steps.length) what.push(`the number of steps (${o.steps.length} -> ${n.steps.length})`);
  else if (!sameJson(o.steps, n.steps)) what.push('the steps');
  if (o.disabled !== n.disabled) what.push(n.disabled ? 'disabled' : 'enabled');
  if (o.paused !== n.paused) what.push(n.paused ? 'paused' : 'unpaused');
  const changes = what.length > 0 ? what.join(', ') : 'other fields';
  const frozen = frozenChange(o, n);
  if (frozen && inRelease) {
    const rejection = fieldError(frozen.field, frozen.value, `changes ${frozen.what} while the release is ${o.phase}, which the Rollout webhook refuses`,
      'apply this Rollout change after the release completes, in an apply of its own');
    return {
      ...base, change: RolloutChange.REJECTED, summary: `rejected: the webhook refuses the update: ${rejection}`, rejectedField: frozen.field, rejection, notes: [],
    };
  }
  const plan: RolloutPlan = { ...base, change: RolloutChange.UPDATE, summary: `changes ${changes}`, notes: [] };
  if (frozen && !oldIsLive) plan.notes.push(`refused by the Rollout webhook if a release is in progress when it is applied (${frozen.field}: ${frozen.what}); ${notLive}`);
  if (n.disabled && !o.disabled) {
    if (inRelease) plan.releaseConflicts.push(`disabling Rollout ${n.name} while its release is ${o.phase} ends the release by releasing every remaining pod of ${workloadName} at once; disable it after the release completes`);
    else if (!oldIsLive) plan.notes.push(`disabling it while a release is in progress ends the release by releasing every remaining pod at once; ${notLive}`);
  }
  if (inRelease && !frozen && !sameJson(o.steps, n.steps)) plan.notes.push('the release in progress recomputes its current step from the new steps');
  return plan;
}

