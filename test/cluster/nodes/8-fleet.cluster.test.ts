/**
 * The fleet change report judged on real containers. A platform output (the
 * policies of examples/fleet-platform, plus a metrics agent) and two app
 * outputs (the payments and shop teams', each reading the platform's output
 * as context) run on the real node with kruise-manager and kruise-daemon as
 * pods. The platform then changes its policies as one pull request:
 *
 * - the log shipper's image (fluent-bit 3.1.9 -> 3.2.2): OpenKruise upgrades
 *   it in place, by container restart;
 * - the mesh proxy's image (a hot-upgrade sidecar): upgraded in place by the
 *   standby-container swap;
 * - the metrics agent's env (a change that reaches pods only when they are
 *   recreated), and its selector: it stops picking one workload and starts
 *   picking another.
 *
 * `FleetCheck` reports the change (old policies against new, the same
 * workloads); the new policies are applied, and every pod is judged against
 * the report on its real containers: reported in place, it keeps its UID and
 * the sidecar gets a new container, restartCount + 1 and the new image while
 * every other container keeps running; reported as reaching pods only when
 * recreated, the old sidecar keeps running, unrestarted; a workload that
 * starts or stops being selected keeps its running pods as they are, and
 * the pod that replaces a deleted one has exactly the containers the report
 * predicts for the new policies. Every check is counted; 0 may disagree.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { PoliciesChart } from '../../../examples/fleet-platform/main';
import { LOG_AGENT_IMAGE, MESH_PROXY_IMAGE } from '../../../examples/fleet-platform/policies';
import * as lib from '../../../src';
import { sameUpToSidecarOrder } from '../fleet-judge';
import { Kube, Manifest, describeObject } from '../kube';
import { ensureDefaultServiceAccount } from '../manager';
import {
  PodFacts, SMALL_RESOURCES, applyAccepted, describePods, ensureKruise, httpGet, isReady, live, podFacts, podsOf, requireRealNode,
  serverContainer, sleep, tierImage, until,
} from '../node';
import { Synth, synthApp } from '../sources';

/** The platform's pull request: the log shipper and the mesh proxy bumped. */
const NEW_LOG_AGENT_IMAGE = 'fluent/fluent-bit:3.2.2';
const NEW_MESH_PROXY_IMAGE = 'envoyproxy/envoy:v1.32.1';
const METRICS_PORT = 9102;

/**
 * The platform's metrics agent: a sidecar for the workloads of some metrics
 * tiers (`platform.io/metrics`), scraping at an interval.
 */
class MetricsAgent extends Construct {
  constructor(scope: Construct, id: string, o: { tiers: string[]; scrapeInterval: string }) {
    super(scope, id);
    new lib.SidecarSet(this, 'Resource', {
      metadata: { name: 'metrics-agent' },
      selector: kplus.LabelSelector.of({ expressions: [kplus.LabelExpression.in('platform.io/metrics', o.tiers)] }),
      containers: [{
        name: 'metrics-agent',
        image: tierImage('server:v1'),
        ports: [{ number: METRICS_PORT, name: 'agent-scrape' }],
        envVariables: { PORT: kplus.EnvValue.fromValue(String(METRICS_PORT)), APP_SCRAPE_INTERVAL: kplus.EnvValue.fromValue(o.scrapeInterval) },
        resources: SMALL_RESOURCES,
        injectPolicy: lib.SidecarInjectPolicy.AFTER_APP_CONTAINER,
      }],
    });
  }
}

interface PlatformVersion {
  readonly logAgentImage: string;
  readonly meshProxyImage: string;
  readonly metricsTiers: string[];
  readonly scrapeInterval: string;
}

