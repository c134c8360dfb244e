/**
 * Argo CD's sync for real, on the real node: gitops-engine (the library Argo
 * CD's application controller syncs with, at the commit test/argocd/go.mod
 * names) syncs the docs' Argo CD recipe as an Application would: the whole
 * cdk8s app (control plane with `argoCdSyncWaves`, a SidecarSet, two
 * CloneSets) in one Application, the docs' syncOptions (ServerSideApply,
 * field manager argocd-controller) and ignoreDifferences, and argocd-cm's
 * health scripts (`cdk8s-kruise health --argocd`) judging each wave, run by
 * Argo CD's own Lua VM. After each sync, Argo CD's own comparison
 * (util/argo/diff, as the controller's CompareAppState makes it) says what is
 * still out of sync.
 *
 * - A fresh install in waves: CRDs and Namespaces, then the control plane,
 *   the policies once kruise-manager is Healthy, then the workloads.
 * - The next syncs: nothing out of sync and no object changed, after
 *   kruise-manager wrote what it writes at runtime.
 * - An app removed from the manifests is pruned.
 * - A release of the kruise chart installed with `helm install`, then synced
 *   from git as the docs say (the release record deleted, Helm's fields
 *   handed to argocd-controller, a sync with ServerSideApply): every field of
 *   the manifests is argocd-controller's, nothing of Helm is left, and the
 *   next sync finds nothing out of sync.
 *
 * It runs after `0-0-flux` on a node without OpenKruise and leaves the node
 * without it again, for the Helm takeover of `0-aboard-1-helm`.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart, Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { parse, parseAllDocuments } from 'yaml';
import * as lib from '../../../src';
import { main as cli } from '../../../src/cli';
import { sync, SyncOutcome } from '../../argocd/engine';
import { helm, kruiseChart } from '../helm';
import { Kube, Manifest, describeObject } from '../kube';
import {
  KRUISE_NAMESPACE, isReady, nodeControlPlaneProps, podFacts, podsOf, requireRealNode, serverContainer, tierImage, until,
  waitDaemonSetReady, waitDeploymentAvailable,
} from '../node';
import { synthApp } from '../sources';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const APP_NS = 'argocd-apps';
let kube: Kube;
/** argocd-cm's data: the health scripts (and actions) of the docs' recipe. */
let data: Record<string, string>;
/** The Application's spec of the docs' recipe: ignoreDifferences and syncOptions. */
let recipe: { ignoreDifferences: unknown[]; syncOptions: string[]; compareOptions: string };

const env = () => ({ ...process.env, KUBECONFIG: kube.env.kubeconfig });

beforeAll(async () => {
  requireRealNode();
  kube = new Kube();
  if ((await kube.request('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/clonesets.apps.kruise.io')).status !== 404) {
    throw new Error('cluster tier: the Argo CD file proves a fresh install, so it runs on a node without OpenKruise (after 0-0-flux, before the 0-aboard files)');
  }
  let out = '';
  expect(cli(['health', '--argocd'], { out: t => { out += t; }, err: t => { throw new Error(t); } })).toBe(0);
  data = parse(out).data;
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'control-planes.md'), 'utf8');
  const block = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map(m => m[1]).find(b => b.includes('ignoreDifferences:'))!;
  const application = parse(block);
  const spec = application.spec;
  recipe = {
    ignoreDifferences: spec.ignoreDifferences,
    syncOptions: spec.syncPolicy.syncOptions,
    compareOptions: application.metadata?.annotations?.['argocd.argoproj.io/compare-options'] ?? '',
  };
}, 120_000);

afterAll(() => kube?.close());

