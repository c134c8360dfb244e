import { IConstruct } from 'constructs';
import { _contextsOf, contextPlace } from '../fleet/context-registry';
import type { GateSource } from '../gates/source';

/**
 * Something in the app that decides which OpenKruise feature gates are on:
 * the control plane construct registers itself as one.
 * @internal
 */
export interface _GateSource extends GateSource {
  /** Construct path, for messages. */
  readonly path: string;
  /**
   * How messages place it.
   * @default - `at 'path'`; `(context: path)` for a control plane of a context
   */
  readonly place?: string;
}

/** A gate source with its place resolved. */
export type _PlacedGateSource = _GateSource & { readonly place: string };

/** How to turn a gate on in a control plane the app reads as context but does not own. */
export function notOwnedHowToEnable(gate: string): string {
  return `that control plane is not this app's: ask its owners to turn ${gate} on, or stop using the kind`;
}

const sources = new WeakMap<IConstruct, _GateSource[]>();

/**
 * Register a feature-gate source for the app of `scope`.
 * @internal
 */
export function _registerGateSource(scope: IConstruct, source: _GateSource): void {
  const root = scope.node.root;
  const list = sources.get(root) ?? [];
  list.push(source);
  sources.set(root, list);
}

/**
 * The feature-gate sources (control planes) in the app of `scope`.
 * @internal
 */
export function _gateSources(scope: IConstruct): _PlacedGateSource[] {
  const own = (sources.get(scope.node.root) ?? []).map(s => ({ ...placed(s, `at '${s.path}'`), isEnabled: s.isEnabled, howToEnable: s.howToEnable }));
  // control planes of the app's contexts: the gates of the cluster the app deploys to
  const fromContexts = _contextsOf(scope).flatMap(ctx => (sources.get(ctx.scope.node.root) ?? []).map(s => ({
    ...placed(s, contextPlace(s.path)),
    isEnabled: s.isEnabled,
    howToEnable: s.place !== undefined ? s.howToEnable : notOwnedHowToEnable,
  })));
  return [...own, ...fromContexts];
}

function placed(s: _GateSource, place: string): { path: string; place: string } {
  return { path: s.path, place: s.place ?? place };
}