const OLD: PlatformVersion = { logAgentImage: LOG_AGENT_IMAGE, meshProxyImage: MESH_PROXY_IMAGE, metricsTiers: ['legacy', 'standard'], scrapeInterval: '30s' };
const NEW: PlatformVersion = { logAgentImage: NEW_LOG_AGENT_IMAGE, meshProxyImage: NEW_MESH_PROXY_IMAGE, metricsTiers: ['standard', 'opt-in'], scrapeInterval: '15s' };

/** The platform repository's synth output at one version: the example's policies and the metrics agent. */
function platformSynth(v: PlatformVersion): Synth {
  return synthApp('fleet platform', (app: App) => {
    new PoliciesChart(app, 'policies', v.logAgentImage, v.meshProxyImage);
    new MetricsAgent(new Chart(app, 'metrics'), 'metrics', { tiers: v.metricsTiers, scrapeInterval: v.scrapeInterval });
    return app;
  });
}

const LOGGED = { 'platform.io/logging': 'enabled' };
const MESHED = { 'platform.io/mesh': 'enabled' };

/** The payments team's repository: its API (logged, in the mesh, critical) and its ledger worker (logged, legacy metrics). */
function paymentsApp(platformDist: string) {
  return (app: App): App => {
    new lib.KruiseContext(app, 'platform', { manifests: [platformDist] });
    const payments = new Chart(app, 'payments', { namespace: 'payments' });
    new kplus.Namespace(payments, 'namespace', { metadata: { name: 'payments', labels: MESHED } });
    new lib.CloneSet(payments, 'api', {
      metadata: { name: 'payments-api' },
      replicas: 2,
      podMetadata: { labels: { ...LOGGED, ...MESHED, 'platform.io/tier': 'critical' } },
      containers: [serverContainer('server:v1', { name: 'api' })],
    });
    new lib.CloneSet(payments, 'ledger', {
      metadata: { name: 'ledger-worker' },
      replicas: 1,
      podMetadata: { labels: { ...LOGGED, 'app.io/role': 'worker', 'platform.io/metrics': 'legacy' } },
      containers: [serverContainer('server:v1', { name: 'worker' })],
    });
    return app;
  };
}

/** The shop team's repository: its web front (logged, standard metrics; its namespace is outside the mesh) and search API (in the mesh, opting in to metrics). */
function shopApp(platformDist: string) {
  return (app: App): App => {
    new lib.KruiseContext(app, 'platform', { manifests: [platformDist] });
    const shop = new Chart(app, 'shop', { namespace: 'shop' });
    new kplus.Namespace(shop, 'namespace', { metadata: { name: 'shop' } });
    new kplus.Deployment(shop, 'web', {
      metadata: { name: 'web' },
      replicas: 1,
      podMetadata: { labels: { ...LOGGED, ...MESHED, 'platform.io/metrics': 'standard' } },
      containers: [serverContainer('server:v1', { name: 'web' })],
    });
    const search = new Chart(app, 'search', { namespace: 'search' });
    new kplus.Namespace(search, 'namespace', { metadata: { name: 'search', labels: MESHED } });
    new lib.CloneSet(search, 'api', {
      metadata: { name: 'search-api' },
      replicas: 1,
      podMetadata: { labels: { ...MESHED, 'platform.io/metrics': 'opt-in' } },
      containers: [serverContainer('server:v1', { name: 'api' })],
    });
    return app;
  };
}

/** A synth's files written to a folder, as its repository's dist/. */
function writeDist(s: Synth): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-node-dist-'));
  for (const [f, text] of Object.entries(s.files)) fs.writeFileSync(path.join(dir, f), text);
  return dir;
}

const selectorOf = (w: Manifest) => Object.entries<string>(w.spec.selector.matchLabels).map(([k, v]) => `${k}=${v}`).join(',');
const keyOf = (source: string, w: { namespace?: string; name: string }) => `${source}/${w.namespace}/${w.name}`;
const HOT_WORKING = 'kruise.io/sidecarset-working-hotupgrade-container';

