/**
 * YAML as people write it, for the cases sent as text: block style with the
 * scalars YAML 1.1 reads its own way (yes/no/on/off, octal, hex, `~`, a
 * version number read as a float), anchors and merge keys, a key written
 * twice, two manifests concatenated without `---` (`cat a.yaml b.yaml`), JSON,
 * and several documents. The text is what is judged: kubectl reads it on the
 * cluster's side, `cdk8s-kruise check -` on ours.
 */
import * as fc from 'fast-check';
import { Document, stringify, visit as visitYaml } from 'yaml';

/** How a text was written. */
export type YamlForm = 'block' | 'yaml-1.1-scalars' | 'anchors' | 'duplicate-key' | 'concatenated' | 'json' | 'documents' | 'flow';

/** A manifest written as text. */
export interface Written {
  readonly form: YamlForm;
  readonly text: string;
  /** The object the text was written from. */
  readonly means: Record<string, any>;
}

const plainSafe = /^[A-Za-z_/][A-Za-z0-9_./-]*$/;
const YAML11_WORDS = /^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~)$/;

/** A scalar as a person writes it: plain where it looks plain to them (`on`, `0644`, `1.10` unquoted), `how` says which. */
function scalar(v: unknown, how: 'quoted' | 'loose'): string {
  if (v === null) return how === 'loose' ? '~' : 'null';
  if (typeof v === 'boolean') return how === 'loose' ? (v ? 'yes' : 'off') : String(v);
  if (typeof v === 'number') {
    if (how === 'loose' && Number.isInteger(v) && v > 7 && v < 4096) return `0${v.toString(8)}`;
    if (how === 'loose' && Number.isInteger(v) && v >= 4096) return `0x${v.toString(16)}`;
    return String(v);
  }
  const s = String(v);
  if (how === 'loose' && (plainSafe.test(s) || YAML11_WORDS.test(s) || /^[0-9][0-9.:_]*$/.test(s))) return s;
  return JSON.stringify(s);
}

/** Block-style YAML of a value, indented by `indent`; `loose` writes scalars as they look (see `scalar`). */
function block(v: unknown, indent: string, how: 'quoted' | 'loose', extra?: (path: string, indent: string) => string[], path = ''): string[] {
  if (Array.isArray(v)) {
    if (v.length === 0) return [`${indent}[]`];
    const out: string[] = [];
    v.forEach((item, i) => {
      const inner = block(item, `${indent}  `, how, extra, `${path}[${i}]`);
      if (item !== null && typeof item === 'object' && !(Array.isArray(item) && item.length === 0) && Object.keys(item).length > 0) {
        out.push(`${indent}- ${inner[0].trimStart()}`, ...inner.slice(1));
      } else {
        out.push(`${indent}- ${inner[0].trimStart()}`);
      }
    });
    return out;
  }
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v);
    if (entries.length === 0) return [`${indent}{}`];
    const out: string[] = [];
    for (const [k, x] of entries) {
      const key = plainSafe.test(k) && !YAML11_WORDS.test(k) ? k : JSON.stringify(k);
      if (x !== null && typeof x === 'object' && Object.keys(x).length > 0) {
        out.push(`${indent}${key}:`, ...block(x, Array.isArray(x) ? indent : `${indent}  `, how, extra, path ? `${path}.${k}` : k));
      } else {
        out.push(`${indent}${key}: ${block(x, '', how, extra, `${path}.${k}`)[0]}`);
      }
    }
    if (extra) out.push(...extra(path, indent));
    return out;
  }
  return [`${indent}${scalar(v, how)}`];
}

const text = (lines: string[]) => `${lines.join('\n')}\n`;

/**
 * The manifest with every map it holds twice (a selector's matchLabels and
 * the pod template's labels, ...) written once with an anchor and then as an
 * alias, as people keep two copies in step; undefined when no map repeats.
 */
function withAnchors(m: Record<string, any>): string | undefined {
  const count = new Map<string, number>();
  const visit = (v: unknown) => {
    if (v === null || typeof v !== 'object') return;
    if (!Array.isArray(v) && Object.keys(v).length > 0) count.set(JSON.stringify(v), (count.get(JSON.stringify(v)) ?? 0) + 1);
    for (const x of Object.values(v)) visit(x);
  };
  visit(m);
  const repeated = [...count.entries()].filter(([, n]) => n > 1).map(([k]) => k);
  if (repeated.length === 0) return undefined;
  const first = new Map<string, any>();
  const doc = new Document(m);
  visitYaml(doc, {
    Map(_key, node) {
      const json = JSON.stringify(node.toJSON());
      if (!repeated.includes(json)) return undefined;
      const source = first.get(json);
      if (source === undefined) {
        first.set(json, node);
        node.anchor = `a${first.size}`;
        return undefined;
      }
      return doc.createAlias(source);
    },
  });
  return doc.toString({ lineWidth: 0 });
}

/** The texts one manifest can be written as (`seed`: the manifest the case started from, for the concatenation). */
export function yamlForms(m: Record<string, any>, seed: Record<string, any>): fc.Arbitrary<Written> {
  const forms: Written[] = [
    { form: 'block', text: stringify(m, { lineWidth: 0 }), means: m },
    { form: 'yaml-1.1-scalars', text: text(block(m, '', 'loose')), means: m },
    { form: 'json', text: `${JSON.stringify(m, null, 2)}\n`, means: m },
    { form: 'flow', text: `${JSON.stringify(m)}\n`.replace(/"([A-Za-z][A-Za-z0-9]*)":/g, '$1: '), means: m },
    { form: 'documents', text: `---\n${stringify(m, { lineWidth: 0 })}---\n# nothing here\n---\n`, means: m },
    // two manifests in one file with no separator: every top-level key is written twice
    { form: 'concatenated', text: `${stringify(seed, { lineWidth: 0 })}${stringify(m, { lineWidth: 0 })}`, means: m },
    // a key written twice in the metadata: a person's copy and paste
    {
      form: 'duplicate-key',
      text: text(block(m, '', 'quoted', (path, indent) => (path === 'metadata' ? [`${indent}name: ${JSON.stringify(`${m?.metadata?.name ?? 'x'}-2`)}`] : []))),
      means: m,
    },
  ];
  const anchored = withAnchors(m);
  if (anchored !== undefined) forms.push({ form: 'anchors', text: anchored, means: m });
  return fc.constantFrom(...forms);
}
