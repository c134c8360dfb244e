/**
 * Schema validation of OpenKruise objects against the JSON schemas generated
 * from the API model (schemas/ at the package root). ajv compiles every schema
 * at build time (`npx projen gen`, build-tools/validators.ts) into a standalone
 * module next to it, schemas/<group>_<version>_<kind>.js; a synth loads the
 * module of each apiVersion/kind it meets, the first time it meets it, and
 * compiles nothing.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { ErrorObject } from 'ajv';

/** The API groups this library validates: OpenKruise's and Kruise Rollouts'. */
export const KRUISE_GROUPS = ['apps.kruise.io', 'policy.kruise.io', 'rollouts.kruise.io'];

/** The schema file of one version of a kind. */
export function schemaFileName(group: string, version: string, kind: string): string {
  return `${group}_${version}_${kind.toLowerCase()}.json`;
}

/** The validator module of one version of a kind (ajv's standalone code for its schema). */
export function validatorFileName(group: string, version: string, kind: string): string {
  return schemaFileName(group, version, kind).replace(/\.json$/, '.js');
}

/** One problem found in an object. */
export interface SchemaIssue {
  /** Field path in dotted form, e.g. `spec.updateStrategy.partition`. */
  readonly field: string;
  /** The offending value (undefined for a missing field). */
  readonly value: unknown;
  /** What is expected instead. */
  readonly expected: string;
  /** The schema keyword that failed (`required`, `type`, `additionalProperties`, ...). */
  readonly keyword: string;
}

interface SchemaIndex {
  readonly kruiseVersion: string;
  readonly rolloutsVersion: string;
  readonly schemas: SchemaEntry[];
}

/** One version of a kind: its JSON schema, its validator module and its L1 class (in the `kruise` or `rollouts` namespace). */
export interface SchemaEntry {
  readonly apiVersion: string;
  readonly kind: string;
  readonly file: string;
  readonly validator: string;
  readonly l1Class: string;
}

/** A validator module: ajv's standalone validation function. */
interface Validator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

let schemaDir: string | undefined;
let index: SchemaIndex | undefined;
const validators = new Map<string, { entry: SchemaEntry; validate: Validator }>();

