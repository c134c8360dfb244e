/**
 * The OpenKruise v1.9.0 API model: every kind, every served version.
 * One module per kind under ./kinds; shared pieces in ./blocks.
 */
import { CLONE_SET } from './kinds/clone-set';
import { KindModel } from './schema';

export * from './schema';
export * from './crd';

/** The OpenKruise version this model describes. */
export const KRUISE_VERSION = 'v1.9.0';

/** Every kind of the model, in a stable order (group, then plural). */
export const KINDS: KindModel[] = [
  CLONE_SET,
].sort((a, b) => (a.group + '/' + a.plural).localeCompare(b.group + '/' + b.plural));

/** Look up a kind by API group and kind name. */
export function findKind(group: string, kind: string): KindModel | undefined {
  return KINDS.find(k => k.group === group && k.kind === kind);
}
