/**
 * What `cdk8s-kruise check` reads: files, folders (recursively) and standard
 * input, each document parsed as kubectl parses it (./yaml.ts), `List`s
 * flattened. Anything that is not a manifest is bad input, named by file and
 * line (YAML that does not parse) or file and document.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { CheckDocument } from './check';
import { DuplicateKey, YamlSyntaxError, duplicateKeys, loadWithKeys } from './yaml';
import { fieldError } from '../validation/field-error';

/** Bad input: the one line to print. */
export class CheckInputError extends Error {}

const MANIFEST = /\.(ya?ml|json)$/i;

function walk(dir: string): string[] {
  const out: string[] = [];
  const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else if (MANIFEST.test(e.name)) out.push(p);
  }
  return out;
}

/** The files of `paths`: a file as given, every `*.yaml`, `*.yml` and `*.json` under a folder (recursively, in name order), `-` for standard input. */
export function inputFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    if (p === '-') { out.push(p); continue; }
    let stat: fs.Stats;
    try {
      stat = fs.statSync(p);
    } catch {
      throw new CheckInputError(`${p}: no such file or folder`);
    }
    if (!stat.isDirectory()) { out.push(p); continue; }
    const files = walk(p);
    if (files.length === 0) throw new CheckInputError(`${p}: a folder without .yaml, .yml or .json files`);
    out.push(...files);
  }
  return out;
}

/** The text of a file, or of standard input for `-`. */
export function readText(file: string, stdin: () => string): string {
  if (file === '-') return stdin();
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e: any) {
    throw new CheckInputError(`${file}: cannot be read (${e?.code ?? e})`);
  }
}

/**
 * The objects of one file's text with their document's position (the items
 * of a `List` share their document's). `name` is how messages call the file.
 */
export function parseDocuments(text: string, name: string): CheckDocument[] {
  let docs: unknown[];
  let duplicates: DuplicateKey[] = [];
  try {
    const read = loadWithKeys(text);
    docs = read.docs;
    if (read.duplicateKeys) duplicates = duplicateKeys(text);
  } catch (e) {
    if (e instanceof YamlSyntaxError) throw new CheckInputError(`${name}${e.line !== undefined ? `:${e.line}` : ''}: not valid YAML (${e.reason}); fix the file`);
    throw e;
  }
  const out: CheckDocument[] = [];
  const add = (json: any, document: number, where: string, notes?: string[]) => {
    if (json === null || typeof json !== 'object' || Array.isArray(json)) {
      throw new CheckInputError(`${name}, ${where}: ${Array.isArray(json) ? 'a list' : JSON.stringify(json)} is not a Kubernetes object; give manifests (apiVersion, kind, metadata, ...)`);
    }
    if (typeof json.apiVersion !== 'string' || typeof json.kind !== 'string' || json.apiVersion === '' || json.kind === '') {
      throw new CheckInputError(`${name}, ${where}: an object without ${typeof json.kind === 'string' && json.kind !== '' ? 'apiVersion' : 'kind'} (${JSON.stringify(json).slice(0, 80)}), which kubectl refuses to send; give both as strings`);
    }
    out.push(notes && notes.length > 0 ? { json, file: name, document, notes } : { json, file: name, document });
  };
  docs.forEach((d, i) => {
    if (d === null || d === undefined) return;
    const j: any = d;
    const notes = duplicates.length > 0 ? duplicateNotes(duplicates.filter(x => x.document === i + 1), j) : undefined;
    if (j && typeof j === 'object' && typeof j.kind === 'string' && j.kind.endsWith('List') && Array.isArray(j.items)) {
      j.items.forEach((item: unknown, k: number) => add(item, i + 1, `document ${i + 1}, item ${k + 1}`, k === 0 ? notes : undefined));
    } else {
      add(d, i + 1, `document ${i + 1}`, notes);
    }
  });
  return out;
}

const TOP_LEVEL = ['apiVersion', 'kind', 'metadata', 'spec'];

/** The value at a dotted path (`a.b[0].c`) of a document, as it was read (the last copy of each key). */
function valueAt(doc: any, at: string): unknown {
  let o = doc;
  for (const part of at.match(/[^.[\]]+|\[\d+\]/g) ?? []) {
    if (o === null || typeof o !== 'object') return undefined;
    o = part.startsWith('[') ? o[Number(part.slice(1, -1))] : o[part];
  }
  return o;
}

const listed = (xs: string[]) => (xs.length === 1 ? xs[0] : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

/**
 * Warnings for the keys a document writes twice. kubectl (and the check)
 * keeps the last copy of each: a surprise when two manifests were
 * concatenated without `---` (one object is applied, the last one's keys),
 * or when a key was pasted twice.
 */
function duplicateNotes(dups: DuplicateKey[], doc: any): string[] {
  const top = dups.filter(x => TOP_LEVEL.includes(x.path));
  const out: string[] = [];
  if (top.some(x => x.path === 'apiVersion' || x.path === 'kind')) {
    const [first, ...rest] = top;
    const name = doc?.metadata?.name;
    out.push(fieldError(first.path, valueAt(doc, first.path), `is written again at line ${first.lines[first.lines.length - 1]} (first at line ${first.lines[0]})`
      + `${rest.length > 0 ? `, and so ${rest.length === 1 ? 'is' : 'are'} ${listed(rest.map(x => x.path))}` : ''}: two manifests without a --- line between them `
      + `are one document, and kubectl keeps the last copy of each key, so it applies one object${typeof doc?.kind === 'string' ? `, ${doc.kind}${typeof name === 'string' ? ` "${name}"` : ''}` : ''}`,
    'put a line --- between the manifests'));
    const under = (p: string) => top.some(x => p === x.path || p.startsWith(`${x.path}.`) || p.startsWith(`${x.path}[`));
    dups = dups.filter(x => !under(x.path));
  }
  for (const d of dups) {
    out.push(fieldError(d.path, valueAt(doc, d.path), `is written ${d.lines.length === 2 ? 'twice' : `${d.lines.length} times`} in one mapping (lines ${listed(d.lines.map(String))}), and kubectl keeps only the last`,
      'remove the other copies'));
  }
  return out;
}

/** The objects of a cluster saved with `kubectl get ... -o json` (a List, or YAML), without what the cluster sets. */
export function parseLive(text: string, name: string): CheckDocument[] {
  return parseDocuments(text, name).map(d => {
    const { status: _status, ...rest } = d.json;
    const { managedFields: _m, resourceVersion: _r, uid: _u, creationTimestamp: _c, generation: _g, selfLink: _s, ...metadata } = rest.metadata ?? {};
    return { ...d, json: { ...rest, metadata } };
  });
}
