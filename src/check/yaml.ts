/**
 * Reading manifests as kubectl reads them. kubectl turns YAML into JSON with
 * sigs.k8s.io/yaml, which resolves plain scalars by YAML 1.1 rules (go-yaml
 * v2): unquoted `on`, `yes`, `y`, `off`, `no`, `n` (any case form) are
 * booleans, `012` is octal, `0x1F` hex, `0b101` binary, `1_000` is 1000,
 * `1e3` a number; a timestamp stays a string; `<<` merges; a boolean or
 * number used as a key becomes its text (`on:` is the key "true"); of two
 * equal keys the last wins. js-yaml parses (fast), with scalar tags written
 * to those rules; the differences that remain are listed in
 * docs/checking-yaml.md.
 */
import type * as JsYaml from 'js-yaml';

/** A document that does not parse: where, and why. */
export class YamlSyntaxError extends Error {
  constructor(public readonly line: number | undefined, public readonly reason: string) {
    super(reason);
  }
}

let schema: JsYaml.Schema | undefined;
let yaml: typeof JsYaml | undefined;

/** go-yaml v2's float form (`yamlStyleFloat`), after underscores are removed. */
const GO_YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
/** What Go's `strconv.ParseFloat` accepts of a scalar that starts with '.'. */
const GO_DOT_FLOAT = /^\.[0-9](?:_?[0-9])*(?:[eE][-+]?[0-9](?:_?[0-9])*)?$/;
/** What Go's `strconv.ParseInt(s, 0, 64)` accepts: a sign, then 0x/0o/0b or a leading 0 (octal), or decimal. */
const GO_INT = /^([-+]?)(?:0[xX]([0-9a-fA-F]+)|0[oO]([0-7]+)|0[bB]([01]+)|0([0-7]+)|([1-9][0-9]*|0))$/;

/** A plain scalar as go-yaml v2 resolves an integer (ParseInt, then ParseUint), else not resolved. */
function goInt<N>(source: string, notResolved: N): number | N {
  const plain = source.includes('_') ? source.replace(/_/g, '') : source;
  const m = GO_INT.exec(plain);
  if (!m) return notResolved;
  const [, sign, hex, oct, bin, oldOct, dec] = m;
  const value = hex !== undefined ? parseInt(hex, 16) : oct !== undefined ? parseInt(oct, 8) : bin !== undefined ? parseInt(bin, 2)
    : oldOct !== undefined ? parseInt(oldOct, 8) : Number(dec);
  // beyond uint64 Go falls through to the float form, which a hex, octal or binary literal is not
  if (value > 18446744073709551615 && dec === undefined) return notResolved;
  return sign === '-' && value !== 0 ? -value : value;
}

function load(): { yaml: typeof JsYaml; schema: JsYaml.Schema } {
  if (!yaml || !schema) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const y = require('js-yaml') as typeof JsYaml;
    const NOT: typeof JsYaml.NOT_RESOLVED = y.NOT_RESOLVED;
    const DIGITS = ['+', '-', '.', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];
    const int = y.defineScalarTag<number>('tag:yaml.org,2002:int', {
      implicit: true,
      implicitFirstChars: DIGITS.filter(c => c !== '.'),
      resolve: s => goInt(s, NOT),
      identify: () => false,
    });
    const float = y.defineScalarTag<number>('tag:yaml.org,2002:float', {
      implicit: true,
      implicitFirstChars: DIGITS,
      resolve: s => {
        // go-yaml reads a scalar that starts with '.' with ParseFloat as written: Go's float syntax, '_' only between digits
        if (s[0] === '.' ? !GO_DOT_FLOAT.test(s) : false) return NOT;
        const plain = s.includes('_') ? s.replace(/_/g, '') : s;
        if (!GO_YAML_FLOAT.test(plain)) return NOT;
        // beyond the range of a float64 ParseFloat fails, and the scalar stays a string
        const n = Number(plain);
        return Number.isFinite(n) ? n : NOT;
      },
      identify: () => false,
    });
    schema = y.FAILSAFE_SCHEMA.withTags(y.nullYaml11Tag, y.boolYaml11Tag, int, float, y.mergeTag);
    yaml = y;
  }
  return { yaml, schema };
}

/**
 * The documents of a YAML (or JSON) text, as kubectl reads them; empty
 * documents are `null`. Throws `YamlSyntaxError` with the 1-based line of the
 * first error.
 */
export function loadDocuments(text: string): unknown[] {
  return loadWithKeys(text).docs;
}

/**
 * The documents of a text, and whether a mapping in it writes a key twice:
 * kubectl (sigs.k8s.io/yaml, go-yaml v2 without strict decoding) keeps the
 * last copy of each key, and so does this reading. Asked first without
 * duplicates allowed, so a text without any is read once.
 */
export function loadWithKeys(text: string): { docs: unknown[]; duplicateKeys: boolean } {
  const { yaml: y, schema: s } = load();
  try {
    try {
      return { docs: y.loadAll(text, { schema: s }), duplicateKeys: false };
    } catch (e: any) {
      if (!(e instanceof y.YAMLException) || !/duplicated mapping key/.test(String(e.reason))) throw e;
      // `json`: of two equal keys the last wins, as go-yaml v2 decodes a map
      return { docs: y.loadAll(text, { schema: s, json: true }), duplicateKeys: true };
    }
  } catch (e: any) {
    if (e instanceof y.YAMLException) {
      const line = typeof e.mark?.line === 'number' ? e.mark.line + 1 : undefined;
      throw new YamlSyntaxError(line, String(e.reason ?? e.message).split('\n')[0]);
    }
    throw e;
  }
}

/** A key a mapping writes more than once: where, and the lines of each copy (1-based). */
export interface DuplicateKey {
  /** The document (1-based, counting empty ones, as `loadDocuments` does). */
  readonly document: number;
  /** The key's path in the document, e.g. `metadata.name` (`[i]` for list items). */
  readonly path: string;
  readonly lines: readonly number[];
}

/**
 * Every key written more than once in a mapping of the text (merge keys
 * `<<` aside), with the lines of its copies. Only asked of a text that has
 * some (`loadWithKeys`), so its cost is paid only then.
 */
export function duplicateKeys(text: string): DuplicateKey[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Y = require('yaml') as typeof import('yaml');
  const counter = new Y.LineCounter();
  const out: DuplicateKey[] = [];
  Y.parseAllDocuments(text, { uniqueKeys: false, lineCounter: counter }).forEach((doc, i) => {
    if (!('contents' in doc)) return;
    const walk = (node: unknown, path: string) => {
      if (Y.isSeq(node)) node.items.forEach((item, k) => walk(item, `${path}[${k}]`));
      if (!Y.isMap(node)) return;
      const seen = new Map<string, number[]>();
      for (const pair of node.items) {
        const key = Y.isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        if (key === '<<') continue;
        const line = Y.isNode(pair.key) && pair.key.range ? counter.linePos(pair.key.range[0]).line : 0;
        seen.set(key, [...(seen.get(key) ?? []), line]);
        walk(pair.value, path === '' ? key : `${path}.${key}`);
      }
      for (const [key, lines] of seen) if (lines.length > 1) out.push({ document: i + 1, path: path === '' ? key : `${path}.${key}`, lines });
    };
    walk(doc.contents, '');
  });
  return out;
}
