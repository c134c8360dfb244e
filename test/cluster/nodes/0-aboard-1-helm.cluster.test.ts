/**
 * Coming aboard from a Helm install, on the real node: the real `helm` v3
 * binary installs the kruise chart of the 1.9 line (test/cluster/helm.ts says
 * where the chart comes from) with its image pointing at the tier's
 * registry; a CloneSet, a SidecarSet that injects into its pods and a budget
 * run under the chart's kruise-manager. Then `KruiseControlPlane.fromHelmValues()`
 * (the values `helm get values` prints) takes the install over, by the steps
 * `cdk8s-kruise plan --old-live` prints for it, while an HTTP client asks the
 * CloneSet's Service every 100 ms and a pod is created and deleted every
 * second: not one request or pod creation fails, no workload pod restarts,
 * nothing is deleted, `helm list` is empty. Then our control plane updates a
 * pod in place, injects the sidecar into a new pod and refuses an eviction
 * beyond the budget.
 *
 * This file runs first in the rung: Helm installs OpenKruise into a cluster
 * that has none, as a user's chart did. It ends with the control plane every
 * other file applies (nodeControlPlaneSynth), so they find it running.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart, Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { parse, parseAllDocuments, stringify } from 'yaml';
import * as lib from '../../../src';
import { main } from '../../../src/cli';
import { CHART_REFERENCE, helm, kruiseChart } from '../helm';
import { Kube, Manifest, describeObject } from '../kube';
import { testNamespace } from '../manager';
import {
  KRUISE_NAMESPACE, applyAccepted, containerStatus, live, nodeControlPlaneSynth, nodeObjects, podsOf, requireRealNode,
  serverContainer, sleep, until, waitDaemonSetReady, waitDeploymentAvailable, waitPodsReady, waitWorkloadSettled,
} from '../node';
import { synthApp } from '../sources';
import { Traffic, TrafficReport } from '../traffic';

const NS = 'aboard-helm';
const RELEASE = 'kruise';
let kube: Kube;
/** What the chart installed (helm get manifest). */
let chartObjects: Manifest[] = [];

const describeWithChart = fs.existsSync(CHART_REFERENCE) || process.env.KRUISE_CHART_DIR ? describe : describe.skip;

beforeAll(() => {
  requireRealNode();
  kube = new Kube();
});

afterAll(() => kube?.close());

const webhookConfigs = (objs: Manifest[]) => objs.filter(m => m.kind === 'MutatingWebhookConfiguration' || m.kind === 'ValidatingWebhookConfiguration');
const paths = (objs: Manifest[]) => new Map(webhookConfigs(objs)
  .flatMap(c => (c.webhooks ?? []).map((w: any) => [w.name, w.clientConfig?.service?.path] as [string, string])));

/** The control plane that takes the install over: the chart's values, and what the rung's other files use on top. */
function takeoverSynth(values: any) {
  return synthApp('KruiseControlPlane.fromHelmValues', (app: App) => {
    lib.KruiseControlPlane.fromHelmValues(new Chart(app, 'kruise'), 'kruise', values, {
      featureGates: { PreDownloadImageForInPlaceUpdate: true },
      daemon: { socketLocation: path.join(requireRealNode().dir, 'run') },
    });
    return app;
  });
}

function workloads(image: string, replicas: number): Manifest[] {
  return nodeObjects('aboard-helm workloads', NS, chart => {
    new lib.SidecarSet(chart, 'mesh', {
      metadata: { name: 'aboard-mesh' },
      selector: kplus.LabelSelector.of({ labels: { app: 'aboard-web' } }),
      namespace: NS,
      containers: [{ ...serverContainer('server:v1', { name: 'proxy', port: 9090 }), portNumber: undefined, startup: undefined }],
    });
    const web = new lib.CloneSet(chart, 'web', {
      metadata: { name: 'web' },
      replicas,
      podMetadata: { labels: { app: 'aboard-web' } },
      containers: [serverContainer(image)],
      updateStrategy: lib.CloneSetUpdateStrategy.inPlaceIfPossible({ gracePeriod: Duration.seconds(5) }),
    });
    web.protect({ metadata: { name: 'web' }, maxUnavailable: kplus.PercentOrAbsolute.absolute(1) });
    new kplus.Service(chart, 'svc', { metadata: { name: 'web' }, selector: kplus.Pods.select(chart, 'pods', { labels: { app: 'aboard-web' } }), ports: [{ port: 8080 }] });
  });
}

