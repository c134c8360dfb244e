/**
 * The generated files of the releases older than the default lines: per
 * line, under schemas/<product>-<line>/, its schema index (every served
 * apiVersion/kind, its validator, and the fields that differ from the newer
 * lines), the JSON schemas and validators that differ from the next newer
 * line's (the others are shared, named in the index by their path under
 * schemas/), and the CRDs its control plane installs (crds.json). The
 * default lines' files stay where they are (schemas/), with the fields older
 * lines served that they do not ("retired").
 */
import { l1ClassName } from './l1';
import { validatorModule } from './validators';
import { KindModel, crdSchema, renderCrd, rootSchema, validationSchema } from '../src/api';
import { everyLineModel } from '../src/releases/model';
import { LINES, Product, linesOf, versionsOf } from '../src/releases/registry';
import { schemaFileName, validatorFileName } from '../src/validation/schemas';

/** What a path of a schema is: its type, as far as acceptance goes, and whether it keeps unknown fields. */
interface Node { readonly type: string; readonly keepsUnknown: boolean }

/** Every path of a schema (`a.b`, `a[]`, `a{*}`) with its node. */
function paths(s: any, at = '', out = new Map<string, Node>()): Map<string, Node> {
  if (!s || typeof s !== 'object') return out;
  const type = s['x-kubernetes-int-or-string'] ? 'int-or-string' : String(s.type ?? (s['x-kubernetes-preserve-unknown-fields'] ? 'any' : 'object'));
  if (at !== '') out.set(at, { type, keepsUnknown: s['x-kubernetes-preserve-unknown-fields'] === true });
  for (const [k, v] of Object.entries<any>(s.properties ?? {})) paths(v, at === '' ? k : `${at}.${k}`, out);
  if (s.items) paths(s.items, `${at}[]`, out);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') paths(s.additionalProperties, `${at}{*}`, out);
  return out;
}

/** The parent path of a path (`a.b[]` -> `a.b`, `a.b` -> `a`, `a` -> ''). */
function parentPath(p: string): string {
  if (p.endsWith('[]')) return p.slice(0, -2);
  if (p.endsWith('{*}')) return p.slice(0, -3);
  const i = p.lastIndexOf('.');
  return i < 0 ? '' : p.slice(0, i);
}

/** A field a newer line serves and this one does not (or serves with another type). */
export interface LaterField {
  /** The first newer line that serves it so. */
  readonly since: string;
  /** The API server keeps it (an ancestor keeps unknown fields), and the release ignores it. */
  readonly kept?: boolean;
  /** The newer line's type, when only the type differs (e.g. `int-or-string`). */
  readonly type?: string;
  /** The version the newer line serves it in, when that is not this entry's (a version this line does not serve). */
  readonly in?: string;
}

type Lines = ReturnType<typeof everyLineModel>;

function schemaPaths(k: KindModel, version: string): Map<string, Node> | undefined {
  const v = k.versions.find(x => x.name === version);
  return v ? paths(crdSchema(rootSchema(v))) : undefined;
}

/** Fields of `kind`/`version` the newer lines of `product` serve and line `at` does not, by path. */
function laterFields(lines: Lines, product: Product, at: number, kind: string, version: string): Record<string, LaterField> {
  const mineKind = lines[at].kinds.find(k => k.kind === kind)!;
  const own = schemaPaths(mineKind, version)!;
  const out: Record<string, LaterField> = {};
  // newer lines, the next one first: a field gets the first line that serves it (in this version, or in the
  // version that line stores, which a construct writes there: e.g. a v1beta1-only field of a v1alpha1 kind)
  for (let i = at - 1; i >= 0; i--) {
    if (lines[i].product !== product) continue;
    const k = lines[i].kinds.find(x => x.kind === kind);
    if (!k) continue;
    const stored = k.versions.find(v => v.storage)!.name;
    const storedElsewhere = stored !== version && !mineKind.versions.some(v => v.name === stored);
    const candidates = [[schemaPaths(k, version), undefined], [storedElsewhere ? schemaPaths(k, stored) : undefined, stored]] as const;
    for (const [theirs, inVersion] of candidates) {
      if (!theirs) continue;
      for (const [p, node] of theirs) {
        if (out[p] || [...Object.keys(out)].some(q => p.startsWith(q + '.') || p.startsWith(q + '[') || p.startsWith(q + '{'))) continue;
        const mine = own.get(p);
        if (mine) {
          if (mine.type !== node.type && !(mine.type === 'any')) out[p] = { since: lines[i].line, type: node.type, ...(inVersion ? { in: inVersion } : {}) };
          continue;
        }
        const parent = parentPath(p);
        if (parent !== '' && !own.has(parent)) continue; // its parent is the field to name
        const keeper = parent === '' ? undefined : own.get(parent);
        out[p] = { since: lines[i].line, ...(keeper?.keepsUnknown ? { kept: true } : {}), ...(inVersion ? { in: inVersion } : {}) };
      }
    }
  }
  return out;
}

