/**
 * GitOps for real, on the real node: Flux's own source-controller and
 * kustomize-controller (v1.9.0, built from the Go module proxy) deploy a
 * cdk8s app from a git repository served on 127.0.0.1, with the
 * Kustomizations of docs/control-planes.md ("### Flux") as written there
 * (the repository URL and `cdk8s-kruise health --flux` filled in): the
 * control plane in one, the app in the other with `dependsOn` on it. It runs
 * first on the node, on a node without OpenKruise (a fresh install), and
 * leaves the node without it again: the Helm takeover of the `0-aboard`
 * files after it starts from a node where OpenKruise was never installed.
 *
 * - A fresh install applied in order: CRDs before the manager, the app only
 *   once the control plane is Ready (manager and daemon running as pods).
 * - Five reconciliations with 0 drift: kustomize-controller's apply reports
 *   every object unchanged, after kruise-manager wrote what it writes at
 *   runtime (webhook and CRD conversion caBundles, the certificate Secret,
 *   the SidecarSet hash annotations), and every runtime value is still there.
 * - A commit that bumps an image: the CloneSet updates in place (same pods,
 *   the container restarted on the new image), and the app's Kustomization is
 *   Ready only once every pod is updated and ready (our healthCheckExprs;
 *   kstatus alone would say ready as soon as the spec is observed).
 * - A commit that removes an app: Flux prunes its CloneSet and pods.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart, Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { parse, parseAllDocuments } from 'yaml';
import * as lib from '../../../src';
import { main as cli } from '../../../src/cli';
import { FluxControllers, GitServer, fluxBuild, serveGit, startFlux } from '../flux';
import { Kube, Manifest, applyAll } from '../kube';
import {
  KRUISE_NAMESPACE, isReady, nodeControlPlaneProps, podFacts, podsOf, requireRealNode, serverContainer, tierImage, until,
  waitDaemonSetReady, waitDeploymentAvailable,
} from '../node';
import { rejections } from '../prove';
import { synthApp } from '../sources';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const FLUX_NS = 'flux-system';
const APP_NS = 'flux-apps';
let kube: Kube;
let dir: string;
let git: GitServer;
let flux: FluxControllers | undefined;

/** The yaml blocks of the docs' Flux recipe, as written. */
function recipe(): Manifest[] {
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'control-planes.md'), 'utf8');
  const section = doc.slice(doc.indexOf('### Flux'));
  const block = /```yaml\n([\s\S]*?)```/.exec(section)![1];
  return parseAllDocuments(block).map(d => d.toJSON());
}

/** What `cdk8s-kruise health --flux` prints. */
function healthCheckExprs(): any[] {
  let out = '';
  const code = cli(['health', '--flux'], { out: t => { out += t; }, err: t => { throw new Error(t); } });
  expect(code).toBe(0);
  return parse(out).healthCheckExprs;
}

/**
 * dist/ as the docs' Flux recipe writes it: the control plane as a cdk8s app of its own into dist/kruise, then
 * the app (the namespace, the shop with a CloneSet and a SidecarSet, and the api) into dist/app, with the
 * control plane read back as context.
 */
