/**
 * The L1 bindings load the first time a construct needs one, not when the
 * library is required: the constructs read them through `_l1()` and
 * `_rolloutsL1()` and import only their types statically. Each product's L1
 * is one module per kind and version under imports/kruise/ and
 * imports/rollouts/; in the compiled package their indexes load a module on
 * the first access to one of its names (build-tools/lazy-exports.ts), so
 * `_l1().KubeCloneSet` loads the CloneSet class and no other kind.
 */
import type * as L1 from '../imports/kruise';
import type * as RolloutsL1 from '../imports/rollouts';
import { schemaEntry } from './validation/schemas';

let loaded: typeof L1 | undefined;
let rolloutsLoaded: typeof RolloutsL1 | undefined;

/**
 * The OpenKruise L1 namespace, loaded on first use.
 * @internal
 */
export function _l1(): typeof L1 {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('../imports/kruise') as typeof L1;
  return loaded;
}

/**
 * The Kruise Rollouts L1 namespace, loaded on first use.
 * @internal
 */
export function _rolloutsL1(): typeof RolloutsL1 {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  rolloutsLoaded ??= require('../imports/rollouts') as typeof RolloutsL1;
  return rolloutsLoaded;
}

/**
 * The L1 class of an OpenKruise or Kruise Rollouts apiVersion and kind (only
 * its module is loaded), or undefined when the library does not know it.
 * @internal
 */
export function _l1Class(apiVersion: string, kind: string): (new (...args: any[]) => any) | undefined {
  const entry = schemaEntry(apiVersion, kind);
  if (!entry) return undefined;
  const namespace: Record<string, any> = apiVersion.startsWith('rollouts.kruise.io/') ? _rolloutsL1() : _l1();
  return namespace[entry.l1Class];
}