/** The whole app as one Application holds it: the control plane with sync waves, the shop, and the api unless removed. */
function manifests(o: { image: string; withApi: boolean }): Manifest[] {
  return synthApp('Argo CD app', (app: App) => {
    new lib.KruiseControlPlane(new Chart(app, 'kruise'), 'kruise', nodeControlPlaneProps({ argoCdSyncWaves: true }));
    new kplus.Namespace(new Chart(app, 'namespaces'), 'apps', { metadata: { name: APP_NS } });
    const shop = new Chart(app, 'shop', { namespace: APP_NS });
    new lib.SidecarSet(shop, 'log', {
      metadata: { name: 'argocd-log' },
      selector: kplus.LabelSelector.of({ labels: { mesh: 'argocd' } }),
      namespace: APP_NS,
      containers: [{ ...serverContainer('server:v1', { name: 'log', port: 9090 }), portNumber: undefined, startup: undefined }],
    });
    new lib.CloneSet(shop, 'web', {
      metadata: { name: 'web' },
      replicas: 2,
      podMetadata: { labels: { app: 'web', mesh: 'argocd' } },
      containers: [{
        ...serverContainer(o.image),
        readiness: kplus.Probe.fromTcpSocket({ port: 8080, initialDelaySeconds: Duration.seconds(2), periodSeconds: Duration.seconds(1) }),
      }],
      updateStrategy: lib.CloneSetUpdateStrategy.inPlaceIfPossible({ maxUnavailable: kplus.PercentOrAbsolute.absolute(1) }),
    });
    if (o.withApi) {
      new lib.CloneSet(new Chart(app, 'api', { namespace: APP_NS }), 'api', {
        metadata: { name: 'api' }, replicas: 1, podMetadata: { labels: { app: 'api' } }, containers: [serverContainer('server:v1')],
      });
    }
    return app;
  }).objects;
}

const waveOf = (m: Manifest) => Number(m.metadata.annotations?.['argocd.argoproj.io/sync-wave'] ?? 0);
const has = (o: string) => recipe.syncOptions.includes(o);

async function argoSync(app: string, objects: Manifest[]): Promise<SyncOutcome> {
  const r = await sync(env(), {
    app,
    namespace: APP_NS,
    data,
    manifests: objects,
    prune: true,
    serverSideApply: has('ServerSideApply=true'),
    ignoreDifferences: recipe.ignoreDifferences,
    timeoutSeconds: 900,
    serverSideDiff: recipe.compareOptions.split(',').includes('ServerSideDiff=true'),
  });
  const failed = r.results.filter(x => !['Synced', 'Pruned'].includes(x.status)).map(x => `${x.kind} ${x.namespace ?? ''}/${x.name}: ${x.status} ${x.message}`);
  expect({ error: r.error, failed }).toEqual({ error: undefined, failed: [] });
  console.log(`argocd: sync of ${app}: ${r.results.length} objects in ${Math.round(r.seconds)} s; out of sync after it: ${r.drift.length ? r.drift.map(d => `${d.kind} ${d.name} ${d.diff}`).join('; ') : 'nothing'}`);
  return r;
}

/** resourceVersion of every object the manifests name. */
async function versions(objects: Manifest[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const m of objects) {
    const res = await kube.get(m.metadata.namespace || !isNamespaced(m) ? m : { ...m, metadata: { ...m.metadata, namespace: APP_NS } });
    out[describeObject(m)] = res.status === 200 ? res.body.metadata.resourceVersion : `HTTP ${res.status}`;
  }
  return out;
}
const CLUSTER_SCOPED = new Set(['Namespace', 'CustomResourceDefinition', 'ClusterRole', 'ClusterRoleBinding', 'MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration', 'SidecarSet']);
const isNamespaced = (m: Manifest) => !CLUSTER_SCOPED.has(m.kind);

/** The node as the file found it, without OpenKruise: the apps, the webhook configurations, the control plane, its CRDs last. */
async function uninstall(objects: Manifest[]): Promise<void> {
  const gone = async (ms: Manifest[]) => {
    for (const m of ms) {
      const r = await kube.delete(m);
      if (r.status >= 300 && r.status !== 404) throw new Error(`cluster tier: cannot delete ${describeObject(m)}: ${r.status} ${r.body?.message ?? ''}`);
    }
    for (const m of ms) await kube.waitGone(m, 180_000);
  };
  const controlPlane = (m: Manifest) => m.metadata.namespace === KRUISE_NAMESPACE || ['CustomResourceDefinition', 'ClusterRole', 'ClusterRoleBinding',
    'MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'].includes(m.kind) || (m.kind === 'Namespace' && m.metadata.name === KRUISE_NAMESPACE);
  const apps = objects.filter(m => !controlPlane(m));
  await gone(apps.filter(m => m.kind !== 'Namespace').reverse());
  await gone(apps.filter(m => m.kind === 'Namespace'));
  const cp = objects.filter(controlPlane);
  const webhooks = (m: Manifest) => m.kind === 'MutatingWebhookConfiguration' || m.kind === 'ValidatingWebhookConfiguration';
  await gone(cp.filter(webhooks));
  await gone(cp.filter(m => !webhooks(m) && m.kind !== 'CustomResourceDefinition' && m.kind !== 'Namespace').reverse());
  await gone(cp.filter(m => m.kind === 'Namespace'));
  await gone(cp.filter(m => m.kind === 'CustomResourceDefinition'));
}

