/**
 * Fixes in the terms the user wrote in. An object written with an L2
 * construct gets advice about the construct (`use PercentOrAbsolute.percent(n)`);
 * an object written as YAML, with the `kruise` L1 or as a raw `ApiObject` gets
 * the manifest field and the value to set. The admission engine judges one
 * object at a time, synchronously, and says for whom while it does; a rule
 * picks its fix with `advice(manifest, construct)`.
 */

let forConstruct = false;

/**
 * Run `judge` for an object written with an L2 construct (`construct` true)
 * or in manifest terms; `advice` answers accordingly meanwhile.
 * @internal
 */
export function _adviseFor<T>(construct: boolean, judge: () => T): T {
  const outer = forConstruct;
  forConstruct = construct;
  try {
    return judge();
  } finally {
    forConstruct = outer;
  }
}

/**
 * The fix for the object being judged: `manifest` (the field and the value
 * to set) unless it was written with an L2 construct, then `construct`.
 */
export function advice(manifest: string, construct: string): string {
  return forConstruct ? construct : manifest;
}
