/**
 * The health rules' language: a small expression tree over a live object
 * that compiles to both Argo CD's Lua and Flux's CEL (`lua.ts`, `cel.ts`), so
 * the two engines read every object the same way. Every read names the value
 * an absent field stands for (the controllers write most counters with
 * `omitempty`, so 0 is absent), and no expression can fail on a missing field
 * in either engine.
 */

/** The outcomes, in Argo CD's words; `cel.ts` maps them to kstatus. */
export type HealthOutcome = 'Healthy' | 'Progressing' | 'Suspended' | 'Degraded';

/** A scalar a rule reads or writes. */
export type Scalar = number | string | boolean;

/** An expression over the object (`metadata`, `spec`, `status`). */
export type Expr =
  /** A constant. */
  | { readonly op: 'lit'; readonly value: Scalar }
  /** The field at `path` (from the object's top), or `dflt` when it is absent. */
  | { readonly op: 'get'; readonly path: readonly string[]; readonly dflt: Scalar }
  /** Whether the field at `path` is there. */
  | { readonly op: 'has'; readonly path: readonly string[] }
  /** Whether the field at `path` is a string (an IntOrString written as a percentage). */
  | { readonly op: 'isString'; readonly path: readonly string[] }
  /**
   * The field at `path` read as a percentage: n for the string "n%" with n
   * a whole number 0 to 100 written without leading zeros, -1 for any other
   * string; `dflt` when it is absent or not a string.
   */
  | { readonly op: 'percent'; readonly path: readonly string[]; readonly dflt: number }
  /** A value bound once per kind (`KindRule.lets`) or by a `with`. */
  | { readonly op: 'ref'; readonly name: string }
  /** `body` with `name` bound to `value` (read with `ref`): a value used more than once is computed once. */
  | { readonly op: 'with'; readonly name: string; readonly value: Expr; readonly body: Expr }
  | { readonly op: 'cmp'; readonly cmp: '==' | '!=' | '<' | '<=' | '>' | '>='; readonly a: Expr; readonly b: Expr }
  | { readonly op: 'arith'; readonly arith: '+' | '-' | '*'; readonly a: Expr; readonly b: Expr }
  /** `a / by` rounded down or up (a >= 0, by > 0): the controllers' integer scaling. */
  | { readonly op: 'div'; readonly round: 'floor' | 'ceil'; readonly a: Expr; readonly by: number }
  | { readonly op: 'and' | 'or'; readonly items: readonly Expr[] }
  | { readonly op: 'not'; readonly a: Expr }
  | { readonly op: 'if'; readonly cond: Expr; readonly then: Expr; readonly else: Expr }
  /**
   * Whether `status.conditions` (or the list at `list`) holds an item of
   * type `type` whose other fields equal `where` (an absent field is "").
   */
  | { readonly op: 'condition'; readonly list: readonly string[]; readonly type: string; readonly where: Readonly<Record<string, string>> }
  /** A field of the first item of type `type` in the list at `list` ("" when none). */
  | { readonly op: 'conditionField'; readonly list: readonly string[]; readonly type: string; readonly field: string }
  /** Whether the list at `list` holds an item whose `field` equals `value`. */
  | { readonly op: 'anyItem'; readonly list: readonly string[]; readonly field: string; readonly value: string }
  /** Whether the list at `list` holds an item whose fields equal all of `where` (an absent field is ""). */
  | { readonly op: 'match'; readonly list: readonly string[]; readonly where: Readonly<Record<string, string>> }
  /** The number of items of the list or keys of the map at `path` (0 when absent). */
  | { readonly op: 'size'; readonly path: readonly string[] }
  /**
   * The sum of `field` (absent: 0) over the first `max` items of the list at
   * `list`; -1 when the list has more than `max` items (CEL has no fold, so
   * the sum is unrolled, and both engines give up past the same count).
   */
  | { readonly op: 'sumItems'; readonly list: readonly string[]; readonly field: string; readonly max: number };

/** A message: text and values (numbers print as integers). */
export type Message = readonly (string | Expr)[];

/** One rule of a kind: the first whose `when` holds decides. */
export interface Clause {
  readonly when: Expr;
  /**
   * Flux's evaluator makes this very check before it reads the expressions
   * (the observed generation), so the clause is written for Argo CD only.
   */
  readonly fluxBuiltIn?: boolean;
  readonly outcome: HealthOutcome;
  readonly message: Message;
}

/** The health rule of one kind, written once for both engines. */
export interface KindRule {
  readonly group: string;
  readonly kind: string;
  /** The apiVersion named in Flux's `healthCheckExprs` (Flux matches on the group and kind only). */
  readonly apiVersion: string;
  /** What the kind is to a reader of a health message ("CloneSet", "Advanced StatefulSet"). */
  readonly title: string;
  /**
   * Until the controller has written a status the object is Progressing
   * (CEL cannot test a top-level field, so Flux's evaluation of a rule that
   * reads `status` fails and kstatus says Unknown, which a Kustomization
   * waits out like InProgress). Kinds whose controller may never write a
   * status set it false and read only `spec` in their conditions.
   * @default true
   */
  readonly statusRequired?: boolean;
  /** Values computed once (Lua locals; inlined in CEL), in order: each may use the ones before. */
  readonly lets?: readonly (readonly [string, Expr])[];
  readonly clauses: readonly Clause[];
  /** When no clause holds. */
  readonly otherwise: { readonly outcome: HealthOutcome; readonly message: Message };
}

