/**
 * Copies of wire-form objects (plain JSON data), for the admission defaults and
 * rules that work on their own copy. The same result as
 * `JSON.parse(JSON.stringify(v))` on JSON data (undefined properties dropped,
 * undefined or non-finite array items and non-finite numbers as null), in a
 * fraction of its time: it is on the path of every object at every synth.
 */
export function cloneJson<T>(v: T): T {
  if (v === undefined) return v;
  return copy(v) as T;
}

function copy(v: any): any {
  if (v === null) return null;
  switch (typeof v) {
    case 'object':
      break;
    case 'number':
      return Number.isFinite(v) ? v : null;
    case 'string':
    case 'boolean':
      return v;
    default:
      return undefined; // functions, symbols, undefined: dropped, or null in arrays (below)
  }
  if (Array.isArray(v)) {
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) {
      const x = copy(v[i]);
      out[i] = x === undefined ? null : x;
    }
    return out;
  }
  if (typeof v.toJSON === 'function') return JSON.parse(JSON.stringify(v));
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    const x = copy(v[k]);
    if (x === undefined) continue;
    // an own "__proto__" key (as JSON.parse makes it), never the prototype
    if (k === '__proto__') Object.defineProperty(out, k, { value: x, enumerable: true, writable: true, configurable: true });
    else out[k] = x;
  }
  return out;
}
