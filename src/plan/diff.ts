/**
 * A structural diff of two JSON documents as RFC 6902 operations (add,
 * remove, replace), compared the way OpenKruise compares two revisions:
 * arrays element by element, objects key by key, after the Go JSON encoding
 * has dropped what it omits (null, empty lists and maps). Resource quantities
 * compare by value, so `1000m` and `1` are the same cpu.
 */
import { parseQuantity } from '../validation/pod-template';

/** One difference: the operation turning old into new at `path`. */
export interface DiffOp {
  readonly op: 'add' | 'remove' | 'replace';
  /** Path tokens from the document root (object keys and array indexes). */
  readonly path: ReadonlyArray<string | number>;
  readonly from?: unknown;
  readonly value?: unknown;
}

type Json = any;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A copy without null values, empty arrays and empty objects (recursively),
 * as the Go JSON encoding of Kubernetes types omits them.
 */
export function compact(v: Json): Json {
  if (Array.isArray(v)) {
    const items = v.map(compact).filter(x => x !== undefined);
    return items.length === 0 ? undefined : items;
  }
  if (isObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const c = compact(x);
      if (c !== undefined) out[k] = c;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return v === null ? undefined : v;
}

/** Whether the path is a resource quantity of a container (`.../resources/limits/cpu`). */
function isQuantityPath(path: ReadonlyArray<string | number>): boolean {
  const n = path.length;
  return n >= 3 && path[n - 3] === 'resources' && (path[n - 2] === 'limits' || path[n - 2] === 'requests');
}

function sameLeaf(a: unknown, b: unknown, path: ReadonlyArray<string | number>): boolean {
  if (a === b) return true;
  if (isQuantityPath(path)) {
    const qa = parseQuantity(a);
    const qb = parseQuantity(b);
    return qa !== undefined && qa === qb;
  }
  return false;
}

function walk(a: Json, b: Json, path: Array<string | number>, out: DiffOp[]): void {
  if (Array.isArray(a) && Array.isArray(b)) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) walk(a[i], b[i], [...path, i], out);
    for (let i = n; i < b.length; i++) out.push({ op: 'add', path: [...path, i], value: b[i] });
    for (let i = a.length - 1; i >= n; i--) out.push({ op: 'remove', path: [...path, i], from: a[i] });
    return;
  }
  if (isObject(a) && isObject(b)) {
    for (const k of Object.keys(b)) {
      if (!(k in a)) out.push({ op: 'add', path: [...path, k], value: b[k] });
      else walk(a[k], b[k], [...path, k], out);
    }
    for (const k of Object.keys(a)) {
      if (!(k in b)) out.push({ op: 'remove', path: [...path, k], from: a[k] });
    }
    return;
  }
  if (!sameLeaf(a, b, path)) out.push({ op: 'replace', path, from: a, value: b });
}

/** The operations turning `oldDoc` into `newDoc` (both compacted first). */
export function diff(oldDoc: Json, newDoc: Json): DiffOp[] {
  const a = compact(oldDoc);
  const b = compact(newDoc);
  const out: DiffOp[] = [];
  if (a === undefined && b === undefined) return out;
  if (a === undefined) return [{ op: 'add', path: [], value: b }];
  if (b === undefined) return [{ op: 'remove', path: [], from: a }];
  walk(a, b, [], out);
  return out;
}

/** Whether two documents are equal after compaction. */
export function sameJson(a: Json, b: Json): boolean {
  return diff(a, b).length === 0;
}

/** `spec.template.spec.containers[0].image` from a prefix and path tokens. */
export function fieldPath(prefix: string, path: ReadonlyArray<string | number>): string {
  let out = prefix;
  for (const t of path) {
    if (typeof t === 'number') out += `[${t}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(t)) out += out === '' ? t : `.${t}`;
    else out += `[${JSON.stringify(t)}]`;
  }
  return out;
}
