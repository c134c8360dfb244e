/**
 * The fleet check judged by the real pod webhook: on a cluster running the
 * released kruise-manager, the platform's synth output (examples/fleet-platform:
 * its policies) and two app outputs
 * (examples/fleet-app, and a second app built here), each app reading the
 * platform's output as context, applied file by file in the order they were
 * written, to a cluster running the released kruise-manager. Every pod the
 * apps' workloads create (the CloneSets' by kruise-manager, the others' from
 * their templates, as their controllers would) must have exactly the
 * containers the fleet report predicted: the webhook's injection is the judge.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { parseAllDocuments } from 'yaml';
import { sameUpToSidecarOrder } from './fleet-judge';
import { Kube, Manifest, applyAll, describeObject } from './kube';
import { Managers, defaultsSynth, ensureDefaultServiceAccount, fakeNodes, runControlPlane } from './manager';
import { rejections } from './prove';
import { Synth, exampleSynth, synthApp } from './sources';
import * as lib from '../../src';

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

const NODES = [
  { name: 'fleet-a1', labels: { 'topology.kubernetes.io/zone': 'zone-a' } },
  { name: 'fleet-b1', labels: { 'topology.kubernetes.io/zone': 'zone-b' } },
];

/** A synth's files written to a folder, as its repository's dist/. */
function writeDist(s: Synth): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-dist-'));
  for (const [f, text] of Object.entries(s.files)) fs.writeFileSync(path.join(dir, f), text);
  return dir;
}

/** The objects of one file of a synth. */
function objectsOf(s: Synth, file: string): Manifest[] {
  return parseAllDocuments(s.files[file]).map(d => d.toJSON()).filter(x => x);
}

/** A second app repository: the shop team's, reading the platform's output as context too. */
function shopApp(platformDist: string) {
  return (app: App): App => {
    new lib.KruiseContext(app, 'platform', { manifests: [platformDist] });
    const shop = new Chart(app, 'shop', { namespace: 'shop' });
    new kplus.Namespace(shop, 'namespace', { metadata: { name: 'shop' } });
    const logged = { 'platform.io/logging': 'enabled', 'platform.io/mesh': 'enabled' };
    new kplus.Deployment(shop, 'web', {
      metadata: { name: 'web' },
      replicas: 2,
      podMetadata: { labels: logged },
      containers: [{ name: 'web', image: 'nginx:1.27', portNumber: 8080, securityContext: { ensureNonRoot: false } }],
    });
    new kplus.DaemonSet(shop, 'exporter', {
      metadata: { name: 'exporter' },
      podMetadata: { labels: { 'platform.io/logging': 'enabled' } },
      containers: [{ name: 'exporter', image: 'node-exporter:1.8', portNumber: 9100, securityContext: { ensureNonRoot: false } }],
    });
    const search = new Chart(app, 'search', { namespace: 'search' });
    new kplus.Namespace(search, 'namespace', { metadata: { name: 'search', labels: { 'platform.io/mesh': 'enabled' } } });
    new lib.CloneSet(search, 'api', {
      metadata: { name: 'search-api' },
      replicas: 2,
      podMetadata: { labels: { 'platform.io/mesh': 'enabled' } },
      containers: [{ name: 'api', image: 'search:2.0', portNumber: 8080, securityContext: { ensureNonRoot: false } }],
    });
    return app;
  };
}

let kube: Kube;
let managers: Managers;
let platform: Synth;
let platformDist: string;
const outputs: Array<{ name: string; synth: Synth; dist: string }> = [];

beforeAll(async () => {
  kube = new Kube();
  await fakeNodes(kube, NODES);
  // the SidecarSets the tier's earlier files left in this shared cluster are no part of this fleet
  const stale = (await kube.request('GET', '/apis/apps.kruise.io/v1beta1/sidecarsets')).body?.items ?? [];
  for (const s of stale) await kube.request('DELETE', `/apis/apps.kruise.io/v1beta1/sidecarsets/${s.metadata.name}`);
  platform = exampleSynth('fleet-platform');
  platformDist = writeDist(platform);
  process.env.PLATFORM_DIST = platformDist;
  const payments = exampleSynth('fleet-app');
  delete process.env.PLATFORM_DIST;
  const shop = synthApp('shop app', shopApp(platformDist));
  outputs.push({ name: 'payments', synth: payments, dist: writeDist(payments) }, { name: 'shop', synth: shop, dist: writeDist(shop) });
}, 120_000);

afterAll(async () => {
  if (managers) {
    const leader = managers.running().find(p => p.isLeader());
    if (leader) console.log(`kruise-manager log: ${leader.logFile}`);
  }
  // leave the shared cluster without the fleet's policies and namespaces
  for (const m of platform?.objects.filter(o => o.kind === 'SidecarSet' || o.kind === 'PodUnavailableBudget') ?? []) {
    await kube.request('DELETE', await kube.pathOf(m));
  }
  for (const ns of ['payments', 'shop', 'search']) await kube.request('DELETE', `/api/v1/namespaces/${ns}`);
  if (managers) await managers.stopAll();
  kube.close();
});

async function apply(objects: Manifest[], what: string): Promise<void> {
  const rejected = rejections(await applyAll(kube, objects));
  if (rejected.length > 0) throw new Error(`cluster tier: ${what} not applied:\n${rejected.join('\n')}`);
}

