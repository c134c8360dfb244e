/**
 * Our default Kruise Rollouts control plane against the kruise-rollout chart
 * 0.6.2 as chart.md describes its default rendering (rollout-chart.ts), object
 * by object and field by field. Every difference must be declared in
 * rollout-chart-differences.ts, every declared one must still occur, and the
 * table of docs/control-planes.md must be the one rendered from the declarations.
 *
 * Normalisations, all of which the API server makes too or which carry no
 * meaning: `null` fields are left-out fields; the order of a schema's
 * `required` list carries none; descriptions inside CRD schemas are
 * documentation only (the conformance test compares everything else of the
 * schemas).
 */
import * as fs from 'fs';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { CHART_OBJECTS, chartRendering } from './rollout-chart';
import { ROLLOUT_CHART_DIFFERENCES, RolloutDifferenceSite, rolloutDifferencesTable } from './rollout-chart-differences';
import { KruiseRolloutControlPlane, KruiseRolloutControlPlaneProps } from '../../src';
import { KRUISE_ROLLOUTS } from '../api/upstream';

const PAGE = path.resolve(__dirname, '..', '..', 'docs', 'control-planes.md');

interface Found {
  readonly object: string;
  readonly path: string;
  readonly ours: unknown;
  readonly chart: unknown;
}

const isObj = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const keyOf = (v: unknown) => (typeof v === 'string' && v.startsWith('--') ? v.split('=')[0] : isObj(v) && typeof v.name === 'string' ? v.name : undefined);

function normalise(v: unknown, inSchema = false, key = ''): unknown {
  if (Array.isArray(v)) {
    const items = v.map(x => normalise(x, inSchema));
    return inSchema && key === 'required' ? [...items].sort() : items;
  }
  if (!isObj(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (x === null) continue;
    if (inSchema && k === 'description' && typeof x === 'string') continue;
    out[k] = normalise(x, inSchema || k === 'openAPIV3Schema' || k === 'additionalPrinterColumns', k);
  }
  return out;
}

function diff(object: string, at: string, ours: unknown, chart: unknown, out: Found[]): void {
  if (isObj(ours) && isObj(chart)) {
    for (const k of new Set([...Object.keys(ours), ...Object.keys(chart)])) diff(object, at ? `${at}.${k}` : k, ours[k], chart[k], out);
    return;
  }
  if (Array.isArray(ours) && Array.isArray(chart) && [...ours, ...chart].every(x => keyOf(x) !== undefined)) {
    const a = new Map(ours.map(x => [keyOf(x)!, x]));
    const b = new Map(chart.map(x => [keyOf(x)!, x]));
    if (a.size === ours.length && b.size === chart.length) {
      for (const k of new Set([...a.keys(), ...b.keys()])) diff(object, `${at}[${k}]`, a.get(k), b.get(k), out);
      return;
    }
  }
  if (Array.isArray(ours) && Array.isArray(chart) && ours.length === chart.length && ours.some(isObj)) {
    ours.forEach((x, i) => diff(object, `${at}[${i}]`, x, chart[i], out));
    return;
  }
  if (!same(ours, chart)) out.push({ object, path: at, ours, chart });
}

const objectId = (m: any) => `${m.kind} ${m.metadata?.namespace ? `${m.metadata.namespace}/` : ''}${m.metadata?.name}`;

function compare(ours: any[], chart: any[]): Found[] {
  const out: Found[] = [];
  const byId = new Map(chart.map(m => [objectId(m), m]));
  for (const m of ours) {
    const c = byId.get(objectId(m));
    if (c) diff(objectId(m), '', normalise(m), normalise(c), out);
    else out.push({ object: objectId(m), path: '', ours: m, chart: undefined });
  }
  const ourIds = new Set(ours.map(objectId));
  for (const c of chart) if (!ourIds.has(objectId(c))) out.push({ object: objectId(c), path: '', ours: undefined, chart: c });
  return out;
}

const pattern = (p: string, segment: boolean) => new RegExp(`^${p.split(/(\*\*|\*)/).map(part => (part === '**' ? '.*' : part === '*' ? (segment ? '[^.\\[\\]]*' : '.*') : part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))).join('')}$`);

function matches(site: RolloutDifferenceSite, f: Found): boolean {
  if (!pattern(site.objects, false).test(f.object) || !pattern(site.path, true).test(f.path)) return false;
  if (site.accepts) return site.accepts(f.ours, f.chart);
  return (!('ours' in site) || same(site.ours, f.ours)) && (!('chart' in site) || same(site.chart, f.chart));
}

function valueAt(obj: unknown, p: string): unknown {
  let v: unknown = obj;
  for (const [, field, key] of p.matchAll(/([^.[\]]+)|\[([^\]]*)\]/g)) {
    if (field !== undefined) v = isObj(v) ? v[field] : undefined;
    else if (Array.isArray(v)) v = v.find(x => keyOf(x) === key) ?? (/^\d+$/.test(key) ? v[Number(key)] : undefined);
    else v = undefined;
  }
  return v;
}