interface App2 { readonly name: string; readonly synth: Synth; readonly dist: string }
interface Workload { readonly key: string; readonly source: string; readonly json: Manifest }
/** A pod before the change: its facts, its spec and the metrics agent's answer. */
interface Before { readonly facts: PodFacts; readonly pod: Manifest; readonly metrics?: any }

let kube: Kube;
let oldPlatform: Synth;
let newPlatform: Synth;
const dists: string[] = [];
const apps: App2[] = [];
const workloads: Workload[] = [];
let report: lib.FleetReport;
const before = new Map<string, Before[]>();
const disagreements: string[] = [];
let checks = 0;

/** One check of the real cluster against the report: counted, and a disagreement when it fails. */
function check(ok: boolean, what: string): void {
  checks++;
  if (!ok) disagreements.push(what);
}

beforeAll(async () => {
  kube = new Kube();
  requireRealNode();
  oldPlatform = platformSynth(OLD);
  newPlatform = platformSynth(NEW);
  const oldDist = writeDist(oldPlatform);
  dists.push(oldDist);
  for (const [name, build] of [['payments', paymentsApp], ['shop', shopApp]] as const) {
    const synth = synthApp(`${name} app`, build(oldDist));
    const dist = writeDist(synth);
    dists.push(dist);
    apps.push({ name, synth, dist });
    for (const w of synth.objects.filter(m => m.spec?.template?.spec?.containers)) {
      workloads.push({ key: keyOf(name, w.metadata), source: name, json: w });
    }
  }
  await ensureKruise(kube);
}, 400_000);

afterAll(async () => {
  for (const w of workloads) await kube.request('DELETE', `${await kube.pathOf(w.json)}?propagationPolicy=Background`);
  for (const m of oldPlatform?.objects ?? []) await kube.request('DELETE', await kube.pathOf(m));
  for (const d of dists) fs.rmSync(d, { recursive: true, force: true });
  kube?.close();
});

/** The pods of a workload on the node, each ready. */
async function readyPods(w: Workload, count: number, timeoutMs = 90_000): Promise<Manifest[]> {
  const ns = w.json.metadata.namespace;
  return until(`${count} ready pods of ${w.key}`, timeoutMs, async () => {
    const pods = await podsOf(kube, ns, selectorOf(w.json));
    return pods.length === count && pods.every(isReady) ? pods : undefined;
  }, () => describePods(kube, ns, selectorOf(w.json)));
}

/** What the SidecarSet controller says of a pod in its condition SidecarSetUpgradable: true, false, or nothing (not its pod). */
function upgradable(p: Manifest, sidecarSet: string): boolean | undefined {
  const cond = (p.status?.conditions ?? []).find((x: any) => x.type === 'SidecarSetUpgradable');
  return cond?.message ? JSON.parse(cond.message)[sidecarSet] : undefined;
}

const replicasOf = (w: Workload) => w.json.spec.replicas ?? 1;
const metricsAnswer = async (p: Manifest) => {
  const r = await httpGet(`http://${p.status.podIP}:${METRICS_PORT}/`);
  return r.status === 200 ? r.json : undefined;
};

