/**
 * Chart 1.9.1's templates read as data: the few Go template actions its
 * webhook, RBAC and CRD templates use (a value, `if` on a value or on
 * `contains`, `not`, `toYaml ... | indent/nindent`, `end`, and the `-` trim
 * markers) evaluated over the chart's values. Any other action throws, so a
 * template that needs more than this is noticed, never misread. The real
 * helm binary renders the same templates in chart-template.test.ts (when the
 * cluster tier has built it) and on the real node (test/cluster/helm.ts), and
 * both hold its output equal to this reading.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { REFERENCE_DIR } from '../util/reference';

/** ../shared/reference/kruise-chart-1.9.1/: chart 1.9.1's files, and 1.9.0's where 1.9.1's could not be had. */
export const CHART_1_9_1 = path.join(REFERENCE_DIR, 'kruise-chart-1.9.1');
/** The chart 1.9.1 templates that exist, by file name. */
export const CHART_1_9_1_TEMPLATES = ['webhookconfiguration.yaml', 'rbac_role.yaml', 'apps.kruise.io_resourcedistributions.yaml', 'apps.kruise.io_workloadspreads.yaml']
  .map(f => path.join(CHART_1_9_1, 'chart', 'templates', f));
/** The chart 1.9.0 CRD templates that exist (each byte-identical to 1.9.0-alpha.3's, README of the folder). */
export const CHART_1_9_0_TEMPLATES = ['apps.kruise.io_clonesets.yaml', 'apps.kruise.io_uniteddeployments.yaml', 'policy.kruise.io_podunavailablebudgets.yaml']
  .map(f => path.join(CHART_1_9_1, 'chart-1.9.0-partial', 'templates', f));
export const CHART_1_9_1_VALUES = path.join(CHART_1_9_1, 'chart', 'values.yaml');

type Json = any;

function lookup(values: Json, ref: string, template: string): Json {
  if (!ref.startsWith('.Values.')) throw new Error(`${template}: ${ref} is not a chart value`);
  return ref.slice('.Values.'.length).split('.').reduce((v, k) => (v === undefined || v === null ? undefined : v[k]), values);
}

/** Go template truth: false, 0, nil and empty strings, maps and lists are false. */
function truthy(v: Json): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

/** Helm's toYaml: keys sorted, no trailing newline. */
function toYaml(v: Json): string {
  return stringify(v, { sortMapEntries: true, lineWidth: 0 }).replace(/\n$/, '');
}

function evaluate(expr: string, values: Json, template: string): Json {
  const e = expr.trim();
  let m = /^not\s+\((.+)\)$/.exec(e);
  if (m) return !truthy(evaluate(m[1], values, template));
  m = /^\(?\s*contains\s+"([^"]*)"\s+(\.Values\.[\w.]+)\s*\)?$/.exec(e);
  if (m) return String(lookup(values, m[2], template) ?? '').includes(m[1]);
  m = /^toYaml\s+(\.Values\.[\w.]+)\s*\|\s*(n?indent)\s+(\d+)$/.exec(e);
  if (m) {
    const pad = ' '.repeat(Number(m[3]));
    const indented = toYaml(lookup(values, m[1], template)).split('\n').map(l => pad + l).join('\n');
    return m[2] === 'nindent' ? `\n${indented}` : indented;
  }
  if (/^\.Values\.[\w.]+$/.test(e)) return lookup(values, e, template);
  throw new Error(`${template}: the action {{ ${e} }} is not one this reading evaluates`);
}

/** One template rendered over `values`, as text. */
export function renderTemplate(text: string, values: Json, template = 'template'): string {
  // the lexer's part: split into text and actions, and apply the trim markers to the neighbouring text
  const nodes: Array<{ text?: string; action?: string }> = [];
  for (const part of text.split(/(\{\{-?[\s\S]*?-?\}\})/)) {
    const action = /^\{\{(-?)([\s\S]*?)(-?)\}\}$/.exec(part);
    if (!action) {
      nodes.push({ text: part });
      continue;
    }
    const [, left, body, right] = action;
    const before = nodes[nodes.length - 1];
    if (left === '-' && before?.text !== undefined) before.text = before.text.replace(/\s+$/, '');
    nodes.push({ action: body.trim() });
    if (right === '-') nodes.push({ text: '', action: 'trim-next' });
  }
  for (let i = 0; i < nodes.length; i++) {
    if (nodes[i].action === 'trim-next' && nodes[i + 1]?.text !== undefined) nodes[i + 1].text = nodes[i + 1].text!.replace(/^\s+/, '');
  }
  // the evaluation
  const out: string[] = [];
  const stack: boolean[] = [];
  const emitting = () => stack.every(x => x);
  for (const n of nodes) {
    if (n.action === 'trim-next') continue;
    if (n.text !== undefined) {
      if (emitting()) out.push(n.text);
      continue;
    }
    const b = n.action!;
    if (b.startsWith('if ')) {
      stack.push(emitting() ? truthy(evaluate(b.slice(3), values, template)) : false);
    } else if (b === 'end') {
      if (stack.length === 0) throw new Error(`${template}: {{ end }} without an open if`);
      stack.pop();
    } else if (emitting()) {
      const v = evaluate(b, values, template);
      out.push(typeof v === 'string' ? v : String(v));
    }
  }
  if (stack.length > 0) throw new Error(`${template}: ${stack.length} if left open`);
  return out.join('');
}

