/**
 * The WorkloadSpread webhook (apps.kruise.io/v1alpha1; upstream has no
 * mutating webhook for it): the create-time rules that need no cluster
 * state. Left out: whether the target exists, and one WorkloadSpread per
 * workload across the cluster (the app-wide check covers the App).
 */
import { AdmissionApp, AdmissionModule, ReleaseRule } from './types';
import { advice } from '../validation/advice';
import { fieldError, stricterProblem } from '../validation/field-error';
import { dns1123SubdomainProblems, labelValueProblems, qualifiedNameProblems } from '../validation/names';
import { parseLegacyPercent, parseUpstreamPercent } from '../validation/percent';
import { selectorProblems } from '../validation/selectors';

const groupOf = (apiVersion: string | undefined): string => (apiVersion && apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');

/** A node selector term's rules, as every release has them (the label values of its expressions are not among them: see RELEASE_RULES). */
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
    const add = (f: string, value: unknown, problem: string, fix: string) => out.push(fieldError(f, value, problem, fix));
    const op = e.operator;
    if (['In', 'NotIn'].includes(op)) {
      if (vals.length === 0) add(`${at}.values`, e.values, `must list at least one value for operator ${op}`, 'add values');
    } else if (['Exists', 'DoesNotExist'].includes(op)) {
      if (vals.length > 0) add(`${at}.values`, e.values, `must be empty for operator ${op}`, 'drop the values');
    } else if (['Gt', 'Lt'].includes(op)) {
      // core validation counts a Gt/Lt value; only the scheduler parses it
      if (vals.length !== 1) {add(`${at}.values`, e.values, `must be exactly one value for operator ${op}`, 'give one integer value');} else if (!/^-?\d+$/.test(String(vals[0]))) {
        add(`${at}.values`, e.values, stricterProblem(`is no integer for operator ${op}`, 'OpenKruise', 'the scheduler cannot compare a node label with it, so no node matches the term'), 'give one integer value');
      }
    } else {
      add(`${at}.operator`, op, 'is not a node selector operator', 'use In, NotIn, Exists, DoesNotExist, Gt or Lt');
    }
  });
  return out;
}

/**
 * The label values of the expressions of each subset's requiredNodeSelectorTerm:
 * v1.9.0 judges them (ValidateNodeSelectorTerm(term, false, ...),
 * pkg/webhook/workloadspread/validating/workloadspread_validation.go:264,
 * validation.go:4510 of Kubernetes v1.32.10); 1.7 and 1.8 do not (Kubernetes
 * 1.28 and 1.30 check no values), and no release judges those of
 * preferredNodeSelectorTerms (ValidatePreferredSchedulingTerms allows any).
 */
const RELEASE_RULES: ReleaseRule[] = [{
  release: '1.9',
  change: 'refuses',
  what: 'a value of a requiredNodeSelectorTerm expression that is not a valid label value',
  find: m => (Array.isArray(m.spec?.subsets) ? m.spec.subsets : []).flatMap((s: any, i: number) => {
    const exprs: any[] = Array.isArray(s?.requiredNodeSelectorTerm?.matchExpressions) ? s.requiredNodeSelectorTerm.matchExpressions : [];
    const at = `spec.subsets[${i}].requiredNodeSelectorTerm`;
    return exprs.flatMap((e: any, k: number) => (Array.isArray(e?.values) ? e.values : [])
      .flatMap((v: unknown, j: number) => labelValueProblems(String(v))
        .map(p => ({ field: `${at}.matchExpressions[${k}].values[${j}]`, value: v, problem: p, fix: 'use a valid label value' }))));
  }),
}];