test('the platform output, then the two app outputs, applied file by file in the order they were written', async () => {
  // OpenKruise as examples/control-plane installs it, its kruise-manager started as the cluster would run it
  ({ managers } = await runControlPlane(kube, defaultsSynth()));
  const files = Object.keys(platform.files);
  expect(files).toEqual(['policies.k8s.yaml']);
  for (const f of files) await apply(objectsOf(platform, f), `fleet-platform/${f}`);
  // the pod webhook injects the SidecarSets kruise-manager's cache holds: once the controller has seen them, so has the webhook
  for (const s of platform.objects.filter(o => o.kind === 'SidecarSet')) {
    const until = Date.now() + 60_000;
    for (;;) {
      const live = (await kube.get(s)).body;
      if (live?.status?.observedGeneration === live?.metadata?.generation) break;
      if (Date.now() > until) throw new Error(`cluster tier: kruise-manager did not observe ${describeObject(s)}: ${JSON.stringify(live?.status)}`);
      await sleep(500);
    }
  }
  for (const o of outputs) {
    expect(Object.keys(o.synth.files).length).toBeGreaterThan(0);
    for (const f of Object.keys(o.synth.files)) {
      const objects = objectsOf(o.synth, f);
      for (const ns of objects.filter(m => m.kind === 'Namespace')) {
        await apply([ns], `${o.name}/${f} namespace`);
        await ensureDefaultServiceAccount(kube, ns.metadata.name);
      }
      await apply(objects, `${o.name}/${f}`);
    }
    // no app output holds an object of the platform's
    expect(o.synth.objects.filter(m => m.kind === 'SidecarSet' || m.metadata?.namespace === 'kruise-system')).toEqual([]);
  }
});

/** The pods of a workload: a CloneSet's from kruise-manager; any other's created from its template, as its controller would. */
async function podsOf(w: Manifest): Promise<Manifest[]> {
  const ns = w.metadata.namespace;
  const selector = Object.entries<string>(w.spec.selector.matchLabels).map(([k, v]) => `${k}=${v}`).join(',');
  if (w.kind !== 'CloneSet') {
    const tpl = w.spec.template;
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { ...tpl.metadata, name: `${w.metadata.name}-fleet-0`, namespace: ns }, spec: tpl.spec };
    const res = await kube.request('POST', `/api/v1/namespaces/${ns}/pods`, pod);
    if (res.status >= 300 && res.status !== 409) throw new Error(`cluster tier: pod of ${describeObject(w)} refused (HTTP ${res.status}): ${res.body?.message}`);
  }
  const want = w.kind === 'CloneSet' ? w.spec.replicas : 1;
  const until = Date.now() + 90_000;
  for (;;) {
    const res = await kube.request('GET', `/api/v1/namespaces/${ns}/pods?labelSelector=${encodeURIComponent(selector)}`);
    const pods: Manifest[] = (res.body?.items ?? []).filter((p: Manifest) => !p.metadata.deletionTimestamp);
    if (pods.length >= want) return pods;
    if (Date.now() > until) throw new Error(`cluster tier: ${describeObject(w)} has ${pods.length} pods, expected ${want}\n${managers.running().map(p => p.tail(15)).join('\n')}`);
    await sleep(500);
  }
}

test('every pod has exactly the containers the fleet report predicted: 0 disagreements with the webhook', async () => {
  const report = lib.FleetCheck.fromPaths({ policies: [platformDist], workloads: outputs.map(o => `${o.name}=${o.dist}`) });
  expect([report.refused, report.replacesAppContainer]).toEqual([false, false]);
  const predicted = new Map<string, lib.FleetInjection>();
  for (const p of report.policies) for (const i of p.injections) predicted.set(`${i.workload.source}/${i.workload.namespace}/${i.workload.name}`, i);
  const disagreements: string[] = [];
  let checked = 0;
  for (const o of outputs) {
    for (const w of o.synth.objects.filter(m => m.spec?.template?.spec?.containers)) {
      const key = `${o.name}/${w.metadata.namespace}/${w.metadata.name}`;
      const app = w.spec.template.spec.containers.map((c: any) => c.name);
      const i = predicted.get(key);
      const containers = i?.containers ?? app;
      const initContainers = i?.initContainers ?? (w.spec.template.spec.initContainers ?? []).map((c: any) => c.name);
      for (const pod of await podsOf(w)) {
        checked++;
        const actual = pod.spec.containers.map((c: any) => c.name);
        const actualInit = (pod.spec.initContainers ?? []).map((c: any) => c.name);
        const same = (i?.containerOrderFixed ?? true) ? actual.join() === containers.join() : sameUpToSidecarOrder(containers, actual, app);
        if (!same || actualInit.join() !== initContainers.join()) {
          disagreements.push(`${key} pod ${pod.metadata.name}: predicted [${initContainers}] [${containers}], the webhook made [${actualInit}] [${actual}]`);
        }
      }
    }
  }
  // the payments API: log-agent before, the hot-upgraded mesh proxy after; the shop's web outside the mesh
  expect(predicted.get('payments/payments/payments-api')?.containers).toEqual(['log-agent', 'api', 'mesh-proxy-1', 'mesh-proxy-2']);
  expect(predicted.get('shop/shop/web')?.containers).toEqual(['log-agent', 'web']);
  expect(predicted.get('shop/search/search-api')?.containers).toEqual(['api', 'mesh-proxy-1', 'mesh-proxy-2']);
  // payments: 3 + 2 CloneSet pods; shop: one pod each of web and exporter, 2 of search-api
  expect(checked).toBe(9);
  expect(disagreements).toEqual([]);
});