function synthDist(o: { image: string; withApi: boolean }): Record<string, string> {
  const kruise = synthApp('GitOps control plane', (app: App) => {
    new lib.KruiseControlPlane(new Chart(app, 'kruise'), 'kruise', nodeControlPlaneProps());
    return app;
  });
  const kruiseDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flux-dist-kruise-'));
  try {
    for (const [f, text] of Object.entries(kruise.files)) fs.writeFileSync(path.join(kruiseDir, f), text);
    const s = synthApp('GitOps app', (app: App) => {
      new lib.KruiseContext(app, 'cluster', { manifests: [kruiseDir] });
      const ns = new Chart(app, 'namespaces');
      new kplus.Namespace(ns, 'apps', { metadata: { name: APP_NS } });
      const shop = new Chart(app, 'shop', { namespace: APP_NS });
      new lib.CloneSet(shop, 'web', {
        metadata: { name: 'web' },
        replicas: 2,
        podMetadata: { labels: { app: 'web' } },
        containers: [{
          ...serverContainer(o.image),
          // ready 6 s after each (re)start, so an update takes a while to finish
          readiness: kplus.Probe.fromTcpSocket({ port: 8080, initialDelaySeconds: Duration.seconds(6), periodSeconds: Duration.seconds(1) }),
        }],
        updateStrategy: lib.CloneSetUpdateStrategy.inPlaceIfPossible({ maxUnavailable: kplus.PercentOrAbsolute.absolute(1) }),
      });
      new lib.SidecarSet(shop, 'log', {
        metadata: { name: 'flux-log' },
        // it selects no pod here: a Kustomization applies a SidecarSet and its pods' workload in one go, so whether it
        // injects the first pods is a race (docs/fleet-policies.md gives policies a Kustomization of their own)
        selector: kplus.LabelSelector.of({ labels: { mesh: 'flux' } }),
        namespace: APP_NS,
        // no port, so no startup probe (the SidecarSet webhook refuses one without successThreshold)
        containers: [{ ...serverContainer('server:v1', { name: 'log', port: 9090 }), portNumber: undefined, startup: undefined }],
      });
      if (o.withApi) {
        const api = new Chart(app, 'api', { namespace: APP_NS });
        new lib.CloneSet(api, 'api', {
          metadata: { name: 'api' },
          replicas: 1,
          podMetadata: { labels: { app: 'api' } },
          containers: [serverContainer('server:v1')],
        });
      }
      return app;
    });
    const files: Record<string, string> = {};
    for (const [f, text] of Object.entries(kruise.files)) files[`dist/kruise/${f}`] = text;
    for (const [f, text] of Object.entries(s.files)) files[`dist/app/${f}`] = text;
    return files;
  } finally {
    fs.rmSync(kruiseDir, { recursive: true, force: true });
  }
}

const serverImage = (p: Manifest) => p.spec.containers.find((c: any) => c.name === 'server').image;
const kustomizationPath = (name: string) => `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${FLUX_NS}/kustomizations/${name}`;
const getKustomization = async (name: string) => (await kube.request('GET', kustomizationPath(name))).body as Manifest;
const readyOf = (k: Manifest) => (k.status?.conditions ?? []).find((c: any) => c.type === 'Ready');

/**
 * Ask Flux to reconcile now, as `flux reconcile` does; wait until it has handled the request and, for a
 * Kustomization, is Ready at `revision` (one whose dependency is still reconciling answers "dependency not ready").
 */
async function reconcile(kind: 'gitrepositories' | 'kustomizations', name: string, revision?: string): Promise<Manifest> {
  const group = kind === 'gitrepositories' ? 'source.toolkit.fluxcd.io' : 'kustomize.toolkit.fluxcd.io';
  const p = `/apis/${group}/v1/namespaces/${FLUX_NS}/${kind}/${name}`;
  const at = new Date().toISOString();
  const res = await kube.request('PATCH', p, { metadata: { annotations: { 'reconcile.fluxcd.io/requestedAt': at } } }, 'application/merge-patch+json');
  expect(res.status).toBe(200);
  return until(`${kind}/${name} handles the reconcile request of ${at}`, 300_000, async () => {
    const o = (await kube.request('GET', p)).body;
    const ready = readyOf(o);
    if (o.status?.lastHandledReconcileAt !== at || !ready) return undefined;
    if (revision === undefined) return ready.status !== 'Unknown' ? o : undefined;
    return ready.status === 'True' && o.status.lastAppliedRevision === revision ? o : undefined;
  }, async () => JSON.stringify((await kube.request('GET', p)).body.status, null, 1), 250);
}

/** kustomize-controller's "server-side apply completed" outputs for a Kustomization, from log line `from` on. */
function applyOutputs(name: string, from: number): Record<string, string>[] {
  return flux!.kustomizeLog().slice(from)
    .filter(l => l.msg === 'server-side apply completed' && (l.Kustomization?.name ?? l.name) === name)
    .map(l => l.output as Record<string, string>);
}