/** Fields older lines served that line `at` does not serve, by path: path -> the newest line that served it. */
function retiredFields(lines: Lines, product: Product, at: number, kind: string, version: string): Record<string, string> {
  const own = schemaPaths(lines[at].kinds.find(k => k.kind === kind)!, version)!;
  const out: Record<string, string> = {};
  for (let i = at + 1; i < lines.length; i++) {
    if (lines[i].product !== product) continue;
    const k = lines[i].kinds.find(x => x.kind === kind);
    const theirs = k && schemaPaths(k, version);
    if (!theirs) continue;
    for (const p of theirs.keys()) {
      const parent = parentPath(p);
      if (own.has(p) || out[p] || (parent !== '' && !own.has(parent))) continue;
      out[p] = lines[i].line;
    }
  }
  return out;
}

/** The apiVersions of a kind that a newer line serves and line `at` does not: apiVersion -> the first line serving it. */
function laterVersions(lines: Lines, product: Product, at: number, kind: string): Record<string, string> {
  const mine = new Set(lines[at].kinds.find(k => k.kind === kind)!.versions.map(v => v.name));
  const out: Record<string, string> = {};
  for (let i = at - 1; i >= 0; i--) {
    if (lines[i].product !== product) continue;
    const k = lines[i].kinds.find(x => x.kind === kind);
    for (const v of k?.versions ?? []) {
      const apiVersion = `${k!.group}/${v.name}`;
      if (!mine.has(v.name) && !out[apiVersion]) out[apiVersion] = lines[i].line;
    }
  }
  return out;
}

/** One entry of a schema index. */
export interface IndexEntry {
  apiVersion: string;
  kind: string;
  file: string;
  validator: string;
  l1Class: string;
  statusSubresource?: boolean;
  storage?: boolean;
  later?: Record<string, LaterField>;
  laterVersions?: Record<string, string>;
  retired?: Record<string, string>;
}

/**
 * The index entries of every line (keyed by folder, '' for the default
 * lines) and the files the older lines add.
 */
export function releaseFiles(defaultKinds: KindModel[]): { entries: Map<string, IndexEntry[]>; files: Map<string, string> } {
  const lines = everyLineModel();
  const files = new Map<string, string>();
  const entries = new Map<string, IndexEntry[]>();
  // the schema text of each line/kind/version already written, and where (to share identical files)
  const written = new Map<string, { file: string; validator: string }>();
  const l1 = (group: string, kind: string, version: string) => {
    const k = defaultKinds.find(x => x.group === group && x.kind === kind)!;
    return l1ClassName(k, k.versions.find(v => v.name === version)!);
  };
  lines.forEach((line, at) => {
    const folder = line.folder ?? '';
    const list = entries.get(folder) ?? [];
    entries.set(folder, list);
    for (const k of line.kinds) {
      const later = laterVersions(lines, line.product, at, k.kind);
      for (const v of k.versions) {
        const schema = validationSchema(k, v);
        const text = JSON.stringify(schema, undefined, 2) + '\n';
        const base = schemaFileName(k.group, v.name, k.kind);
        let where = written.get(text);
        if (!where) {
          const prefix = folder === '' ? '' : `${folder}/`;
          where = { file: `${prefix}${base}`, validator: `${prefix}${validatorFileName(k.group, v.name, k.kind)}` };
          written.set(text, where);
          files.set(`schemas/${where.file}`, text);
          files.set(`schemas/${where.validator}`, validatorModule(schema));
        }
        const laterFieldsOf = folder === '' ? {} : laterFields(lines, line.product, at, k.kind, v.name);
        const retired = retiredFields(lines, line.product, at, k.kind, v.name);
        list.push({
          apiVersion: `${k.group}/${v.name}`,
          kind: k.kind,
          file: where.file,
          validator: where.validator,
          l1Class: l1(k.group, k.kind, v.name),
          ...(v.statusSubresource ? { statusSubresource: true } : {}),
          ...(v.storage ? { storage: true } : {}),
          ...(Object.keys(laterFieldsOf).length > 0 ? { later: laterFieldsOf } : {}),
          ...(Object.keys(later).length > 0 && v === k.versions[0] ? { laterVersions: later } : {}),
          ...(Object.keys(retired).length > 0 ? { retired } : {}),
        });
      }
    }
    if (folder !== '') {
      const group = line.product === 'rollouts' ? 'rollouts' : 'kruise';
      const l = LINES.find(x => x.product === line.product && x.line === line.line)!;
      files.set(`schemas/${folder}/index.json`, JSON.stringify({
        product: line.product, line: line.line, releases: versionsOf(l), schemas: list,
      }, undefined, 2) + '\n');
      files.set(`schemas/${folder}/crds.json`, JSON.stringify({ [group]: line.kinds.map(kind => renderCrd(kind)) }, undefined, 1) + '\n');
    }
  });
  return { entries, files };
}

/** The folders of the older lines under schemas/. */
export const RELEASE_DIRS = (['openkruise', 'rollouts'] as Product[]).flatMap(p => linesOf(p)).filter(l => l.folder).map(l => `schemas/${l.folder}`);
