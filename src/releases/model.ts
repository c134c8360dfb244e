/**
 * The API model of every modelled release, built from the one model in
 * src/api (the default lines, OpenKruise 1.9 and Kruise Rollouts 0.6) and
 * each older line's changes against the next newer line (its `model.ts`):
 * a small vocabulary of edits to kinds, versions and schema paths. Build
 * time only (generation and tests): no synth loads it.
 *
 * The vocabulary of the changes is ./changes.ts.
 */
import type { LineModel, ModelChange } from './changes';
import { lineOf, linesOf, Product } from './registry';
import { KINDS, KindModel, ROLLOUT_KINDS, Schema, VersionModel } from '../api';

/** One step of a path: a property, then optionally its items or its map values. */
interface Step { readonly name: string; readonly into?: 'items' | 'values' }

function parsePath(path: string): Step[] {
  return path.split('.').map(seg => {
    if (seg.endsWith('[]')) return { name: seg.slice(0, -2), into: 'items' as const };
    if (seg.endsWith('{*}')) return { name: seg.slice(0, -3), into: 'values' as const };
    return { name: seg };
  });
}

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

/**
 * The node that holds the last property of `path` (and that property's
 * name), in a version's top-level schemas (`spec`, `status`, extras).
 */
function parentOf(v: Record<string, Schema>, path: string, where: string): { holder: Schema; name: string } {
  const steps = parsePath(path);
  const top = steps[0];
  let node: Schema | undefined = { type: 'object', properties: v };
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i];
    if (i === steps.length - 1 && !s.into) return { holder: node!, name: s.name };
    const next: Schema | undefined = node?.properties?.[s.name];
    if (!next) throw new Error(`${where}: no property '${s.name}' on the way to ${path} (from ${top.name})`);
    node = s.into === 'items' ? next.items : s.into === 'values' ? (typeof next.additionalProperties === 'object' ? next.additionalProperties : undefined) : next;
    if (!node) throw new Error(`${where}: '${s.name}' of ${path} has no ${s.into}`);
    if (i === steps.length - 1) return { holder: node, name: '' };
  }
  throw new Error(`${where}: empty path`);
}

/** The schemas of a version that paths start from. */
function tops(v: VersionModel): Record<string, Schema> {
  const t: Record<string, Schema> = {};
  if (v.spec) t.spec = v.spec;
  if (v.status) t.status = v.status;
  Object.assign(t, v.extra ?? {});
  return t;
}

function withTops(v: VersionModel, t: Record<string, Schema>): VersionModel {
  const { spec, status, ...extra } = t;
  return { ...v, spec, status, extra: Object.keys(extra).length > 0 ? extra : undefined };
}

function dropKey(s: unknown, key: string): unknown {
  if (Array.isArray(s)) return s.map(x => dropKey(x, key));
  if (!s || typeof s !== 'object') return s;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s as Record<string, unknown>)) {
    if (k === key) continue;
    // property names are data, not schema keys
    out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([p, ps]) => [p, dropKey(ps, key)])) : dropKey(v, key);
  }
  return out;
}

