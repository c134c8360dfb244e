/**
 * Problems found while a construct renders its object, such as a `Duration`
 * that is not a whole number of seconds. They are collected instead of thrown
 * (a throw from a render would stop the synth at the first one, as a bare
 * serialization error), and the admission engine reports them as the object's
 * verdict, together with every other problem of the App.
 */
import { IConstruct } from 'constructs';
import { _currentRound } from './render';

/** One problem of a render, in the terms of the construct's props. */
export interface RenderProblem {
  /** The prop, e.g. `minReady`. */
  readonly field: string;
  /** The value as the user wrote it, e.g. `1.5 seconds`. */
  readonly value: unknown;
  /** What is wrong. */
  readonly problem: string;
  /** How to fix it. */
  readonly fix: string;
}

/** The problems of the render running now (undefined outside `_collectRenderProblems`). */
let collecting: RenderProblem[] | undefined;
const byScope = new WeakMap<IConstruct, { round: number; problems: RenderProblem[] }>();
/** Problems of what a construct renders once, when it is created (they hold for every synth). */
const lasting = new WeakMap<IConstruct, RenderProblem[]>();

/**
 * Report a problem of the render running now. Returns false outside a
 * collecting render: the caller throws then, as before.
 * @internal
 */
export function _reportRenderProblem(p: RenderProblem): boolean {
  if (!collecting) return false;
  collecting.push(p);
  return true;
}

/**
 * Run `render` for `scope`, keeping the problems it reports (they replace
 * those of an earlier round). `onThrow` turns an error the render throws
 * into a problem (the render then yields undefined); other errors propagate.
 * `once`: the render runs when the construct is created, not at every synth.
 * @internal
 */
export function _collectRenderProblems<T>(
  scope: IConstruct, render: () => T, onThrow: (e: unknown) => RenderProblem | undefined, once = false,
): T | undefined {
  const outer = collecting;
  const mine: RenderProblem[] = [];
  collecting = mine;
  let out: T | undefined;
  try {
    out = render();
  } catch (e) {
    const p = onThrow(e);
    if (!p) throw e;
    mine.push(p);
  } finally {
    collecting = outer;
  }
  // a render without problems (nearly every one) records nothing: entries of earlier rounds are ignored on read
  if (mine.length === 0) return out;
  if (once) {
    lasting.set(scope, [...(lasting.get(scope) ?? []), ...mine]);
    return out;
  }
  const round = _currentRound();
  let entry = byScope.get(scope);
  if (!entry || entry.round !== round) {
    entry = { round, problems: [] };
    byScope.set(scope, entry);
  }
  for (const p of mine) {
    if (!entry.problems.some(q => q.field === p.field && q.problem === p.problem)) entry.problems.push(p);
  }
  return out;
}

/**
 * The problems the renders of `scope` reported in this round.
 * @internal
 */
export function _renderProblemsOf(scope: IConstruct): readonly RenderProblem[] {
  const entry = byScope.get(scope);
  const now = entry && entry.round === _currentRound() ? entry.problems : NONE;
  const lasts = lasting.get(scope) ?? NONE;
  if (now.length === 0) return lasts;
  return lasts.length === 0 ? now : [...lasts, ...now];
}

const NONE: readonly RenderProblem[] = Object.freeze([]);
