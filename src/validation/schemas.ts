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
import { advice } from './advice';
import { fieldError } from './field-error';
import { PRODUCT_NAME } from '../releases/registry';
import { TargetRelease, targetNote } from '../releases/target';

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

/**
 * The keywords that judge a value the object decoded with: the API server
 * validates a custom resource against its schema after the mutating webhooks
 * ran, so a webhook's default can make such a value pass (an AdvancedCronJob's
 * `concurrencyPolicy: ""` becomes Allow, then meets the enum). A type or an
 * unknown field is found as the object is written: a webhook's Go types do not
 * decode it.
 */
const VALUE_KEYWORDS: ReadonlySet<string> = new Set([
  'enum', 'pattern', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'uniqueItems',
]);

/** Whether the API server finds the issue on the object the mutating webhooks answered with (a required field, a value), not on the object as written. */
export function checkedAfterMutation(issue: SchemaIssue): boolean {
  return issue.missing === true || VALUE_KEYWORDS.has(issue.keyword);
}

interface SchemaIndex {
  readonly schemas: SchemaEntry[];
}

/** A field a newer line serves and the entry's line does not (or with another type): schemas/<line>/index.json. */
export interface LaterField {
  /** The first newer line that serves it so, e.g. `1.9`. */
  readonly since: string;
  /** The API server keeps it (an ancestor keeps unknown fields), and the release ignores it. */
  readonly kept?: boolean;
  /** The newer line's type, when only the type differs (`int-or-string`). */
  readonly type?: string;
  /** The version the newer line serves it in, when not this entry's (e.g. a v1beta1-only field of a v1alpha1 kind). */
  readonly in?: string;
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
  /** The line stores the kind in this version (older lines' indexes only). */
  readonly storage?: boolean;
  /** Fields newer lines serve that this line does not, by path (`a.b`, `a[]`, `a{*}`). */
  readonly later?: Readonly<Record<string, LaterField>>;
  /** apiVersions of the kind newer lines serve and this line does not -> the first line serving it. */
  readonly laterVersions?: Readonly<Record<string, string>>;
  /** Fields older lines served that this line does not -> the newest line that served it. */
  readonly retired?: Readonly<Record<string, string>>;
}

/** A validator module: ajv's standalone validation function. */
interface Validator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

let schemaDir: string | undefined;
/** The schema index of each line, by folder ('' for the default lines), loaded when first asked for. */
const indexes = new Map<string, SchemaIndex>();
const validators = new Map<string, { entry: SchemaEntry; validate: Validator }>();

/** The folder under schemas/ of a target's line ('' for the default lines, whose files are schemas/ itself). */
function folderOf(target: TargetRelease | undefined): string {
  return target?.release.line.folder ?? '';
}

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

function loadIndex(folder = ''): SchemaIndex {
  let index = indexes.get(folder);
  if (!index) {
    index = JSON.parse(fs.readFileSync(path.join(findSchemaDir(), folder, 'index.json'), 'utf-8')) as SchemaIndex;
    indexes.set(folder, index);
  }
  return index;
}

/**
 * The entry of an apiVersion and kind (of the default lines, or of the
 * target's line), or undefined when the line does not serve it.
 */
export function schemaEntry(apiVersion: string, kind: string, target?: TargetRelease): SchemaEntry | undefined {
  return loadIndex(folderOf(target)).schemas.find(s => s.apiVersion === apiVersion && s.kind === kind);
}

/** Whether the API server serves `status` of this apiVersion/kind as a subresource (and drops it on create). */
export function hasStatusSubresource(apiVersion: string, kind: string): boolean {
  return schemaEntry(apiVersion, kind)?.statusSubresource === true;
}

/** The served versions of a Kruise kind (by the default lines, or the target's line), or [] when the kind is unknown. */
export function servedVersions(group: string, kind: string, target?: TargetRelease): string[] {
  return loadIndex(folderOf(target)).schemas
    .filter(s => s.kind === kind && s.apiVersion.startsWith(`${group}/`))
    .map(s => s.apiVersion);
}

/** Every entry of a line's schema index (the default lines' without a target). */
export function schemaIndex(target?: TargetRelease): readonly SchemaEntry[] {
  return loadIndex(folderOf(target)).schemas;
}

/** The version a line stores a kind in (the default lines' without a target). */
export function storedVersion(group: string, kind: string, target?: TargetRelease): string | undefined {
  return loadIndex(folderOf(target)).schemas.find(s => s.kind === kind && s.apiVersion.startsWith(`${group}/`) && s.storage)?.apiVersion;
}