beforeAll(async () => {
  requireRealNode();
  kube = new Kube();
  // a fresh install is what the first test proves
  if ((await kube.request('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/clonesets.apps.kruise.io')).status !== 404) {
    throw new Error('cluster tier: the GitOps file proves a fresh install, so it runs first on the node, before any file installs OpenKruise');
  }
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tier-flux-'));
  const build = fluxBuild();
  // Flux's CRDs, from the controllers' own modules (config/crd/bases)
  const crds = fs.readdirSync(build.crds).sort().flatMap(f => parseAllDocuments(fs.readFileSync(path.join(build.crds, f), 'utf8')).map(d => d.toJSON()));
  const rejected = rejections(await applyAll(kube, crds, { fieldManager: 'flux-install' }));
  if (rejected.length > 0) throw new Error(`cluster tier: Flux's CRDs were refused:\n${rejected.join('\n')}`);
  for (const c of crds) await kube.waitEstablished(c.metadata.name);
  await kube.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: FLUX_NS } }, { fieldManager: 'flux-install' });
  git = await serveGit(dir);
  flux = await startFlux({ bin: build.bin, dir, namespace: FLUX_NS });
}, 900_000);

afterAll(async () => {
  // the controllers stop first: the Kustomizations stay, and nothing is pruned by their deletion
  await flux?.stop();
  await git?.close();
  try {
    if (kube && installed) await uninstall(installed);
  } finally {
    kube?.close();
    if (dir && !process.env.CLUSTER_KEEP_LOGS) fs.rmSync(dir, { recursive: true, force: true });
  }
}, 360_000);

/** What Flux applied from the first commit, for the node to be left without it. */
let installed: Record<string, string> | undefined;

/**
 * Leave the node as the file found it, without OpenKruise: the apps first (their pods go while the manager
 * still answers the pod webhook), then the webhook configurations, then the rest of the control plane with
 * its CRDs last.
 */
async function uninstall(files: Record<string, string>): Promise<void> {
  const objects = (prefix: string) => Object.entries(files).filter(([f]) => f.startsWith(prefix))
    .flatMap(([, text]) => parseAllDocuments(text).map(d => d.toJSON() as Manifest)).filter(Boolean);
  const gone = async (ms: Manifest[]) => {
    for (const m of ms) {
      const r = await kube.delete(m);
      if (r.status >= 300 && r.status !== 404) throw new Error(`cluster tier: cannot delete ${m.kind} ${m.metadata.name}: ${r.status} ${r.body?.message ?? ''}`);
    }
    for (const m of ms) await kube.waitGone(m, 180_000);
  };
  const app = objects('dist/app/');
  await gone(app.filter(m => m.kind !== 'Namespace').reverse());
  await gone(app.filter(m => m.kind === 'Namespace'));
  const kruise = objects('dist/kruise/');
  const webhooks = (m: Manifest) => m.kind === 'MutatingWebhookConfiguration' || m.kind === 'ValidatingWebhookConfiguration';
  await gone(kruise.filter(webhooks));
  await gone(kruise.filter(m => !webhooks(m) && m.kind !== 'CustomResourceDefinition' && m.kind !== 'Namespace').reverse());
  await gone(kruise.filter(m => m.kind === 'Namespace'));
  await gone(kruise.filter(m => m.kind === 'CustomResourceDefinition'));
}

let firstCommit: string;