test('the platform output and the two app outputs run on the real node, the sidecars injected', async () => {
  // each app's Namespace first (its labels decide the mesh's namespace selector), then the platform, then the apps
  for (const a of apps) {
    for (const ns of a.synth.objects.filter(m => m.kind === 'Namespace')) {
      await applyAccepted(kube, [ns]);
      await ensureDefaultServiceAccount(kube, ns.metadata.name);
    }
  }
  await applyAccepted(kube, oldPlatform.objects);
  for (const s of oldPlatform.objects.filter(o => o.kind === 'SidecarSet')) {
    await until(`kruise-manager observes ${describeObject(s)}`, 30_000, async () => {
      const l = await live(kube, s);
      return l.status?.observedGeneration === l.metadata.generation;
    });
  }
  await sleep(2000); // the pod webhook of every manager pod reads SidecarSets from its own cache
  for (const a of apps) await applyAccepted(kube, a.synth.objects.filter(m => m.kind !== 'Namespace'));
  for (const w of workloads) {
    const pods = await readyPods(w, replicasOf(w));
    const facts: Before[] = [];
    for (const p of pods) {
      expect(p.spec.nodeName).toBe(requireRealNode().name);
      const names = p.spec.containers.map((c: any) => c.name);
      facts.push({ facts: podFacts(p), pod: p, metrics: names.includes('metrics-agent') ? await metricsAnswer(p) : undefined });
    }
    before.set(w.key, facts);
  }
  // what the old policies put in the pods: the sidecars run the platform's images, the agent answers with its interval
  const apiPod = before.get('payments/payments/payments-api')![0].pod;
  expect(apiPod.spec.containers.map((c: any) => [c.name, c.image])).toEqual([
    ['log-agent', LOG_AGENT_IMAGE], ['api', tierImage('server:v1')], ['mesh-proxy-1', MESH_PROXY_IMAGE], ['mesh-proxy-2', 'openkruise/hotupgrade-sample:empty'],
  ]);
  const ledger = before.get('payments/payments/ledger-worker')![0];
  expect(ledger.pod.spec.containers.map((c: any) => c.name)).toEqual(['log-agent', 'worker', 'metrics-agent']);
  expect(ledger.metrics?.env).toEqual({ APP_SCRAPE_INTERVAL: '30s' });
  expect(before.get('shop/search/search-api')![0].pod.spec.containers.map((c: any) => c.name)).toEqual(['api', 'mesh-proxy-1', 'mesh-proxy-2']);
});

test('the change report, old policies against new, for the same workloads', () => {
  const newDist = writeDist(newPlatform);
  dists.push(newDist);
  report = lib.FleetCheck.fromPaths({ policies: [newDist], oldPolicies: [dists[0]], workloads: apps.map(a => `${a.name}=${a.dist}`) });
  console.log(lib.FleetCheck.render(report, lib.FleetFormat.MARKDOWN));
  expect([report.refused, report.replacesAppContainer]).toEqual([false, false]);
  const summary = Object.fromEntries(report.changes.map(c => [c.name,
    Object.fromEntries(c.workloads.map(w => [keyOf(w.workload.source, w.workload), [w.change, ...w.restarted, ...w.hotUpgraded]]))]));
  // what the report says is the prediction the cluster is judged against below; this pins that it covers each kind of change
  expect(summary).toEqual({
    'logging-agent': {
      'payments/payments/payments-api': ['InPlace', 'log-agent'],
      'payments/payments/ledger-worker': ['InPlace', 'log-agent'],
      'shop/shop/web': ['InPlace', 'log-agent'],
    },
    'mesh-proxy': {
      'payments/payments/payments-api': ['InPlace', 'mesh-proxy'],
      'shop/search/search-api': ['InPlace', 'mesh-proxy'],
    },
    'metrics-agent': {
      'shop/search/search-api': ['StartInjection'],
      'payments/payments/ledger-worker': ['StopInjection'],
      'shop/shop/web': ['OnRecreate'],
    },
  });
});

/** The sidecars of the new policies, by SidecarSet name. */
function newSidecars(): Map<string, { container: any; hot: boolean }> {
  const out = new Map<string, { container: any; hot: boolean }>();
  for (const s of newPlatform.objects.filter(o => o.kind === 'SidecarSet')) {
    const c = s.spec.containers[0];
    out.set(s.metadata.name, { container: c, hot: c.upgradeStrategy?.upgradeType === 'HotUpgrade' });
  }
  return out;
}

/** The changes the report gives each workload: [SidecarSet name, change]. */
function changesOf(key: string): Array<[string, lib.FleetWorkloadChange]> {
  return report.changes.flatMap(c => c.workloads
    .filter(w => keyOf(w.workload.source, w.workload) === key)
    .map(w => [c.name, w] as [string, lib.FleetWorkloadChange]));
}

