/**
 * Schema validation of OpenKruise objects with ajv, against the JSON schemas
 * generated from the API model (schemas/ at the package root). Each schema is
 * compiled once, the first time an object of its apiVersion/kind is seen.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { default as Ajv, ErrorObject, ValidateFunction } from 'ajv';

/** The API groups this library validates: OpenKruise's and Kruise Rollouts'. */
export const KRUISE_GROUPS = ['apps.kruise.io', 'policy.kruise.io', 'rollouts.kruise.io'];

/** The schema file of one version of a kind. */
export function schemaFileName(group: string, version: string, kind: string): string {
  return `${group}_${version}_${kind.toLowerCase()}.json`;
}

/** One problem found in an object. */
export interface SchemaIssue {
  /** Field path in dotted form, e.g. `spec.updateStrategy.partition`. */
  readonly field: string;
  /** The offending value (undefined for a missing field). */
  readonly value: unknown;
  /** What is expected instead. */
  readonly expected: string;
}

interface SchemaIndex {
  readonly kruiseVersion: string;
  readonly rolloutsVersion: string;
  readonly schemas: Array<{ apiVersion: string; kind: string; file: string }>;
}

let schemaDir: string | undefined;
let index: SchemaIndex | undefined;
let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

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

const INT32 = { min: -2147483648, max: 2147483647 };

function makeAjv(): Ajv {
  // ajv loads with the first object validated, not with the library
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const AjvClass = (require('ajv') as typeof import('ajv')).default;
  const a = new AjvClass({ allErrors: true, strict: true, strictTypes: false, verbose: true });
  a.addFormat('int32', { type: 'number', validate: (x: number) => Number.isInteger(x) && x >= INT32.min && x <= INT32.max });
  a.addFormat('int64', { type: 'number', validate: (x: number) => Number.isSafeInteger(x) });
  a.addFormat('date-time', { type: 'string', validate: (x: string) => !Number.isNaN(Date.parse(x)) && /^\d{4}-\d{2}-\d{2}T/.test(x) });
  a.addFormat('byte', { type: 'string', validate: (x: string) => /^[A-Za-z0-9+/]*={0,2}$/.test(x) && x.length % 4 === 0 });
  // Markers with no effect on a single object's validity.
  for (const keyword of ['x-kubernetes-int-or-string', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-map-type', 'x-kubernetes-list-map-keys']) {
    a.addKeyword({ keyword });
  }
  a.addKeyword({
    keyword: 'x-kubernetes-embedded-resource',
    type: 'object',
    errors: true,
    validate: function embedded(enabled: boolean, data: Record<string, unknown>) {
      if (!enabled) return true;
      const ok = typeof data.apiVersion === 'string' && data.apiVersion !== '' && typeof data.kind === 'string' && data.kind !== '';
      (embedded as any).errors = ok ? [] : [{ keyword: 'x-kubernetes-embedded-resource', message: 'must be a whole Kubernetes object with apiVersion and kind', params: {} }];
      return ok;
    },
  });
  a.addKeyword({
    keyword: 'x-kubernetes-list-type',
    type: 'array',
    errors: true,
    validate: function listType(kind: string, data: unknown[], parentSchema?: any) {
      let keyOf: ((x: unknown) => string) | undefined;
      if (kind === 'set') keyOf = x => JSON.stringify(x);
      if (kind === 'map') {
        const keys: string[] = parentSchema?.['x-kubernetes-list-map-keys'] ?? [];
        keyOf = x => JSON.stringify(keys.map(k => (x as Record<string, unknown>)?.[k]));
      }
      if (!keyOf) return true;
      const seen = new Set<string>();
      for (const item of data) {
        const key = keyOf(item);
        if (seen.has(key)) {
          (listType as any).errors = [{ keyword: 'x-kubernetes-list-type', message: `must not repeat ${kind === 'set' ? 'an item' : 'a key'}: ${key}`, params: {} }];
          return false;
        }
        seen.add(key);
      }
      return true;
    },
  });
  return a;
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

function validatorFor(apiVersion: string, kind: string): ValidateFunction | undefined {
  const key = `${apiVersion}/${kind}`;
  const hit = compiled.get(key);
  if (hit) return hit;
  const entry = loadIndex().schemas.find(s => s.apiVersion === apiVersion && s.kind === kind);
  if (!entry) return undefined;
  if (!ajv) ajv = makeAjv();
  const schema = JSON.parse(fs.readFileSync(path.join(findSchemaDir(), entry.file), 'utf-8'));
  const fn = ajv.compile(schema);
  compiled.set(key, fn);
  return fn;
}

/**
 * Validate one manifest. Returns the issues found (empty when valid).
 * Throws nothing: an unknown apiVersion/kind is reported as an issue.
 */
export function validateManifest(manifest: Record<string, any>): SchemaIssue[] {
  const apiVersion = String(manifest.apiVersion ?? '');
  const kind = String(manifest.kind ?? '');
  const group = apiVersion.split('/')[0];
  const fn = validatorFor(apiVersion, kind);
  if (!fn) {
    const served = servedVersions(group, kind);
    if (served.length > 0) {
      return [{ field: 'apiVersion', value: apiVersion, expected: `${kind} is served as ${served.join(' or ')}` }];
    }
    return [{ field: 'kind', value: kind, expected: `a kind of ${group}: ${kindsOf(group).join(', ')}` }];
  }
  if (fn(manifest)) return [];
  return describeErrors(fn.errors ?? [], manifest);
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
      if (p.format === 'byte') return 'must be base64-encoded bytes';
      return `must be in format ${p.format}`;
    case 'anyOf': return 'must be an integer or a string (for example 1 or "25%")';
    default: return e.message ?? e.keyword;
  }
}

const article = (t: string) => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`);

function describeErrors(errors: ErrorObject[], doc: unknown): SchemaIssue[] {
  // int-or-string fields report one failed branch per type plus the anyOf
  // itself: keep only the anyOf line.
  const anyOfPaths = new Set(errors.filter(e => e.keyword === 'anyOf').map(e => e.instancePath));
  // a wrong type makes a format error on the same field redundant
  const typePaths = new Set(errors.filter(e => e.keyword === 'type').map(e => e.instancePath));
  const out: SchemaIssue[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (e.keyword !== 'anyOf' && anyOfPaths.has(e.instancePath) && e.schemaPath.includes('/anyOf/')) continue;
    if (e.keyword === 'format' && typePaths.has(e.instancePath)) continue;
    let issue: SchemaIssue;
    if (e.keyword === 'additionalProperties') {
      const name = String((e.params as any).additionalProperty);
      const parentSchema = e.parentSchema as { properties?: Record<string, unknown> } | undefined;
      const known = Object.keys(parentSchema?.properties ?? {}).sort();
      const at = e.instancePath === '' ? name : `${dotted(e.instancePath)}.${name}`;
      issue = { field: at, value: valueAt(doc, `${e.instancePath}/${name}`), expected: `no such field; known fields here: ${known.join(', ')}` };
    } else if (e.keyword === 'required') {
      const name = String((e.params as any).missingProperty);
      const at = e.instancePath === '' ? name : `${dotted(e.instancePath)}.${name}`;
      issue = { field: at, value: undefined, expected: 'is required' };
    } else {
      issue = { field: dotted(e.instancePath), value: valueAt(doc, e.instancePath), expected: expectation(e) };
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