/** Chart 1.9.1's values.yaml, with `overrides` merged in (maps key by key). */
export function chartValues(overrides: Json = {}): Json {
  const merge = (a: Json, b: Json): Json => {
    if (typeof a !== 'object' || a === null || Array.isArray(a) || typeof b !== 'object' || b === null || Array.isArray(b)) return b;
    const out = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = merge(a[k], v);
    return out;
  };
  return merge(parse(fs.readFileSync(CHART_1_9_1_VALUES, 'utf-8')), overrides);
}

/** The objects a template file renders over the values. */
export function renderObjects(file: string, values: Json): Json[] {
  const text = renderTemplate(fs.readFileSync(file, 'utf-8'), values, path.basename(file));
  return parseAllDocuments(text).map(d => d.toJS()).filter(o => o && typeof o === 'object');
}

/** 1.9.0-alpha.3's own rendering, which stands in for the chart 1.9.1 templates that could not be had. */
export const ALPHA3_RENDERING = path.join(REFERENCE_DIR, 'kruise-chart-1.9.0-alpha.3', 'helm-template.yaml');
/** The image alpha.3's manager template renders with its own values. */
const ALPHA3_IMAGE = 'openkruise/kruise-manager:v1.9.0-alpha3';

const groupOf = (m: Json) => (String(m.apiVersion).includes('/') ? String(m.apiVersion).split('/')[0] : '');
/** How two renderings' objects are matched: API group, kind, namespace and name. */
export const matchKey = (m: Json) => `${groupOf(m)}/${m.kind}/${m.metadata?.namespace ?? ''}/${m.metadata?.name}`;
/** `Kind namespace/name` (`Kind name` when cluster-scoped), as differences and origins name objects. */
export const objectId = (m: Json) => `${m.kind} ${m.metadata?.namespace ? `${m.metadata.namespace}/` : ''}${m.metadata?.name}`;

/**
 * Chart 1.9.1 rendered with its values (default values, with `overrides`),
 * as far as its files go: the objects of its own templates (and of chart
 * 1.9.0's CRD templates), then, in 1.9.0-alpha.3's order, the rest of
 * alpha.3's rendering with the manager image of 1.9.1's values. `origin`
 * says, per object (`Kind namespace/name`), which it is.
 */
export function chart191Objects(overrides: Json = {}): { objects: Json[]; origin: Map<string, string> } {
  const values = chartValues(overrides);
  const own = new Map<string, { obj: Json; origin: string }>();
  for (const [file, chart] of [...CHART_1_9_1_TEMPLATES.map(f => [f, '1.9.1'] as const), ...CHART_1_9_0_TEMPLATES.map(f => [f, '1.9.0'] as const)]) {
    for (const obj of renderObjects(file, values)) own.set(matchKey(obj), { obj, origin: `chart ${chart} templates/${path.basename(file)}` });
  }
  const image = `${values.manager.image.repository}:${values.manager.image.tag}`;
  const objects: Json[] = [];
  const origin = new Map<string, string>();
  const alpha3 = parseAllDocuments(fs.readFileSync(ALPHA3_RENDERING, 'utf-8')).map(d => d.toJS()).filter(o => o && typeof o === 'object');
  for (const o of alpha3) {
    const mine = own.get(matchKey(o));
    if (mine) {
      own.delete(matchKey(o));
      objects.push(mine.obj);
      origin.set(objectId(mine.obj), mine.origin);
      continue;
    }
    const stand = JSON.parse(JSON.stringify(o).split(ALPHA3_IMAGE).join(image));
    objects.push(stand);
    origin.set(objectId(stand), 'chart 1.9.0-alpha.3\'s rendering, standing in');
  }
  if (own.size > 0) throw new Error(`chart 1.9.1 renders objects 1.9.0-alpha.3 does not: ${[...own.keys()].join(', ')}`);
  return { objects, origin };
}