test('the new policies applied: every running pod does what the report said, on its real containers', async () => {
  await applyAccepted(kube, newPlatform.objects);
  const sidecars = newSidecars();
  // every SidecarSet settled, whatever the report says: each pod it matches upgraded to its latest spec and
  // ready (a hot upgrade's swap finished), or marked by the controller as one it cannot upgrade in place
  const namespaces = [...new Set(workloads.map(w => w.json.metadata.namespace as string))];
  const sets = newPlatform.objects.filter(o => o.kind === 'SidecarSet');
  const settled = new Map<string, any>();
  for (const ss of sets) {
    const st = await until(`SidecarSet ${ss.metadata.name} settled`, 120_000, async () => {
      const l = await live(kube, ss);
      if ((l.status?.observedGeneration ?? 0) < l.metadata.generation) return undefined;
      // a count of 0 is left out of the status
      const s = { matchedPods: 0, updatedPods: 0, updatedReadyPods: 0, ...l.status };
      let marked = 0;
      for (const ns of namespaces) for (const p of await podsOf(kube, ns)) if (upgradable(p, ss.metadata.name) === false) marked++;
      return s.updatedReadyPods === s.updatedPods && s.updatedPods + marked === s.matchedPods ? s : undefined;
    }, async () => `${JSON.stringify((await live(kube, ss)).status)}\n${(await Promise.all(namespaces.map(ns => describePods(kube, ns)))).join('\n')}`);
    settled.set(ss.metadata.name, st);
  }
  // the controllers' own count against the report's: the pods upgraded in place, and those kept until recreated
  for (const c of report.changes) {
    const pods = (...kinds: lib.FleetPodChange[]) => c.workloads.filter(w => kinds.includes(w.change))
      .reduce((n, w) => n + (w.workload.pods ?? 0), 0);
    const st = settled.get(c.name);
    const inPlace = pods(lib.FleetPodChange.IN_PLACE);
    const matched = pods(lib.FleetPodChange.IN_PLACE, lib.FleetPodChange.ON_RECREATE);
    check(st.updatedPods === inPlace && st.matchedPods === matched,
      `SidecarSet ${c.name}: the report has ${inPlace} pods upgraded in place of ${matched} running pods it keeps selecting; its status says ${st.updatedPods} updated of ${st.matchedPods} matched`);
  }

  for (const w of workloads) {
    const changes = changesOf(w.key);
    // the containers the report says change in place: the restarted sidecars, both containers of a hot-upgraded one
    const upgraded = new Set<string>();
    for (const [, ch] of changes) {
      for (const c of ch.restarted) upgraded.add(c);
      for (const c of ch.hotUpgraded) { upgraded.add(`${c}-1`); upgraded.add(`${c}-2`); }
    }
    const pods = await readyPods(w, replicasOf(w), 30_000);
    for (const old of before.get(w.key)!) {
      const p = pods.find(x => x.metadata.name === old.facts.name);
      check(p !== undefined && p.metadata.uid === old.facts.uid, `${w.key}: pod ${old.facts.name} was recreated (no change of the report recreates a running pod)`);
      if (!p) continue;
      const f = podFacts(p);
      const where = `${w.key} pod ${f.name}`;
      check(JSON.stringify(p.spec.containers.map((c: any) => c.name)) === JSON.stringify(old.pod.spec.containers.map((c: any) => c.name)),
        `${where}: its containers changed from [${old.pod.spec.containers.map((c: any) => c.name)}] to [${p.spec.containers.map((c: any) => c.name)}]`);
      // every container the report does not upgrade in place keeps running: same container, no restart, same spec
      for (const c of old.pod.spec.containers) {
        if (upgraded.has(c.name)) continue;
        const now = p.spec.containers.find((x: any) => x.name === c.name);
        const was = old.facts.containers[c.name];
        const is = f.containers[c.name];
        check(is?.id === was.id && is?.restarts === was.restarts, `${where}: container "${c.name}" restarted (${was.id} -> ${is?.id}, restarts ${is?.restarts})`);
        check(JSON.stringify(now) === JSON.stringify(c), `${where}: the spec of container "${c.name}" changed: ${JSON.stringify(c)} -> ${JSON.stringify(now)}`);
      }
      for (const [name, ch] of changes) {
        const sc = sidecars.get(name)!;
        // the controller's own verdict on the pod: upgradable in place, not, or not its pod at all
        // (one condition holds every SidecarSet's verdict, and the controller writes it from its cache once after an
        // in-place upgrade, so two SidecarSets upgrading one pod at once can lose the first one's `true`; a `false`
        // is written again on every reconcile. The in-place upgrade itself is judged on the containers below.)
        const verdict = upgradable(p, name);
        const want = ch.change === lib.FleetPodChange.IN_PLACE ? [true, undefined]
          : ch.change === lib.FleetPodChange.ON_RECREATE ? [false] : [undefined];
        check(want.includes(verdict), `${where}: reported ${ch.change} for ${name}, but the controller's SidecarSetUpgradable verdict is ${verdict}`);
        if (ch.change === lib.FleetPodChange.IN_PLACE && !sc.hot) {
          for (const c of ch.restarted) {
            const was = old.facts.containers[c];
            const is = f.containers[c];
            check(is?.id !== was.id && is?.restarts === was.restarts + 1, `${where}: "${c}" reported restarted in place, but container ${was.id} (restarts ${was.restarts}) is now ${is?.id} (restarts ${is?.restarts})`);
            check(p.spec.containers.find((x: any) => x.name === c)?.image === sc.container.image && is?.imageID !== was.imageID,
              `${where}: "${c}" reported upgraded to ${sc.container.image}, but runs ${is?.image} (${is?.imageID})`);
          }
        } else if (ch.change === lib.FleetPodChange.IN_PLACE) {
          for (const c of ch.hotUpgraded) {
            const wasWorking = JSON.parse(old.pod.metadata.annotations[HOT_WORKING])[c];
            const working = JSON.parse(p.metadata.annotations?.[HOT_WORKING] ?? '{}')[c];
            const standby = working === `${c}-1` ? `${c}-2` : `${c}-1`;
            const image = (n: string) => p.spec.containers.find((x: any) => x.name === n)?.image;
            check(working !== undefined && working !== wasWorking, `${where}: "${c}" reported hot-upgraded, but the working container is still ${wasWorking}`);
            check(image(working) === sc.container.image && image(standby) === sc.container.upgradeStrategy.hotUpgradeEmptyImage,
              `${where}: "${c}" reported hot-upgraded to ${sc.container.image}: ${working} runs ${image(working)}, ${standby} runs ${image(standby)}`);
            for (const n of [working, standby]) {
              const was = old.facts.containers[n];
              const is = f.containers[n];
              check(is?.id !== was?.id && is?.restarts === (was?.restarts ?? 0) + 1, `${where}: "${n}" of the hot upgrade of "${c}" not restarted once: ${was?.id} -> ${is?.id}, restarts ${is?.restarts}`);
            }
          }
        } else if (ch.change === lib.FleetPodChange.ON_RECREATE || ch.change === lib.FleetPodChange.STOP_INJECTION) {
          // the old sidecar keeps running unrestarted (checked above with every other container), with its old settings
          const c = sc.container.name;
          if (c !== 'metrics-agent') continue;
          const answer = await metricsAnswer(p);
          const same = answer?.pid === old.metrics?.pid && answer?.started === old.metrics?.started;
          check(same && answer?.env?.APP_SCRAPE_INTERVAL === OLD.scrapeInterval,
            `${where}: "${c}" reported kept until the pod is recreated, but it answers ${JSON.stringify(answer)} (before: ${JSON.stringify(old.metrics)})`);
        } else if (ch.change === lib.FleetPodChange.START_INJECTION) {
          check(!p.spec.containers.some((x: any) => x.name === sc.container.name), `${where}: "${sc.container.name}" injected into a running pod`);
        } else {
          check(false, `${where}: ${name} reports ${ch.change}, which this fleet does not judge`);
        }
      }
    }
  }
  console.log(`fleet change on real containers, running pods: ${checks} checks, ${disagreements.length} disagree`);
  expect(disagreements).toEqual([]);
  expect(checks).toBeGreaterThan(40);
});

