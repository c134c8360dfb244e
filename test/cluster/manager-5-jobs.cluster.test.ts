/**
 * The released kruise-manager v1.9.1 acting on the jobs, UnitedDeployments
 * and day-2 operations our L2 constructs write, on kwok fake nodes (kwok
 * plays the kubelet: pods run, and the pods of a Job or a BroadcastJob
 * complete, see fixtures/kwok-stages.yaml). Each object is built with the
 * library, synthesized and applied; the assertions read what the controllers
 * did: a BroadcastJob pod per node run to completion, an AdvancedCronJob run
 * on schedule, one CloneSet per UnitedDeployment subset with its replicas and
 * partition, the ImagePullJobs of an ImageListPullJob written into the
 * NodeImages, a pod's state recorded and given back when it is recreated,
 * probes handed to the nodes, a debug container added to a running pod.
 *
 * Not here: kruise-daemon does not run in the tier (no container runtime),
 * so no image is pulled, no container is restarted by a
 * ContainerRecreateRequest and no PodProbeMarker probe runs; the tests stop
 * where kruise-manager hands the work to the daemon. No
 * kube-controller-manager runs either, so a Deployment (a UnitedDeployment
 * subset) gets no pods.
 */
import { App, Chart, Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { parseAllDocuments } from 'yaml';
import { Kube, Manifest, applyAll } from './kube';
import { Managers, fakeNodes, runControlPlane, testNamespace } from './manager';
import { rejections } from './prove';
import { Synth, synthApp } from './sources';
import { MultiDomainChart } from '../../examples/multi-domain/main';
import * as lib from '../../src';

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

/** The nodes of this file: one per zone, marked so the jobs here target them only (other files' nodes may remain). */
const SUITE_LABEL = 'cdk8s-kruise.test/suite';
const NODES = ['a', 'b', 'c'].map(z => ({ name: `jobs-${z}1`, labels: { 'topology.kubernetes.io/zone': `zone-${z}`, [SUITE_LABEL]: 'jobs' } }));
const NODE_NAMES = NODES.map(n => n.name).sort();
const onSuiteNodes = kplus.NodeLabelQuery.is(SUITE_LABEL, 'jobs');
const NS = 'jobs';

/** The control plane every chart of this file is checked against; it also validates EphemeralJobs. */
function controlPlane(app: App): void {
  new lib.KruiseControlPlane(new Chart(app, 'kruise'), 'kruise', { validateEphemeralJobs: true });
}

/** An App of the control plane and one chart, synthesized; the chart's objects apart. */
function synthWith(name: string, build: (app: App) => void): { controlPlane: Synth; objects: Manifest[] } {
  const s = synthApp(name, app => {
    controlPlane(app);
    build(app);
    return app;
  });
  const parse = (files: string[]) => files.flatMap(f => parseAllDocuments(s.files[f]).map(d => d.toJSON()).filter(x => x));
  const appFiles = Object.keys(s.files).filter(f => !/(^|-)kruise\.k8s\.yaml$/.test(f));
  const cpFiles = Object.keys(s.files).filter(f => !appFiles.includes(f));
  const cp = cpFiles.reduce<Record<string, string>>((o, f) => ({ ...o, [f]: s.files[f] }), {});
  return { controlPlane: { name: `${name} (control plane)`, files: cp, objects: parse(cpFiles) }, objects: parse(appFiles) };
}

/** The objects of one chart in namespace NS, built with the library. */
const chartObjects = (name: string, build: (chart: Chart) => void) => synthWith(name, app => build(new Chart(app, 'app', { namespace: NS }))).objects;

let kube: Kube;
let managers: Managers;

beforeAll(async () => {
  kube = new Kube();
  await fakeNodes(kube, NODES);
  await testNamespace(kube, NS);
  ({ managers } = await runControlPlane(kube, synthWith('control plane', () => undefined).controlPlane));
});

afterAll(async () => {
  if (managers) {
    const leader = managers.running().find(p => p.isLeader());
    if (leader) console.log(`kruise-manager log: ${leader.logFile}`);
    await managers.stopAll();
  }
  kube.close();
});

/** Apply objects; every one must be accepted. */
async function apply(objects: Manifest[]): Promise<void> {
  const rejected = rejections(await applyAll(kube, objects));
  if (rejected.length > 0) throw new Error(`cluster tier: not applied:\n${rejected.join('\n')}`);
}

/** Objects of a kind in NS (or cluster-scoped), optionally by label selector. */
async function list(apiVersion: string, kind: string, selector?: string, namespaced = true): Promise<Manifest[]> {
  const base = await kube.pathOf({ apiVersion, kind, metadata: { namespace: namespaced ? NS : undefined } }, '');
  const res = await kube.request('GET', `${base}${selector ? `?labelSelector=${encodeURIComponent(selector)}` : ''}`);
  if (res.status !== 200) throw new Error(`cluster tier: cannot list ${kind}: HTTP ${res.status} ${res.body?.message}`);
  return (res.body.items as Manifest[]).filter(o => !o.metadata.deletionTimestamp).sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
}

const pods = (selector: string) => list('v1', 'Pod', selector);
const ownedBy = (o: Manifest, owner: Manifest) => (o.metadata.ownerReferences ?? [])
  .some((r: any) => r.kind === owner.kind && r.name === owner.metadata.name);
const running = (p: Manifest) => p.status?.phase === 'Running' && (p.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True');
const find = (objects: Manifest[], kind: string, name?: string) => {
  const m = objects.find(x => x.kind === kind && (name === undefined || x.metadata.name === name));
  if (!m) throw new Error(`cluster tier: no ${kind} ${name ?? ''} in the synth`);
  return m;
};
const podLine = (p: Manifest) => `${p.metadata.name} node=${p.spec.nodeName ?? '-'} phase=${p.status?.phase} `
  + `owner=${(p.metadata.ownerReferences ?? []).map((r: any) => `${r.kind}/${r.name}`).join(',')}`;

/** Wait until `check` holds for what `read` returns; on timeout, fail with what was read last. */
async function waitFor<T>(
  what: string, read: () => Promise<T>, check: (x: T) => boolean, describe: (x: T) => string, timeoutMs = 90_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: T;
  for (;;) {
    last = await read();
    if (check(last)) return last;
    if (Date.now() > until) break;
    await sleep(1000);
  }
  throw new Error(`cluster tier: ${what}: not reached within ${timeoutMs / 1000} s\n  ${describe(last)}\n${managers.running().map(p => p.tail(15)).join('\n')}`);
}

const live = async (m: Manifest) => (await kube.get(m)).body as Manifest;

/** A container that runs in the tier: any image (kwok pulls nothing), allowed to run as root. */
const container = (name = 'main', port?: number): kplus.ContainerProps => ({
  name, image: 'busybox:1.36', portNumber: port, securityContext: { ensureNonRoot: false },
});

describe('BroadcastJob', () => {
  test('runs a pod on every node it selects, each to completion, and completes', async () => {
    const objects = chartObjects('BroadcastJob node-check', chart => {
      const bj = new lib.BroadcastJob(chart, 'node-check', {
        metadata: { name: 'node-check' },
        podMetadata: { labels: { app: 'node-check' } },
        containers: [container()],
        parallelism: kplus.PercentOrAbsolute.absolute(2),
        completionPolicy: lib.BroadcastJobCompletionPolicy.always({ activeDeadline: Duration.minutes(10) }),
        failurePolicy: lib.BroadcastJobFailurePolicy.continueOnFailure(),
      });
      bj.scheduling.attract(kplus.Node.labeled(onSuiteNodes));
    });
    await apply(objects);
    const bj = find(objects, 'BroadcastJob');
    const job = await waitFor('BroadcastJob completed', () => live(bj),
      x => x.status?.phase === 'completed' && x.status?.succeeded === NODES.length,
      x => `status: ${JSON.stringify(x.status)}`);
    expect(job.status.desired).toBe(NODES.length);
    expect(job.status.failed ?? 0).toBe(0);
    expect((job.status.conditions ?? []).map((c: any) => `${c.type}=${c.status}`)).toContain('Complete=True');
    const ps = (await pods('app=node-check')).filter(p => ownedBy(p, bj));
    console.log(`BroadcastJob node-check:\n  ${ps.map(podLine).join('\n  ')}`);
    expect(ps.map(p => p.spec.nodeName).sort()).toEqual(NODE_NAMES);
    expect(ps.every(p => p.status.phase === 'Succeeded')).toBe(true);
  });
});

describe('AdvancedCronJob', () => {
  test('creates a BroadcastJob on schedule, whose pods run to completion on the selected nodes', async () => {
    const objects = chartObjects('AdvancedCronJob nightly', chart => {
      const acj = new lib.AdvancedCronJob(chart, 'nightly', {
        metadata: { name: 'nightly' },
        schedule: '@every 15s',
        concurrencyPolicy: lib.AdvancedCronJobConcurrencyPolicy.FORBID,
        successfulJobsHistoryLimit: 1,
        template: lib.AdvancedCronJobTemplate.broadcastJob({
          podMetadata: { labels: { app: 'nightly' } },
          containers: [container()],
        }),
      });
      acj.workload!.scheduling.attract(kplus.Node.labeled(onSuiteNodes));
    });
    const acj = find(objects, 'AdvancedCronJob');
    const applied = Date.now();
    await apply(objects);
    const runs = await waitFor('a completed BroadcastJob of the AdvancedCronJob',
      () => list('apps.kruise.io/v1beta1', 'BroadcastJob'),
      xs => xs.some(x => ownedBy(x, acj) && x.status?.phase === 'completed'),
      xs => xs.map(x => `${x.metadata.name} owners=${JSON.stringify(x.metadata.ownerReferences)} status=${JSON.stringify(x.status)}`).join('\n  '));
    const run = runs.find(x => ownedBy(x, acj) && x.status?.phase === 'completed')!;
    const cron = await live(acj);
    console.log(`AdvancedCronJob nightly: run ${run.metadata.name} created ${Math.round((Date.parse(run.metadata.creationTimestamp) - applied) / 1000)} s after the apply; `
      + `status ${JSON.stringify(cron.status)}`);
    expect(run.metadata.name).toMatch(/^nightly-\d+$/);
    expect(cron.status.lastScheduleTime).toBeDefined();
    expect(cron.status.type).toBe('BroadcastJob');
    const ps = (await pods('app=nightly')).filter(p => ownedBy(p, run));
    expect(ps.map(p => p.spec.nodeName).sort()).toEqual(NODE_NAMES);
    expect(ps.every(p => p.status.phase === 'Succeeded')).toBe(true);
    // stop the schedule: paused, then no new run
    const paused = chartObjects('AdvancedCronJob nightly paused', chart => {
      new lib.AdvancedCronJob(chart, 'nightly', {
        metadata: { name: 'nightly' },
        schedule: '@every 15s',
        concurrencyPolicy: lib.AdvancedCronJobConcurrencyPolicy.FORBID,
        successfulJobsHistoryLimit: 1,
        paused: true,
        template: lib.AdvancedCronJobTemplate.broadcastJob({ podMetadata: { labels: { app: 'nightly' } }, containers: [container()] }),
      }).workload!.scheduling.attract(kplus.Node.labeled(onSuiteNodes));
    });
    await apply(paused);
    await sleep(2000);
    const before = (await list('apps.kruise.io/v1beta1', 'BroadcastJob')).filter(x => ownedBy(x, acj)).map(x => x.metadata.name);
    await sleep(20_000);
    const after = (await list('apps.kruise.io/v1beta1', 'BroadcastJob')).filter(x => ownedBy(x, acj)).map(x => x.metadata.name);
    expect(after.filter(n => !before.includes(n))).toEqual([]);
  });
});

describe('UnitedDeployment (examples/multi-domain)', () => {
  const example = () => synthWith('examples/multi-domain', app => new MultiDomainChart(app, 'app', { namespace: NS })).objects;

  test('the shop UnitedDeployment creates one CloneSet per subset with its replicas and partition; the pods run in their zone', async () => {
    const objects = example();
    await apply(objects);
    const ud = find(objects, 'UnitedDeployment', 'shop');
    const sets = await waitFor('a CloneSet per subset of shop, all pods ready',
      async () => (await list('apps.kruise.io/v1alpha1', 'CloneSet')).filter(c => ownedBy(c, ud)),
      cs => cs.length === 3 && cs.every(c => c.status?.readyReplicas === c.spec.replicas),
      cs => cs.map(c => `${c.metadata.name} subset=${c.metadata.labels['apps.kruise.io/subset-name']} replicas=${c.spec.replicas} status=${JSON.stringify(c.status)}`).join('\n  '),
      120_000);
    const bySubset: Record<string, Manifest> = Object.fromEntries(sets.map(c => [c.metadata.labels['apps.kruise.io/subset-name'], c]));
    console.log(`UnitedDeployment shop: ${sets.map(c => `${c.metadata.name} (${c.metadata.labels['apps.kruise.io/subset-name']}: ${c.spec.replicas} replicas, partition ${c.spec.updateStrategy.partition})`).join(', ')}`);
    expect(Object.keys(bySubset).sort()).toEqual(['zone-a', 'zone-b', 'zone-c']);
    expect(Object.fromEntries(Object.entries(bySubset).map(([s, c]) => [s, c.spec.replicas]))).toEqual({ 'zone-a': 2, 'zone-b': 2, 'zone-c': 2 });
    expect(Object.fromEntries(Object.entries(bySubset).map(([s, c]) => [s, c.spec.updateStrategy.partition]))).toEqual({ 'zone-a': 0, 'zone-b': 2, 'zone-c': 2 });
    for (const c of sets) expect(c.metadata.name.startsWith(`shop-${c.metadata.labels['apps.kruise.io/subset-name']}-`)).toBe(true);

    const nodes = (await kube.request('GET', '/api/v1/nodes')).body.items as Manifest[];
    const zoneOf = (name: string) => nodes.find(n => n.metadata.name === name)?.metadata.labels['topology.kubernetes.io/zone'];
    const ps = await pods('app=shop');
    expect(ps.filter(running)).toHaveLength(6);
    for (const p of ps) expect(zoneOf(p.spec.nodeName)).toBe(p.metadata.labels['apps.kruise.io/subset-name']);
    // the zone-c subset's patch and toleration reach its pods
    const spot = ps.filter(p => p.metadata.labels['apps.kruise.io/subset-name'] === 'zone-c');
    for (const p of spot) {
      expect(p.spec.containers[0].env).toEqual([{ name: 'CAPACITY', value: 'spot' }]);
      expect(p.spec.tolerations).toContainEqual({ key: 'node.example.com/spot', operator: 'Equal', value: 'true', effect: 'NoSchedule' });
    }
    const status = (await live(ud)).status;
    expect(status.readyReplicas).toBe(6);
  });

  test('the checkout UnitedDeployment (adaptive, Deployment template) creates a Deployment per subset, the replicas within min and max', async () => {
    const ud = find(example(), 'UnitedDeployment', 'checkout');
    const ds = await waitFor('a Deployment per subset of checkout', async () => (await list('apps/v1', 'Deployment')).filter(d => ownedBy(d, ud)),
      x => x.length === 2, x => x.map(d => `${d.metadata.name} ${d.spec.replicas}`).join(', '));
    const bySubset = Object.fromEntries(ds.map(d => [d.metadata.labels['apps.kruise.io/subset-name'], d.spec.replicas]));
    console.log(`UnitedDeployment checkout: ${JSON.stringify(bySubset)}`);
    expect(bySubset['on-demand']).toBeGreaterThanOrEqual(2);
    expect(bySubset['on-demand']).toBeLessThanOrEqual(4);
    expect(bySubset['on-demand'] + bySubset.elsewhere).toBe(5);
  });
});

describe('ImageListPullJob', () => {
  test('becomes one ImagePullJob per image, written into the NodeImages of the selected nodes, parallelism at a time (kruise-daemon would pull them)', async () => {
    const objects = chartObjects('ImageListPullJob base-images', chart => {
      new lib.ImageListPullJob(chart, 'base-images', {
        metadata: { name: 'base-images' },
        images: ['busybox:1.36', 'redis:7.4'],
        nodes: lib.ImagePullNodes.labeled(kplus.LabelSelector.of({ labels: { [SUITE_LABEL]: 'jobs' } })),
        parallelism: 2,
        completionPolicy: lib.ImagePullJobCompletionPolicy.always({ activeDeadline: Duration.minutes(20), ttlAfterFinished: Duration.minutes(30) }),
      });
    });
    await apply(objects);
    const ilpj = find(objects, 'ImageListPullJob');
    const jobs = await waitFor('an ImagePullJob per image', async () => (await list('apps.kruise.io/v1beta1', 'ImagePullJob')).filter(j => ownedBy(j, ilpj)),
      x => x.length === 2, x => x.map(j => `${j.metadata.name} ${j.spec.image}`).join(', '));
    expect(jobs.map(j => j.spec.image).sort()).toEqual(['busybox:1.36', 'redis:7.4']);
    for (const j of jobs) {
      expect(j.spec.parallelism).toBe(2);
      expect(j.spec.selector).toEqual({ matchLabels: { [SUITE_LABEL]: 'jobs' } });
    }
    // The ImagePullJob controller writes each image into the NodeImage of `parallelism` nodes at a time (NodeImages come
    // 30 s after a node is Ready); kruise-daemon would pull there and report, and the controller would then go on to
    // the third node. Without the daemon the jobs stay at 2 active of 3 desired.
    const tagsOf = (ni: Manifest, name: string) => (ni.spec?.images?.[name]?.tags ?? []) as any[];
    const nodeImages = await waitFor('each image in the NodeImages of 2 of the 3 suite nodes, 2 active pulls per job',
      async () => ({
        nodeImages: (await list('apps.kruise.io/v1beta1', 'NodeImage', undefined, false)).filter(n => NODE_NAMES.includes(n.metadata.name)),
        jobs: await Promise.all(jobs.map(live)),
      }),
      x => ['busybox', 'redis'].every(i => x.nodeImages.filter(n => tagsOf(n, i).length > 0).length === 2)
        && x.jobs.every(j => j.status?.desired === NODES.length && j.status?.active === 2),
      x => `${x.nodeImages.map(n => `${n.metadata.name} ${JSON.stringify(n.spec)}`).join('\n  ')}\n  jobs: ${x.jobs.map(j => JSON.stringify(j.status)).join(', ')}`,
      120_000);
    const busybox = nodeImages.nodeImages.map(n => tagsOf(n, 'busybox')).filter(t => t.length > 0).map(t => t[0]);
    console.log(`ImageListPullJob base-images: busybox:1.36 written into the NodeImages of ${
      nodeImages.nodeImages.filter(n => tagsOf(n, 'busybox').length > 0).map(n => n.metadata.name).join(', ')}: ${JSON.stringify(busybox[0])}`);
    for (const t of busybox) {
      expect(t.tag).toBe('1.36');
      expect(t.pullPolicy.activeDeadlineSeconds).toBe(1200);
      expect(t.ownerReferences[0].name).toBe(jobs.find(j => j.spec.image === 'busybox:1.36')!.metadata.name);
    }
  });
});

describe('AdvancedStatefulSet.persistPodState()', () => {
  test('records the node of each pod, and a recreated pod is sent back to it', async () => {
    const build = (chart: Chart) => {
      const cache = new lib.AdvancedStatefulSet(chart, 'cache', {
        metadata: { name: 'cache' },
        replicas: 2,
        podManagementPolicy: kplus.PodManagementPolicy.PARALLEL,
        podMetadata: { labels: { app: 'cache' } },
        containers: [container('redis', 6379)],
      });
      cache.scheduling.attract(kplus.Node.labeled(onSuiteNodes));
      cache.persistPodState({ metadata: { name: 'cache' }, requiredTopology: ['kubernetes.io/hostname'] });
    };
    const objects = chartObjects('PersistentPodState cache', build);
    await apply(objects.filter(o => o.kind === 'PersistentPodState'));
    await sleep(2000); // the pod webhook reads PersistentPodStates from its cache
    await apply(objects.filter(o => o.kind !== 'PersistentPodState'));
    const pps = find(objects, 'PersistentPodState');
    const state = await waitFor('the node of both pods recorded', () => live(pps),
      x => Object.keys(x.status?.podStates ?? {}).length === 2, x => `status: ${JSON.stringify(x.status)}`);
    const ps = await pods('app=cache');
    for (const p of ps) {
      expect(state.status.podStates[p.metadata.name]).toEqual({ nodeName: p.spec.nodeName, nodeTopologyLabels: { 'kubernetes.io/hostname': p.spec.nodeName } });
    }
    const victim = ps[0];
    expect((await kube.request('DELETE', `/api/v1/namespaces/${NS}/pods/${victim.metadata.name}`)).status).toBe(200);
    const [back] = await waitFor(`${victim.metadata.name} recreated and running`,
      async () => (await pods('app=cache')).filter(p => p.metadata.name === victim.metadata.name),
      x => x.length === 1 && x[0].metadata.uid !== victim.metadata.uid && running(x[0]), x => x.map(podLine).join('\n  '));
    console.log(`PersistentPodState: ${victim.metadata.name} was on ${victim.spec.nodeName}, recreated on ${back.spec.nodeName}; `
      + `node selector ${JSON.stringify(back.spec.nodeSelector)}`);
    expect(back.spec.nodeName).toBe(victim.spec.nodeName);
    // the pod webhook gave the recreated pod the recorded node as a node selector
    expect(back.spec.nodeSelector).toEqual({ 'kubernetes.io/hostname': victim.spec.nodeName });
    expect(back.metadata.annotations['kruise.io/injected-persistent-pod-state']).toBe('cache');
  });
});

describe('Day-2 operations on running pods', () => {
  let web: Manifest[];
  const webObjects = (extra: (w: lib.CloneSet, chart: Chart) => void = () => undefined) => chartObjects('CloneSet web', chart => {
    const w = new lib.CloneSet(chart, 'web', {
      metadata: { name: 'web' },
      replicas: 2,
      podMetadata: { labels: { app: 'web' } },
      containers: [container('web', 8080)],
    });
    w.scheduling.attract(kplus.Node.labeled(onSuiteNodes));
    extra(w, chart);
  });

  beforeAll(async () => {
    await apply(webObjects());
    web = await waitFor('2 running web pods', () => pods('app=web'), x => x.length === 2 && x.every(running), x => x.map(podLine).join('\n  '));
  });

  test('an EphemeralJob adds the debug container to a running pod, without restarting it', async () => {
    const objects = chartObjects('EphemeralJob debug-web', chart => {
      new lib.EphemeralJob(chart, 'debug-web', {
        metadata: { name: 'debug-web' },
        selector: kplus.LabelSelector.of({ labels: { app: 'web' } }),
        replicas: 1,
        containers: [{ name: 'debugger', image: 'busybox:1.36', targetContainerName: 'web', command: ['sleep', '3600'] }],
      });
    });
    await apply(objects);
    const ps = await waitFor('one web pod with the debugger', () => pods('app=web'),
      x => x.filter(p => (p.spec.ephemeralContainers ?? []).some((c: any) => c.name === 'debugger')).length === 1,
      x => x.map(p => `${p.metadata.name} ephemeral=${JSON.stringify(p.spec.ephemeralContainers)}`).join('\n  '));
    const debugged = ps.find(p => (p.spec.ephemeralContainers ?? []).length > 0)!;
    expect(debugged.spec.ephemeralContainers).toEqual([expect.objectContaining({
      name: 'debugger', image: 'busybox:1.36', targetContainerName: 'web', command: ['sleep', '3600'], imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File',
    })]);
    expect(web.map(p => p.metadata.uid)).toContain(debugged.metadata.uid);
    console.log(`EphemeralJob debug-web: debugger added to ${debugged.metadata.name} (same pod, uid ${debugged.metadata.uid.slice(0, 8)})`);
  });

  test('addProbeMarker(): kruise-manager hands the probes of the matched pods to their nodes (NodePodProbe), for kruise-daemon to run', async () => {
    const objects = webObjects(w => w.addProbeMarker({
      name: 'cache-warm',
      containerName: 'web',
      probe: kplus.Probe.fromHttpGet('/cache/warm', { periodSeconds: Duration.seconds(10) }),
      podConditionType: 'example.com/cache-warm',
      whenSucceeded: { annotations: { 'controller.kubernetes.io/pod-deletion-cost': '100' } },
    }));
    await apply(objects);
    const probesOf = (npp: Manifest) => (npp.spec?.podProbes ?? []).flatMap((pp: any) => (pp.probes ?? []).map((p: any) => ({ pod: pp.name, ...p })));
    const npps = await waitFor('the cache-warm probe of both web pods in their NodePodProbes',
      async () => (await list('apps.kruise.io/v1alpha1', 'NodePodProbe', undefined, false)).filter(n => NODE_NAMES.includes(n.metadata.name)),
      ns => ns.flatMap(probesOf).filter((p: any) => p.name.endsWith('cache-warm')).length === 2,
      ns => ns.map(n => `${n.metadata.name} ${JSON.stringify(n.spec)}`).join('\n  '));
    const found = npps.flatMap(probesOf).filter((p: any) => p.name.endsWith('cache-warm'));
    console.log(`PodProbeMarker: ${JSON.stringify(found[0])}`);
    expect(found.map((p: any) => p.pod).sort()).toEqual(web.map(p => p.metadata.name).sort());
    // the port is the container's (addProbeMarker's default for a probe without one)
    expect(found[0].probe.httpGet).toEqual({ path: '/cache/warm', port: 8080, scheme: 'HTTP' });
  });

  test('recreateContainers(): the real webhook takes the request as far as the pod lookup; the restart itself is kruise-daemon\'s', async () => {
    const pod = web[0].metadata.name;
    const objects = webObjects(w => w.recreateContainers(pod, { containers: ['web'], metadata: { name: `restart-${pod}` } }));
    const crr = find(objects, 'ContainerRecreateRequest');
    const res = await kube.request('POST', `${await kube.pathOf(crr, '')}?dryRun=All`, crr);
    console.log(`ContainerRecreateRequest for ${pod}: HTTP ${res.status} ${res.body?.message ?? ''}`);
    // kwok reports no container ID for a pod (there is no runtime); the webhook needs one to record what to restart
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('no containerID in web containerStatus');
  });
});