/** Every Kruise kind of a group. */
export function kindsOf(group: string): string[] {
  return [...new Set(loadIndex().schemas.filter(s => s.apiVersion.startsWith(`${group}/`)).map(s => s.kind))].sort();
}

function validatorFor(apiVersion: string, kind: string, target?: TargetRelease): { entry: SchemaEntry; validate: Validator } | undefined {
  const key = `${folderOf(target)}:${apiVersion}/${kind}`;
  const hit = validators.get(key);
  if (hit) return hit;
  const entry = schemaEntry(apiVersion, kind, target);
  if (!entry) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loaded = { entry, validate: require(path.join(findSchemaDir(), entry.validator)) as Validator };
  validators.set(key, loaded);
  return loaded;
}

/**
 * Validate one manifest against the schema of its apiVersion and kind, as
 * the target's release serves them (the default lines' when no target is
 * given). Returns the issues found (empty when valid). Throws nothing: an
 * unknown apiVersion/kind is reported as an issue; a version, field or type
 * a newer (or older) release serves is named with that release and the target.
 */
export function validateManifest(manifest: Record<string, any>, target?: TargetRelease): SchemaIssue[] {
  const apiVersion = String(manifest.apiVersion ?? '');
  const kind = String(manifest.kind ?? '');
  const group = apiVersion.split('/')[0];
  const v = validatorFor(apiVersion, kind, target);
  if (!v) {
    const served = servedVersions(group, kind, target);
    if (served.length > 0) {
      const withLater = target ? loadIndex(folderOf(target)).schemas.find(e => e.kind === kind && e.laterVersions?.[apiVersion]) : undefined;
      const since = withLater?.laterVersions?.[apiVersion];
      if (since !== undefined) {
        const l1 = schemaEntry(served[served.length - 1], kind)?.l1Class;
        return [{
          field: 'apiVersion',
          value: apiVersion,
          problem: `is served from ${PRODUCT_NAME[target!.release.product]} ${since}; ${targetNote(target!)}`,
          fix: `use ${served.join(' or ')}${l1 ? ` (the L1 class ${l1})` : ''}`,
          keyword: 'apiVersion',
        }];
      }
      return [{ field: 'apiVersion', value: apiVersion, problem: `is not a version ${kind} is served as`, fix: `use ${served.join(' or ')}`, keyword: 'apiVersion' }];
    }
    return [{ field: 'kind', value: kind, problem: `is not a kind of ${group}`, fix: `use one of ${kindsOf(group).join(', ')}`, keyword: 'kind' }];
  }
  if (v.validate(manifest)) return [];
  const issues = describeErrors(v.validate.errors ?? [], manifest, v.entry);
  return target || v.entry.retired ? issues.map(i => releaseIssue(i, v.entry, target)) : issues;
}

/** Whether a value holds a null anywhere (asked of every object judged: only objects and lists are descended into). */
function holdsNull(v: unknown): boolean {
  if (v === null) return true;
  if (typeof v !== 'object') return false;
  const items: unknown[] = Array.isArray(v) ? v : Object.values(v as object);
  for (let i = 0; i < items.length; i++) {
    const x = items[i];
    if (x === null || (typeof x === 'object' && holdsNull(x))) return true;
  }
  return false;
}

const jsonSchemas = new Map<string, any>();

/** The JSON schema of a manifest's apiVersion and kind as the target's release serves it (read once per file), or undefined. */
function jsonSchemaOf(manifest: Record<string, any>, target?: TargetRelease): any {
  const entry = schemaEntry(String(manifest.apiVersion ?? ''), String(manifest.kind ?? ''), target);
  if (!entry) return undefined;
  let schema = jsonSchemas.get(entry.file);
  if (!schema) {
    schema = JSON.parse(fs.readFileSync(path.join(findSchemaDir(), entry.file), 'utf-8'));
    jsonSchemas.set(entry.file, schema);
  }
  return schema;
}

/** The nulls the API server takes out of a body, per its schema: see `withoutNulls`. */
function pruneNulls(v: any, s: any): any {
  if (Array.isArray(v)) return v.map(x => (x === null ? x : pruneNulls(x, s?.items)));
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, any> = {};
  for (const [k, x] of Object.entries(v)) {
    const ks = s?.properties?.[k] ?? (typeof s?.additionalProperties === 'object' ? s.additionalProperties : undefined);
    if (x === null && ks !== undefined && ks.nullable !== true) {
      // a default fills the field, as for a field not given
      if (ks.default !== undefined) out[k] = JSON.parse(JSON.stringify(ks.default));
      continue;
    }
    out[k] = pruneNulls(x, ks);
  }
  return out;
}

