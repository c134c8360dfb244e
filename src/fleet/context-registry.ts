/**
 * The contexts of an app: construct trees of objects the app-wide checks
 * read but the app never writes (another repo's synth output, a cluster's
 * live state, a policy library instantiated for the checks only). Each
 * context is the root of a tree of its own, so cdk8s neither validates nor
 * writes it; this registry is the only link from the app to it.
 */
import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';

/** One context of an app. */
export interface _ContextEntry {
  /** The construct whose subtree holds the context's objects. */
  readonly scope: IConstruct;
  /** Where an object of the context came from, as messages say it: a file, a URL, or its construct path. */
  originOf(obj: ApiObject): string;
}

const contexts = new WeakMap<IConstruct, _ContextEntry[]>();

/**
 * Attach a context to the app of `app`.
 * @internal
 */
export function _registerContext(app: IConstruct, entry: _ContextEntry): void {
  const root = app.node.root;
  contexts.set(root, [...(contexts.get(root) ?? []), entry]);
}

/**
 * The contexts attached to the app of `scope`, in the order they were attached.
 * @internal
 */
export function _contextsOf(scope: IConstruct): readonly _ContextEntry[] {
  return contexts.get(scope.node.root) ?? [];
}

/** `(context: origin)`: how a message names where a context object (or control plane) came from. */
export function contextPlace(origin: string): string {
  return `(context: ${origin})`;
}
