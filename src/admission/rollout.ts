/**
 * The Kruise Rollouts Rollout webhook (rollouts.kruise.io v1beta1 and
 * v1alpha1; there is no mutating webhook, only the CRD defaults, which change
 * no verdict): the create-time rules of webhook-rules.md §1 and §2, and the
 * rules that need cluster state approximated against the App (one Rollout
 * per workload, the workload in the Rollout's namespace), plus the workload
 * fields a Rollout's controllers drive and a manifest must therefore leave
 * alone. Left out: the update-only rules (§1 17-21, §2 12-15), which compare
 * with the stored object and its status.
 */
import { AdmissionApp, AdmissionContext, AdmissionModule, Manifest, ReleaseRule } from './types';
import { advice } from '../validation/advice';
import { fieldError, stricterProblem } from '../validation/field-error';
import { objectMetaProblems } from '../validation/names';
import { ParsedIntOrPercent, parseUpstreamPercent } from '../validation/percent';
import { DEFAULT_PARTITION_PERCENT_LIMIT } from '../validation/rollout-settings';

type Json = Record<string, any>;

/** How a release runs, as the webhook classifies it. */
export enum RolloutStyle {
  BLUE_GREEN = 'BlueGreen',
  /** Canary pods in an extra Deployment. */
  CANARY = 'Canary',
  /** Batches on the workload itself. */
  PARTITION = 'Partition',
}

/** The workload kinds a Rollout can release (group/kind; the version is not checked). */
export const ROLLOUT_TARGETS: Record<string, string> = {
  'apps/Deployment': 'Deployment',
  'apps/StatefulSet': 'StatefulSet',
  'apps.kruise.io/CloneSet': 'CloneSet',
  'apps.kruise.io/StatefulSet': 'Advanced StatefulSet',
  'apps.kruise.io/DaemonSet': 'Advanced DaemonSet',
};

/** The value of the `rollouts.kruise.io/workload-type` label the controller writes, by target. */
export const WORKLOAD_TYPE: Record<string, string> = {
  'apps/Deployment': 'deployment',
  'apps/StatefulSet': 'statefulset',
  'apps.kruise.io/CloneSet': 'cloneset',
  'apps.kruise.io/StatefulSet': 'statefulset',
  'apps.kruise.io/DaemonSet': 'daemonset',
};

/** The workload label the Kruise Rollouts webhooks select workloads by (the controller writes it). */
export const WORKLOAD_TYPE_LABEL = 'rollouts.kruise.io/workload-type';

/** Annotation for batch-wise rollback. */
export const ROLLBACK_IN_BATCH = 'rollouts.kruise.io/rollback-in-batch';
/** v1alpha1 annotation choosing the rolling style. */
export const ROLLING_STYLE = 'rollouts.kruise.io/rolling-style';

/** The group of an apiVersion: '' for the core group, undefined when it is not `[group/]version`. */
export function apiGroupOf(apiVersion: unknown): string | undefined {
  if (typeof apiVersion !== 'string') return undefined;
  const parts = apiVersion.split('/');
  if (parts.length === 1) return '';
  return parts.length === 2 ? parts[0] : undefined;
}

/** `group/kind` of a workload reference. */
export function targetKey(ref: Json | undefined): string | undefined {
  const group = apiGroupOf(ref?.apiVersion);
  return group === undefined ? undefined : `${group}/${ref?.kind}`;
}

/** The workload reference of a Rollout in either version. */
export function workloadRefOf(rollout: Manifest): Json | undefined {
  return rollout?.apiVersion === 'rollouts.kruise.io/v1alpha1' ? rollout?.spec?.objectRef?.workloadRef : rollout?.spec?.workloadRef;
}