/** Apply changes to a list of kinds (a new list; the input is not changed). */
export function applyChanges(kinds: readonly KindModel[], changes: readonly ModelChange[], label: string): KindModel[] {
  let out: KindModel[] = clone(kinds as KindModel[]);
  const kindOf = (name: string) => {
    const k = out.find(x => x.kind === name);
    if (!k) throw new Error(`${label}: no kind ${name}`);
    return k;
  };
  const replace = (k: KindModel, versions: VersionModel[]) => {
    out = out.map(x => (x === k ? { ...k, versions } : x));
  };
  for (const c of changes) {
    if (c.op === 'everywhere') {
      out = out.map(k => ({ ...k, versions: k.versions.map(v => withTops(v, dropKey(tops(v), c.drop) as Record<string, Schema>)) }));
      continue;
    }
    const k = kindOf(c.kind);
    const where = `${label} ${c.kind}`;
    switch (c.op) {
      case 'unserve':
        if (!k.versions.some(v => v.name === c.version)) throw new Error(`${where}: no version ${c.version}`);
        replace(k, k.versions.filter(v => v.name !== c.version));
        break;
      case 'storage':
        replace(k, k.versions.map(v => ({ ...v, storage: v.name === c.version })));
        break;
      case 'columnPath': {
        const v = k.versions.find(x => x.name === c.version);
        if (!v?.printerColumns?.some(col => col.name === c.column)) throw new Error(`${where}: no column ${c.column} in ${c.version}`);
        const columns = v.printerColumns.map(col => (col.name === c.column ? { ...col, jsonPath: c.jsonPath } : col));
        replace(k, k.versions.map(x => (x === v ? { ...x, printerColumns: columns } : x)));
        break;
      }
      case 'withoutColumn': {
        const v = k.versions.find(x => x.name === c.version);
        if (!v?.printerColumns?.some(col => col.name === c.column)) throw new Error(`${where}: no column ${c.column} in ${c.version}`);
        replace(k, k.versions.map(x => (x === v ? { ...x, printerColumns: v.printerColumns!.filter(col => col.name !== c.column) } : x)));
        break;
      }
      default: {
        const chosen = k.versions.filter(v => (c.versions ? c.versions.includes(v.name) : true));
        let touched = 0;
        replace(k, k.versions.map(v => {
          if (!chosen.includes(v)) return v;
          const t = clone(tops(v));
          if (c.op !== 'set' && c.versions === undefined) {
            // without named versions, a change applies to each version that has the path
            try {
              const probe = parentOf(t, c.path, where);
              if (probe.name !== '' && !probe.holder.properties?.[probe.name]) return v;
            } catch {
              return v;
            }
          }
          const { holder, name } = parentOf(t, c.path, `${where}/${v.name}`);
          if (c.op === 'remove') {
            if (!holder.properties?.[name]) throw new Error(`${where}/${v.name}: nothing to remove at ${c.path}`);
            delete holder.properties[name];
            holder.required = holder.required?.filter(r => r !== name);
            if (holder.required?.length === 0) delete holder.required;
          } else if (c.op === 'set') {
            holder.properties = { ...(holder.properties ?? {}), [name]: clone(c.schema) };
            if (c.required && !holder.required?.includes(name)) holder.required = [...(holder.required ?? []), name];
          } else {
            const node = name === '' ? holder : holder.properties?.[name];
            if (!node) throw new Error(`${where}/${v.name}: no node at ${c.path}`);
            for (const [key, value] of Object.entries(c.keys)) {
              if (value === undefined) delete (node as Record<string, unknown>)[key];
              else (node as Record<string, unknown>)[key] = clone(value);
            }
          }
          touched++;
          return withTops(v, t);
        }));
        if (touched === 0) throw new Error(`${where}: ${c.op} ${c.path} matched no version`);
      }
    }
  }
  return out;
}

/* eslint-disable @typescript-eslint/no-require-imports */
const MODELS: Record<string, () => LineModel> = {
  'openkruise-1.8': () => require('./openkruise-1.8/model').MODEL,
  'openkruise-1.7': () => require('./openkruise-1.7/model').MODEL,
  'rollouts-0.5': () => require('./rollouts-0.5/model').MODEL,
};
/* eslint-enable @typescript-eslint/no-require-imports */

const built = new Map<string, KindModel[]>();

/** The kinds of one line of a product, every served version (the default line's are src/api's). */
export function kindsOfLine(product: Product, line: string): KindModel[] {
  const key = `${product}-${line}`;
  const hit = built.get(key);
  if (hit) return hit;
  const l = lineOf(product, line);
  if (!l) throw new Error(`no ${product} line ${line}`);
  let kinds: KindModel[];
  if (!l.newer) {
    kinds = product === 'rollouts' ? ROLLOUT_KINDS : KINDS;
  } else {
    const model = MODELS[key];
    if (!model) throw new Error(`no model for ${key}: add src/releases/${key}/model.ts and list it in MODELS`);
    kinds = applyChanges(kindsOfLine(product, l.newer), model().changes, key);
  }
  built.set(key, kinds);
  return kinds;
}

/** Every line of every product with its kinds, default lines first. */
export function everyLineModel(): Array<{ product: Product; line: string; folder?: string; kinds: KindModel[] }> {
  const out: Array<{ product: Product; line: string; folder?: string; kinds: KindModel[] }> = [];
  for (const product of ['openkruise', 'rollouts'] as Product[]) {
    for (const l of [...linesOf(product)].reverse()) out.push({ product, line: l.line, folder: l.folder, kinds: kindsOfLine(product, l.line) });
  }
  return out;
}