/** §5 rules 2-4, 6-10, 12-21 on a WorkloadSpread in wire form. */
export function workloadSpreadErrors(json: any): string[] {
  const errors: string[] = [];
  const spec = json?.spec ?? {};
  const ref = spec.targetRef;
  if (!ref) {errors.push(fieldError('spec.targetRef', ref, 'is required', advice('name the workload: apiVersion, kind and name', 'set target or targetRef')));} else {
    for (const f of ['apiVersion', 'kind', 'name']) if (!ref[f]) errors.push(fieldError(`spec.targetRef.${f}`, ref[f], 'is empty', 'name the target completely'));
    if (ref.apiVersion && ref.apiVersion.split('/').length > 2) errors.push(fieldError('spec.targetRef.apiVersion', ref.apiVersion, 'is not group/version', 'use e.g. apps/v1'));
    const g = groupOf(ref.apiVersion);
    const need: Record<string, string[]> = { CloneSet: ['apps.kruise.io'], Deployment: ['apps'], ReplicaSet: ['apps'], Job: ['batch'], StatefulSet: ['apps', 'apps.kruise.io'] };
    if (need[ref.kind] && !need[ref.kind].includes(g)) errors.push(fieldError('spec.targetRef.apiVersion', ref.apiVersion, `is not a group OpenKruise accepts for kind ${ref.kind}`, `use group ${need[ref.kind].join(' or ')}`));
    // any other kind only when the kruise-configuration ConfigMap's custom workload whitelist names it, which no install has by default
    // (workloadspread/validating/workloadspread_validation.go:160-174 in v1.7.4 to v1.9.0)
    if (ref.kind && !need[ref.kind]) {
      errors.push(fieldError('spec.targetRef.kind', ref.kind, `is not a workload a WorkloadSpread spreads (${Object.keys(need).join(', ')}); OpenKruise refuses any other kind unless the WorkloadSpread_Watch_Custom_Workload_WhiteList of its kruise-configuration ConfigMap lists it`,
        'target a CloneSet, Deployment, ReplicaSet, Job or StatefulSet'));
    }
  }
  const subsets: any[] = spec.subsets ?? [];
  if (subsets.length === 0) errors.push(fieldError('spec.subsets', subsets, 'is empty, so the WorkloadSpread has no subsets', advice('add at least one subset', 'add at least one with addSubset()')));
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
      if (!t.key && t.operator !== 'Exists') errors.push(fieldError(`${tat}.operator`, t.operator, 'must be Exists when the key is empty', advice('set operator: Exists, or give a key', 'use NodeTaintQuery.any() or give a key')));
      if (t.tolerationSeconds !== undefined && t.effect !== 'NoExecute') errors.push(fieldError(`${tat}.tolerationSeconds`, t.tolerationSeconds, 'is only allowed with effect NoExecute', advice('set effect: NoExecute, or remove tolerationSeconds', 'set effect NoExecute or drop evictAfter')));
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
    const legacy = p ? undefined : parseLegacyPercent(x.s.maxReplicas);
    if (legacy && legacy.value >= 0) {
      // the webhook reads it with apimachinery's deprecated parser (every % taken out, a percentage); the rest of OpenKruise does not
      errors.push(fieldError(`spec.subsets[${x.i}].maxReplicas`, x.s.maxReplicas, stricterProblem('is not a whole number followed by %',
        `the WorkloadSpread webhook (reading it as ${legacy.value}%)`, 'OpenKruise\'s subset accounting reads a percentage only so: the pod webhook\'s first count of the subset finds no room, '
        + 'and from 1.9 the controller cannot read it at all'), advice(`write "${legacy.value}%"`, `use PercentOrAbsolute.percent(${legacy.value})`)));
      continue;
    }
    if (!p || p.value < 0) {
      errors.push(fieldError(`spec.subsets[${x.i}].maxReplicas`, x.s.maxReplicas, 'is not a non-negative integer or integer percentage', advice('use an integer >= 0 or a whole percentage such as "50%"', 'use PercentOrAbsolute.absolute(n) or percent(n) with a whole n >= 0')));
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
      if (ss.type !== 'Adaptive') errors.push(fieldError('spec.scheduleStrategy.adaptive', ss.adaptive, 'is set but the type is not Adaptive', advice('set spec.scheduleStrategy.type to Adaptive, or remove adaptive', 'use WorkloadSpreadScheduleStrategy.adaptive()')));
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

/** The workload kinds whose spec.replicas a WorkloadSpread spreads, by group. */
const REPLICATED: Record<string, string[]> = { CloneSet: ['apps.kruise.io'], Deployment: ['apps'], ReplicaSet: ['apps'], StatefulSet: ['apps', 'apps.kruise.io'] };

/**
 * A fixed schedule whose subsets are all capped with absolute maxReplicas
 * that add up to fewer pods than the target workload of the App runs: the
 * rest fall outside every subset.
 */
export function workloadSpreadWarnings(json: any, app: AdmissionApp): string[] {
  const spec = json?.spec ?? {};
  const ref = spec.targetRef;
  const subsets: any[] = Array.isArray(spec.subsets) ? spec.subsets : [];
  if ((spec.scheduleStrategy?.type ?? 'Fixed') !== 'Fixed' || !ref?.kind || subsets.length === 0) return [];
  if (!subsets.every(x => typeof x?.maxReplicas === 'number')) return []; // an unlimited or percentage subset takes the rest
  const group = groupOf(ref.apiVersion);
  if (!(REPLICATED[ref.kind] ?? []).includes(group)) return [];
  const namespace = json.metadata?.namespace;
  const target = app.objects(group, ref.kind).find(o => o.json.metadata?.name === ref.name && o.json.metadata?.namespace === namespace);
  const replicas = target?.json.spec?.replicas;
  const capped: number[] = subsets.map(x => x.maxReplicas);
  const sum = capped.reduce((a, b) => a + b, 0);
  if (typeof replicas !== 'number' || sum >= replicas) return [];
  return [fieldError('spec.subsets[*].maxReplicas', capped,
    `add up to ${sum}, fewer than the ${replicas} replicas of ${ref.kind} "${ref.name}", so ${replicas - sum} pod(s) fall outside every subset (none of the subsets' scheduling applies to them)`,
    advice('raise the maxReplicas, or leave the last subset\'s maxReplicas unset so it takes the rest',
      'raise the maxReplicas, or leave the last subset\'s maxReplicas unset (no maxReplicas on addSubset()) so it takes the rest'))];
}

/** The WorkloadSpread webhook. */
export const workloadSpreadAdmission: AdmissionModule = {
  group: 'apps.kruise.io',
  kind: 'WorkloadSpread',
  versions: ['v1alpha1'],
  validate: m => workloadSpreadErrors(m),
  warnings: (m, _ctx, app) => (app ? workloadSpreadWarnings(m, app) : []),
  releaseRules: RELEASE_RULES,
};