/** The release style of a v1beta1 Rollout. */
export function styleOf(rollout: Manifest): RolloutStyle {
  const spec = rollout?.spec ?? {};
  if (spec.strategy?.blueGreen) return RolloutStyle.BLUE_GREEN;
  if (rollout?.apiVersion === 'rollouts.kruise.io/v1alpha1') {
    const annotation = String(rollout?.metadata?.annotations?.[ROLLING_STYLE] ?? '').toLowerCase();
    const ref = spec.objectRef?.workloadRef;
    return (annotation === '' || annotation === 'canary') && ref?.apiVersion === 'apps/v1' && ref?.kind === 'Deployment'
      ? RolloutStyle.CANARY : RolloutStyle.PARTITION;
  }
  const ref = spec.workloadRef;
  return spec.strategy?.canary?.enableExtraWorkloadForCanary === true && ref?.apiVersion === 'apps/v1' && ref?.kind === 'Deployment'
    ? RolloutStyle.CANARY : RolloutStyle.PARTITION;
}

const TARGET_FIX = 'target a Deployment or StatefulSet (apps), or a CloneSet, Advanced StatefulSet or Advanced DaemonSet (apps.kruise.io)';

/** KNOWN-KINDS (§0.6), with the ReplicaSet the webhook admits refused. */
function workloadRefErrors(ref: Json | undefined, at: string): string[] {
  if (!ref) return [fieldError(at, ref, 'is required', `name the workload to release; ${TARGET_FIX}`)];
  const group = apiGroupOf(ref.apiVersion);
  if (group === undefined) return [fieldError(`${at}.apiVersion`, ref.apiVersion, 'is not group/version', 'use e.g. "apps.kruise.io/v1alpha1" or "apps/v1"')];
  const key = `${group}/${ref.kind}`;
  if (ROLLOUT_TARGETS[key]) return [];
  if (key === 'apps/ReplicaSet') {
    return [fieldError(at, ref, 'is a ReplicaSet, which the webhook admits but no Kruise Rollouts controller releases', 'target the Deployment that owns the ReplicaSet')];
  }
  if (key === 'apps/DaemonSet') {
    return [fieldError(at, ref, 'is a native DaemonSet, which Kruise Rollouts cannot release', 'use an Advanced DaemonSet (apps.kruise.io DaemonSet) instead')];
  }
  return [fieldError(at, ref, `names ${ref.kind ? `kind ${JSON.stringify(ref.kind)}` : 'no kind'} of ${group === '' ? 'the core API group' : `API group ${group}`}, which Kruise Rollouts cannot release`, TARGET_FIX)];
}

/** A step's replicas or a percentage field, parsed as the webhook parses it (PCT, §0.5). */
const pct = (v: unknown): ParsedIntOrPercent | undefined =>
  (typeof v === 'number' || typeof v === 'string' ? parseUpstreamPercent(v) : undefined);

/** Rules 10-15 on the traffic routings of one strategy, and the canary Service name. */
function trafficRoutingErrors(release: Json, at: string): string[] {
  const errors: string[] = [];
  const routings: Json[] = release.trafficRoutings ?? [];
  if (routings.length > 1) {
    errors.push(fieldError(`${at}.trafficRoutings`, `${routings.length} entries`, 'has more than one entry, and Kruise Rollouts supports a single traffic routing',
      'put every provider (ingress, gateway, customNetworkRefs) into one entry'));
  }
  routings.forEach((r, i) => {
    const p = `${at}.trafficRoutings[${i}]`;
    if (!r.service) {
      errors.push(fieldError(`${p}.service`, r.service, 'is empty', 'name the stable Service of the workload (in the Rollout\'s namespace)'));
    } else if (!release.disableGenerateCanaryService && String(r.service).length > 56) {
      errors.push(fieldError(`${p}.service`, r.service, stricterProblem(`is ${String(r.service).length} characters long`, 'Kruise Rollouts',
        `the "${r.service}-canary" Service the controller creates cannot have that name (at most 63 characters)`),
      'use a Service name of at most 56 characters'));
    }
    if (r.ingress === undefined && r.gateway === undefined && r.customNetworkRefs === undefined) {
      errors.push(fieldError(p, r, 'names no traffic provider', 'set ingress, gateway or customNetworkRefs'));
    }
    if (r.ingress !== undefined && !r.ingress?.name) {
      errors.push(fieldError(`${p}.ingress.name`, r.ingress?.name, 'is empty', 'name the Ingress that routes to the stable Service'));
    }
    if (r.gateway !== undefined && !r.gateway?.httpRouteName) {
      errors.push(fieldError(`${p}.gateway.httpRouteName`, r.gateway?.httpRouteName, 'is empty', 'name the HTTPRoute that routes to the stable Service'));
    }
  });
  return errors;
}

