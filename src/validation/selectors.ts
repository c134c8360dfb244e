/**
 * Label selectors as OpenKruise checks and compares them: syntax (SEL-VALID),
 * emptiness (SEL-NONEMPTY), matching pod labels (SEL-MATCH), and the two
 * overlap tests used for SidecarSet (OVERLAP) and PodUnavailableBudget
 * (LOOSE-OVERLAP) conflicts. Works on the wire (JSON) form of a selector.
 */
import { labelValueProblems, qualifiedNameProblems } from './names';

/** One requirement of a label selector, in wire form. */
export interface SelectorRequirementJson {
  readonly key: string;
  readonly operator: string;
  readonly values?: string[];
}

/** A label selector in wire form. */
export interface LabelSelectorJson {
  readonly matchLabels?: Record<string, string>;
  readonly matchExpressions?: SelectorRequirementJson[];
}

/** A problem in a selector, relative to the selector (e.g. `matchExpressions[0].values`). */
export interface SelectorProblem {
  readonly field: string;
  readonly value: unknown;
  readonly problem: string;
}

const OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'];

/** SEL-VALID: keys, values and operators well-formed. */
export function selectorProblems(sel: LabelSelectorJson | undefined): SelectorProblem[] {
  const out: SelectorProblem[] = [];
  if (!sel) return out;
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) {
    for (const p of qualifiedNameProblems(k)) out.push({ field: `matchLabels[${JSON.stringify(k)}]`, value: k, problem: `key ${p}` });
    for (const p of labelValueProblems(String(v))) out.push({ field: `matchLabels[${JSON.stringify(k)}]`, value: v, problem: `value ${p}` });
  }
  (sel.matchExpressions ?? []).forEach((e, i) => {
    const at = `matchExpressions[${i}]`;
    for (const p of qualifiedNameProblems(e.key ?? '')) out.push({ field: `${at}.key`, value: e.key, problem: p });
    if (!OPERATORS.includes(e.operator)) {
      out.push({ field: `${at}.operator`, value: e.operator, problem: `must be one of ${OPERATORS.join(', ')}` });
      return;
    }
    const values = e.values ?? [];
    if ((e.operator === 'In' || e.operator === 'NotIn') && values.length === 0) {
      out.push({ field: `${at}.values`, value: e.values, problem: `must list at least one value for operator ${e.operator}` });
    }
    if ((e.operator === 'Exists' || e.operator === 'DoesNotExist') && values.length > 0) {
      out.push({ field: `${at}.values`, value: e.values, problem: `must be empty for operator ${e.operator}` });
    }
    values.forEach((v, j) => {
      for (const p of labelValueProblems(String(v))) out.push({ field: `${at}.values[${j}]`, value: v, problem: p });
    });
  });
  return out;
}

/** SEL-NONEMPTY: a selector with neither matchLabels nor matchExpressions matches every pod. */
export function isEmptySelector(sel: LabelSelectorJson | undefined): boolean {
  return !!sel && Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0;
}

/** SEL-MATCH: whether the selector selects a pod with these labels. A missing selector matches nothing. */
export function selectorMatches(sel: LabelSelectorJson | undefined, labels: Record<string, string> | undefined): boolean {
  if (!sel) return false;
  const l = labels ?? {};
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) {
    if (l[k] !== v) return false;
  }
  for (const e of sel.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(l, e.key);
    const values = e.values ?? [];
    switch (e.operator) {
      case 'In': if (!has || !values.includes(l[e.key])) return false; break;
      case 'NotIn': if (has && values.includes(l[e.key])) return false; break;
      case 'Exists': if (!has) return false; break;
      case 'DoesNotExist': if (has) return false; break;
      default: return false;
    }
  }
  return true;
}

/** Per key, the values a selector allows (`'any'` for Exists), ignoring NotIn and DoesNotExist. */
function allowedValues(sel: LabelSelectorJson): Map<string, string[] | 'any'> {
  const out = new Map<string, string[] | 'any'>();
  const add = (k: string, vs: string[] | 'any') => {
    const cur = out.get(k);
    if (vs === 'any' || cur === 'any') { out.set(k, 'any'); return; }
    out.set(k, [...(cur ?? []), ...vs]);
  };
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) add(k, [v]);
  for (const e of sel.matchExpressions ?? []) {
    if (e.operator === 'In') add(e.key, [...(e.values ?? [])]);
    if (e.operator === 'Exists') add(e.key, 'any');
  }
  return out;
}