// ---- builders: the rules in kinds.ts read as sentences ----

export const lit = (value: Scalar): Expr => ({ op: 'lit', value });
const split = (path: string): string[] => path.split('.');
/** A number field, 0 when absent. */
export const num = (path: string, dflt = 0): Expr => ({ op: 'get', path: split(path), dflt });
/** A string field, "" when absent. */
export const str = (path: string, dflt = ''): Expr => ({ op: 'get', path: split(path), dflt });
/** A boolean field, false when absent. */
export const flag = (path: string): Expr => ({ op: 'get', path: split(path), dflt: false });
export const has = (path: string): Expr => ({ op: 'has', path: split(path) });
export const isString = (path: string): Expr => ({ op: 'isString', path: split(path) });
export const percent = (path: string): Expr => ({ op: 'percent', path: split(path), dflt: 0 });
export const ref = (name: string): Expr => ({ op: 'ref', name });
export const eq = (a: Expr, b: Expr): Expr => ({ op: 'cmp', cmp: '==', a, b });
export const ne = (a: Expr, b: Expr): Expr => ({ op: 'cmp', cmp: '!=', a, b });
export const lt = (a: Expr, b: Expr): Expr => ({ op: 'cmp', cmp: '<', a, b });
export const le = (a: Expr, b: Expr): Expr => ({ op: 'cmp', cmp: '<=', a, b });
export const gt = (a: Expr, b: Expr): Expr => ({ op: 'cmp', cmp: '>', a, b });
export const ge = (a: Expr, b: Expr): Expr => ({ op: 'cmp', cmp: '>=', a, b });
export const plus = (a: Expr, b: Expr): Expr => ({ op: 'arith', arith: '+', a, b });
export const minus = (a: Expr, b: Expr): Expr => ({ op: 'arith', arith: '-', a, b });
export const times = (a: Expr, b: Expr): Expr => ({ op: 'arith', arith: '*', a, b });
export const floorDiv = (a: Expr, by: number): Expr => ({ op: 'div', round: 'floor', a, by });
export const ceilDiv = (a: Expr, by: number): Expr => ({ op: 'div', round: 'ceil', a, by });
export const and = (...items: Expr[]): Expr => ({ op: 'and', items });
export const or = (...items: Expr[]): Expr => ({ op: 'or', items });
export const not = (a: Expr): Expr => ({ op: 'not', a });
export const iff = (cond: Expr, then: Expr, otherwise: Expr): Expr => ({ op: 'if', cond, then, else: otherwise });
export const withValue = (name: string, value: Expr, body: Expr): Expr => ({ op: 'with', name, value, body });
/** `a` held within 0..`top`. */
export const clamp = (a: Expr, top: Expr): Expr =>
  withValue('clamped', a, iff(lt(ref('clamped'), lit(0)), lit(0), iff(lt(ref('clamped'), top), ref('clamped'), top)));
export const condition = (type: string, where: Record<string, string>, list = 'status.conditions'): Expr =>
  ({ op: 'condition', list: split(list), type, where });
export const conditionField = (type: string, field: string, list = 'status.conditions'): Expr =>
  ({ op: 'conditionField', list: split(list), type, field });
export const anyItem = (list: string, field: string, value: string): Expr => ({ op: 'anyItem', list: split(list), field, value });
export const match = (list: string, where: Record<string, string>): Expr => ({ op: 'match', list: split(list), where });
export const size = (path: string): Expr => ({ op: 'size', path: split(path) });
export const sumItems = (list: string, field: string, max: number): Expr => ({ op: 'sumItems', list: split(list), field, max });
export const clause = (when: Expr, outcome: HealthOutcome, ...message: (string | Expr)[]): Clause => ({ when, outcome, message });

/**
 * The number of pods a partition keeps on the old revision, as the
 * controllers compute it from an int-or-percentage `partition` at `path`
 * over `total` pods: a number as is, a percentage scaled and rounded
 * (`round`), then held within 0..total. With `atLeastOneUpdated` (OpenKruise's
 * `CalculatePartitionReplicas`: CloneSet, SidecarSet), a percentage below
 * 100% that would keep every one of more than one pod keeps one less. -1 when
 * the percentage is not one the rules read (see `percent`).
 */
export function partitionCount(path: string, total: Expr, round: 'floor' | 'ceil', atLeastOneUpdated: boolean): Expr {
  const p = ref('percent');
  const scaled = ref('scaled');
  const kept = atLeastOneUpdated
    ? iff(and(gt(total, lit(1)), eq(scaled, total), ne(p, lit(100))), minus(total, lit(1)), scaled)
    : scaled;
  const fromPercent = withValue('percent', percent(path),
    iff(lt(p, lit(0)), lit(-1), withValue('scaled', { op: 'div', round, a: times(p, total), by: 100 }, clamp(kept, total))));
  return iff(isString(path), fromPercent, clamp(num(path), total));
}
