import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { fieldError } from './report';
import { _objectLine } from '../admission/engine';
import { _contextsOf, contextPlace } from '../fleet/context-registry';

/**
 * Something in the app that decides which OpenKruise feature gates are on:
 * the control plane construct registers itself as one.
 * @internal
 */
export interface _GateSource {
  /** Construct path, for messages. */
  readonly path: string;
  /**
   * How messages place it.
   * @default - `at 'path'`; `(context: path)` for a control plane of a context
   */
  readonly place?: string;
  /** Whether the gate is on in this installation (its default when not set). */
  isEnabled(gate: string): boolean;
  /** How the user turns the gate on, for messages. */
  howToEnable(gate: string): string;
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

/**
 * What of an object needs the gates, for messages: the field and its value.
 * @internal
 */
export interface _GateField {
  /** The field, e.g. `spec.template.imageListPullJobTemplate.spec.images`. */
  readonly field: string;
  /** Its value, read at synth. */
  readonly value: () => unknown;
}

/**
 * Declare that `scope` (an object of kind `kind`, or the construct whose
 * object it is) needs the given gates to be accepted by OpenKruise. When the
 * app also contains a control plane construct, synth fails if one of the
 * gates is off there. `anyOf` gates are satisfied when at least one of them
 * is on. `consequence` says what happens when a gate is off (default: the
 * webhook refuses every object of the kind). The message names the object
 * and `at` (default: its `kind`, as every object of the kind needs the gate).
 * @internal
 */
export function _requireGates(scope: IConstruct, kind: string, allOf: string[], anyOf: string[] = [], consequence?: string, at?: _GateField): void {
  const then = consequence ?? `the webhook refuses every ${kind} then`;
  scope.node.addValidation({
    validate: () => {
      const controlPlanes = _gateSources(scope);
      if (controlPlanes.length === 0) return [];
      const obj = scope instanceof ApiObject ? scope : ApiObject.of(scope);
      const field = at?.field ?? 'kind';
      const value = at ? at.value() : kind;
      const errors: string[] = [];
      for (const src of controlPlanes) {
        for (const gate of allOf) {
          if (!src.isEnabled(gate)) {
            errors.push(fieldError(field, value, `needs the OpenKruise feature gate ${gate}, which is off in the control plane ${src.place} (${then})`, src.howToEnable(gate)));
          }
        }
        if (anyOf.length > 0 && !anyOf.some(g => src.isEnabled(g))) {
          errors.push(fieldError(field, value, `needs one of the OpenKruise feature gates ${anyOf.join(' or ')}, all off in the control plane ${src.place}`, src.howToEnable(anyOf[0])));
        }
      }
      return errors.map(l => _objectLine(obj, l));
    },
  });
}
