/**
 * The L1 bindings (imports/kruise.ts, one class per kind and version, 16k
 * lines, and imports/rollouts.ts) load the first time a construct needs one, not when the library is
 * required: the constructs read them through `_l1()` and import only their
 * types statically.
 */
import type * as L1 from '../imports/kruise';
import type * as RolloutsL1 from '../imports/rollouts';

let loaded: typeof L1 | undefined;
let rolloutsLoaded: typeof RolloutsL1 | undefined;

/**
 * The L1 module, loaded on first use.
 * @internal
 */
export function _l1(): typeof L1 {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('../imports/kruise') as typeof L1;
  return loaded;
}

/**
 * The Kruise Rollouts L1 module, loaded on first use.
 * @internal
 */
export function _rolloutsL1(): typeof RolloutsL1 {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  rolloutsLoaded ??= require('../imports/rollouts') as typeof RolloutsL1;
  return rolloutsLoaded;
}
