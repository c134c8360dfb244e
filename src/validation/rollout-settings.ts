import { IConstruct } from 'constructs';
import { notOwnedHowToEnable } from './gates';
import { _contextsOf, contextPlace } from '../fleet/context-registry';
import type { GateSource } from '../gates/source';

/**
 * Something in the app that runs kruise-rollout-manager (the Kruise Rollouts
 * control plane construct registers itself as one): the manager settings the
 * Rollout admission rules and the app-wide checks depend on.
 * @internal
 */
export interface _RolloutManagerSource extends GateSource {
  /** Construct path, for messages. */
  readonly path: string;
  /** `--partition-percent-limit`. */
  readonly partitionPercentLimit: number;
  /**
   * How messages place it.
   * @default - `at 'path'`; `(context: path)` for a control plane of a context
   */
  readonly place?: string;
}

/** kruise-rollout-manager's default `--partition-percent-limit`. */
export const DEFAULT_PARTITION_PERCENT_LIMIT = 50;

const sources = new WeakMap<IConstruct, _RolloutManagerSource[]>();

/**
 * Register a kruise-rollout-manager for the app of `scope`.
 * @internal
 */
export function _registerRolloutManager(scope: IConstruct, source: _RolloutManagerSource): void {
  const root = scope.node.root;
  const list = sources.get(root) ?? [];
  list.push(source);
  sources.set(root, list);
}

/**
 * The kruise-rollout-managers (control planes) of the app of `scope`.
 * @internal
 */
export function _rolloutManagers(scope: IConstruct): Placed[] {
  const own = (sources.get(scope.node.root) ?? []).map(s => withPlace(s, s.place ?? `at '${s.path}'`, s.howToEnable));
  // control planes of the app's contexts: the managers of the cluster the app deploys to
  const fromContexts = _contextsOf(scope).flatMap(ctx => (sources.get(ctx.scope.node.root) ?? [])
    .map(s => withPlace(s, s.place ?? contextPlace(s.path), s.place !== undefined ? s.howToEnable : notOwnedHowToEnable)));
  return [...own, ...fromContexts];
}

type Placed = _RolloutManagerSource & { readonly place: string };

function withPlace(s: _RolloutManagerSource, place: string, howToEnable: (gate: string) => string): Placed {
  return { path: s.path, partitionPercentLimit: s.partitionPercentLimit, isEnabled: g => s.isEnabled(g), howToEnable, place };
}