/**
 * The checks of one step's `replicas` (both API versions), pushed onto
 * `errors`; the parsed value when it parses. `routed` is whether the step is
 * a partition-style step that routes traffic, held to the in-place limit.
 */
function stepReplicas(errors: string[], p: string, value: unknown, routed: boolean, limit: number, why: string): ParsedIntOrPercent | undefined {
  const replicas = pct(value);
  if (!replicas) {
    errors.push(fieldError(`${p}.replicas`, value, 'is neither a number of pods nor a whole percentage', 'use e.g. 2 or "20%"'));
  } else if (!replicas.isPercent && replicas.value < 1) {
    errors.push(fieldError(`${p}.replicas`, value, 'is less than 1 pod', 'use 1 or more pods, or a percentage from "1%" to "100%"'));
  } else if (replicas.isPercent && (replicas.value < 1 || replicas.value > 100)) {
    errors.push(fieldError(`${p}.replicas`, value, 'is not between "1%" and "100%"', 'use a percentage from "1%" to "100%", or a number of pods'));
  } else if (replicas.isPercent && routed && replicas.value > limit) {
    errors.push(fieldError(`${p}.replicas`, value, `is more than the ${limit}% of the replicas a step that routes traffic may update in place (kruise-rollout-manager --partition-percent-limit)${why}`,
      `use at most "${limit}%" (or a number of pods) in this step, or route no traffic in it`));
  }
  return replicas;
}

/**
 * Rules 5-9 on v1beta1 steps; `trafficChecked`: the traffic of a step is
 * judged (0.5 judges it only when the strategy has trafficRoutings).
 */
function v1beta1StepErrors(steps: Json[], at: string, style: RolloutStyle, limit: number, trafficChecked: boolean): string[] {
  const errors: string[] = [];
  let previous: ParsedIntOrPercent | undefined;
  steps.forEach((s, i) => {
    const p = `${at}.steps[${i}]`;
    let replicas: ParsedIntOrPercent | undefined;
    if (s.replicas === undefined) {
      errors.push(fieldError(`${p}.replicas`, undefined, 'is required', 'give every step its canary pods: a number of pods, or a whole percentage of the replicas such as "20%"'));
    } else {
      const routed = style === RolloutStyle.PARTITION && (s.traffic !== undefined || (Array.isArray(s.matches) && s.matches.length > 0));
      replicas = stepReplicas(errors, p, s.replicas, routed, limit, ', so the stable pods could not take all traffic back on a rollback');
    }
    if (s.traffic !== undefined && trafficChecked) {
      const t = pct(s.traffic);
      const min = style === RolloutStyle.BLUE_GREEN ? 0 : 1;
      if (!t || !t.isPercent) {
        errors.push(fieldError(`${p}.traffic`, s.traffic, 'is not a whole percentage', 'use e.g. "20%"'));
      } else if (t.value < min || t.value > 100) {
        errors.push(fieldError(`${p}.traffic`, s.traffic, `is not between "${min}%" and "100%"`,
          style === RolloutStyle.BLUE_GREEN ? 'use a percentage from "0%" to "100%"' : 'use a percentage from "1%" to "100%" (leave traffic out to send the canary none)'));
      }
    }
    if (replicas && previous && replicas.isPercent === previous.isPercent && replicas.value < previous.value) {
      errors.push(fieldError(`${p}.replicas`, s.replicas, `is less than the replicas of the step before (${previous.isPercent ? `"${previous.value}%"` : previous.value})`,
        'make the canary grow (or stay) from step to step'));
    }
    previous = replicas;
  });
  return errors;
}

