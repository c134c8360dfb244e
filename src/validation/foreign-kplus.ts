/**
 * Objects of another cdk8s-plus (or of another copy of cdk8s-plus-28 or
 * cdk8s) given to our constructs.
 *
 * TypeScript refuses them with a "separate declarations of a private
 * property" error; JavaScript, a transpile-only ts-node or an `as any` lets
 * them through, and the app then mixes two libraries' objects. Every jsii
 * class carries its fully qualified name and version (`Symbol.for('jsii.rtti')`),
 * so the props of a construct can be checked before it uses them, and the
 * error can say which prop holds what, and how to fix it.
 */
import * as cdk8s from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';

const RTTI = Symbol.for('jsii.rtti');
const OUR_KPLUS = 'cdk8s-plus-28';
const OURS: Record<string, { readonly module: any; readonly version: string }> = {
  'cdk8s': { module: cdk8s, version: rttiOf(cdk8s.App)?.version ?? '' },
  'cdk8s-plus-28': { module: kplus, version: rttiOf(kplus.Deployment)?.version ?? '' },
};

interface Rtti { readonly fqn: string; readonly version: string }

function rttiOf(ctor: unknown): Rtti | undefined {
  const r = (ctor as any)?.[RTTI];
  return r && typeof r.fqn === 'string' ? r : undefined;
}

/** Where a value sits in the props, built into its name (`props.containers[0].resources`) only for a message. */
interface Place { readonly parent?: Place; readonly key: string | number }

function nameOf(place: Place): string {
  const parts: Array<string | number> = [];
  for (let p: Place | undefined = place; p; p = p.parent) parts.push(p.key);
  let out = String(parts.pop());
  while (parts.length > 0) {
    const k = parts.pop()!;
    out += typeof k === 'number' ? `[${k}]` : `.${k}`;
  }
  return out;
}

/**
 * What the walk makes of objects of a class, judged once per constructor:
 * what is wrong with them (`{at}` stands for where one was found), and
 * whether to look into them (our own value classes, which hold what their
 * factory was given: those that name this library in their jsii type, or
 * name no library at all when run from source; never other libraries' objects).
 */
interface ClassVerdict { readonly problem?: string; readonly lookInside: boolean }

const verdicts = new WeakMap<object, ClassVerdict>();

function classVerdict(ctor: any): ClassVerdict {
  if (typeof ctor !== 'function') return { lookInside: true };
  const hit = verdicts.get(ctor);
  if (hit) return hit;
  const rtti = rttiOf(ctor);
  let problem: string | undefined;
  if (rtti) {
    const [lib, ...names] = rtti.fqn.split('.');
    const kind = names.join('.');
    const ours = OURS[lib];
    const ourClass = ours ? names.reduce((m: any, n) => m?.[n], ours.module) : undefined;
    if (/^cdk8s-plus-\d+$/.test(lib) && lib !== OUR_KPLUS) {
      problem = `{at} holds a ${lib} object (${kind}, ${rtti.version}), but cdk8s-kruise is built on ${OUR_KPLUS} and takes only its objects; `
        + `create it with ${OUR_KPLUS} (import * as kplus from '${OUR_KPLUS}'; npm install ${OUR_KPLUS}@^2.5.6)`;
    } else if (typeof ourClass === 'function' && !(ctor === ourClass || ctor.prototype instanceof ourClass)) {
      problem = `{at} holds a ${lib} object (${kind}, ${rtti.version}) from another copy of ${lib} than the one cdk8s-kruise uses (${ours.version}); `
        + `install one copy, so that \`npm ls ${lib}\` shows one version (npm dedupe)`;
    }
  }
  const verdict = { problem, lookInside: rtti === undefined || rtti.fqn.startsWith('cdk8s-kruise.') };
  verdicts.set(ctor, verdict);
  return verdict;
}

/** The first foreign object in `value`, looking into arrays, plain objects and our own value classes. */
function find(value: unknown, at: Place, seen: Set<object>): string | undefined {
  if (value === null || typeof value !== 'object' || seen.has(value)) return undefined;
  seen.add(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const p = find(value[i], { parent: at, key: i }, seen);
      if (p) return p;
    }
    return undefined;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    const verdict = classVerdict(proto.constructor);
    if (verdict.problem) return verdict.problem.replace('{at}', () => nameOf(at));
    // our own value classes (update strategies, templates, ...) are looked into; never constructs
    if (Construct.isConstruct(value) || !verdict.lookInside) return undefined;
  }
  for (const k of Object.keys(value)) {
    const p = find((value as any)[k], { parent: at, key: k }, seen);
    if (p) return p;
  }
  return undefined;
}

/**
 * Throws when `props` holds an object of another cdk8s-plus, or of another
 * copy of cdk8s-plus-28 or cdk8s; returns `props` (for a `super(...)` call).
 *
 * @param where the construct ("CloneSet at 'chart/web'") or the factory
 *              ("DistributedResource.fromSecret()") that was given them
 * @internal
 */
export function _assertOwnKplus<T>(where: string, props: T, name = 'props'): T {
  const p = find(props, { key: name }, new Set());
  if (p) throw new Error(`${where}: ${p}`);
  return props;
}

/**
 * The construct path of a construct about to be created (`scope/id`).
 * @internal
 */
export function _pathOf(scope: { node: { path: string } }, id: string): string {
  return scope.node.path ? `${scope.node.path}/${id}` : id;
}