/** Whether `b` selects nothing that `a` selects, by OpenKruise's one-directional test. */
function disjoint(a: LabelSelectorJson, b: LabelSelectorJson): boolean {
  const allowed = allowedValues(a);
  for (const [k, v] of Object.entries(b.matchLabels ?? {})) {
    const av = allowed.get(k);
    if (av !== undefined && av !== 'any' && !av.includes(v)) return true;
  }
  for (const e of b.matchExpressions ?? []) {
    const av = allowed.get(e.key);
    const values = e.values ?? [];
    switch (e.operator) {
      case 'In':
        if (av !== undefined && av !== 'any' && !values.some(v => av.includes(v))) return true;
        break;
      case 'NotIn':
        if (av !== undefined && av !== 'any' && av.every(v => values.includes(v))) return true;
        break;
      case 'Exists':
        if (av === undefined) return true;
        break;
      case 'DoesNotExist':
        if (av !== undefined) return true;
        break;
      default:
    }
  }
  return false;
}

/** OVERLAP (SidecarSet conflicts): the two selectors may select the same pod. */
export function selectorsOverlap(a: LabelSelectorJson, b: LabelSelectorJson): boolean {
  return !(disjoint(a, b) || disjoint(b, a));
}

interface Requirement { readonly op: string; readonly values: string[] }

function requirements(sel: LabelSelectorJson): Map<string, Requirement> {
  const out = new Map<string, Requirement>();
  for (const e of sel.matchExpressions ?? []) out.set(e.key, { op: e.operator, values: [...(e.values ?? [])] });
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) out.set(k, { op: 'In', values: [v] });
  return out;
}

function compatible(x: Requirement, y: Requirement): boolean {
  const allExcluded = (ins: string[], notIns: string[]) => ins.every(v => notIns.includes(v));
  switch (x.op) {
    case 'In':
      if (y.op === 'Exists') return true;
      if (y.op === 'In') return x.values.some(v => y.values.includes(v));
      if (y.op === 'NotIn') return !allExcluded(x.values, y.values);
      return false;
    case 'Exists':
      return y.op === 'In' || y.op === 'NotIn' || y.op === 'Exists';
    case 'NotIn':
      if (y.op === 'Exists' || y.op === 'DoesNotExist' || y.op === 'NotIn') return true;
      if (y.op === 'In') return !allExcluded(y.values, x.values);
      return false;
    case 'DoesNotExist':
      return y.op === 'DoesNotExist' || y.op === 'NotIn';
    default:
      return false;
  }
}

/** LOOSE-OVERLAP (PodUnavailableBudget conflicts): same keys, and every key's requirements compatible. */
export function selectorsLooselyOverlap(a: LabelSelectorJson, b: LabelSelectorJson): boolean {
  const ra = requirements(a);
  const rb = requirements(b);
  if (ra.size !== rb.size) return false;
  for (const [k, x] of ra) {
    const y = rb.get(k);
    if (!y) return false;
    if (!compatible(x, y) || !compatible(y, x)) return false;
  }
  return true;
}

/**
 * Index keys for LOOSE-OVERLAP: two selectors can loosely overlap only when
 * they have the same keys, and two selectors of only single-value equalities
 * only when the values are the same too. A selector is indexed under these
 * keys and looks up `looseOverlapCandidateKeys`; every selector it may
 * overlap is found under one of them (the exact test stays
 * `selectorsLooselyOverlap`).
 */
export function looseOverlapKeys(sel: LabelSelectorJson): string[] {
  const { keys, equalities } = looseOverlapShape(sel);
  return equalities === undefined ? [`${keys}|other`, `${keys}|all`] : [`${keys}|eq|${equalities}`, `${keys}|all`];
}

/** The index keys to look up for the selectors `sel` may loosely overlap (see `looseOverlapKeys`). */
export function looseOverlapCandidateKeys(sel: LabelSelectorJson): string[] {
  const { keys, equalities } = looseOverlapShape(sel);
  return equalities === undefined ? [`${keys}|all`] : [`${keys}|eq|${equalities}`, `${keys}|other`];
}

function looseOverlapShape(sel: LabelSelectorJson): { keys: string; equalities?: string } {
  const req = [...requirements(sel)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const keys = JSON.stringify(req.map(([k]) => k));
  const equality = req.every(([, r]) => r.op === 'In' && r.values.length === 1);
  return { keys, equalities: equality ? JSON.stringify(req.map(([, r]) => r.values[0])) : undefined };
}
