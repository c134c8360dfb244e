/**
 * The control plane of each line against that line's chart rendered with its
 * default values, object by object and field by field: for the default
 * control plane chart 1.9.1 as far as its files could be had (its webhook
 * and RBAC templates and five CRD templates, read as data by
 * _chart-template.ts, with its values.yaml; the other objects from
 * 1.9.0-alpha.3's own rendering, ../shared/reference/kruise-chart-1.9.0-alpha.3,
 * whose templates 1.9.1 keeps, with 1.9.1's image); for `release: '1.8'` and
 * `'1.7'` the own renderings of charts 1.8.3 and 1.7.5. Every
 * difference must be declared in chart-differences.ts, every declared
 * difference must still occur, and the tables of docs/control-planes.md must
 * be the ones rendered from the declarations.
 *
 * Two normalisations, both of which the API server makes too: a field set to
 * `null` is a field left out, and the order of an OpenAPI `required` list
 * carries no meaning.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { CHART_1_9_0_TEMPLATES, CHART_1_9_1_TEMPLATES, CHART_1_9_1_VALUES, chart191Objects, matchKey, objectId } from './_chart-template';
import { DifferenceSite, KruiseLine, LINE_CHART, chartDifferences, differencesTable } from './chart-differences';
import { KruiseControlPlane, KruiseControlPlaneProps } from '../../src';
import { REFERENCE_DIR, describeWithReference } from '../util/reference';

const rendering = (line: KruiseLine) => path.join(REFERENCE_DIR, `kruise-chart-${line === '1.9' ? '1.9.0-alpha.3' : LINE_CHART[line]}`, 'helm-template.yaml');
/** The files each line's chart side is made of. */
const SOURCES: Record<KruiseLine, string[]> = {
  1.9: [rendering('1.9'), CHART_1_9_1_VALUES, ...CHART_1_9_1_TEMPLATES, ...CHART_1_9_0_TEMPLATES],
  1.8: [rendering('1.8')],
  1.7: [rendering('1.7')],
};
/** The chart side of a line: its objects, and where each comes from. */
function chartSide(line: KruiseLine): { objects: any[]; origin: Map<string, string> } {
  if (line === '1.9') return chart191Objects();
  const objects: any[] = parseAllDocuments(fs.readFileSync(rendering(line), 'utf-8')).map(d => d.toJS()).filter(isObj);
  return { objects, origin: new Map(objects.map(o => [objectId(o), `chart ${LINE_CHART[line]}'s own rendering`])) };
}
/** Objects of each chart's rendering: 18, 17, 17 CRDs; 1.7's chart has no aggregated ClusterRoles. */
const OBJECTS: Record<KruiseLine, number> = { 1.9: 47, 1.8: 46, 1.7: 43 };
const LINES: KruiseLine[] = ['1.9', '1.8', '1.7'];
/** The heading above each line's table in docs/control-planes.md. */
const HEADING: Record<KruiseLine, string> = {
  1.9: '### Where we differ from the kruise chart, on purpose',
  1.8: '#### 1.8: where we differ from the kruise chart 1.8.3',
  1.7: '#### 1.7: where we differ from the kruise chart 1.7.5',
};
const PAGE = path.resolve(__dirname, '..', '..', 'docs', 'control-planes.md');