describe('gitops-engine syncs the app in its waves on a fresh cluster', () => {
  const first = () => manifests({ image: 'server:v1', withApi: true });
  // the node as the file found it, whatever a test left
  afterAll(() => uninstall(first()), 900_000);

  test('the docs\' Application: ServerSideApply, RespectIgnoreDifferences, the server-side diff and the ignoreDifferences of what kruise-manager writes', () => {
    expect(recipe.syncOptions).toEqual(['ServerSideApply=true', 'RespectIgnoreDifferences=true']);
    expect(recipe.compareOptions).toBe('ServerSideDiff=true');
    expect(recipe.ignoreDifferences.length).toBeGreaterThan(3);
  });

  test('a fresh install in waves: CRDs and Namespaces, the control plane, the policies once kruise-manager is Healthy, then the workloads', async () => {
    const objects = first();
    expect([...new Set(objects.map(waveOf))].sort((a, b) => a - b)).toEqual([-3, -2, -1, 0]);
    const r = await argoSync('shop', objects);
    expect(r.results.length).toBe(objects.length);
    // kruise-manager writes its certificate by replacing the Secret whole when it first starts, dropping Argo CD's
    // tracking annotation with the rest of its metadata: out of sync once, until the next sync (below)
    expect(r.drift.map(d => `${d.kind} ${d.name}: ${Object.keys(JSON.parse(d.diff)).join()}`).filter(d => d !== 'Secret kruise-webhook-certs: metadata')).toEqual([]);
    const created = async (p: string) => Date.parse((await kube.request('GET', p)).body.metadata.creationTimestamp);
    const deployment = (await kube.request('GET', `/apis/apps/v1/namespaces/${KRUISE_NAMESPACE}/deployments/kruise-controller-manager`)).body;
    const available = Date.parse(deployment.status.conditions.find((c: any) => c.type === 'Available' && c.status === 'True').lastTransitionTime);
    expect(await created('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/clonesets.apps.kruise.io')).toBeLessThanOrEqual(Date.parse(deployment.metadata.creationTimestamp));
    const sidecarSet = await created('/apis/apps.kruise.io/v1beta1/sidecarsets/argocd-log');
    const web = await created(`/apis/apps.kruise.io/v1alpha1/namespaces/${APP_NS}/clonesets/web`);
    // wave -1 waits for the control plane's wave to be Healthy (its Deployment available), wave 0 for the SidecarSet
    expect(sidecarSet).toBeGreaterThanOrEqual(available - 1000);
    expect(web).toBeGreaterThanOrEqual(sidecarSet);
    await waitDeploymentAvailable(kube, KRUISE_NAMESPACE, 'kruise-controller-manager');
    await waitDaemonSetReady(kube, KRUISE_NAMESPACE, 'kruise-daemon');
    const pods = await until('the web pods ready, with the SidecarSet\'s container', 180_000, async () => {
      const ps = await podsOf(kube, APP_NS, 'app=web');
      return ps.length === 2 && ps.every(isReady) ? ps : undefined;
    });
    for (const p of pods) expect(p.spec.containers.map((c: any) => c.name).sort()).toEqual(['log', 'server']);
    expect(pods.map(p => podFacts(p).containers.server.image)).toEqual([tierImage('server:v1'), tierImage('server:v1')]);
    console.log(`argocd: fresh install: kruise-manager available ${Math.round((available - Date.parse(deployment.metadata.creationTimestamp)) / 1000)} s after its Deployment, `
      + `the SidecarSet ${Math.round((sidecarSet - available) / 1000)} s after that, the workloads ${Math.round((web - sidecarSet) / 1000)} s after it`);
  }, 1_200_000);

  test('the next syncs: nothing out of sync, and no object changes once kruise-manager has written its runtime fields', async () => {
    const objects = first();
    await until('kruise-manager has written every caBundle', 120_000, async () => {
      for (const kind of ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations']) {
        const w = (await kube.request('GET', `/apis/admissionregistration.k8s.io/v1/${kind}/kruise-${kind.startsWith('mutating') ? 'mutating' : 'validating'}-webhook-configuration`)).body;
        if ((w.webhooks ?? []).some((h: any) => !h.clientConfig?.caBundle)) return false;
      }
      return true;
    });
    expect((await argoSync('shop', objects)).drift).toEqual([]);
    const before = await versions(objects);
    for (let i = 0; i < 3; i++) {
      const r = await argoSync('shop', objects);
      expect({ sync: i + 2, drift: r.drift }).toEqual({ sync: i + 2, drift: [] });
    }
    const after = await versions(objects);
    const changed = Object.keys(before).filter(k => before[k] !== after[k]).map(k => `${k}: ${before[k]} -> ${after[k]}`);
    expect(changed).toEqual([]);
  }, 900_000);

  test('an app removed from the manifests is pruned, with its pods', async () => {
    expect((await kube.request('GET', `/apis/apps.kruise.io/v1alpha1/namespaces/${APP_NS}/clonesets/api`)).status).toBe(200);
    const r = await argoSync('shop', manifests({ image: 'server:v1', withApi: false }));
    expect(r.results.filter(x => x.status === 'Pruned').map(x => `${x.kind}/${x.name}`)).toEqual(['CloneSet/api']);
    await until('the api CloneSet gone', 120_000, async () => (await kube.request('GET', `/apis/apps.kruise.io/v1alpha1/namespaces/${APP_NS}/clonesets/api`)).status === 404);
    await until('the api pods gone', 120_000, async () => (await podsOf(kube, APP_NS, 'app=api')).length === 0);
  }, 900_000);
});