/** §1 rules 1-15 on a v1beta1 Rollout; `trafficAlways`: the traffic of a step is judged without trafficRoutings too (0.6). */
function v1beta1Errors(m: Manifest, limit: number, trafficAlways: boolean): string[] {
  const spec = m.spec ?? {};
  const strategy = spec.strategy ?? {};
  const errors: string[] = [];
  if (!strategy.canary && !strategy.blueGreen) {
    errors.push(fieldError('spec.strategy', strategy, 'sets neither canary nor blueGreen', advice('set exactly one of them', 'set exactly one of them (RolloutStrategy.canary() or RolloutStrategy.blueGreen())')));
  }
  if (strategy.canary && strategy.blueGreen) {
    errors.push(fieldError('spec.strategy', ['canary', 'blueGreen'], 'sets both canary and blueGreen', 'set exactly one of them'));
  }
  const refErrors = workloadRefErrors(spec.workloadRef, 'spec.workloadRef');
  errors.push(...refErrors);
  if (refErrors.length === 0 && strategy.blueGreen && !['apps/Deployment', 'apps.kruise.io/CloneSet'].includes(targetKey(spec.workloadRef)!)) {
    errors.push(fieldError('spec.workloadRef', spec.workloadRef, `is ${ROLLOUT_TARGETS[targetKey(spec.workloadRef)!].startsWith('A') ? 'an' : 'a'} ${ROLLOUT_TARGETS[targetKey(spec.workloadRef)!]}, which a blue-green release cannot update (only Deployments and CloneSets)`,
      'use a canary strategy for this workload'));
  }
  const style = styleOf(m);
  for (const [name, release] of [['canary', strategy.canary], ['blueGreen', strategy.blueGreen]] as const) {
    if (!release) continue;
    const at = `spec.strategy.${name}`;
    const steps: Json[] = release.steps ?? [];
    if (steps.length === 0) errors.push(fieldError(`${at}.steps`, release.steps, 'has no step', 'add at least one step'));
    const routed = Array.isArray(release.trafficRoutings) && release.trafficRoutings.length > 0;
    errors.push(...v1beta1StepErrors(steps, at, name === 'blueGreen' ? RolloutStyle.BLUE_GREEN : style, limit, routed || trafficAlways));
    errors.push(...trafficRoutingErrors(release, at));
  }
  return errors;
}

/** §2 rules 1-10 on a v1alpha1 Rollout; `weightRange`: a step without replicas has a weight from 1 to 100 (0.6). */
function v1alpha1Errors(m: Manifest, limit: number, weightRange: boolean): string[] {
  const spec = m.spec ?? {};
  const errors: string[] = [];
  const annotation = m.metadata?.annotations?.[ROLLING_STYLE];
  if (annotation !== undefined && !['', 'canary', 'partition'].includes(String(annotation).toLowerCase())) {
    errors.push(fieldError(`metadata.annotations["${ROLLING_STYLE}"]`, annotation, 'is not a rolling style of v1alpha1', 'use "canary" or "partition" (blue-green needs rollouts.kruise.io/v1beta1)'));
  }
  errors.push(...workloadRefErrors(spec.objectRef?.workloadRef, 'spec.objectRef.workloadRef'));
  const canary = spec.strategy?.canary;
  if (!canary) {
    errors.push(fieldError('spec.strategy.canary', undefined, 'is required in v1alpha1', 'set a canary strategy, or write the Rollout as rollouts.kruise.io/v1beta1'));
    return errors;
  }
  const style = styleOf(m);
  const steps: Json[] = canary.steps ?? [];
  const at = 'spec.strategy.canary';
  if (steps.length === 0) errors.push(fieldError(`${at}.steps`, canary.steps, 'has no step', 'add at least one step'));
  const routed = (canary.trafficRoutings ?? []).length > 0;
  let previousWeight: number | undefined;
  let previous: ParsedIntOrPercent | undefined;
  steps.forEach((s, i) => {
    const p = `${at}.steps[${i}]`;
    if (s.replicas === undefined && s.weight === undefined) {
      errors.push(fieldError(p, s, 'has neither weight nor replicas', 'give the step a traffic weight, its canary pods, or both'));
      previousWeight = undefined;
      previous = undefined;
      return;
    }
    let replicas: ParsedIntOrPercent | undefined;
    if (s.replicas !== undefined) {
      replicas = stepReplicas(errors, p, s.replicas, style === RolloutStyle.PARTITION && (s.matches !== undefined || s.weight !== undefined), limit, '');
    } else {
      if (weightRange && (s.weight < 1 || s.weight > 100)) {
        errors.push(fieldError(`${p}.weight`, s.weight, 'is not between 1 and 100', 'use a percentage of the traffic from 1 to 100'));
      } else if (style === RolloutStyle.PARTITION && s.weight > limit) {
        errors.push(fieldError(`${p}.weight`, s.weight, `is more than the ${limit}% a partition-style step without replicas may use (its replicas follow the weight)`,
          `use at most ${limit}, or set replicas`));
      }
      replicas = { isPercent: true, value: s.weight };
    }
    if (routed && s.weight !== undefined && previousWeight !== undefined && s.weight < previousWeight) {
      errors.push(fieldError(`${p}.weight`, s.weight, `is less than the weight of the step before (${previousWeight})`, 'make the traffic grow (or stay) from step to step'));
    }
    if (replicas && previous && replicas.isPercent === previous.isPercent && replicas.value < previous.value) {
      errors.push(fieldError(`${p}.replicas`, s.replicas ?? `(weight ${s.weight})`, `is less than the replicas of the step before (${previous.isPercent ? `"${previous.value}%"` : previous.value})`,
        'make the canary grow (or stay) from step to step'));
    }
    previousWeight = s.weight;
    previous = replicas;
  });
  errors.push(...trafficRoutingErrors(canary, at));
  return errors;
}