test('a pod that replaces a deleted one has exactly what the report predicts for the new policies', async () => {
  const predicted = new Map<string, lib.FleetInjection>();
  for (const p of report.policies) for (const i of p.injections) predicted.set(keyOf(i.workload.source, i.workload), i);
  const sidecars = newSidecars();
  // one pod of each workload the metrics agent starts, stops or keeps selecting (the budget protects the payments API's)
  const judged = workloads.filter(w => changesOf(w.key).some(([, ch]) => ch.change !== lib.FleetPodChange.IN_PLACE));
  expect(judged.map(w => w.key).sort()).toEqual(['payments/payments/ledger-worker', 'shop/search/search-api', 'shop/shop/web']);
  const first = checks;
  const earlier = disagreements.length;
  for (const w of judged) {
    const [victim] = before.get(w.key)!;
    expect((await kube.request('DELETE', `/api/v1/namespaces/${w.json.metadata.namespace}/pods/${victim.facts.name}`)).status).toBe(200);
  }
  for (const w of judged) {
    const gone = new Set(before.get(w.key)!.map(b => b.facts.uid));
    const pods = await until(`the pod replacing one of ${w.key}`, 90_000, async () => {
      const ps = await podsOf(kube, w.json.metadata.namespace, selectorOf(w.json));
      return ps.length === replicasOf(w) && ps.every(isReady) && ps.some(p => !gone.has(p.metadata.uid)) ? ps : undefined;
    }, () => describePods(kube, w.json.metadata.namespace, selectorOf(w.json)));
    const p = pods.find(x => !gone.has(x.metadata.uid))!;
    const where = `${w.key} new pod ${p.metadata.name}`;
    const app = w.json.spec.template.spec.containers.map((c: any) => c.name);
    const i = predicted.get(w.key);
    const want: string[] = i?.containers ?? app;
    const actual: string[] = p.spec.containers.map((c: any) => c.name);
    check((i?.containerOrderFixed ?? true) ? actual.join() === want.join() : sameUpToSidecarOrder(want, actual, app),
      `${where}: predicted [${want}], the webhook made [${actual}]`);
    // each sidecar as the new policies have it
    for (const name of i?.sidecarSets ?? []) {
      const sc = sidecars.get(name)!;
      const c = sc.container;
      if (sc.hot) {
        const working = JSON.parse(p.metadata.annotations?.[HOT_WORKING] ?? '{}')[c.name];
        check(p.spec.containers.find((x: any) => x.name === working)?.image === c.image, `${where}: the working "${c.name}" does not run ${c.image}`);
      } else {
        check(p.spec.containers.find((x: any) => x.name === c.name)?.image === c.image, `${where}: "${c.name}" does not run ${c.image}`);
      }
    }
    if (actual.includes('metrics-agent')) {
      const answer = await metricsAnswer(p);
      check(answer?.env?.APP_SCRAPE_INTERVAL === NEW.scrapeInterval, `${where}: the metrics agent answers ${JSON.stringify(answer)}, not the new interval ${NEW.scrapeInterval}`);
    }
  }
  console.log(`fleet change on real containers, new pods: ${checks - first} checks; in all ${checks} checks, ${disagreements.length} disagree`);
  expect(disagreements.slice(earlier)).toEqual([]);
  expect(checks - first).toBeGreaterThanOrEqual(8);
});