/** Run one command of a plan (they start with kubectl) against the tier's cluster. */
function run(command: string): { status: number; out: string } {
  const r = spawnSync('bash', ['-c', command], {
    encoding: 'utf-8',
    timeout: 120_000,
    env: { ...process.env, PATH: `${path.dirname(kube.env.kubectl)}:${process.env.PATH}`, KUBECONFIG: kube.env.kubeconfig },
  });
  return { status: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

describeWithChart('a Helm install of OpenKruise taken over by KruiseControlPlane on the real node', () => {
  const node = () => requireRealNode();
  let podsBefore: Manifest[] = [];
  let uidsBefore = new Map<string, string>();
  let values: any;
  let report: TrafficReport;
  let plan: lib.PlanReport;

  test('helm installs the chart; its kruise-manager serves from pods and drops exactly the chart\'s webhooks whose path v1.9.0 does not serve', async () => {
    const chart = kruiseChart();
    console.log(`Helm takeover: installing the kruise chart ${chart.origin}`);
    helm(kube, ['install', RELEASE, chart.dir,
      '--set', `manager.image.repository=${node().registry}/cluster-tier/kruise-manager`, '--set', 'manager.image.tag=v1.9.0']);
    chartObjects = parseAllManifests(helm(kube, ['get', 'manifest', RELEASE]));
    expect(chartObjects.filter(m => m.kind === 'CustomResourceDefinition').length).toBe(18);
    await waitDeploymentAvailable(kube, KRUISE_NAMESPACE, 'kruise-controller-manager', 300_000);
    await waitDaemonSetReady(kube, KRUISE_NAMESPACE, 'kruise-daemon', 300_000);
    const served = paths(nodeControlPlaneSynth().objects);
    const chartPaths = paths(chartObjects);
    const unserved = [...chartPaths].filter(([, p]) => ![...served.values()].includes(p)).map(([name]) => name).sort();
    // kruise-manager rewrites its webhook configurations at start: a webhook whose path it serves keeps its caBundle, one it does not is removed
    const now = await until('the chart\'s kruise-manager to write its webhook configurations', 120_000, async () => {
      const objs = await Promise.all(webhookConfigs(chartObjects).map(async m => (await kube.get(m)).body));
      const hooks = objs.flatMap(o => o.webhooks ?? []);
      const written = hooks.length > 0 && hooks.every((h: any) => h.clientConfig?.caBundle);
      return written && !hooks.some((h: any) => unserved.includes(h.name)) ? objs : undefined;
    });
    const kept = paths(now);
    const dropped = [...chartPaths.keys()].filter(n => !kept.has(n)).sort();
    console.log(`Helm takeover: the chart's ${chartPaths.size} webhooks: ${kept.size} kept by kruise-manager v1.9.0; dropped for a path it does not serve: ${unserved.join(', ')}; `
      + `dropped for another reason: ${dropped.filter(n => !unserved.includes(n)).join(', ') || 'none'}`);
    expect(dropped).toEqual(expect.arrayContaining(unserved));
    for (const p of kept.values()) expect([...served.values()]).toContain(p);
  }, 600_000);

  test('a CloneSet, a SidecarSet injecting into its pods and a budget run under the chart\'s control plane', async () => {
    await testNamespace(kube, NS);
    const objects = workloads('server:v1', 3);
    await applyAccepted(kube, objects.filter(m => m.kind === 'SidecarSet'));
    await sleep(2000); // the pod webhook reads SidecarSets from its cache
    await applyAccepted(kube, objects.filter(m => m.kind !== 'SidecarSet'));
    podsBefore = await waitPodsReady(kube, NS, 'app=aboard-web', 3, 180_000);
    for (const p of podsBefore) expect(p.spec.containers.map((c: any) => c.name).sort()).toEqual(['proxy', 'server']);
    const pub = objects.find(m => m.kind === 'PodUnavailableBudget')!;
    await until('the budget to count the pods', 60_000, async () => (await live(kube, pub)).status?.unavailableAllowed === 1);
    for (const m of [...objects, ...chartObjects]) {
      const res = await kube.get(m);
      if (res.status === 200) uidsBefore.set(describeObject(m), res.body.metadata.uid);
    }
  }, 300_000);

  test('the plan of the takeover: every value carried over, no gap in CRDs, webhooks or the certificate, manager and daemon roll once', async () => {
    values = parse(helm(kube, ['get', 'values', RELEASE, '-o', 'yaml'])) ?? {};
    expect(values).toEqual({ manager: { image: { repository: `${node().registry}/cluster-tier/kruise-manager`, tag: 'v1.9.0' } } });
    expect(lib.KruiseControlPlane.mapHelmValues(values)).toEqual([
      { path: 'manager.image.repository', value: `${node().registry}/cluster-tier/kruise-manager`, prop: 'imageRepository' },
      { path: 'manager.image.tag', value: 'v1.9.0', prop: 'imageTag is not carried over: the control plane installs its own release (a newer live tag is refused as a downgrade)' },
    ]);
    const ours = takeoverSynth(values);
    const liveObjs: Manifest[] = [];
    for (const m of ours.objects) {
      const res = await kube.get(m);
      if (res.status === 200) liveObjs.push(res.body);
    }
    const records = ((await kube.request('GET', `/api/v1/namespaces/default/secrets?labelSelector=${encodeURIComponent(`owner=helm,name=${RELEASE}`)}`)).body.items as Manifest[])
      .map(r => ({ apiVersion: 'v1', kind: 'Secret', ...r }));
    expect(records.map((s: any) => s.metadata.name)).toEqual([`sh.helm.release.v1.${RELEASE}.v1`]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aboard-helm-'));
    fs.writeFileSync(path.join(dir, 'live.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [...liveObjs, ...records] }));
    fs.mkdirSync(path.join(dir, 'dist'));
    for (const [f, text] of Object.entries(ours.files)) fs.writeFileSync(path.join(dir, 'dist', f), text);
    let out = '';
    const code = main(['plan', '--old-live', path.join(dir, 'live.json'), '--new', path.join(dir, 'dist'), '--format', 'json'], { out: t => { out += t; }, err: t => { out += t; } });
    expect(`${code} ${code === 0 ? '' : out}`).toBe('0 ');
    plan = JSON.parse(out);
    const m = plan.migrations.find(x => x.kind === lib.MigrationKind.HELM_TAKEOVER)!;
    console.log(`Helm takeover: the plan says: ${m.summary}`);
    expect(m.refused).toBe(false);
    expect(m.current).toBe(`Helm release default/${RELEASE}`);
    expect(m.podsRoll).toBe(true);
    expect(m.summary).toMatch(/^takeover: the manifests take over the \d+ objects of Helm release default\/kruise \(18 CRDs and \d+ webhooks kept, the certificate kept\); the pods of 2 workloads roll once$/);
    expect(m.commands[0]).toBe(`kubectl delete secret -n default -l owner=helm,name=${RELEASE}`);
    expect(m.commands.length).toBe(1 + liveObjs.filter(o => (o.metadata.managedFields ?? []).some((f: any) => f.manager === 'helm')).length);
    fs.writeFileSync(path.join(dir, 'plan.json'), out);
    (globalThis as any).__aboardDir = dir;
  }, 120_000);

  test('the takeover, by the plan\'s steps, while clients run: 0 failed requests, at most one Pod admission call cut per chart manager Pod as it exits, no workload pod restarted, nothing deleted, helm list empty', async () => {
    const dir: string = (globalThis as any).__aboardDir;
    const m = plan.migrations.find(x => x.kind === lib.MigrationKind.HELM_TAKEOVER)!;
    const svc = (await kube.request('GET', `/api/v1/namespaces/${NS}/services/web`)).body;
    const traffic = await Traffic.start(kube, { url: `http://${svc.spec.clusterIP}:8080/`, podNamespace: NS });
    const started = Date.now();
    try {
      await sleep(3000);
      for (const c of m.commands) {
        const r = run(c);
        if (r.status !== 0) throw new Error(`cluster tier: ${c}: ${r.out}`);
      }
      const applied = run(`kubectl apply --server-side --field-manager=cdk8s-kruise --force-conflicts -f ${path.join(dir, 'dist')}`);
      if (applied.status !== 0) throw new Error(`cluster tier: kubectl apply: ${applied.out}`);
      await waitDeploymentAvailable(kube, KRUISE_NAMESPACE, 'kruise-controller-manager', 300_000);
      await waitDaemonSetReady(kube, KRUISE_NAMESPACE, 'kruise-daemon', 300_000);
      await until('kruise-manager writes the caBundle of every webhook', 120_000, async () => {
        for (const w of webhookConfigs(takeoverSynth(values).objects)) {
          if (((await kube.get(w)).body.webhooks ?? []).some((h: any) => !h.clientConfig?.caBundle)) return false;
        }
        return true;
      });
      await sleep(5000);
    } finally {
      report = await traffic.stop();
    }
    console.log(`Helm takeover: ${Math.round((Date.now() - started) / 1000)} s; ${report.requests} requests (${report.failedRequests} failed), `
      + `${report.podsCreated} pods created (${report.failedPodCreations} failed, ${report.failedPodDeletions} deletions failed)${report.failures.length > 0 ? `\n  ${report.failures.join('\n  ')}` : ''}`);
    // The HTTP client never fails. A Pod creation or deletion can meet one of the chart's manager Pods as it exits:
    // kruise-manager stops without draining its webhook server, the chart's Pods have no drain hook (ours do:
    // manager.drainDelay), and the API server does not retry a webhook call on a connection that closed under it or
    // that kube-proxy still sent to the gone Pod. Such a window lasts about a second and the churn client makes about
    // one call a second: at most one cut per chart manager Pod; nothing else may fail (a controller retries its calls).
    // A cut call is one the webhook never answered: the API server reports the transport error of its POST to the
    // webhook Service (Go's url.Error, `Post "<url>": <cause>`), whose cause is whatever the socket met as the Pod
    // went (broken pipe, reset, refused, no route to host, i/o timeout, EOF, the 30 s deadline: runs here have met five
    // of these). An answer of the webhook, a refusal or an error it returned, reads otherwise and fails the test.
    const cut = /: HTTP 500 Internal error occurred: failed calling webhook "(mpod|vpod)\.kb\.io": failed to call webhook: Post "https:\/\/kruise-webhook-service\.kruise-system\.svc:443\/(mutate|validate)-pod\?timeout=30s": \S/;
    const calls = report.failures.filter(f => / (create|delete) pod churn-\d+: HTTP 500 /.test(f));
    const chartManagers = chartObjects.find(o => o.kind === 'Deployment' && o.metadata.name === 'kruise-controller-manager')!.spec.replicas;
    expect(report.failedRequests).toBe(0);
    expect(report.failures.filter(f => !calls.includes(f))).toEqual([]);
    expect(calls.filter(f => !cut.test(f))).toEqual([]);
    expect(calls.length).toBeLessThanOrEqual(chartManagers);
    expect(report.failedPodCreations + report.failedPodDeletions).toBe(calls.length);
    expect(report.requests).toBeGreaterThan(100);

    // no workload pod restarted: the same pods, the same containers
    const after = await podsOf(kube, NS, 'app=aboard-web');
    const facts = (ps: Manifest[]) => ps.map(p => ({
      name: p.metadata.name,
      uid: p.metadata.uid,
      containers: p.status.containerStatuses.map((c: any) => `${c.name}:${c.containerID}:${c.restartCount}`).sort(),
    })).sort((a, b) => a.name.localeCompare(b.name));
    expect(facts(after)).toEqual(facts(podsBefore));
    // nothing deleted: every object of the chart and of the workloads is the same object
    const missing: string[] = [];
    for (const [what, uid] of uidsBefore) {
      const obj = [...chartObjects, ...workloads('server:v1', 3)].find(x => describeObject(x) === what)!;
      const res = await kube.get(obj);
      if (res.status !== 200 || res.body.metadata.uid !== uid) missing.push(`${what}: ${res.status === 200 ? `new uid ${res.body.metadata.uid}` : `HTTP ${res.status}`}`);
    }
    expect(missing).toEqual([]);
    expect(JSON.parse(helm(kube, ['list', '--all-namespaces', '-o', 'json']))).toEqual([]);
    // Helm's labels and annotations went with its fields, and what only the chart wrote went too
    const managers = await podsOf(kube, KRUISE_NAMESPACE, 'control-plane=controller-manager');
    const dep = (await kube.request('GET', `/apis/apps/v1/namespaces/${KRUISE_NAMESPACE}/deployments/kruise-controller-manager`)).body;
    expect(dep.metadata.labels?.['app.kubernetes.io/managed-by']).toBeUndefined();
    expect(Object.keys(dep.metadata.annotations ?? {}).filter(k => k.startsWith('meta.helm.sh/'))).toEqual([]);
    expect(dep.spec.template.spec.containers[0].securityContext.capabilities).toEqual({ drop: ['ALL'] });
    expect(managers.length).toBe(2);
    const ours = takeoverSynth(values);
    const crd = ours.objects.find(x => x.kind === 'CustomResourceDefinition')!;
    const liveCrd = (await kube.get(crd)).body;
    expect(liveCrd.metadata.labels?.['app.kubernetes.io/managed-by']).toBeUndefined();
    expect(liveCrd.metadata.labels?.['policy.kruise.io/delete-protection']).toBe('Cascading');
    // the takeover's control plane is the one the other files of the rung apply: applying theirs moves nothing
    expect(stringify(ours.objects)).toBe(stringify(nodeControlPlaneSynth().objects));
  }, 900_000);

  test('then our control plane updates a pod in place, injects the sidecar into a new pod and refuses an eviction beyond the budget', async () => {
    const before = await podsOf(kube, NS, 'app=aboard-web');
    const objects = workloads('server:v2', 3);
    await applyAccepted(kube, objects);
    const cs = objects.find(m => m.kind === 'CloneSet')!;
    const settled = await waitWorkloadSettled(kube, cs, 'app=aboard-web', 3);
    for (const p of settled) {
      const old = before.find(b => b.metadata.name === p.metadata.name)!;
      expect(p.metadata.uid).toBe(old.metadata.uid);
      expect(containerStatus(p, 'server').restartCount).toBe(containerStatus(old, 'server').restartCount + 1);
      expect(containerStatus(p, 'proxy').containerID).toBe(containerStatus(old, 'proxy').containerID);
    }
    await applyAccepted(kube, workloads('server:v2', 4));
    const four = await waitPodsReady(kube, NS, 'app=aboard-web', 4, 180_000);
    const added = four.find(p => !before.some(b => b.metadata.name === p.metadata.name))!;
    expect(added.spec.containers.map((c: any) => c.name).sort()).toEqual(['proxy', 'server']);
    const pub = objects.find(m => m.kind === 'PodUnavailableBudget')!;
    await until('the budget to count 4 pods', 60_000, async () => (await live(kube, pub)).status?.unavailableAllowed === 1, async () => JSON.stringify((await live(kube, pub)).status));
    const evict = (p: Manifest) => kube.request('POST', `/api/v1/namespaces/${NS}/pods/${p.metadata.name}/eviction`,
      { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: p.metadata.name, namespace: NS } });
    const answers = await Promise.all([evict(four[0]), evict(four[1])]);
    console.log(`Helm takeover: two evictions at once: ${answers.map(a => `HTTP ${a.status} ${a.body?.message ?? ''}`).join('; ')}`);
    const refused = answers.filter(a => a.status >= 400);
    expect(refused.length).toBe(1);
    expect(refused[0].body.message).toMatch(/^admission webhook "vpodeviction\.kb\.io" denied the request: podunavailablebudget\.policy\.kruise\.io "web" is forbidden: /);
  }, 600_000);
});

function parseAllManifests(text: string): Manifest[] {
  return parseAllDocuments(text).map(d => d.toJSON()).filter(x => x && x.kind);
}
