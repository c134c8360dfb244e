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
import { fieldError } from './report';

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
  /** What is wrong with it, e.g. `is not an integer`. */
  readonly problem: string;
  /** How to fix it, in manifest terms. */
  readonly fix: string;
  /**
   * A required field is missing. The API server checks required fields
   * after the mutating webhooks ran, so the admission engine asks this of
   * the defaulted object, and everything else of the object as written.
   */
  readonly missing?: boolean;
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
  /** The API server serves `status` as a subresource (and drops it on create). */
  readonly statusSubresource?: boolean;
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

/** Whether the API server serves `status` of this apiVersion/kind as a subresource (and drops it on create). */
export function hasStatusSubresource(apiVersion: string, kind: string): boolean {
  return schemaEntry(apiVersion, kind)?.statusSubresource === true;
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
      return [{ field: 'apiVersion', value: apiVersion, problem: `is not a version ${kind} is served as`, fix: `use ${served.join(' or ')}`, keyword: 'apiVersion' }];
    }
    return [{ field: 'kind', value: kind, problem: `is not a kind of ${group}`, fix: `use one of ${kindsOf(group).join(', ')}`, keyword: 'kind' }];
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

/** What is wrong with a value the schema refuses, and how to fix it. */
function expectation(e: ErrorObject): { problem: string; fix: string } {
  const p = e.params as Record<string, any>;
  switch (e.keyword) {
    case 'type': {
      const t = String(p.type);
      return { problem: `is not ${article(t)}`, fix: `give ${article(t)}` };
    }
    case 'enum': {
      const allowed = (p.allowedValues as unknown[]).map(v => JSON.stringify(v));
      return { problem: 'is not an allowed value', fix: `use one of ${allowed.join(', ')}` };
    }
    case 'format':
      if (p.format === 'int32') return { problem: 'is not a 32-bit integer', fix: 'use an integer from -2147483648 to 2147483647' };
      if (p.format === 'int64') return { problem: 'is not a 64-bit integer', fix: 'use a whole number of at most 15 digits' };
      if (p.format === 'date-time') return { problem: 'is not an RFC 3339 date-time', fix: 'write it like 2025-01-31T12:00:00Z' };
      return { problem: `is not in format ${p.format}`, fix: `write it in format ${p.format}` };
    case 'anyOf': return { problem: 'is neither an integer nor a string', fix: 'give an integer or a string (for example 1 or "25%")' };
    case 'minimum': return { problem: `is less than ${p.limit}`, fix: `use ${p.limit} or more` };
    case 'maximum': return { problem: `is more than ${p.limit}`, fix: `use at most ${p.limit}` };
    case 'minLength': return { problem: `is shorter than ${p.limit} character${p.limit === 1 ? '' : 's'}`, fix: p.limit === 1 ? 'give a non-empty string' : `use at least ${p.limit} characters` };
    case 'maxLength': return { problem: `is longer than ${p.limit} characters`, fix: `use at most ${p.limit} characters` };
    case 'minItems': return { problem: `has fewer than ${p.limit} item${p.limit === 1 ? '' : 's'}`, fix: `list at least ${p.limit}` };
    case 'maxItems': return { problem: `has more than ${p.limit} items`, fix: `list at most ${p.limit}` };
    case 'pattern': return { problem: `does not match the pattern "${p.pattern}"`, fix: 'use only the characters that pattern allows' };
    case 'x-kubernetes-embedded-resource': return { problem: 'is not a whole Kubernetes object', fix: 'give it an apiVersion and a kind' };
    case 'x-kubernetes-list-type': return { problem: e.message ?? 'repeats an item', fix: 'list each item once' };
    default: return { problem: e.message ?? `fails the schema keyword ${e.keyword}`, fix: 'see the CRD of this kind' };
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
      const where = e.instancePath === '' ? 'the object' : dotted(e.instancePath);
      issue = {
        field: at,
        value: valueAt(doc, `${e.instancePath}/${name}`),
        problem: `is not a field of ${where}`,
        fix: known.length > 0 ? `remove it, or use one of the fields known here: ${known.join(', ')}` : 'remove it',
        keyword: e.keyword,
      };
    } else if (e.keyword === 'required') {
      const name = String((e.params as any).missingProperty);
      const at = e.instancePath === '' ? name : `${dotted(e.instancePath)}.${name}`;
      issue = { field: at, value: undefined, problem: 'is required', fix: `set ${name}`, missing: true, keyword: e.keyword };
    } else {
      issue = { field: dotted(e.instancePath), value: valueAt(doc, e.instancePath), ...expectation(e), keyword: e.keyword };
    }
    const key = `${issue.field}|${issue.problem}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issue);
  }
  return out;
}

/** One line per issue, as every rule writes its lines: `field: value problem; fix`. */
export function formatIssue(i: SchemaIssue): string {
  return fieldError(i.field, i.value, i.problem, i.fix);
}