/** One difference found: the object, the field path, and the value on each side (`undefined`: absent). */
interface Found {
  readonly object: string;
  readonly path: string;
  readonly ours: unknown;
  readonly chart: unknown;
  readonly ourObject: any;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const isScalar = (v: unknown) => !isObj(v) && !Array.isArray(v);
const flagKey = (v: unknown) => (typeof v === 'string' && v.startsWith('--') ? v.split('=')[0] : undefined);
const nameKey = (v: unknown) => (isObj(v) && typeof v.name === 'string' ? v.name : undefined);

/** The list as a map by key, or undefined when an element has no key or two share one. */
function keyed(list: readonly unknown[], keyOf: (v: unknown) => string | undefined): Map<string, unknown> | undefined {
  const m = new Map<string, unknown>();
  for (const v of list) {
    const k = keyOf(v);
    if (k === undefined || m.has(k)) return undefined;
    m.set(k, v);
  }
  return m;
}

/** Drops `null` fields and sorts OpenAPI `required` lists (see the header). */
function normalise(v: unknown, key = ''): unknown {
  if (Array.isArray(v)) {
    const items = v.map(x => normalise(x));
    return key === 'required' && items.every(x => typeof x === 'string') ? [...items].sort() : items;
  }
  if (!isObj(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = normalise(x, k);
  return out;
}

/** Structural diff of two values, appending one `Found` per differing leaf. */
function diff(ctx: { object: string; ourObject: any }, at: string, ours: unknown, chart: unknown, out: Found[]) {
  const push = (p: string, a: unknown, b: unknown) => out.push({ object: ctx.object, path: p, ours: a, chart: b, ourObject: ctx.ourObject });
  if (isObj(ours) && isObj(chart)) {
    for (const k of new Set([...Object.keys(ours), ...Object.keys(chart)])) diff(ctx, at ? `${at}.${k}` : k, ours[k], chart[k], out);
    return;
  }
  if (Array.isArray(ours) && Array.isArray(chart)) {
    for (const keyOf of [flagKey, nameKey]) {
      const a = keyed(ours, keyOf);
      const b = keyed(chart, keyOf);
      if (!a || !b || a.size + b.size === 0) continue;
      for (const k of new Set([...a.keys(), ...b.keys()])) diff(ctx, `${at}[${k}]`, a.get(k), b.get(k), out);
      // keyed lists of objects (containers, webhooks, CRD versions) keep their order
      const orderOurs = [...a.keys()].filter(k => b.has(k));
      const orderChart = [...b.keys()].filter(k => a.has(k));
      if (keyOf === nameKey && !same(orderOurs, orderChart)) push(`${at}(order)`, orderOurs, orderChart);
      return;
    }
    if (ours.every(isScalar) && chart.every(isScalar)) {
      if (!same(ours, chart)) push(at, ours, chart);
      return;
    }
    for (let i = 0; i < Math.max(ours.length, chart.length); i++) diff(ctx, `${at}[${i}]`, ours[i], chart[i], out);
    return;
  }
  if (!same(ours, chart)) push(at, ours, chart);
}


/** Every difference between two sets of manifests, objects matched by API group, kind, namespace and name. */
function compare(ours: any[], chart: any[]): Found[] {
  const out: Found[] = [];
  const chartByKey = new Map(chart.map(m => [matchKey(m), m]));
  const ourKeys = new Set(ours.map(matchKey));
  for (const m of ours) {
    const c = chartByKey.get(matchKey(m));
    if (c) diff({ object: objectId(m), ourObject: m }, '', normalise(m), normalise(c), out);
    else out.push({ object: objectId(m), path: '', ours: m, chart: undefined, ourObject: m });
  }
  for (const c of chart) {
    if (!ourKeys.has(matchKey(c))) out.push({ object: objectId(c), path: '', ours: undefined, chart: c, ourObject: undefined });
  }
  return out;
}

function escape(s: string): string {
  return s.replace(/[.+?^${}()|\\/]/g, '\\$&');
}

/** `*` any characters. */
function objectPattern(p: string): RegExp {
  return new RegExp(`^${p.split('*').map(s => escape(s).replace(/[[\]]/g, '\\$&')).join('.*')}$`);
}

/** `[*]` any key, `**` any characters, `*` within one segment. */
function pathPattern(p: string): RegExp {
  let re = '';
  for (let i = 0; i < p.length;) {
    if (p.startsWith('[*]', i)) { re += '\\[[^\\]]*\\]'; i += 3; } else if (p.startsWith('**', i)) { re += '.*'; i += 2; } else if (p[i] === '*') {
      re += '[^.\\[\\]]*'; i += 1;
    } else { re += /[[\]]/.test(p[i]) ? `\\${p[i]}` : escape(p[i]); i += 1; }
  }
  return new RegExp(`^${re}$`);
}

/** Whether `f` is the difference `site` declares: object, path and values. */
function matches(site: DifferenceSite, f: Found): boolean {
  const objects = typeof site.objects === 'string' ? [site.objects] : site.objects;
  if (!objects.some(o => objectPattern(o).test(f.object))) return false;
  if (!pathPattern(site.path).test(f.path)) return false;
  if (site.accepts) return site.accepts(f.ours, f.chart, f.ourObject);
  if (f.path === '') {
    // a whole object: `ours: undefined` declares one the chart alone has, `chart: undefined` one we alone have
    return 'ours' in site ? f.ours === undefined : f.chart === undefined;
  }
  return (!('ours' in site) || same(site.ours, f.ours)) && (!('chart' in site) || same(site.chart, f.chart));
}

/** The value at a path in the diff's notation (`[key]` looks a list up by name, flag or index). */
function valueAt(obj: unknown, p: string): unknown {
  let v: unknown = obj;
  for (const [, field, key] of p.matchAll(/([^.[\]]+)|\[([^\]]*)\]/g)) {
    if (field !== undefined) v = isObj(v) ? v[field] : undefined;
    else if (Array.isArray(v)) v = v.find(x => nameKey(x) === key || flagKey(x) === key) ?? (/^\d+$/.test(key) ? v[Number(key)] : undefined);
    else v = undefined;
  }
  return v;
}

function synth(line: KruiseLine, props?: KruiseControlPlaneProps): any[] {
  const app = Testing.app();
  const chart = new Chart(app, 'kruise');
  // the default line's control plane is the one without a release prop
  new KruiseControlPlane(chart, 'kruise', line === '1.9' ? props : { release: line, ...props });
  return Testing.synth(chart);
}

const show = (v: unknown) => {
  const s = JSON.stringify(v);
  if (s === undefined) return 'absent';
  return s.length > 160 ? `${s.slice(0, 160)}…` : s;
};
const line = (f: Found) => `${f.object}${f.path ? ` ${f.path}` : ' (whole object)'}: ours ${show(f.ours)}, chart ${show(f.chart)}`;

const sitesOf = (l: KruiseLine) => chartDifferences(l).flatMap(d => (d.sites ?? []).map(site => ({ title: d.title, site })));

describe.each(LINES)('OpenKruise %s', kruiseLine => {
  const SITES = sitesOf(kruiseLine);
  describeWithReference(`parity with the kruise chart ${LINE_CHART[kruiseLine]} rendered with its default values`, SOURCES[kruiseLine], () => {
    const side = chartSide(kruiseLine);
    const chart = side.objects;
    const found = compare(synth(kruiseLine), chart);

    if (kruiseLine === '1.9') {
      test('what of chart 1.9.1 is compared from its own files, and what stands in for the files that could not be had', () => {
        const by = new Map<string, string[]>();
        for (const [object, origin] of side.origin) by.set(origin, [...(by.get(origin) ?? []), object]);
        const count = (origin: string) => (by.get(origin) ?? []).length;
        // chart 1.9.1's own templates: both webhook configurations, the 15 RBAC objects, two CRDs; chart 1.9.0's: three CRDs
        expect(count('chart 1.9.1 templates/webhookconfiguration.yaml')).toBe(2);
        expect(count('chart 1.9.1 templates/rbac_role.yaml')).toBe(15);
        expect(count('chart 1.9.1 templates/apps.kruise.io_resourcedistributions.yaml') + count('chart 1.9.1 templates/apps.kruise.io_workloadspreads.yaml')).toBe(2);
        expect(['clonesets', 'uniteddeployments', 'podunavailablebudgets'].map(p => count(`chart 1.9.0 templates/${p.startsWith('pod') ? 'policy' : 'apps'}.kruise.io_${p}.yaml`))).toEqual([1, 1, 1]);
        // not compared with chart 1.9.1: the manager, daemon, namespaces, Service, Secret, ServiceAccounts, 13 CRDs and the hook (its
        // manager.yaml, _helpers.tpl, pre_delete_hook_job.yaml and those CRD templates could not be had; 1.9.0-alpha.3's stand in, with 1.9.1's values.yaml)
        expect((by.get('chart 1.9.0-alpha.3\'s rendering, standing in') ?? []).sort()).toEqual([
          'ClusterRole kruise-helm-hook-role', 'ClusterRoleBinding kruise-helm-hook-rolebinding',
          ...['advancedcronjobs', 'broadcastjobs', 'containerrecreaterequests', 'daemonsets', 'ephemeraljobs', 'imagelistpulljobs', 'imagepulljobs',
            'nodeimages', 'nodepodprobes', 'persistentpodstates', 'podprobemarkers', 'sidecarsets', 'statefulsets'].map(p => `CustomResourceDefinition ${p}.apps.kruise.io`),
          'DaemonSet kruise-system/kruise-daemon', 'Deployment kruise-system/kruise-controller-manager', 'Job kruise-system/kruise-finalizer',
          'Namespace kruise-daemon-config', 'Namespace kruise-system', 'Secret kruise-system/kruise-webhook-certs',
          'Service kruise-system/kruise-webhook-service', 'ServiceAccount kruise-system/kruise-daemon', 'ServiceAccount kruise-system/kruise-helm-hook',
          'ServiceAccount kruise-system/kruise-manager',
        ].sort());
        expect(chart.find(m => m.kind === 'Deployment').spec.template.spec.containers[0].image).toBe('openkruise/kruise-manager:v1.9.1');
      });

      test('aksIntegration: true writes the namespaceSelector terms chart 1.9.1 writes with webhookConfiguration.aksIntegration=true, on the same webhooks', () => {
        const configs = (ms: any[]) => ms.filter(m => m.kind.endsWith('WebhookConfiguration'));
        const chartAks = configs(chart191Objects({ webhookConfiguration: { aksIntegration: true } }).objects);
        const oursAks = configs(synth('1.9', { aksIntegration: true }));
        const differences = compare(oursAks, chartAks);
        expect(differences.filter(f => !SITES.some(({ site }) => matches(site, f))).map(line)).toEqual([]);
        // the comparison can see the terms: 37 webhooks carry AKS's managedby term on both sides, none without the value
        const aks = (ms: any[]) => configs(ms).flatMap(c => c.webhooks).filter((w: any) => JSON.stringify(w.namespaceSelector ?? {}).includes('kubernetes.azure.com/managedby'));
        expect([aks(oursAks).length, aks(chartAks).length, aks(configs(synth('1.9'))).length, aks(configs(chart)).length]).toEqual([37, 37, 0, 0]);
      });
    }

    test(`the rendering is the ${OBJECTS[kruiseLine]} objects of the chart, the four pre-delete hook objects among them`, () => {
      expect(chart).toHaveLength(OBJECTS[kruiseLine]);
      expect(chart.filter(m => m.metadata?.annotations?.['helm.sh/hook'] === 'pre-delete')).toHaveLength(4);
    });

    test('every difference from the chart is declared', () => {
      const undeclared = found.filter(f => !SITES.some(({ site }) => matches(site, f)));
      expect(undeclared.map(line)).toEqual([]);
    });

    test.each(SITES.map(({ title, site }, i) => [`${title} #${i}`, site] as const))('the declared difference "%s" still occurs', (_title, site) => {
      const hits = found.filter(f => matches(site, f));
      if (site.count !== undefined) expect(hits.map(line)).toHaveLength(site.count);
      else expect(hits.length).toBeGreaterThan(0);
    });

    test('the diff reports a changed field by its path, and an object of one side only', () => {
    // the test's own machinery, on a copy of a chart object: it must be able to fail
      const manager = chart.find(m => m.kind === 'Deployment');
      const changed = JSON.parse(JSON.stringify(manager));
      changed.spec.template.spec.containers[0].imagePullPolicy = 'IfNotPresent';
      changed.spec.template.spec.containers[0].args.push('--extra=1');
      expect(compare([changed, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'n' } }], [manager]).map(f => `${f.object} ${f.path}`)).toEqual([
        'Deployment kruise-system/kruise-controller-manager spec.template.spec.containers[manager].args[--extra]',
        'Deployment kruise-system/kruise-controller-manager spec.template.spec.containers[manager].imagePullPolicy',
        'ConfigMap n/x ',
      ]);
    });
  });

  describe('differences that depend on a value', () => {
    const options = chartDifferences(kruiseLine).flatMap(d => (d.optionSites ?? []).map(site => [d.title, site] as const));
    test.each(options)('%s', (_title, site) => {
      const hit = synth(kruiseLine, site.props).filter(m => objectPattern(site.objects).test(objectId(m)));
      expect(hit).toHaveLength(1);
      expect(valueAt(hit[0], site.path)).toEqual(site.ours);
    });
  });

  describe('the declared differences from the kruise chart', () => {
    test('every entry says where it occurs, with a value for each side', () => {
      const differences = chartDifferences(kruiseLine);
      for (const d of differences) {
        expect(`${d.title}: ${(d.sites?.length ?? 0) + (d.optionSites?.length ?? 0)}`).not.toMatch(/: 0$/);
        expect([d.chart, d.ours, d.why].every(s => s.trim().length > 0)).toBe(true);
      }
      expect(new Set(differences.map(d => d.title)).size).toBe(differences.length);
    });

    test(`are the table "${HEADING[kruiseLine].replace(/^#+ /, '')}" of docs/control-planes.md`, () => {
      const page = fs.readFileSync(PAGE, 'utf-8');
      const start = page.indexOf(HEADING[kruiseLine]);
      expect(start).toBeGreaterThan(-1);
      const lines = page.slice(start).split('\n');
      const first = lines.findIndex(l => l.startsWith('|'));
      const table = lines.slice(first, lines.findIndex((l, i) => i > first && !l.startsWith('|'))).join('\n');
      // on failure: paste the expected table (differencesTable(kruiseLine)) into docs/control-planes.md
      expect(table).toEqual(differencesTable(kruiseLine));
      for (const d of chartDifferences(kruiseLine)) expect(table).toContain(`| ${d.title.replace(/\|/g, '\\|')} |`);
    });
  });
});
