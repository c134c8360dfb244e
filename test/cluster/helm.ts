/**
 * The `helm` v3 binary (build-helm.sh: helm.sh/helm/v3 from the Go module
 * proxy) against the tier's cluster, and the openkruise/charts `kruise` chart
 * of the line the cluster runs (1.9).
 *
 * Where the chart comes from, in order:
 * - `KRUISE_CHART_DIR`: the chart folder (`versions/kruise/<version>` of a
 *   checkout of openkruise/charts), installed as it is;
 * - `../shared/reference/kruise-chart-1.9.0-alpha.3/chart/`, the same folder
 *   kept beside the clone;
 * - otherwise the chart is assembled at run time, in a temporary folder,
 *   from `../shared/reference/kruise-chart-1.9.0-alpha.3/helm-template.yaml`
 *   (the chart's own rendering with its default values): one template per
 *   rendered object, the manager image turned back into the chart's
 *   `manager.image.repository`/`tag` values. No registry the tier may use
 *   serves the chart (it is neither a Go module, nor an npm, PyPI, Maven or
 *   Debian package), so a clean CI machine has only the rendering; the
 *   objects Helm installs are then those of the chart with its defaults.
 * Nothing of the chart is committed.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseAllDocuments, stringify } from 'yaml';
import { Kube } from './kube';
import { REFERENCE_DIR } from '../util/reference';

export const CHART_VERSION = '1.9.0-alpha.3';
export const CHART_REFERENCE = path.join(REFERENCE_DIR, `kruise-chart-${CHART_VERSION}`);
const RENDERING = path.join(CHART_REFERENCE, 'helm-template.yaml');
/** The image the chart's templates name with their default values. */
const CHART_IMAGE = 'openkruise/kruise-manager:v1.9.0-alpha3';

/** The helm binary (built on first use; the prebuild builds it in the background). */
export function helmBinary(): string {
  const script = path.join(__dirname, 'build-helm.sh');
  const r = spawnSync('bash', [script], { encoding: 'utf-8', timeout: 1_800_000 });
  if (r.status !== 0) throw new Error(`cluster tier: build-helm.sh failed: ${r.stderr.trim().split('\n').slice(-5).join('\n')}`);
  return r.stdout.trim().split('\n').pop()!;
}

/** Where the chart is, and what it is (the chart's own folder, or assembled from its rendering). */
export interface ChartSource {
  readonly dir: string;
  readonly origin: string;
}

/** The kruise chart to install (see the file's comment for the order). */
export function kruiseChart(): ChartSource {
  const own = process.env.KRUISE_CHART_DIR ?? path.join(CHART_REFERENCE, 'chart');
  if (fs.existsSync(path.join(own, 'Chart.yaml'))) return { dir: own, origin: `the chart folder ${own}` };
  if (!fs.existsSync(RENDERING)) {
    throw new Error(`cluster tier: no kruise chart: set KRUISE_CHART_DIR to versions/kruise/${CHART_VERSION} of openkruise/charts, or keep ${RENDERING} beside the clone`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tier-kruise-chart-'));
  fs.mkdirSync(path.join(dir, 'templates'));
  fs.writeFileSync(path.join(dir, 'Chart.yaml'), stringify({
    apiVersion: 'v1',
    name: 'kruise',
    version: CHART_VERSION.replace('alpha.', 'alpha'),
    appVersion: CHART_VERSION.replace('alpha.', 'alpha'),
    description: `the kruise chart ${CHART_VERSION}, assembled from its rendering with default values`,
  }));
  fs.writeFileSync(path.join(dir, 'values.yaml'), stringify({ manager: { image: { repository: 'openkruise/kruise-manager', tag: 'v1.9.0-alpha3' } } }));
  const docs = parseAllDocuments(fs.readFileSync(RENDERING, 'utf-8')).map(d => d.toJSON()).filter(x => x);
  docs.forEach((obj, i) => {
    const text = stringify(obj, { lineWidth: 0 }).split(`image: ${CHART_IMAGE}`).join('image: "{{ .Values.manager.image.repository }}:{{ .Values.manager.image.tag }}"');
    fs.writeFileSync(path.join(dir, 'templates', `${String(i).padStart(2, '0')}-${String(obj.kind).toLowerCase()}-${obj.metadata.name}.yaml`), text);
  });
  return { dir, origin: `assembled from ${path.relative(path.resolve(__dirname, '..', '..'), RENDERING)} (${docs.length} objects)` };
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
