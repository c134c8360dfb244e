/**
 * Coming aboard from a Helm install, on the real node: the real `helm` v3
 * binary installs the kruise chart 1.9.1 (test/cluster/helm.ts says where it
 * comes from: its own templates where they could be had, stand-ins for the
 * rest) with its image from the tier's registry; a CloneSet, a SidecarSet
 * that injects into its pods and a budget run under the chart's
 * kruise-manager. Then `KruiseControlPlane.fromHelmRelease()`, with the
 * release read from Helm's release record on the cluster, takes the install
 * over by the commands `cdk8s-kruise plan --old-live` prints, run as they
 * are, while an HTTP client asks the CloneSet's Service every 100 ms and a pod
 * is created and deleted every second: not one request, pod creation or pod
 * deletion fails (the webhook calls move to handover pods of the new manager
 * before the chart's manager pods stop), no workload pod restarts, nothing is
 * deleted, `helm list` is empty. Then our control plane updates a pod in
 * place, injects the sidecar into a new pod and refuses an eviction beyond
 * the budget.
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
import { CHART_1_9_1_TEMPLATES, chartValues, renderObjects } from '../../control-plane/_chart-template';
import { CHART_SOURCES, helm, kruiseChart } from '../helm';
import { Kube, Manifest, describeObject } from '../kube';
import { testNamespace } from '../manager';
import {
  KRUISE_NAMESPACE, applyAccepted, containerStatus, live, nodeControlPlaneProps, nodeControlPlaneSynth, nodeObjects, podsOf, requireRealNode,
  serverContainer, sleep, until, waitDaemonSetReady, waitDeploymentAvailable, waitPodsReady, waitWorkloadSettled,
} from '../node';
import { synthApp } from '../sources';
import { Traffic, TrafficReport } from '../traffic';

const NS = 'aboard-helm';
const RELEASE = 'kruise';
let kube: Kube;
/** What the chart installed (helm get manifest). */
let chartObjects: Manifest[] = [];

const describeWithChart = CHART_SOURCES.every(f => fs.existsSync(f)) || process.env.KRUISE_CHART_DIR ? describe : describe.skip;
/** The image tag chart 1.9.1 installs with its values. */
const CHART_TAG = 'v1.9.1';
/** The tag the rung's control plane runs: the chart's, unless the node's registry has another build. */
const nodeTag = () => nodeControlPlaneProps().imageTag ?? CHART_TAG;
/** What the install sets: the tier's registry, and the tag only where the node's registry has no image of the chart's. */
const setValues = () => ({ manager: { image: { repository: `${requireRealNode().registry}/cluster-tier/kruise-manager`, ...(nodeTag() === CHART_TAG ? {} : { tag: nodeTag() }) } } });

beforeAll(() => {
  requireRealNode();
  kube = new Kube();
});

afterAll(() => kube?.close());

const webhookConfigs = (objs: Manifest[]) => objs.filter(m => m.kind === 'MutatingWebhookConfiguration' || m.kind === 'ValidatingWebhookConfiguration');
const paths = (objs: Manifest[]) => new Map(webhookConfigs(objs)
  .flatMap(c => (c.webhooks ?? []).map((w: any) => [w.name, w.clientConfig?.service?.path] as [string, string])));

