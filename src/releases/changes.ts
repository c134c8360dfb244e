/**
 * The vocabulary an older line's API is written in (`<product>-<line>/model.ts`):
 * edits of kinds, versions and schema paths against the next newer line's
 * model, which src/releases/model.ts applies.
 *
 * A path names a schema node from the object root: `spec.a.b` walks
 * properties, `x[]` the items of list `x`, `x{*}` the values of map `x`.
 */
import type { Schema } from '../api/schema';

/** One edit of the model. */
export type ModelChange =
  | { readonly op: 'unserve'; readonly kind: string; readonly version: string }
  | { readonly op: 'storage'; readonly kind: string; readonly version: string }
  | { readonly op: 'remove'; readonly kind: string; readonly versions?: readonly string[]; readonly path: string }
  | { readonly op: 'set'; readonly kind: string; readonly versions?: readonly string[]; readonly path: string; readonly schema: Schema; readonly required?: boolean }
  | { readonly op: 'keys'; readonly kind: string; readonly versions?: readonly string[]; readonly path: string; readonly keys: Partial<Record<keyof Schema, unknown>> }
  | { readonly op: 'withoutColumn'; readonly kind: string; readonly version: string; readonly column: string }
  | { readonly op: 'columnPath'; readonly kind: string; readonly version: string; readonly column: string; readonly jsonPath: string }
  | { readonly op: 'everywhere'; readonly drop: keyof Schema };

/** The release no longer serves (or never served) `version` of `kind`. */
export const unserve = (kind: string, version: string): ModelChange => ({ op: 'unserve', kind, version });
/** `version` of `kind` is the storage version. */
export const storage = (kind: string, version: string): ModelChange => ({ op: 'storage', kind, version });
/** The field at `path` does not exist (in the given versions, else in every version that has it). */
export const remove = (kind: string, path: string, versions?: string[]): ModelChange => ({ op: 'remove', kind, path, versions });
/** The field at `path` has this schema (added or replaced); `required` puts it in its parent's required list. */
export const set = (kind: string, path: string, schema: Schema, o: { versions?: string[]; required?: boolean } = {}): ModelChange =>
  ({ op: 'set', kind, path, schema, versions: o.versions, required: o.required });
/** A printer column of a version shows another field. */
export const columnPath = (kind: string, version: string, column: string, jsonPath: string): ModelChange => ({ op: 'columnPath', kind, version, column, jsonPath });
/** Schema keys of the node at `path` differ: a value sets the key, `undefined` removes it. */
export const keys = (kind: string, path: string, k: Partial<Record<keyof Schema, unknown>>, versions?: string[]): ModelChange =>
  ({ op: 'keys', kind, path, keys: k, versions });
/** A printer column of a version is not there. */
export const withoutColumn = (kind: string, version: string, column: string): ModelChange => ({ op: 'withoutColumn', kind, version, column });
/** A schema key appears nowhere in the release's CRDs (e.g. markers its code generator did not write). */
export const everywhere = (drop: keyof Schema): ModelChange => ({ op: 'everywhere', drop });

/** A line's changes against the next newer line. */
export interface LineModel {
  readonly changes: readonly ModelChange[];
}
