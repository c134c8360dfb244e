/**
 * Reading the objects of an app the way the cluster will see them: every
 * ApiObject rendered to wire JSON, the pod a workload creates, the labels a
 * namespace carries. App-wide checks (SidecarSet conflicts, the injection
 * preview, PodUnavailableBudget conflicts) build on these.
 */
import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { _contextsOf, contextPlace } from './context-registry';
import { groupOf, identityOf } from '../validation/manifest';
import { _currentRound, _sharedRender } from '../validation/render';

export { describe, groupOf, mergeInPathOrder, namespaceOf, podTemplateOf, sameTargetRef, targetKey, templatePathOf } from '../validation/manifest';
export type { PodTemplateJson } from '../validation/manifest';

/** One synthesized object of the app, with the construct that owns it. */
export interface AppObject {
  /** The ApiObject. */
  readonly apiObject: ApiObject;
  /** The construct users refer to: the L2 when the ApiObject is its 'Resource' child. */
  readonly owner: IConstruct;
  /**
   * The wire form, as `ApiObject.toJson()` renders it: the one render of the
   * synth, shared by every check and written out, so read it, never change it.
   */
  readonly json: any;
  /** Its position in construct-path order (the app's objects, then each context's). */
  readonly order: number;
  /**
   * Where a context object came from (a file, a URL or its construct path in
   * the context); undefined for the app's own objects. Context objects take
   * part in the app-wide checks, are never written, and report nothing
   * themselves: a problem between an app object and a context object is
   * reported by the app object, naming the context object's origin.
   */
  readonly origin?: string;
}

/** How a message places an object: `at 'construct/path'` for the app's own, `(context: origin)` for a context object. */
export function placeOf(o: AppObject): string {
  return o.origin !== undefined ? contextPlace(o.origin) : `at '${o.owner.node.path}'`;
}

/** The construct that owns an ApiObject: its parent when the ApiObject is the parent's default child. */
export function ownerOf(obj: ApiObject): IConstruct {
  const parent = obj.node.scope;
  if (parent && obj.node.id === 'Resource' && parent.node.defaultChild === obj) return parent;
  return obj;
}

/** What the app-wide checks read of one app, collected once per round of checks. */
interface AppIndex {
  readonly round: number;
  readonly all: AppObject[];
  readonly byGroupKind: Map<string, AppObject[]>;
  readonly namespaceLabels: Map<string, Record<string, string>>;
  readonly memo: Map<string, unknown>;
}

const indexes = new WeakMap<IConstruct, AppIndex>();

/** The ApiObjects under `scope`, with their owners, in construct-path order. */
function apiObjectsIn(scope: IConstruct): Array<{ apiObject: ApiObject; owner: IConstruct }> {
  const found: Array<{ apiObject: ApiObject; owner: IConstruct; path: string }> = [];
  for (const c of scope.node.findAll()) {
    if (c instanceof ApiObject) {
      const owner = ownerOf(c);
      found.push({ apiObject: c, owner, path: owner.node.path });
    }
  }
  // code-unit order: the same on every machine (localeCompare follows the process locale), and no ICU collator to build
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The app's objects, rendered once and sorted once per round (every app-wide
 * check shares them), then the objects of its contexts: a context object the
 * app also writes (same group, kind, namespace and name) is the app's, so the
 * context's copy is left out.
 */
function indexOf(scope: IConstruct): AppIndex {
  const root = scope.node.root;
  const hit = indexes.get(root);
  if (hit && hit.round === _currentRound()) return hit;
  const all: AppObject[] = apiObjectsIn(root)
    .map((f, order) => ({ apiObject: f.apiObject, owner: f.owner, json: _sharedRender(f.apiObject), order }));
  const contexts = _contextsOf(root);
  if (contexts.length > 0) {
    const own = new Set(all.map(o => identityOf(o.json)));
    for (const ctx of contexts) {
      for (const f of apiObjectsIn(ctx.scope)) {
        const json = _sharedRender(f.apiObject);
        const id = identityOf(json);
        if (own.has(id)) continue;
        own.add(id);
        all.push({ apiObject: f.apiObject, owner: f.owner, json, order: all.length, origin: ctx.originOf(f.apiObject) });
      }
    }
  }
  const byGroupKind = new Map<string, AppObject[]>();
  const namespaceLabelsOf = new Map<string, Record<string, string>>();
  for (const o of all) {
    const key = `${groupOf(o.json.apiVersion)}/${o.json.kind}`;
    const list = byGroupKind.get(key);
    if (list) list.push(o); else byGroupKind.set(key, [o]);
    if (key === '/Namespace' && o.json.metadata?.name && !namespaceLabelsOf.has(o.json.metadata.name)) {
      namespaceLabelsOf.set(o.json.metadata.name, o.json.metadata?.labels ?? {});
    }
  }
  const created: AppIndex = { round: _currentRound(), all, byGroupKind, namespaceLabels: namespaceLabelsOf, memo: new Map() };
  indexes.set(root, created);
  return created;
}

/** Every ApiObject of the app of `scope` (and of its contexts), in construct-path order. */
export function allAppObjects(scope: IConstruct, filter: (o: ApiObject) => boolean = () => true): AppObject[] {
  return indexOf(scope).all.filter(o => filter(o.apiObject));
}

/** Every ApiObject of the app of `scope` whose group and kind match, in construct-path order. */
export function appObjects(scope: IConstruct, group: string, kind: string): AppObject[] {
  return [...(indexOf(scope).byGroupKind.get(`${group}/${kind}`) ?? [])];
}

/**
 * The objects of one group and kind indexed by `keysOf` (an object under each
 * of its keys, none when it has none), computed once per round under `name`:
 * the app-wide checks look up the few objects that can conflict with one
 * instead of comparing every pair. Lists keep construct-path order.
 * @internal
 */
export function _appObjectsByKey(
  scope: IConstruct, group: string, kind: string, name: string, keysOf: (o: AppObject) => string[],
): Map<string, AppObject[]> {
  return _oncePerRound(scope, `by-key ${group}/${kind} ${name}`, () => {
    const out = new Map<string, AppObject[]>();
    for (const o of indexOf(scope).byGroupKind.get(`${group}/${kind}`) ?? []) {
      for (const k of new Set(keysOf(o))) {
        const list = out.get(k);
        if (list) list.push(o); else out.set(k, [o]);
      }
    }
    return out;
  });
}

/**
 * A value computed at most once per round of checks for the app of `scope`
 * (app-wide results every construct of a kind reads).
 * @internal
 */
export function _oncePerRound<T>(scope: IConstruct, key: string, compute: () => T): T {
  const memo = indexOf(scope).memo;
  if (!memo.has(key)) memo.set(key, compute());
  return memo.get(key) as T;
}

/** The labels of a namespace as the cluster sets them: its Namespace object's labels (the app's, else a context's) plus kubernetes.io/metadata.name. */
export function namespaceLabels(scope: IConstruct, name: string): Record<string, string> {
  return { ...(indexOf(scope).namespaceLabels.get(name) ?? {}), 'kubernetes.io/metadata.name': name };
}

