/**
 * Lists as the checks read them. A manifest can hold anything where a list of
 * objects belongs (fields the CRDs keep as unknown fields, or a pod template);
 * the webhooks cannot decode such an object and refuse it. The checks report
 * the shape once, with `listShapeProblem`, and read only the object items.
 */

/** Whether `v` is a JSON object (not null, not a list). */
export function isObject(v: unknown): v is Record<string, any> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Call `f` with each object item of a list field and its index in the list (nothing when it is not a list). */
export function eachObject(v: unknown, f: (item: Record<string, any>, index: number) => void): void {
  if (Array.isArray(v)) v.forEach((x, i) => { if (isObject(x)) f(x, i); });
}

/**
 * What is wrong with a list-of-objects field holding `v` (unset and null are
 * fine), as the problem and the fix of a field error; undefined when nothing is.
 */
export function listShapeProblem(v: unknown): { problem: string; fix: string } | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) return { problem: 'is not a list, so the webhook cannot decode the object', fix: 'give a list (or leave it out)' };
  const i = v.findIndex(x => !isObject(x));
  return i < 0 ? undefined : { problem: `holds ${JSON.stringify(v[i])} at [${i}], which is not an object, so the webhook cannot decode the object`, fix: 'give each item as an object' };
}

/**
 * What is wrong with an object field holding `v` that the CRD leaves
 * untyped and the webhook decodes into a Go struct (unset and null are
 * fine), as the problem and the fix of a field error.
 */
export function objectShapeProblem(v: unknown, kind: string): { problem: string; fix: string } | undefined {
  if (v === undefined || v === null || isObject(v)) return undefined;
  return { problem: `is not an object, so the webhook cannot decode the ${kind}`, fix: 'give an object (or leave it out)' };
}

/** A field that does not decode: the field, the value, what is wrong and the fix. */
export interface ShapeProblem { field: string; value: unknown; problem: string; fix: string }

/**
 * The untyped object fields at `paths` of `root` (dotted, `[]` for each item
 * of a list, e.g. `spec.topology.subsets[].patch`) that the webhook cannot
 * decode, as field errors.
 */
export function untypedObjectProblems(root: Record<string, any>, paths: readonly string[]): ShapeProblem[] {
  const kind = String(root.kind);
  const out: ShapeProblem[] = [];
  const walk = (v: unknown, segs: string[], at: string): void => {
    if (segs.length === 0) {
      const p = objectShapeProblem(v, kind);
      if (p) out.push({ field: at, value: v, ...p });
      return;
    }
    const [head, ...rest] = segs;
    if (head.endsWith('[]')) {
      const key = head.slice(0, -2);
      const list = isObject(v) ? v[key] : undefined;
      if (Array.isArray(list)) list.forEach((x, i) => walk(x, rest, `${at}.${key}[${i}]`));
      return;
    }
    if (isObject(v)) walk(v[head], rest, at === '' ? head : `${at}.${head}`);
  };
  for (const p of paths) walk(root, p.split('.'), '');
  return out.map(p => ({ ...p, field: p.field.replace(/^\./, '') }));
}
