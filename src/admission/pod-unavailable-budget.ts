/**
 * The PodUnavailableBudget webhook (policy.kruise.io/v1alpha1; no mutating
 * webhook upstream): the create-time rules that need no cluster state. Left
 * out: budgets of other namespaces and of the live cluster overlapping this
 * one (the app-wide check covers the App).
 */
import { AdmissionModule, ReleaseRule } from './types';
import { advice } from '../validation/advice';
import { fieldError } from '../validation/field-error';
import { parseStrictPercent } from '../validation/percent';
import { LabelSelectorJson, isEmptySelector, selectorProblems } from '../validation/selectors';

/** §6 rules 2-8 on a PodUnavailableBudget in wire form. */
export function podUnavailableBudgetErrors(json: any): string[] {
  const errors: string[] = [];
  const ann = json?.metadata?.annotations ?? {};
  const ops = ann['kruise.io/pub-protect-operations'];
  if (ops !== undefined) {
    for (const item of String(ops).split(',')) {
      if (!['UPDATE', 'DELETE', 'EVICT', 'RESIZE'].includes(item)) {
        errors.push(fieldError('metadata.annotations["kruise.io/pub-protect-operations"]', ops, `has the item ${JSON.stringify(item)}, which is not an operation`, 'list UPDATE, DELETE, EVICT or RESIZE separated by commas without spaces'));
      }
    }
  }
  const total = ann['pub.kruise.io/protect-total-replicas'];
  if (total !== undefined && (!/^[+-]?\d+$/.test(total) || Math.abs(Number(total)) > 2147483647)) {
    errors.push(fieldError('metadata.annotations["pub.kruise.io/protect-total-replicas"]', total, 'is not a 32-bit integer', 'use a whole number'));
  }
  const spec = json?.spec ?? {};
  if (!spec.selector && !spec.targetRef) errors.push(fieldError('spec', spec, 'has neither a selector nor a targetRef', 'set target, targetRef or selector'));
  if (spec.selector && spec.targetRef) errors.push(fieldError('spec.selector', spec.selector, 'is set together with spec.targetRef', 'use either a target or a selector'));
  if (spec.targetRef) {
    const r = spec.targetRef;
    for (const f of ['apiVersion', 'kind', 'name']) if (!r[f]) errors.push(fieldError(`spec.targetRef.${f}`, r[f], 'is empty', 'name the target completely'));
    if (r.apiVersion && r.apiVersion.split('/').length > 2) errors.push(fieldError('spec.targetRef.apiVersion', r.apiVersion, 'is not group/version', 'use e.g. apps/v1'));
  }
  if (spec.selector) {
    const sel = spec.selector as LabelSelectorJson;
    for (const p of selectorProblems(sel)) errors.push(fieldError(`spec.selector.${p.field}`, p.value, p.problem, 'fix the selector'));
    if (isEmptySelector(sel)) errors.push(fieldError('spec.selector', sel, 'is empty and would select every pod of the namespace', 'add matchLabels or matchExpressions'));
  }
  const set = ['maxUnavailable', 'minAvailable'].filter(f => spec[f] !== undefined);
  if (set.length === 0) errors.push(fieldError('spec.maxUnavailable', undefined, 'and spec.minAvailable are both unset', 'set exactly one of maxUnavailable or minAvailable'));
  if (set.length === 2) errors.push(fieldError('spec.minAvailable', spec.minAvailable, 'is set together with spec.maxUnavailable', 'set exactly one of maxUnavailable or minAvailable'));
  for (const f of set) {
    const p = parseStrictPercent(spec[f]);
    if (!p) errors.push(fieldError(`spec.${f}`, spec[f], 'is not a non-negative integer or an integer percentage', advice('use an integer >= 0 or a whole percentage such as "20%"', 'use PercentOrAbsolute.absolute(n) or PercentOrAbsolute.percent(n) with n >= 0')));
    else if (p.isPercent && p.value > 100) errors.push(fieldError(`spec.${f}`, spec[f], 'is more than 100%', 'use at most 100%'));
  }
  return errors;
}

const PROTECT_OPERATIONS = 'kruise.io/pub-protect-operations';

/** The PodUnavailableBudget webhook's changes by release: 1.9 protects in-place resizes (RESIZE), before it the operation was refused. */
const RELEASE_RULES: ReleaseRule[] = [{
  release: '1.9',
  change: 'accepts',
  what: `RESIZE in the annotation ${PROTECT_OPERATIONS}`,
  find: m => {
    const ops = m.metadata?.annotations?.[PROTECT_OPERATIONS];
    return ops !== undefined && String(ops).split(',').includes('RESIZE')
      ? [{ field: `metadata.annotations["${PROTECT_OPERATIONS}"]`, value: ops, problem: 'has the item "RESIZE", an operation the budget does not protect', fix: 'list UPDATE, DELETE or EVICT separated by commas without spaces' }]
      : [];
  },
}];

/** The PodUnavailableBudget webhook. */
export const podUnavailableBudgetAdmission: AdmissionModule = {
  group: 'policy.kruise.io',
  kind: 'PodUnavailableBudget',
  versions: ['v1alpha1'],
  validate: m => podUnavailableBudgetErrors(m),
  releaseRules: RELEASE_RULES,
};
