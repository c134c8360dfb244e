/**
 * One render per object per synth. cdk8s validates the whole app once when
 * `App.synth()` / `App.synthYaml()` starts and again for every chart it
 * writes (`Chart.toJson()`), then renders each object of the chart. The
 * schema check, the admission rules, the warnings and the app-wide checks all
 * read the same objects; nothing a user writes runs between those passes and
 * the output (validations report, they do not change objects), so within one
 * synth every object is rendered once, judged once, and its render is the one
 * the YAML output gets (for the OpenKruise L1 classes, whose `toJson` is ours).
 *
 * cdk8s has no hook for "a synth starts/ends", so the three entry points
 * (`App.prototype.synth`, `App.prototype.synthYaml`, `Chart.prototype.toJson`)
 * are wrapped once, the first time this library is used in an app: the wrapper
 * only counts the nesting and calls the original. Prototypes rather than the
 * app instance, because the jsii runtime of Python, Java and Go calls the
 * prototype's method. Outside a synth (a validation run by hand,
 * `Warnings.of`, `InjectionPreview.of`) every validation pass is a round of its
 * own and renders afresh.
 */
import { ApiObject, App, Chart } from 'cdk8s';
import { IConstruct } from 'constructs';

let round = 0;
/** > 0 while a synth entry point runs (they nest: App.synth calls Chart.toJson). */
let synthDepth = 0;
/** Whether the current synth has started its round (its first validation pass). */
let synthRoundStarted = false;
const renders = new WeakMap<ApiObject, { round: number; json: any }>();
const marked = new WeakSet<IConstruct>();
const HOOKED = Symbol.for('cdk8s-kruise.synth-round');

/**
 * Start a new round: renders and verdicts from earlier rounds are not reused.
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

/** A validation pass starts: a new round, unless a pass of the same synth already started one. */
function passStarts(): void {
  if (synthDepth > 0) {
    if (synthRoundStarted) return;
    synthRoundStarted = true;
  }
  round++;
}

/** Run `fn` as (part of) one synth: its validation passes and its output share one round. */
function asOneSynth<T>(fn: () => T): T {
  if (synthDepth === 0) {
    synthRoundStarted = false;
    round++;
  }
  synthDepth++;
  try {
    return fn();
  } finally {
    synthDepth--;
    // nothing rendered or judged during the synth is reused after it
    if (synthDepth === 0) round++;
  }
}

function wrap(proto: any, method: string): void {
  const original = proto[method];
  if (typeof original !== 'function' || original[HOOKED]) return;
  const wrapped = function (this: unknown, ...args: unknown[]) {
    return asOneSynth(() => original.apply(this, args));
  };
  Object.defineProperty(wrapped, HOOKED, { value: true });
  Object.defineProperty(wrapped, 'name', { value: method });
  proto[method] = wrapped;
}

function hookSynth(): void {
  wrap(App.prototype, 'synth');
  wrap(App.prototype, 'synthYaml');
  wrap(Chart.prototype, 'toJson');
}

/**
 * Make every validation pass over the app of `scope` start a new round (or
 * join the round of the synth it belongs to). The marker validation is
 * registered on the root before any other validation of this library, so it
 * runs first in each pass.
 * @internal
 */
export function _markCheckRounds(scope: IConstruct): void {
  const root = scope.node.root;
  if (marked.has(root)) return;
  marked.add(root);
  hookSynth();
  root.node.addValidation({ validate: () => { passStarts(); return []; } });
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
 * admission engine, whose modules' defaults return copies; the YAML output).
 * @internal
 */
export function _sharedRender(obj: ApiObject): any {
  const hit = renders.get(obj);
  if (hit && hit.round === round) return hit.json;
  const json = obj.toJson();
  renders.set(obj, { round, json });
  return json;
}

/**
 * `toJson()` of the OpenKruise L1 classes: during a synth, the render the
 * checks read is the one written out; otherwise `produce()` renders afresh.
 * @internal
 */
export function _renderOnce(obj: ApiObject, produce: () => any): any {
  const transform = transforms.get(obj);
  const render = transform ? () => transform(produce()) : produce;
  if (synthDepth === 0) return render();
  const hit = renders.get(obj);
  if (hit && hit.round === round) return hit.json;
  const json = render();
  renders.set(obj, { round, json });
  return json;
}

const transforms = new WeakMap<ApiObject, (json: any) => any>();

/**
 * Make `toJson()` of an OpenKruise L1 object pass its wire form through
 * `transform` (an L2's object written in the API version the app's target
 * serves: src/releases/served.ts).
 * @internal
 */
export function _setRenderTransform(obj: ApiObject, transform: (json: any) => any): void {
  transforms.set(obj, transform);
}