/**
 * The object as the API server decodes it: a null in a field the schema
 * declares (a property, or a value of a map with a schema) and does not make
 * nullable is taken out, or replaced by the field's default, before any
 * webhook or validation sees the object (apiextensions-apiserver's
 * PruneNonNullableNullsWithoutDefaults and structural defaulting). Nulls in
 * lists, and in fields the schema keeps unknown (pod templates), stay. The
 * same object when it holds no null.
 */
export function withoutNulls(manifest: Record<string, any>, target?: TargetRelease): Record<string, any> {
  if (!holdsNull(manifest)) return manifest;
  const schema = jsonSchemaOf(manifest, target);
  return schema ? pruneNulls(manifest, schema) : manifest;
}

/** The zero value a Go field of this schema's type is written back with, or undefined for an object, a list or a pointer-like field. */
function zeroOf(s: any): unknown {
  if (!s || s['x-kubernetes-int-or-string']) return undefined;
  return s.type === 'string' ? '' : s.type === 'integer' || s.type === 'number' ? 0 : s.type === 'boolean' ? false : undefined;
}

/** What a null list item decodes as: an int-or-string item as the integer 0 (no pointer: the item itself is the value), else its zero value. */
function zeroItem(x: unknown, items: any): unknown {
  const z = items?.['x-kubernetes-int-or-string'] ? 0 : zeroOf(items);
  return z !== undefined ? z : items?.type === 'object' ? fillZeros({}, items) : x;
}

/** `v` with the Go zero values filled in, per its schema: `v` itself when nothing is filled (it is only read). */
function fillZeros(v: any, s: any): any {
  if (Array.isArray(v)) {
    let out: any[] | undefined;
    v.forEach((x, i) => {
      // a list item left undefined in a construct's props is written as null
      const y = x !== null && x !== undefined ? fillZeros(x, s?.items) : zeroItem(x, s?.items);
      if (y !== x) (out ??= v.slice())[i] = y;
    });
    return out ?? v;
  }
  if (v === null || typeof v !== 'object' || !s) return v;
  let out: Record<string, any> | undefined;
  const props = s.properties;
  const rest = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
  if (props !== undefined || rest !== undefined) {
    for (const k in v) {
      const ks = props?.[k] ?? rest;
      if (ks === undefined) continue;
      const x = v[k];
      // a scalar has no zero value to fill in: only objects, lists and list items do
      if (x === null || typeof x !== 'object') continue;
      const y = fillZeros(x, ks);
      if (y !== x) (out ??= { ...v })[k] = y;
    }
  }
  for (const r of s.required ?? []) {
    if ((out ?? v)[r] !== undefined) continue;
    const z = zeroOf(s.properties?.[r]);
    if (z !== undefined) (out ??= { ...v })[r] = z;
  }
  return out ?? v;
}

/**
 * The object as a mutating webhook writes it back: the webhook decodes it
 * into its Go types and answers with the difference to what it marshals
 * again, so a required scalar field left out of an object (a Go field
 * without `omitempty`) comes back as its zero value ('', 0, false), and a
 * null list item as the zero value of the item. The API server checks the
 * schema after that.
 */
export function goZeroValues(manifest: Record<string, any>, target?: TargetRelease): Record<string, any> {
  const schema = jsonSchemaOf(manifest, target);
  if (!schema) return manifest;
  const { metadata, status, ...rest } = manifest;
  const filled = fillZeros(rest, schema);
  if (filled === rest) return manifest;
  return { ...filled, ...(metadata !== undefined ? { metadata } : {}), ...(status !== undefined ? { status } : {}) };
}

/** A generic path (`a[].b`, `m{*}.c`) as a pattern of the dotted paths of one object (`a[0].b`, `m.key.c`). */
function pathPattern(generic: string): RegExp {
  const escaped = generic.replace(/[.*+?^$()|\\]/g, m => (m === '.' ? '\\.' : `\\${m}`))
    .replace(/\[\]/g, '\\[\\d+\\]')
    .replace(/\{\\\*\}/g, '\\.[^.\\[]+');
  return new RegExp(`^${escaped}$`);
}