describe('Flux deploys the app from git with the docs\' recipe', () => {
  test('a fresh install is applied in order: the control plane, then the app once the control plane is Ready', async () => {
    installed = synthDist({ image: 'server:v1', withApi: true });
    firstCommit = git.commit('the app', installed);
    const objects = recipe();
    expect(objects.map(o => `${o.kind}/${o.metadata.name}`)).toEqual(['GitRepository/app', 'Kustomization/kruise', 'Kustomization/app']);
    objects[0].spec.url = git.url;
    const app = objects[2];
    expect(app.spec.healthCheckExprs).toEqual([]);
    app.spec.healthCheckExprs = healthCheckExprs();
    const rejected = rejections(await applyAll(kube, objects, { fieldManager: 'cluster-tier' }));
    expect(rejected).toEqual([]);

    const kruise = await until('Kustomization kruise Ready', 600_000, async () => {
      const k = await getKustomization('kruise');
      return readyOf(k)?.status === 'True' ? k : undefined;
    }, async () => JSON.stringify((await getKustomization('kruise')).status, null, 1), 1000);
    expect(kruise.status.lastAppliedRevision).toBe(`main@sha1:${firstCommit}`);
    const appK = await until('Kustomization app Ready', 600_000, async () => {
      const k = await getKustomization('app');
      return readyOf(k)?.status === 'True' ? k : undefined;
    }, async () => JSON.stringify((await getKustomization('app')).status, null, 1), 1000);
    expect(appK.status.lastAppliedRevision).toBe(`main@sha1:${firstCommit}`);

    // in order: every CRD before the manager's Deployment; the app's objects after the control plane was Ready
    const created = async (p: string) => Date.parse((await kube.request('GET', p)).body.metadata.creationTimestamp);
    const deployment = await created(`/apis/apps/v1/namespaces/${KRUISE_NAMESPACE}/deployments/kruise-controller-manager`);
    expect(await created('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/clonesets.apps.kruise.io')).toBeLessThanOrEqual(deployment);
    const kruiseReady = Date.parse(readyOf(kruise).lastTransitionTime);
    const web = await created(`/apis/apps.kruise.io/v1alpha1/namespaces/${APP_NS}/clonesets/web`);
    expect(web).toBeGreaterThanOrEqual(kruiseReady - 1000);
    // the control plane runs as pods, and so does the app
    await waitDeploymentAvailable(kube, KRUISE_NAMESPACE, 'kruise-controller-manager');
    await waitDaemonSetReady(kube, KRUISE_NAMESPACE, 'kruise-daemon');
    const pods = await podsOf(kube, APP_NS, 'app=web');
    expect(pods.map(p => [isReady(p), serverImage(p)])).toEqual([[true, tierImage('server:v1')], [true, tierImage('server:v1')]]);
    console.log(`flux: fresh install at ${firstCommit.slice(0, 7)}: kruise Ready after ${Math.round((kruiseReady - Date.parse(kruise.metadata.creationTimestamp)) / 1000)} s, app Ready at ${readyOf(appK).lastTransitionTime}`);
  }, 1_300_000);

  test('five reconciliations change no field: kruise-manager\'s caBundles, certificate Secret and SidecarSet hash annotations are left alone', async () => {
    // what kruise-manager writes at runtime, in place before the reconciliations
    const runtime = async () => {
      const webhooks = [
        ...(await kube.request('GET', '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/kruise-mutating-webhook-configuration')).body.webhooks,
        ...(await kube.request('GET', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/kruise-validating-webhook-configuration')).body.webhooks,
      ];
      const conversion = (await kube.request('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/statefulsets.apps.kruise.io')).body.spec.conversion;
      const secret = (await kube.request('GET', `/api/v1/namespaces/${KRUISE_NAMESPACE}/secrets/kruise-webhook-certs`)).body;
      const sidecarSet = (await kube.request('GET', '/apis/apps.kruise.io/v1beta1/sidecarsets/flux-log')).body;
      return {
        caBundles: webhooks.every((h: any) => (h.clientConfig.caBundle ?? '').length > 100),
        conversionCaBundle: (conversion.webhook?.clientConfig?.caBundle ?? '').length > 100,
        secretCerts: ['ca-cert.pem', 'ca-key.pem'].every(k => (secret.data?.[k] ?? '').length > 100),
        sidecarSetHash: Object.keys(sidecarSet.metadata.annotations ?? {}).filter(k => k.startsWith('kruise.io/sidecarset-hash')).sort(),
      };
    };
    const want = { caBundles: true, conversionCaBundle: true, secretCerts: true, sidecarSetHash: ['kruise.io/sidecarset-hash', 'kruise.io/sidecarset-hash-without-image'] };
    await until('kruise-manager has written its runtime fields', 120_000, async () => JSON.stringify(await runtime()) === JSON.stringify(want));
    const versions = async () => {
      const out: Record<string, string> = {};
      for (const k of ['kruise', 'app']) {
        for (const e of (await getKustomization(k)).status.inventory.entries) out[e.id] = e.v;
      }
      return out;
    };
    expect(Object.keys(await versions()).length).toBeGreaterThan(45);

    for (let i = 1; i <= 5; i++) {
      const from = flux!.kustomizeLog().length;
      for (const name of ['kruise', 'app']) {
        await reconcile('kustomizations', name, `main@sha1:${firstCommit}`);
        const outputs = applyOutputs(name, from);
        expect(outputs.length).toBeGreaterThan(0);
        const changed = outputs.flatMap(o => Object.entries(o).filter(([, action]) => action !== 'unchanged').map(([id, action]) => `${id}: ${action}`));
        // the certificate Secret is Flux's to create only (kustomize.toolkit.fluxcd.io/ssa: IfNotPresent): skipped, never applied
        const skipped = name === 'kruise' ? ['Secret/kruise-system/kruise-webhook-certs: skipped'] : [];
        expect({ reconciliation: i, name, changed }).toEqual({ reconciliation: i, name, changed: skipped });
      }
    }
    expect(await runtime()).toEqual(want);
    console.log('flux: 5 reconciliations of both Kustomizations, every object unchanged (the certificate Secret skipped: Flux only creates it); caBundles, conversion caBundle, certificate Secret and SidecarSet hash annotations kept');
  }, 900_000);

  test('a commit that bumps an image updates the CloneSet in place, and the app is Ready only once every pod is updated and ready', async () => {
    const before = new Map((await podsOf(kube, APP_NS, 'app=web')).map(p => [p.metadata.name, podFacts(p)]));
    const commit = git.commit('web: server v2', synthDist({ image: 'server:v2', withApi: true }));
    await reconcile('gitrepositories', 'app');
    await reconcile('kustomizations', 'kruise', `main@sha1:${commit}`);
    const at = new Date().toISOString();
    await kube.request('PATCH', kustomizationPath('app'), { metadata: { annotations: { 'reconcile.fluxcd.io/requestedAt': at } } }, 'application/merge-patch+json');
    // watch both: while any pod is not yet updated and ready, the Kustomization must not be Ready at the new revision
    let sawUpdating = 0;
    const done = await until('Kustomization app Ready at the new revision', 600_000, async () => {
      const k = await getKustomization('app');
      const pods = await podsOf(kube, APP_NS, 'app=web');
      const settled = pods.length === 2 && pods.every(p => isReady(p) && serverImage(p) === tierImage('server:v2')
        && p.status.containerStatuses.find((c: any) => c.name === 'server').image.endsWith('server:v2'));
      const readyAtNew = readyOf(k)?.status === 'True' && k.status.lastAppliedRevision === `main@sha1:${commit}`;
      if (readyAtNew) {
        expect({ readyWhileUpdating: !settled }).toEqual({ readyWhileUpdating: false });
        return { k, pods };
      }
      if (!settled && k.status?.lastAttemptedRevision === `main@sha1:${commit}`) sawUpdating++;
      return undefined;
    }, async () => JSON.stringify((await getKustomization('app')).status, null, 1), 250);
    expect(sawUpdating).toBeGreaterThan(3);
    // in place: the same pods, the server container restarted once on v2
    for (const p of done.pods) {
      const was = before.get(p.metadata.name)!;
      const now = podFacts(p);
      expect({ pod: p.metadata.name, uid: now.uid, ip: now.ip }).toEqual({ pod: p.metadata.name, uid: was.uid, ip: was.ip });
      expect(now.containers.server.restarts).toBe(was.containers.server.restarts + 1);
    }
    console.log(`flux: image bump ${commit.slice(0, 7)} rolled in place; the app Kustomization was not Ready in ${sawUpdating} looks while pods updated, then Ready`);
  }, 900_000);

  test('a commit that removes an app: Flux prunes its CloneSet and its pods', async () => {
    expect((await kube.request('GET', `/apis/apps.kruise.io/v1alpha1/namespaces/${APP_NS}/clonesets/api`)).status).toBe(200);
    const files = synthDist({ image: 'server:v2', withApi: false });
    const removed = Object.keys(synthDist({ image: 'server:v2', withApi: true })).filter(f => !(f in files));
    expect(removed).toEqual([expect.stringMatching(/^dist\/app\/(\d{4}-)?api\.k8s\.yaml$/)]);
    const commit = git.commit('remove the api', { ...files, [removed[0]]: undefined });
    await reconcile('gitrepositories', 'app');
    await reconcile('kustomizations', 'kruise', `main@sha1:${commit}`);
    const k = await reconcile('kustomizations', 'app', `main@sha1:${commit}`);
    expect((await kube.request('GET', `/apis/apps.kruise.io/v1alpha1/namespaces/${APP_NS}/clonesets/api`)).status).toBe(404);
    await until('the api pods are gone', 120_000, async () => (await podsOf(kube, APP_NS, 'app=api')).length === 0);
    expect(k.status.inventory.entries.map((e: any) => e.id)).not.toContain(`${APP_NS}_api_apps.kruise.io_CloneSet`);
  }, 600_000);
});
