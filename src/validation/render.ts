/**
 * One render per object per round of checks. At synth, cdk8s runs every
 * validation of the app in one pass; the schema check, the admission rules,
 * the warnings and the app-wide checks all read the same objects, so each
 * object is rendered once per pass and every reader gets its own copy (a rule
 * may change its copy, e.g. to apply defaults in memory). The output written by
 * synth is rendered afresh, never taken from here.
 */
import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';

let round = 0;
const renders = new WeakMap<ApiObject, { round: number; json: any }>();
const marked = new WeakSet<IConstruct>();

/**
 * Start a new round: renders from earlier rounds are not reused.
 * @internal
 */
export function _newCheckRound(): void {
  round++;
}

/**
 * The current round (verdicts cached for a round are reused within it only).
 * @internal
 */
export function _currentRound(): number {
  return round;
}

/**
 * Make every validation pass over the app of `scope` start a new round. The
 * marker validation is registered on the root before any other validation of
 * this library, so it runs first in each pass.
 * @internal
 */
export function _markCheckRounds(scope: IConstruct): void {
  const root = scope.node.root;
  if (marked.has(root)) return;
  marked.add(root);
  root.node.addValidation({ validate: () => { _newCheckRound(); return []; } });
}

/**
 * The wire form of `obj` for checks: rendered once per round, a fresh copy for each caller.
 * @internal
 */
export function _renderForChecks(obj: ApiObject): any {
  return structuredClone(_sharedRender(obj));
}

/**
 * The one render of `obj` this round, shared: callers only read it (the
 * admission engine, whose modules' defaults return copies).
 * @internal
 */
export function _sharedRender(obj: ApiObject): any {
  const hit = renders.get(obj);
  if (hit && hit.round === round) return hit.json;
  const json = obj.toJson();
  renders.set(obj, { round, json });
  return json;
}