const patterns = new Map<string, RegExp>();
function matches(generic: string, field: string): boolean {
  let rx = patterns.get(generic);
  if (!rx) {
    rx = pathPattern(generic);
    patterns.set(generic, rx);
  }
  return rx.test(field);
}

const TYPE_WORDS: Record<string, string> = { 'int-or-string': 'a string as well as a number', 'string': 'a string', 'integer': 'a number' };

/** An issue in the terms of releases: a field a newer release serves, a type it widens, a field an older one served. */
function releaseIssue(i: SchemaIssue, entry: SchemaEntry, target: TargetRelease | undefined): SchemaIssue {
  const product = PRODUCT_NAME[target?.release.product ?? (entry.apiVersion.startsWith('rollouts.kruise.io/') ? 'rollouts' : 'openkruise')];
  const note = target ? targetNote(target) : undefined;
  if (i.keyword === 'additionalProperties') {
    for (const [p, later] of Object.entries(entry.later ?? {})) {
      if (later.type !== undefined || !matches(p, i.field)) continue;
      return {
        ...i,
        problem: `is served from ${product} ${later.since}${later.in ? ` (in ${later.in})` : ''}${note ? `; ${note}` : ''}`,
        fix: advice(`remove it, or upgrade the cluster to ${product} ${later.since} and declare that release`,
          `leave unset the prop that writes it, or upgrade the cluster to ${product} ${later.since} and declare that release`),
      };
    }
    for (const [p, until] of Object.entries(entry.retired ?? {})) {
      if (!matches(p, i.field)) continue;
      return { ...i, problem: `${i.problem}: ${product} served it until ${until}${note ? `; ${note}` : ''}` };
    }
    return i;
  }
  for (const [p, later] of Object.entries(entry.later ?? {})) {
    if (later.type === undefined || !matches(p, i.field)) continue;
    return { ...i, problem: `${i.problem}; ${product} accepts ${TYPE_WORDS[later.type] ?? later.type} here from ${later.since}${note ? `; ${note}` : ''}` };
  }
  return i;
}

/**
 * The fields of a manifest its release keeps but ignores (a newer release's
 * field where the schema keeps unknown fields, e.g. in a SidecarSet
 * container): each with its value and the release that serves it.
 */
export function ignoredFields(manifest: Record<string, any>, target: TargetRelease): Array<{ field: string; value: unknown; since: string }> {
  const entry = schemaEntry(String(manifest.apiVersion ?? ''), String(manifest.kind ?? ''), target);
  const out: Array<{ field: string; value: unknown; since: string }> = [];
  for (const [p, later] of Object.entries(entry?.later ?? {})) {
    if (!later.kept) continue;
    for (const found of valuesAt(manifest, p)) out.push({ ...found, since: later.since });
  }
  return out;
}

/** The values of a manifest at a generic path, each with its dotted path. */
function valuesAt(doc: unknown, generic: string): Array<{ field: string; value: unknown }> {
  let found: Array<{ field: string; value: unknown }> = [{ field: '', value: doc }];
  for (const seg of generic.split('.')) {
    const into = seg.endsWith('[]') ? 'items' : seg.endsWith('{*}') ? 'values' : undefined;
    const name = into === 'items' ? seg.slice(0, -2) : into === 'values' ? seg.slice(0, -3) : seg;
    const next: Array<{ field: string; value: unknown }> = [];
    for (const f of found) {
      const v = f.value && typeof f.value === 'object' && !Array.isArray(f.value) ? (f.value as Record<string, unknown>)[name] : undefined;
      if (v === undefined) continue;
      const at = f.field === '' ? name : `${f.field}.${name}`;
      if (into === 'items') {
        if (Array.isArray(v)) v.forEach((x, i) => next.push({ field: `${at}[${i}]`, value: x }));
      } else if (into === 'values') {
        if (v && typeof v === 'object' && !Array.isArray(v)) for (const [k, x] of Object.entries(v)) next.push({ field: `${at}.${k}`, value: x });
      } else {
        next.push({ field: at, value: v });
      }
    }
    found = next;
  }
  return found;
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
  // the file is named relative to schemas/ (an older line's own files are in its folder)
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
        // an object whose schema lists no fields (a job template's metadata): the API server drops whatever is written in it
        problem: known.length > 0 ? `is not a field of ${where}` : `is not a field of ${where}: the CRD lists no fields there, so the API server drops `
          + 'everything written in it, and refuses it with strict field validation (kubectl\'s default)',
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