/**
 * Every create-time rule that needs no cluster state, but those of the
 * release rules: `limit` is the partition limit to hold steps to (none by
 * default; the release rule of 0.6 sets the manager's), `weightRange` holds
 * the weight of a v1alpha1 step without replicas to 1..100 (0.6's rule),
 * `trafficAlways` judges a v1beta1 step's traffic without trafficRoutings too (0.6's rule).
 */
export function rolloutErrors(m: Manifest, limit = Infinity, weightRange = false, trafficAlways = false): string[] {
  const errors = objectMetaProblems(m.metadata, 'subdomain', 'Rollout').map(p => fieldError(p.field, p.value, p.problem, p.fix));
  errors.push(...(m.apiVersion === 'rollouts.kruise.io/v1alpha1' ? v1alpha1Errors(m, limit, weightRange) : v1beta1Errors(m, limit, trafficAlways)));
  return errors;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The active release strategies of a Rollout with their paths. */
function strategiesOf(m: Manifest): Array<{ at: string; release: Json }> {
  const strategy = m.spec?.strategy ?? {};
  return (['canary', 'blueGreen'] as const).filter(n => isObject(strategy[n])).map(n => ({ at: `spec.strategy.${n}`, release: strategy[n] }));
}

/**
 * The Rollout webhook's changes by release: 0.6 holds a partition-style step
 * that routes traffic to kruise-rollout-manager's --partition-percent-limit
 * (a flag 0.5 does not have), refuses a negative grace period of a traffic
 * routing, and holds the weight of a v1alpha1 step without replicas to 1..100
 * (0.5 checks no v1alpha1 weight). Blue-green, path and query matches and duplicate header names are
 * schema changes (0.6).
 */
const RELEASE_RULES: ReleaseRule[] = [
  {
    release: '0.6',
    change: 'refuses',
    what: 'a partition-style step that routes traffic to more than --partition-percent-limit (50%) of the replicas',
    find: (m, ctx) => {
      const limit = ctx?.rollout?.partitionPercentLimit ?? DEFAULT_PARTITION_PERCENT_LIMIT;
      const without = new Set(rolloutErrors(m));
      return rolloutErrors(m, limit).filter(l => !without.has(l));
    },
  },
  {
    release: '0.6',
    change: 'refuses',
    what: 'a v1alpha1 step without replicas whose weight is not between 1 and 100',
    find: m => {
      const without = new Set(rolloutErrors(m));
      return rolloutErrors(m, Infinity, true).filter(l => !without.has(l));
    },
  },
  {
    // 0.5.5 judges a step's traffic only with trafficRoutings (validateRolloutSpecCanarySteps, pkg/webhook/rollout/validating/rollout_create_update_handler.go:261 of v0.5.5);
    // 0.6.2 whenever a step has it (:335)
    release: '0.6',
    change: 'refuses',
    what: 'a v1beta1 step traffic that is no percentage in range, in a strategy without trafficRoutings',
    find: m => {
      const without = new Set(rolloutErrors(m));
      return rolloutErrors(m, Infinity, false, true).filter(l => !without.has(l));
    },
  },
  {
    release: '0.6',
    change: 'refuses',
    what: 'a negative gracePeriodSeconds of a traffic routing',
    find: m => strategiesOf(m).flatMap(({ at, release }) => (Array.isArray(release.trafficRoutings) ? release.trafficRoutings : [])
      .map((r: any, i: number) => ({ r, i }))
      .filter(({ r }) => isObject(r) && typeof r.gracePeriodSeconds === 'number' && r.gracePeriodSeconds < 0)
      .map(({ r, i }) => ({ field: `${at}.trafficRoutings[${i}].gracePeriodSeconds`, value: r.gracePeriodSeconds, problem: 'is negative', fix: 'use 0 or more seconds (the default is 3)' }))),
  },
];

/** The active release strategy (canary or blue-green) of a Rollout in either version. */
function releaseOf(m: Manifest): Json {
  return m.spec?.strategy?.blueGreen ?? m.spec?.strategy?.canary ?? {};
}

/** What upstream accepts but ignores or does surprisingly. */
export function rolloutWarnings(m: Manifest): string[] {
  const out: string[] = [];
  const style = styleOf(m);
  const ref = workloadRefOf(m);
  const release = releaseOf(m);
  const at = m.spec?.strategy?.blueGreen ? 'spec.strategy.blueGreen' : 'spec.strategy.canary';
  const routings: Json[] = release.trafficRoutings ?? [];
  if (m.apiVersion === 'rollouts.kruise.io/v1beta1' && m.spec?.strategy?.canary?.enableExtraWorkloadForCanary === true && style !== RolloutStyle.CANARY) {
    out.push(fieldError('spec.strategy.canary.enableExtraWorkloadForCanary', true, `has no effect: the workload is ${ref?.apiVersion} ${ref?.kind}, not an apps/v1 Deployment, `
      + 'so Kruise Rollouts updates its pods in place in batches instead (no extra canary workload)', 'remove the flag'));
  }
  if (release.patchPodTemplateMetadata !== undefined && style !== RolloutStyle.CANARY) {
    out.push(fieldError(`${at}.patchPodTemplateMetadata`, release.patchPodTemplateMetadata, 'only applies to the extra canary Deployment of a canary-style Deployment release, so it has no effect here', 'remove it'));
  }
  if (release.disableGenerateCanaryService === true && !routings.some(r => r.customNetworkRefs !== undefined)) {
    out.push(fieldError(`${at}.disableGenerateCanaryService`, true, 'only has an effect with customNetworkRefs, so the <service>-canary Service is still created', 'remove it'));
  }
  const steps: Json[] = release.steps ?? [];
  const shaping = steps.findIndex(s => s.traffic !== undefined || s.weight !== undefined || (Array.isArray(s.matches) && s.matches.length > 0));
  if (shaping >= 0 && routings.length === 0 && !release.trafficRoutingRef && !m.metadata?.annotations?.['rollouts.kruise.io/trafficrouting']) {
    const step = steps[shaping];
    const f = step.traffic !== undefined ? 'traffic' : step.weight !== undefined ? 'weight' : 'matches';
    out.push(fieldError(`${at}.steps[${shaping}].${f}`, step[f], 'shapes traffic, but nothing routes traffic (no trafficRoutings), so only the pods change',
      advice('add a traffic routing (an Ingress, a Gateway API HTTPRoute or customNetworkRefs) or drop traffic and matches',
        'add a trafficRouting (RolloutTrafficRouting.ingress(), gatewayHttpRoute() or custom()) or drop traffic and matches from the steps')));
  }
  if (String(m.metadata?.annotations?.[ROLLBACK_IN_BATCH]) === 'true') {
    const key = targetKey(ref);
    const field = `metadata.annotations[${JSON.stringify(ROLLBACK_IN_BATCH)}]`;
    const value = m.metadata.annotations[ROLLBACK_IN_BATCH];
    if (routings.length > 0) {
      out.push(fieldError(field, value, 'is ignored because the Rollout routes traffic: a rollback updates every pod at once', advice('remove the annotation or the traffic routing', 'drop rollbackInBatch or the traffic routing')));
    } else if (key && !['apps/StatefulSet', 'apps.kruise.io/StatefulSet', 'apps.kruise.io/CloneSet'].includes(key)) {
      out.push(fieldError(field, value, `is ignored for ${ref?.kind} (${ref?.apiVersion}): batch-wise rollback works for CloneSets and StatefulSets only`, advice('remove the annotation', 'drop rollbackInBatch')));
    }
  }
  if (m.apiVersion === 'rollouts.kruise.io/v1alpha1') {
    if (m.spec?.rolloutID !== undefined) {
      out.push(fieldError('spec.rolloutID', m.spec.rolloutID, 'is not kept: v1alpha1 Rollouts are stored as v1beta1 and the conversion drops it',
        'set the workload\'s rollouts.kruise.io/rollout-id annotation and label instead, or write the Rollout as v1beta1'));
    }
    if (m.spec?.strategy?.canary?.disableGenerateCanaryService !== undefined) {
      out.push(fieldError('spec.strategy.canary.disableGenerateCanaryService', m.spec.strategy.canary.disableGenerateCanaryService, 'is not kept: the conversion to v1beta1 (the stored version) drops it',
        'write the Rollout as rollouts.kruise.io/v1beta1'));
    }
  }
  return out;
}

/** The update-strategy fields of a workload that the Rollout's controllers drive, as [path, value] pairs set in its manifest. */
function fieldsDrivenByRollout(workload: Json, key: string, style: RolloutStyle): Array<[string, unknown, string]> {
  const spec = workload.spec ?? {};
  const us = spec.updateStrategy ?? {};
  const out: Array<[string, unknown, string]> = [];
  const releasesAll = 'a re-apply during a release (GitOps sync, kubectl apply) resets the value the controller lowers batch by batch and releases every remaining pod at once';
  if (key === 'apps.kruise.io/CloneSet') {
    if (us.partition !== undefined) out.push(['spec.updateStrategy.partition', us.partition, releasesAll]);
    if (us.paused === true) out.push(['spec.updateStrategy.paused', us.paused, 'the controller sets it to false for each batch and a re-apply pauses the release again']);
    if (style === RolloutStyle.BLUE_GREEN) {
      const bg = 'a blue-green release replaces it for the time of the release and restores it at the end, so a re-apply during the release breaks the blue-green switch';
      if (us.maxSurge !== undefined) out.push(['spec.updateStrategy.maxSurge', us.maxSurge, bg]);
      if (us.maxUnavailable !== undefined) out.push(['spec.updateStrategy.maxUnavailable', us.maxUnavailable, bg]);
      if (spec.minReadySeconds !== undefined) out.push(['spec.minReadySeconds', spec.minReadySeconds, bg]);
    }
  } else if (key === 'apps.kruise.io/StatefulSet' || key === 'apps/StatefulSet' || key === 'apps.kruise.io/DaemonSet') {
    const ru = us.rollingUpdate ?? {};
    if (ru.partition !== undefined) out.push(['spec.updateStrategy.rollingUpdate.partition', ru.partition, releasesAll]);
    if (ru.paused === true) out.push(['spec.updateStrategy.rollingUpdate.paused', ru.paused, 'the controller sets it to false for each batch and a re-apply pauses the release again']);
  }
  return out;
}

/** The rules that need other objects, against the App. */
export function rolloutAppErrors(m: Manifest, app: AdmissionApp, ctx?: AdmissionContext): string[] {
  const errors: string[] = [];
  const ref = workloadRefOf(m);
  const key = targetKey(ref);
  if (!ref || !key) return errors;
  const refField = m.apiVersion === 'rollouts.kruise.io/v1alpha1' ? 'spec.objectRef.workloadRef' : 'spec.workloadRef';
  const ns = m.metadata?.namespace || 'default';
  const [group, kind] = [key.slice(0, key.lastIndexOf('/')), ref.kind];

  // §1 rule 16 / §2 rule 11: one Rollout per workload (by group, kind and name: the version does not make it another workload).
  for (const other of [...app.objects('rollouts.kruise.io', 'Rollout')]) {
    const o = other.json;
    if ((o.metadata?.namespace || 'default') !== ns || o.metadata?.name === m.metadata?.name) continue;
    const oref = workloadRefOf(o);
    if (targetKey(oref) === key && oref?.name === ref.name) {
      errors.push(fieldError(refField, ref, `is also released by Rollout "${o.metadata?.name}" ${other.place}, and a workload can have one Rollout only`, 'keep one Rollout per workload (merge their steps)'));
    }
  }

  // The workload, when it is in the App: in the Rollout's namespace, without fields the release drives.
  const candidates = app.objects(group, kind).filter(w => w.json.metadata?.name === ref.name);
  const here = candidates.filter(w => (w.json.metadata?.namespace || 'default') === ns);
  if (here.length === 0 && candidates.length > 0) {
    const elsewhere = candidates[0];
    errors.push(fieldError('metadata.namespace', ns, `differs from the namespace of ${kind} "${ref.name}" ${elsewhere.place} (${elsewhere.json.metadata?.namespace || 'default'}), and a Rollout only releases a workload of its own namespace`,
      'create the Rollout in the workload\'s namespace'));
  }
  const style = styleOf(m);
  for (const w of here) {
    const type = w.json.spec?.updateStrategy?.type;
    if ((key === 'apps/StatefulSet' || key === 'apps.kruise.io/StatefulSet') && type === 'OnDelete') {
      errors.push(fieldError(refField, ref, `is StatefulSet "${ref.name}" ${w.place}, whose spec.updateStrategy.type is OnDelete, and the Kruise Rollouts webhook never intercepts an update of an OnDelete StatefulSet, so no release would ever start`,
        'use the RollingUpdate type (the default) for a StatefulSet under a Rollout'));
    }
    for (const [field, value, why] of fieldsDrivenByRollout(w.json, key, style)) {
      errors.push(fieldError(refField, ref, `is ${kind} "${ref.name}" ${w.place}, whose ${field} (${JSON.stringify(value)}) the release drives: ${why}`,
        `remove ${field} from the ${kind} (the Rollout's steps decide how many pods are updated)`));
    }
  }

  // A partition-style Deployment release needs the AdvancedDeployment gate of the manager.
  if (key === 'apps/Deployment' && style === RolloutStyle.PARTITION) {
    for (const mgr of ctx?.rollout?.managers ?? []) {
      if (!mgr.isEnabled('AdvancedDeployment')) {
        errors.push(fieldError(refField, ref, `is a Deployment released in batches in place, which needs the Kruise Rollouts feature gate AdvancedDeployment, off in the control plane ${mgr.place} (the release would never progress)`,
          `${mgr.howToEnable('AdvancedDeployment')}, or release the Deployment with an extra canary Deployment (enableExtraWorkloadForCanary)`));
      }
    }
  }
  return errors;
}

/** The Rollout webhook. */
export const rolloutAdmission: AdmissionModule = {
  group: 'rollouts.kruise.io',
  kind: 'Rollout',
  versions: ['v1alpha1', 'v1beta1'],
  validate: m => rolloutErrors(m),
  warnings: m => rolloutWarnings(m),
  appRules: (m, app, ctx) => rolloutAppErrors(m, app, ctx),
  releaseRules: RELEASE_RULES,
};
