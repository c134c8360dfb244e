/**
 * The L1 bindings (imports/kruise.ts, one class per kind and version, 16k
 * lines) load the first time a construct needs one, not when the library is
 * required: the constructs read them through `_l1()` and import only their
 * types statically.
 */
import type * as L1 from '../imports/kruise';

let loaded: typeof L1 | undefined;

/**
 * The L1 module, loaded on first use.
 * @internal
 */
export function _l1(): typeof L1 {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('../imports/kruise') as typeof L1;
  return loaded;
}