/** The control plane that takes the install over: the release as its record holds it, and what the rung's other files use on top. */
function takeoverSynth(record: any) {
  return synthApp('KruiseControlPlane.fromHelmRelease', (app: App) => {
    lib.KruiseControlPlane.fromHelmRelease(new Chart(app, 'kruise'), 'kruise', lib.KruiseHelmRelease.fromRecord(record), {
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
    timeout: 900_000,
    env: { ...process.env, PATH: `${path.dirname(kube.env.kubectl)}:${process.env.PATH}`, KUBECONFIG: kube.env.kubeconfig },
  });
  return { status: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

describeWithChart('a Helm install of OpenKruise taken over by KruiseControlPlane on the real node', () => {
  const node = () => requireRealNode();
  let podsBefore: Manifest[] = [];
  let uidsBefore = new Map<string, string>();
  let values: any;
  let record: any;
  let report: TrafficReport;
  let plan: lib.PlanReport;

  test('helm installs chart 1.9.1: its webhook configuration and RBAC are what chart-parity reads from the same templates, and its kruise-manager serves every webhook but the two its gate leaves off', async () => {
    const chart = kruiseChart();
    console.log(`Helm takeover: installing the kruise chart, ${chart.origin}`);
    const set = setValues();
    helm(kube, ['install', RELEASE, chart.dir, '--set', `manager.image.repository=${set.manager.image.repository}`,
      ...('tag' in set.manager.image ? ['--set', `manager.image.tag=${set.manager.image.tag}`] : [])]);
    chartObjects = parseAllManifests(helm(kube, ['get', 'manifest', RELEASE]));
    expect(chartObjects.filter(m => m.kind === 'CustomResourceDefinition').length).toBe(18);
    // the real helm renders chart 1.9.1's own templates as the unit tier reads them (test/control-plane/_chart-template.ts)
    const byReading = CHART_1_9_1_TEMPLATES.slice(0, 2).flatMap(f => renderObjects(f, chartValues(set)));
    const byName = (objs: Manifest[]) => Object.fromEntries(objs.map(m => [`${m.kind}/${m.metadata.name}`, m]));
    const installed = byName(chartObjects);
    expect(Object.fromEntries(Object.keys(byName(byReading)).map(k => [k, installed[k]]))).toEqual(byName(byReading));
    await waitDeploymentAvailable(kube, KRUISE_NAMESPACE, 'kruise-controller-manager', 300_000);
    await waitDaemonSetReady(kube, KRUISE_NAMESPACE, 'kruise-daemon', 300_000);
    const chartPaths = paths(chartObjects);
    // kruise-manager rewrites its webhook configurations at start: a webhook whose path it serves keeps its caBundle, one it does not is removed
    const now = await until('the chart\'s kruise-manager to write its webhook configurations', 120_000, async () => {
      const objs = await Promise.all(webhookConfigs(chartObjects).map(async m => (await kube.get(m)).body));
      const hooks = objs.flatMap(o => o.webhooks ?? []);
      return hooks.length > 0 && hooks.every((h: any) => h.clientConfig?.caBundle) && hooks.length < chartPaths.size ? objs : undefined;
    });
    const kept = paths(now);
    const dropped = [...chartPaths.keys()].filter(n => !kept.has(n)).sort();
    console.log(`Helm takeover: the chart's ${chartPaths.size} webhooks: ${kept.size} kept by kruise-manager ${nodeTag()}; dropped: ${dropped.join(', ')}`);
    // chart 1.9.1 registers the paths the 1.9 manager serves; only the Service and Ingress protection webhooks go, served with ResourcesDeletionProtection, which the chart leaves off
    expect(dropped).toEqual(['vingress.kb.io', 'vservice.kb.io']);
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

  test('the plan of the takeover: the release read from Helm\'s record (not from helm get values), no gap in CRDs, webhooks or the certificate, manager and daemon roll once, the webhook calls moved first', async () => {
    values = parse(helm(kube, ['get', 'values', RELEASE, '-o', 'yaml'])) ?? {};
    expect(values).toEqual(setValues());
    const records = ((await kube.request('GET', `/api/v1/namespaces/default/secrets?labelSelector=${encodeURIComponent(`owner=helm,name=${RELEASE}`)}`)).body.items as Manifest[])
      .map(r => ({ apiVersion: 'v1', kind: 'Secret', ...r }));
    expect(records.map((s: any) => s.metadata.name)).toEqual([`sh.helm.release.v1.${RELEASE}.v1`]);
    record = { apiVersion: 'v1', kind: 'List', items: records };
    // the record helm wrote, read as the library reads it: the chart version, the values set, the image its manifest gives kruise-manager
    const release = lib.KruiseHelmRelease.fromRecord(record);
    expect([release.name, release.namespace, release.chartVersion, release.values]).toEqual([RELEASE, 'default', '1.9.1', values]);
    expect(release.runningImage).toBe(`${node().registry}/cluster-tier/kruise-manager:${nodeTag()}`);
    expect(lib.KruiseControlPlane.mapHelmValues(values).map(m => `${m.path} -> ${m.prop ?? m.refusal}`)).toEqual([
      'manager.image.repository -> imageRepository',
      ...(nodeTag() === CHART_TAG ? [] : [`manager.image.tag -> release '${nodeTag().slice(1)}' (the release the cluster runs, installed whole)`]),
    ]);
    const ours = takeoverSynth(record);
    expect(ours.objects.find(o => o.kind === 'Deployment')!.spec.template.spec.containers[0].image).toBe(release.runningImage);
    const liveObjs: Manifest[] = [];
    for (const m of ours.objects) {
      const res = await kube.get(m);
      if (res.status === 200) liveObjs.push(res.body);
    }
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
    expect(m.summary).toMatch(/^takeover: the manifests take over the \d+ objects of Helm release default\/kruise \(18 CRDs and 35 webhooks kept, the certificate kept\); the pods of 2 workloads roll once, the webhook calls moved to 2 handover pods of the new manager first$/);
    expect(m.commands[0]).toBe(`kubectl delete secret -n default -l owner=helm,name=${RELEASE}`);
    expect(m.commands).toContain(`kubectl apply --server-side --field-manager=cdk8s-kruise --force-conflicts -f ${path.join(dir, 'dist')}`);
    fs.writeFileSync(path.join(dir, 'plan.json'), out);
    (globalThis as any).__aboardDir = dir;
  }, 120_000);

  test('the takeover, by the plan\'s commands as they are, while clients run: 0 failed requests, 0 failed Pod creations or deletions, no workload pod restarted, nothing deleted, helm list empty', async () => {
    const m = plan.migrations.find(x => x.kind === lib.MigrationKind.HELM_TAKEOVER)!;
    const svc = (await kube.request('GET', `/api/v1/namespaces/${NS}/services/web`)).body;
    const traffic = await Traffic.start(kube, { url: `http://${svc.spec.clusterIP}:8080/`, podNamespace: NS });
    const started = Date.now();
    const timings: string[] = [];
    try {
      await sleep(3000);
      for (const c of m.commands) {
        const t0 = Date.now();
        const r = run(c);
        if (r.status !== 0) throw new Error(`cluster tier: ${c}: ${r.out}`);
        if (!c.includes('managedFields')) timings.push(`${Math.round((t0 - started) / 100) / 10}s +${Math.round((Date.now() - t0) / 100) / 10}s ${c.split('\n')[0].slice(0, 90)}`);
      }
      await until('kruise-manager writes the caBundle of every webhook', 120_000, async () => {
        for (const w of webhookConfigs(takeoverSynth(record).objects)) {
          if (((await kube.get(w)).body.webhooks ?? []).some((h: any) => !h.clientConfig?.caBundle)) return false;
        }
        return true;
      });
      await sleep(5000);
    } finally {
      report = await traffic.stop();
    }
    console.log(`Helm takeover: ${Math.round((Date.now() - started) / 1000)} s; ${report.requests} requests (${report.failedRequests} failed), `
      + `${report.podsCreated} pods created (${report.failedPodCreations} failed, ${report.failedPodDeletions} deletions failed)${report.failures.length > 0 ? `\n  ${report.failures.join('\n  ')}` : ''}`
      + `\n  the commands (start, duration):\n  ${timings.join('\n  ')}`);
    // Nothing is cut: the chart's manager pods stop only once the webhook Service sends no new connection to them (its
    // EndpointSlices hold only the handover pods, and kube-proxy was given the drain time), and kruise-manager answers the
    // calls under way on connections the API server already holds as its webhook server shuts down; the handover pods stop
    // after the drain hook, once they have left the endpoints.
    expect(report.failedRequests).toBe(0);
    expect(report.failures).toEqual([]);
    expect(report.failedPodCreations + report.failedPodDeletions).toBe(0);
    expect(report.requests).toBeGreaterThan(100);
    expect(report.podsCreated).toBeGreaterThan(20);

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
    const ours = takeoverSynth(record);
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
