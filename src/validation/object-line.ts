/**
 * How every message names its object: `Kind "name" (apiVersion)`, with the
 * file and document of an object read from included YAML. Written once for
 * the admission engine, the gate cross-checks and the app-wide checks.
 */
import type { ApiObject } from 'cdk8s';

/** Where an object was read from, for its messages. */
export interface ObjectSource {
  /** The file or URL. */
  readonly source: string;
  /** The position of the object in it (1 = the first document). */
  readonly document: number;
}

/** Where an object of an app came from, when the construct path alone does not say it (included files). */
export interface _ObjectOrigin extends ObjectSource {
  /** The user asked to keep the fields a cluster sets (no warning about them). */
  readonly keepsServerFields?: boolean;
}

const origins = new WeakMap<ApiObject, _ObjectOrigin>();

/**
 * Record where an object was read from, for its messages.
 * @internal
 */
export function _setOrigin(obj: ApiObject, origin: _ObjectOrigin): void {
  origins.set(obj, origin);
}

/**
 * Where an object was read from, if it was.
 * @internal
 */
export function _originOf(obj: ApiObject): _ObjectOrigin | undefined {
  return origins.get(obj);
}

/**
 * `Kind "name" (apiVersion)`, with the file and document for an object read
 * from a file (included YAML, a document given to `cdk8s-kruise check`).
 */
export function describeObject(manifest: Record<string, any>, origin: ObjectSource | undefined): string {
  const name = manifest.metadata?.name;
  const from = origin ? `; ${origin.source}, document ${origin.document}` : '';
  // a name that is not a string (the schema says so on the field) is named by its text when it has one, never "[object Object]"
  const shown = typeof name === 'string' ? (name ? `"${name}" ` : '') : typeof name === 'number' || typeof name === 'boolean' ? `"${name}" ` : '';
  return `${manifest.kind} ${shown}(${manifest.apiVersion}${from})`;
}

/**
 * A message about `obj` in the shape of every message: `Kind "name" (apiVersion) field: value problem; fix`
 * (`line` is the part from the field on).
 * @internal
 */
export function _objectLine(obj: ApiObject, line: string): string {
  return `${describeObject({ kind: obj.kind, apiVersion: obj.apiVersion, metadata: { name: obj.name } }, origins.get(obj))} ${line}`;
}