describe('a release installed with helm install, then synced from git by Argo CD', () => {
  const RELEASE = 'kruise';
  /** The image tag chart 1.9.1 installs with its values. */
  const CHART_TAG = 'v1.9.1';
  const nodeTag = () => nodeControlPlaneProps().imageTag ?? CHART_TAG;
  let record: any;
  let chartObjects: Manifest[] = [];
  // the node as the file found it, whatever a test left: the release record, the handover, our objects and any object of the chart that ours do not hold
  afterAll(async () => {
    if (!record) return;
    await kube.request('DELETE', `/api/v1/namespaces/default/secrets/sh.helm.release.v1.${RELEASE}.v1`);
    await kube.request('DELETE', `/apis/apps/v1/namespaces/${KRUISE_NAMESPACE}/deployments/kruise-controller-manager-handover`);
    const key = (x: Manifest) => `${x.kind}/${x.metadata.namespace ?? ''}/${x.metadata.name}`;
    const ours = takeover().objects;
    const held = new Set(ours.map(key));
    await uninstall([...ours, ...chartObjects.filter(x => !held.has(key(x)))]);
  }, 900_000);
  const takeover = () => synthApp('KruiseControlPlane.fromHelmRelease', (app: App) => {
    lib.KruiseControlPlane.fromHelmRelease(new Chart(app, 'kruise'), 'kruise', lib.KruiseHelmRelease.fromRecord(record), {
      argoCdSyncWaves: true,
      featureGates: { PreDownloadImageForInPlaceUpdate: true },
      daemon: { socketLocation: path.join(requireRealNode().dir, 'run') },
    });
    return app;
  });
  /** A command of the plan, as a shell runs it (heredocs, waits), with the tier's kubectl and cluster; the event loop runs meanwhile. */
  const run = (command: string) => new Promise<{ status: number; out: string }>(resolve => {
    const child = spawn('bash', ['-c', command], { timeout: 900_000, env: { ...env(), PATH: `${path.dirname(kube.env.kubectl)}:${process.env.PATH}` } });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => { out += t; });
    child.stderr.setEncoding('utf8').on('data', (t: string) => { out += t; });
    child.on('error', e => resolve({ status: -1, out: e.message }));
    child.on('close', code => resolve({ status: code ?? -1, out }));
  });

  test('helm installs the kruise chart', async () => {
    const chart = kruiseChart();
    try {
      helm(kube, ['install', RELEASE, chart.dir, '--set', `manager.image.repository=${requireRealNode().registry}/cluster-tier/kruise-manager`,
        ...(nodeTag() === CHART_TAG ? [] : ['--set', `manager.image.tag=${nodeTag()}`])]);
    } finally {
      if (chart.standIns.length > 0) fs.rmSync(chart.dir, { recursive: true, force: true });
    }
    chartObjects = parseAllDocuments(helm(kube, ['get', 'manifest', RELEASE])).map(d => d.toJSON()).filter(Boolean);
    await waitDeploymentAvailable(kube, KRUISE_NAMESPACE, 'kruise-controller-manager', 300_000);
    await waitDaemonSetReady(kube, KRUISE_NAMESPACE, 'kruise-daemon', 300_000);
    const records = ((await kube.request('GET', `/api/v1/namespaces/default/secrets?labelSelector=${encodeURIComponent(`owner=helm,name=${RELEASE}`)}`)).body.items as Manifest[])
      .map(r => ({ apiVersion: 'v1', kind: 'Secret', ...r }));
    expect(records.map((r: any) => r.metadata.name)).toEqual([`sh.helm.release.v1.${RELEASE}.v1`]);
    record = { apiVersion: 'v1', kind: 'List', items: records };
    // Helm's field manager holds every object it installed
    const unmanaged: string[] = [];
    for (const o of chartObjects) {
      const live = await kube.get(o.metadata.namespace || !isNamespaced(o) ? o : { ...o, metadata: { ...o.metadata, namespace: 'default' } });
      if (!(live.body?.metadata?.managedFields ?? []).some((f: any) => f.manager === 'helm' && f.operation === 'Update')) unmanaged.push(describeObject(o));
    }
    expect(unmanaged).toEqual([]);
  }, 600_000);

  test('the docs\' steps: the release record deleted, Helm\'s fields handed to argocd-controller, the handover, a sync with ServerSideApply instead of the apply; argocd-controller applies every field of the manifests and nothing of Helm is left', async () => {
    const ours = takeover();
    const liveObjs: Manifest[] = [];
    for (const m of ours.objects) {
      const res = await kube.get(m);
      if (res.status === 200) liveObjs.push(res.body);
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'argocd-helm-'));
    try {
      fs.writeFileSync(path.join(dir, 'live.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [...liveObjs, ...record.items] }));
      fs.mkdirSync(path.join(dir, 'dist'));
      for (const [f, text] of Object.entries(ours.files)) fs.writeFileSync(path.join(dir, 'dist', f), text);
      let out = '';
      const code = cli(['plan', '--old-live', path.join(dir, 'live.json'), '--new', path.join(dir, 'dist'), '--format', 'json'], { out: t => { out += t; }, err: t => { out += t; } });
      expect(`${code} ${code === 0 ? '' : out}`).toBe('0 ');
      const m = (JSON.parse(out) as lib.PlanReport).migrations.find(x => x.kind === lib.MigrationKind.HELM_TAKEOVER)!;
      expect(m.refused).toBe(false);
      // the docs: the plan's commands with Argo CD's field manager in the handover of Helm's fields, and a sync instead of the apply
      const apply = m.commands.indexOf(`kubectl apply --server-side --field-manager=cdk8s-kruise --force-conflicts -f ${path.join(dir, 'dist')}`);
      expect(apply).toBeGreaterThan(0);
      const handedOver = m.commands.filter(c => c.includes('"value":"cdk8s-kruise"'));
      expect(handedOver.length).toBeGreaterThan(20);
      const commands = m.commands.map(c => c.replace('"value":"cdk8s-kruise"', '"value":"argocd-controller"'));
      for (const c of commands.slice(0, apply)) {
        const r = await run(c);
        expect({ c, status: r.status, out: r.status === 0 ? '' : r.out }).toEqual({ c, status: 0, out: '' });
      }
      const r = await argoSync('kruise', ours.objects);
      expect(r.drift).toEqual([]);
      for (const c of commands.slice(apply + 1)) {
        const x = await run(c);
        expect({ c, status: x.status, out: x.status === 0 ? '' : x.out }).toEqual({ c, status: 0, out: '' });
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    await waitDeploymentAvailable(kube, KRUISE_NAMESPACE, 'kruise-controller-manager', 300_000);
    await waitDaemonSetReady(kube, KRUISE_NAMESPACE, 'kruise-daemon', 300_000);
    expect(JSON.parse(helm(kube, ['list', '--all-namespaces', '-o', 'json']))).toEqual([]);
    // who manages which field: argocd-controller applies every object and owns every field of its manifest; Helm manages nothing and its marks are gone
    const managers: Record<string, number> = {};
    const left: string[] = [];
    for (const o of ours.objects) {
      const res = await kube.get(o);
      expect({ o: describeObject(o), status: res.status }).toEqual({ o: describeObject(o), status: 200 });
      const fields: any[] = res.body.metadata.managedFields ?? [];
      for (const f of fields) {
        const k = `${f.manager} (${f.operation}${f.subresource ? ` ${f.subresource}` : ''})`;
        managers[k] = (managers[k] ?? 0) + 1;
      }
      if (fields.some(f => f.manager === 'helm')) left.push(`${describeObject(o)}: helm manages fields`);
      const argo = fields.filter(f => f.manager === 'argocd-controller' && f.operation === 'Apply');
      if (argo.length !== 1) {left.push(`${describeObject(o)}: ${argo.length} Apply entries of argocd-controller`);} else {
        // (a field manager never holds an object's name and namespace: they name the object)
        const missing = leafPaths(o, ['apiVersion', 'kind']).filter(p => p.join('.') !== 'metadata.name' && p.join('.') !== 'metadata.namespace' && !owns(argo[0].fieldsV1, p));
        if (missing.length) left.push(`${describeObject(o)}: argocd-controller does not own ${missing.slice(0, 3).join(', ')}`);
      }
      if (res.body.metadata.labels?.['app.kubernetes.io/managed-by'] === 'Helm') left.push(`${describeObject(o)}: Helm's label`);
      if (Object.keys(res.body.metadata.annotations ?? {}).some(k => k.startsWith('meta.helm.sh/'))) left.push(`${describeObject(o)}: Helm's annotations`);
    }
    expect(left).toEqual([]);
    console.log(`argocd: helm install then synced from git: ${ours.objects.length} objects, field managers after the sync: ${Object.entries(managers).map(([k, v]) => `${k} on ${v}`).join(', ')}`);
    // the next sync changes nothing
    expect((await argoSync('kruise', ours.objects)).drift).toEqual([]);
  }, 1_800_000);
});

/** The paths of a manifest's leaves (a list of maps with a name as one leaf: Kubernetes merges such lists by key), outside `skip`. */
function leafPaths(o: any, skip: string[]): string[][] {
  const out: string[][] = [];
  const walk = (v: any, at: string[]) => {
    if (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0) {
      for (const [k, x] of Object.entries(v)) walk(x, [...at, k]);
    } else {out.push(at);}
  };
  for (const [k, v] of Object.entries(o)) if (!skip.includes(k)) walk(v, [k]);
  return out;
}

/** Whether a managedFields entry (fieldsV1) holds the field at `p` (a list counts as held where the entry holds the list's field). */
function owns(fieldsV1: any, p: string[]): boolean {
  let at = fieldsV1;
  for (const k of p) {
    const f = at?.[`f:${k}`];
    if (f === undefined) return false;
    // an atomic map, struct or list is held whole: its entry lists nothing under it
    if (Object.keys(f).length === 0) return true;
    if (Object.keys(f).some(x => x.startsWith('k:') || x.startsWith('v:') || x.startsWith('i:'))) return true;
    at = f;
  }
  return true;
}