function synth(props?: KruiseRolloutControlPlaneProps): any[] {
  const chart = new Chart(Testing.app(), 'rollout');
  new KruiseRolloutControlPlane(chart, 'rollout', props);
  return Testing.synth(chart);
}

const show = (v: unknown) => {
  const s = JSON.stringify(v);
  return s === undefined ? 'absent' : s.length > 160 ? `${s.slice(0, 160)}…` : s;
};
const line = (f: Found) => `${f.object}${f.path ? ` ${f.path}` : ' (whole object)'}: ours ${show(f.ours)}, chart ${show(f.chart)}`;
const SITES = ROLLOUT_CHART_DIFFERENCES.flatMap(d => (d.sites ?? []).map(site => ({ title: d.title, site })));

KRUISE_ROLLOUTS.describe('parity with the kruise-rollout chart 0.6.2', () => {
  const chart = chartRendering();
  const found = compare(synth(), chart);

  test('the chart renders the 16 objects of chart.md §1, and we render them all', () => {
    expect(chart.map(objectId).sort()).toEqual([...CHART_OBJECTS].sort());
    const ours = synth().map(objectId);
    for (const id of CHART_OBJECTS) expect(ours).toContain(id);
  });

  test('every difference from the chart is declared', () => {
    expect(found.filter(f => !SITES.some(({ site }) => matches(site, f))).map(line)).toEqual([]);
  });

  test.each(SITES.map(({ title, site }, i) => [`${title} #${i}`, site] as const))('the declared difference "%s" still occurs', (_t, site) => {
    expect(found.filter(f => matches(site, f)).length).toBeGreaterThan(0);
  });

});

// These need no reference material: they run whether or not the chart's CRDs are beside the project.
describe('the declared differences from the kruise-rollout chart', () => {
  test.each(ROLLOUT_CHART_DIFFERENCES.flatMap(d => (d.optionSites ?? []).map((s, i) => [`${d.title} #${i}`, s] as const)))('option difference "%s"', (_t, site) => {
    const obj = synth(site.props).find(m => pattern(site.objects, false).test(objectId(m)));
    expect(obj).toBeDefined();
    expect(valueAt(obj, site.path)).toEqual(site.ours);
  });

  test('every entry says where it occurs, with a value for each side', () => {
    for (const d of ROLLOUT_CHART_DIFFERENCES) {
      expect(`${d.title}: ${(d.sites?.length ?? 0) + (d.optionSites?.length ?? 0)}`).not.toMatch(/: 0$/);
      expect([d.chart, d.ours, d.why].every(s => s.trim().length > 0)).toBe(true);
    }
  });

  test('are the table "Where we differ from the kruise-rollout chart" of docs/control-planes.md', () => {
    expect(fs.readFileSync(PAGE, 'utf-8')).toContain(rolloutDifferencesTable());
  });
});