/** The schemas/ folder shipped with this package. */
export function findSchemaDir(): string {
  if (schemaDir) return schemaDir;
  let dir = __dirname;
  for (;;) {
    const candidate = path.join(dir, 'schemas', 'index.json');
    if (fs.existsSync(candidate)) {
      schemaDir = path.dirname(candidate);
      return schemaDir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cdk8s-kruise: schemas/index.json not found above ${__dirname}; the package is incomplete`);
    dir = parent;
  }
}

function loadIndex(): SchemaIndex {
  if (!index) index = JSON.parse(fs.readFileSync(path.join(findSchemaDir(), 'index.json'), 'utf-8')) as SchemaIndex;
  return index;
}

/** The entry of an apiVersion and kind, or undefined when this library does not know it. */
export function schemaEntry(apiVersion: string, kind: string): SchemaEntry | undefined {
  return loadIndex().schemas.find(s => s.apiVersion === apiVersion && s.kind === kind);
}

/** The served versions of a Kruise kind, or [] when the kind is unknown. */
export function servedVersions(group: string, kind: string): string[] {
  return loadIndex().schemas
    .filter(s => s.kind === kind && s.apiVersion.startsWith(`${group}/`))
    .map(s => s.apiVersion);
}

/** Every Kruise kind of a group. */
export function kindsOf(group: string): string[] {
  return [...new Set(loadIndex().schemas.filter(s => s.apiVersion.startsWith(`${group}/`)).map(s => s.kind))].sort();
}

function validatorFor(apiVersion: string, kind: string): { entry: SchemaEntry; validate: Validator } | undefined {
  const key = `${apiVersion}/${kind}`;
  const hit = validators.get(key);
  if (hit) return hit;
  const entry = schemaEntry(apiVersion, kind);
  if (!entry) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loaded = { entry, validate: require(path.join(findSchemaDir(), entry.validator)) as Validator };
  validators.set(key, loaded);
  return loaded;
}

/**
 * Validate one manifest. Returns the issues found (empty when valid).
 * Throws nothing: an unknown apiVersion/kind is reported as an issue.
 */
export function validateManifest(manifest: Record<string, any>): SchemaIssue[] {
  const apiVersion = String(manifest.apiVersion ?? '');
  const kind = String(manifest.kind ?? '');
  const group = apiVersion.split('/')[0];
  const v = validatorFor(apiVersion, kind);
  if (!v) {
    const served = servedVersions(group, kind);
    if (served.length > 0) {
      return [{ field: 'apiVersion', value: apiVersion, expected: `${kind} is served as ${served.join(' or ')}`, keyword: 'apiVersion' }];
    }
    return [{ field: 'kind', value: kind, expected: `a kind of ${group}: ${kindsOf(group).join(', ')}`, keyword: 'kind' }];
  }
  if (v.validate(manifest)) return [];
  return describeErrors(v.validate.errors ?? [], manifest, v.entry);
}

/** JSON pointer -> dotted path with [i] for array items. */
function dotted(pointer: string): string {
  if (pointer === '') return '(root)';
  return pointer.split('/').slice(1)
    .map(p => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, seg) => (/^\d+$/.test(seg) ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : seg), '');
}

function valueAt(doc: unknown, pointer: string): unknown {
  let cur: any = doc;
  for (const seg of pointer.split('/').slice(1)) {
    if (cur === undefined || cur === null) return undefined;
    cur = cur[seg.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return cur;
}

function expectation(e: ErrorObject): string {
  const p = e.params as Record<string, any>;
  switch (e.keyword) {
    case 'type': return `must be ${article(String(p.type))}`;
    case 'enum': return `must be one of: ${(p.allowedValues as unknown[]).map(v => JSON.stringify(v)).join(', ')}`;
    case 'format':
      if (p.format === 'int32') return 'must be a 32-bit integer (-2147483648..2147483647)';
      if (p.format === 'int64') return 'must be a 64-bit integer';
      if (p.format === 'date-time') return 'must be an RFC 3339 date-time';
      return `must be in format ${p.format}`;
    case 'anyOf': return 'must be an integer or a string (for example 1 or "25%")';
    default: return e.message ?? e.keyword;
  }
}

const article = (t: string) => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`);

/** The JSON schema of a validator (read only to word an unknown-field error). */
function schemaOf(entry: SchemaEntry): unknown {
  return JSON.parse(fs.readFileSync(path.join(findSchemaDir(), entry.file), 'utf-8'));
}

function describeErrors(errors: ErrorObject[], doc: unknown, entry: SchemaEntry): SchemaIssue[] {
  // int-or-string fields report one failed branch per type plus the anyOf
  // itself: keep only the anyOf line.
  const anyOfPaths = new Set(errors.filter(e => e.keyword === 'anyOf').map(e => e.instancePath));
  // a wrong type makes a format error on the same field redundant
  const typePaths = new Set(errors.filter(e => e.keyword === 'type').map(e => e.instancePath));
  const out: SchemaIssue[] = [];
  const seen = new Set<string>();
  let schema: unknown;
  for (const e of errors) {
    if (e.keyword !== 'anyOf' && anyOfPaths.has(e.instancePath) && e.schemaPath.includes('/anyOf/')) continue;
    if (e.keyword === 'format' && typePaths.has(e.instancePath)) continue;
    let issue: SchemaIssue;
    if (e.keyword === 'additionalProperties') {
      const name = String((e.params as any).additionalProperty);
      // the schema object holding `additionalProperties: false` (the error's schema path, less its last segment)
      schema ??= schemaOf(entry);
      const parentSchema = valueAt(schema, decodeURIComponent(e.schemaPath.slice(0, e.schemaPath.lastIndexOf('/')))) as { properties?: Record<string, unknown> } | undefined;
      const known = Object.keys(parentSchema?.properties ?? {}).sort();
      const at = e.instancePath === '' ? name : `${dotted(e.instancePath)}.${name}`;
      issue = { field: at, value: valueAt(doc, `${e.instancePath}/${name}`), expected: `no such field; known fields here: ${known.join(', ')}`, keyword: e.keyword };
    } else if (e.keyword === 'required') {
      const name = String((e.params as any).missingProperty);
      const at = e.instancePath === '' ? name : `${dotted(e.instancePath)}.${name}`;
      issue = { field: at, value: undefined, expected: 'is required', keyword: e.keyword };
    } else {
      issue = { field: dotted(e.instancePath), value: valueAt(doc, e.instancePath), expected: expectation(e), keyword: e.keyword };
    }
    const key = `${issue.field}|${issue.expected}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issue);
  }
  return out;
}

/** One line per issue: `field: value -> expected`. */
export function formatIssue(i: SchemaIssue): string {
  if (i.value === undefined) return `${i.field}: ${i.expected}`;
  return `${i.field}: ${JSON.stringify(i.value)} ${i.expected}`;
}

