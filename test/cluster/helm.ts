/**
 * The `helm` v3 binary (build-helm.sh: helm.sh/helm/v3 from the Go module
 * proxy) against the tier's cluster, and the openkruise/charts `kruise` chart
 * 1.9.1, the chart of the line the cluster runs.
 *
 * Where the chart comes from:
 * - `KRUISE_CHART_DIR`: the chart folder (`versions/kruise/1.9.1` of a
 *   checkout of openkruise/charts), installed as it is;
 * - otherwise the chart is assembled at run time, in a temporary folder, from
 *   `../shared/reference` only (no registry the tier may use serves the chart:
 *   it is neither a Go module nor an npm, PyPI, Maven or Debian package):
 *   - chart 1.9.1's own files: Chart.yaml, values.yaml and the templates
 *     webhookconfiguration.yaml, rbac_role.yaml and the ResourceDistribution
 *     and WorkloadSpread CRDs; chart 1.9.0's CloneSet, UnitedDeployment and
 *     PodUnavailableBudget CRD templates (each byte-identical to 1.9.0-alpha.3's);
 *   - stand-ins for the templates that could not be had (manager.yaml,
 *     _helpers.tpl, pre_delete_hook_job.yaml and 13 CRDs): the objects of
 *     chart 1.9.0-alpha.3's own rendering with its default values, one
 *     template each, the manager image turned back into the chart's
 *     `manager.image.repository`/`tag` values (so 1.9.1's values.yaml gives
 *     it v1.9.1). openkruise/charts' `versions/kruise/next`, which became
 *     1.9.0, keeps alpha.3's manager, helper and hook templates byte for byte.
 * Nothing of the chart is committed.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseAllDocuments, stringify } from 'yaml';
import { Kube } from './kube';
import {
  ALPHA3_RENDERING, CHART_1_9_0_TEMPLATES, CHART_1_9_1, CHART_1_9_1_TEMPLATES, CHART_1_9_1_VALUES, chartValues, matchKey, renderObjects,
} from '../control-plane/_chart-template';

export const CHART_VERSION = '1.9.1';
/** The files the chart is assembled from. */
export const CHART_SOURCES = [path.join(CHART_1_9_1, 'chart', 'Chart.yaml'), CHART_1_9_1_VALUES, ...CHART_1_9_1_TEMPLATES, ...CHART_1_9_0_TEMPLATES, ALPHA3_RENDERING];
/** The image alpha.3's manager template renders with its own values. */
const ALPHA3_IMAGE = 'openkruise/kruise-manager:v1.9.0-alpha3';

/** The helm binary (built on first use; the prebuild builds it in the background). */
export function helmBinary(): string {
  const script = path.join(__dirname, 'build-helm.sh');
  const r = spawnSync('bash', [script], { encoding: 'utf-8', timeout: 1_800_000 });
  if (r.status !== 0) throw new Error(`cluster tier: build-helm.sh failed: ${r.stderr.trim().split('\n').slice(-5).join('\n')}`);
  return r.stdout.trim().split('\n').pop()!;
}

/** Where the chart is, and what it is (the chart's own folder, or assembled). */
export interface ChartSource {
  readonly dir: string;
  readonly origin: string;
  /** The objects of the chart's own templates and of the stand-ins, by `Kind name`. */
  readonly standIns: string[];
}

/** The kruise chart 1.9.1 to install (see the file's comment). */
export function kruiseChart(): ChartSource {
  const own = process.env.KRUISE_CHART_DIR;
  if (own && fs.existsSync(path.join(own, 'Chart.yaml'))) return { dir: own, origin: `the chart folder ${own}`, standIns: [] };
  const missing = CHART_SOURCES.filter(f => !fs.existsSync(f));
  if (missing.length > 0) {
    throw new Error(`cluster tier: no kruise chart: set KRUISE_CHART_DIR to versions/kruise/${CHART_VERSION} of openkruise/charts, or keep ${missing.join(', ')} beside the clone`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tier-kruise-chart-'));
  fs.mkdirSync(path.join(dir, 'templates'));
  fs.copyFileSync(path.join(CHART_1_9_1, 'chart', 'Chart.yaml'), path.join(dir, 'Chart.yaml'));
  fs.copyFileSync(CHART_1_9_1_VALUES, path.join(dir, 'values.yaml'));
  const real = [...CHART_1_9_1_TEMPLATES, ...CHART_1_9_0_TEMPLATES];
  for (const f of real) fs.copyFileSync(f, path.join(dir, 'templates', path.basename(f)));
  // what the real templates render, with the default values: the stand-ins are the rest of alpha.3's rendering
  const covered = new Set(real.flatMap(f => renderObjects(f, chartValues())).map(matchKey));
  const standIns: string[] = [];
  const docs = parseAllDocuments(fs.readFileSync(ALPHA3_RENDERING, 'utf-8')).map(d => d.toJSON()).filter(x => x && x.kind);
  docs.filter(obj => !covered.has(matchKey(obj))).forEach((obj, i) => {
    const text = stringify(obj, { lineWidth: 0 }).split(`image: ${ALPHA3_IMAGE}`).join('image: "{{ .Values.manager.image.repository }}:{{ .Values.manager.image.tag }}"');
    fs.writeFileSync(path.join(dir, 'templates', `stand-in-${String(i).padStart(2, '0')}-${String(obj.kind).toLowerCase()}-${obj.metadata.name}.yaml`), text);
    standIns.push(`${obj.kind} ${obj.metadata.name}`);
  });
  return {
    dir,
    origin: `chart ${CHART_VERSION} assembled from ../shared/reference: its own Chart.yaml, values.yaml and ${real.length} templates (${real.map(f => path.basename(f)).join(', ')}), `
      + `and ${standIns.length} objects of chart 1.9.0-alpha.3's rendering standing in for the templates that could not be had`,
    standIns,
  };
}

/** Run helm against the tier's cluster, with its own config and cache folders; throws with its output when it fails. */
export function helm(kube: Kube, args: string[]): string {
  const home = path.join(kube.env.dir, 'helm');
  fs.mkdirSync(home, { recursive: true });
  const r = spawnSync(helmBinary(), args, {
    encoding: 'utf-8',
    timeout: 600_000,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      KUBECONFIG: kube.env.kubeconfig,
      HELM_CONFIG_HOME: path.join(home, 'config'),
      HELM_CACHE_HOME: path.join(home, 'cache'),
      HELM_DATA_HOME: path.join(home, 'data'),
    },
  });
  if (r.error || r.status !== 0) throw new Error(`cluster tier: helm ${args.join(' ')} failed (${r.status}): ${r.error?.message ?? ''}${r.stderr}${r.stdout}`);
  return r.stdout;
}
