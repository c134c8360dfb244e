/**
 * The released kruise-manager v1.9.1 acting on what our L2 constructs write,
 * on kwok fake nodes (kwok plays the kubelet: pods run, an in-place image
 * change is reported as the kubelet would, see fixtures/kwok-stages.yaml).
 * Each workload is built with the library, synthesized, applied, changed in
 * the construct and applied again, as a user's GitOps loop would; the
 * assertions read what the controllers did: pods per node and per revision,
 * pod UIDs kept by in-place updates, sidecars injected by the pod webhook,
 * subsets honoured, deletions refused by the real webhooks.
 */
import { App, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { parseAllDocuments } from 'yaml';
import { Kube, Manifest, applyAll, describeObject } from './kube';
import { Managers, fakeNodes, runControlPlane, testNamespace } from './manager';
import { rejections } from './prove';
import { Synth, synthApp } from './sources';
import * as lib from '../../src';

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

/** Three fake nodes over two zones. */
const NODES = [
  { name: 'node-a1', labels: { 'topology.kubernetes.io/zone': 'zone-a' } },
  { name: 'node-a2', labels: { 'topology.kubernetes.io/zone': 'zone-a' } },
  { name: 'node-b1', labels: { 'topology.kubernetes.io/zone': 'zone-b' } },
];
const NS = 'workloads';

/** The control plane every workload chart of this file is checked against (its gates decide what the L2s may use). */
function controlPlane(app: App): void {
  new lib.KruiseControlPlane(new Chart(app, 'kruise'), 'kruise', {
    crdDeletionProtection: lib.DeletionProtection.CASCADING,
    featureGates: { [lib.KruiseFeatureGate.DELETION_PROTECTION_FOR_CRD_CASCADING_GATE]: true },
  });
}

/**
 * An App of the control plane and one workload chart, synthesized: the
 * control plane's objects and the chart's, apart (the control plane is
 * installed once; the chart is applied again after each change).
 */
function synthWith(name: string, build: (chart: Chart) => void, namespace = NS): { controlPlane: Synth; objects: Manifest[] } {
  const s = synthApp(name, app => {
    controlPlane(app);
    build(new Chart(app, 'app', { namespace }));
    return app;
  });
  const parse = (files: string[]) => files.flatMap(f => parseAllDocuments(s.files[f]).map(d => d.toJSON()).filter(x => x));
  const appFiles = Object.keys(s.files).filter(f => /(^|-)app\.k8s\.yaml$/.test(f));
  const cpFiles = Object.keys(s.files).filter(f => !appFiles.includes(f));
  if (appFiles.length !== 1) throw new Error(`cluster tier: ${name} wrote ${Object.keys(s.files).join(', ')}; expected one app chart file`);
  const cp = cpFiles.reduce<Record<string, string>>((o, f) => ({ ...o, [f]: s.files[f] }), {});
  return { controlPlane: { name: `${name} (control plane)`, files: cp, objects: parse(cpFiles) }, objects: parse(appFiles) };
}

function container(image: string, name = 'main', port = 8080): kplus.ContainerProps {
  return { name, image, portNumber: port, securityContext: { ensureNonRoot: false } };
}

let kube: Kube;
let managers: Managers;

beforeAll(async () => {
  kube = new Kube();
  await fakeNodes(kube, NODES);
  for (const ns of [NS, 'sidecar-on', 'sidecar-off']) await testNamespace(kube, ns, ns === 'sidecar-on' ? { 'sidecar.example.com/inject': 'on' } : {});
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

/** Apply a chart's objects; every one must be accepted. */
async function apply(objects: Manifest[]): Promise<void> {
  const rejected = rejections(await applyAll(kube, objects));
  if (rejected.length > 0) throw new Error(`cluster tier: not applied:\n${rejected.join('\n')}`);
}

/** Pods of a namespace matching a label selector, not being deleted, by name. */
async function pods(namespace: string, selector: string): Promise<Manifest[]> {
  const res = await kube.request('GET', `/api/v1/namespaces/${namespace}/pods?labelSelector=${encodeURIComponent(selector)}`);
  if (res.status !== 200) throw new Error(`cluster tier: cannot list pods in ${namespace}: HTTP ${res.status} ${res.body?.message}`);
  return (res.body.items as Manifest[]).filter(p => !p.metadata.deletionTimestamp).sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
}

const running = (p: Manifest) => p.status?.phase === 'Running' && (p.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True');
const image = (p: Manifest, name = 'main') => p.spec.containers.find((c: any) => c.name === name)?.image;
const summary = (ps: Manifest[]) => ps.map(p => `${p.metadata.name} uid=${p.metadata.uid.slice(0, 8)} node=${p.spec.nodeName ?? '-'} `
  + `phase=${p.status?.phase} images=${p.spec.containers.map((c: any) => `${c.name}=${c.image}`).join(',')} `
  + `rev=${p.metadata.labels?.['controller-revision-hash'] ?? '-'} `
  + `conditions=${(p.status?.conditions ?? []).map((c: any) => `${c.type}=${c.status}`).join(',')} `
  + `containerStatuses=${JSON.stringify((p.status?.containerStatuses ?? []).map((c: any) => [c.name, c.image, c.imageID, c.ready]))} `
  + `inPlace=${p.metadata.annotations?.['apps.kruise.io/inplace-update-state'] ?? '-'}`).join('\n  ');

/**
 * Wait until `check` returns true for the pods of a selector (and, if given,
 * the live object); on timeout, fail with the pods and the object as they are.
 */
async function waitPods(what: string, namespace: string, selector: string, check: (ps: Manifest[], live?: Manifest) => boolean,
  o: { object?: Manifest; timeoutMs?: number } = {}): Promise<Manifest[]> {
  const until = Date.now() + (o.timeoutMs ?? 90_000);
  let ps: Manifest[] = [];
  let live: Manifest | undefined;
  for (;;) {
    ps = await pods(namespace, selector);
    live = o.object ? (await kube.get(o.object)).body : undefined;
    if (check(ps, live)) return ps;
    if (Date.now() > until) break;
    await sleep(500);
  }
  throw new Error(`cluster tier: ${what}: not reached within ${(o.timeoutMs ?? 90_000) / 1000} s\n  pods (${selector}):\n  ${summary(ps)}`
    + (live ? `\n  ${describeObject(live)} status: ${JSON.stringify(live.status)}` : '')
    + `\n${managers.running().map(p => p.tail(15)).join('\n')}`);
}

const find = (objects: Manifest[], kind: string, name?: string) => {
  const m = objects.find(x => x.kind === kind && (name === undefined || x.metadata.name === name));
  if (!m) throw new Error(`cluster tier: no ${kind} ${name ?? ''} in the synth`);
  return m;
};
/** The controller has seen the object's latest spec. */
const observed = (live?: Manifest) => live?.status?.observedGeneration === live?.metadata?.generation;
const uids = (ps: Manifest[]) => ps.map(p => p.metadata.uid).sort();
const byRevision = (ps: Manifest[]) => ps.reduce<Record<string, number>>((o, p) => {
  const r = p.metadata.labels['controller-revision-hash'];
  return { ...o, [r]: (o[r] ?? 0) + 1 };
}, {});

describe('CloneSet', () => {
  const web = (o: { replicas: number; image: string; partition?: number; podsToDelete?: string[] }) => synthWith('CloneSet web', chart => {
    new lib.CloneSet(chart, 'web', {
      metadata: { name: 'web' },
      replicas: o.replicas,
      podMetadata: { labels: { app: 'web' } },
      containers: [container(o.image)],
      updateStrategy: lib.CloneSetUpdateStrategy.inPlaceIfPossible({
        partition: o.partition === undefined ? undefined : kplus.PercentOrAbsolute.absolute(o.partition),
      }),
      podsToDelete: o.podsToDelete,
    });
  }).objects;
  let created: Manifest[];

  test('creates the pods of replicas, Running on the fake nodes', async () => {
    const objects = web({ replicas: 3, image: 'nginx:1.27' });
    await apply(objects);
    created = await waitPods('3 Running pods', NS, 'app=web', ps => ps.length === 3 && ps.every(running));
    expect(created.every(p => NODES.some(n => n.name === p.spec.nodeName))).toBe(true);
  });

  test('scales from 3 to 4 replicas, keeping the 3 pods it had', async () => {
    await apply(web({ replicas: 4, image: 'nginx:1.27' }));
    const ps = await waitPods('4 Running pods', NS, 'app=web', x => x.length === 4 && x.every(running));
    expect(uids(ps).filter(u => uids(created).includes(u))).toEqual(uids(created));
    created = ps;
  });

  test('an image bump with partition 2 updates 2 of 4 pods in place: same UIDs, 2 pods per revision', async () => {
    const objects = web({ replicas: 4, image: 'nginx:1.28', partition: 2 });
    await apply(objects);
    const cs = find(objects, 'CloneSet');
    const ps = await waitPods('2 pods on nginx:1.28, updatedReadyReplicas 2', NS, 'app=web',
      (x, live) => x.length === 4 && x.every(running) && x.filter(p => image(p) === 'nginx:1.28').length === 2
        && live?.status?.updatedReadyReplicas === 2 && live?.status?.observedGeneration === live?.metadata?.generation,
      { object: cs });
    expect(uids(ps)).toEqual(uids(created));
    expect(Object.values(byRevision(ps)).sort()).toEqual([2, 2]);
    const live = (await kube.get(cs)).body;
    const updated = ps.filter(p => image(p) === 'nginx:1.28');
    expect(updated.map(p => p.metadata.labels['controller-revision-hash'])).toEqual([live.status.updateRevision, live.status.updateRevision]);
    // the kubelet's part, played by kwok: the container restarted with the new image
    expect(updated.map(p => p.status.containerStatuses[0].image)).toEqual(['nginx:1.28', 'nginx:1.28']);
    created = ps;
  });

  test('podsToDelete on the running CloneSet deletes exactly that pod and replaces it', async () => {
    const victim = created[0];
    await apply(web({ replicas: 4, image: 'nginx:1.28', partition: 2, podsToDelete: [victim.metadata.name] }));
    const ps = await waitPods(`${victim.metadata.name} replaced`, NS, 'app=web',
      x => x.length === 4 && x.every(running) && !x.some(p => p.metadata.uid === victim.metadata.uid));
    expect(uids(ps).filter(u => uids(created).includes(u))).toEqual(uids(created.slice(1)));
  });
});

describe('AdvancedStatefulSet', () => {
  const db = (imageName: string) => synthWith('AdvancedStatefulSet db', chart => {
    new lib.AdvancedStatefulSet(chart, 'db', {
      metadata: { name: 'db' },
      replicas: 3,
      podMetadata: { labels: { app: 'db' } },
      containers: [container(imageName, 'main', 5432)],
      podManagementPolicy: kplus.PodManagementPolicy.PARALLEL,
      reserveOrdinals: [lib.ReserveOrdinal.of(1)],
      updateStrategy: lib.AdvancedStatefulSetUpdateStrategy.rollingUpdate({ podUpdatePolicy: lib.PodUpdatePolicy.IN_PLACE_IF_POSSIBLE }),
    });
  }).objects;
  let created: Manifest[];

  test('Parallel with ordinal 1 reserved: pods db-0, db-2, db-3, all Running', async () => {
    await apply(db('postgres:16.4'));
    created = await waitPods('3 Running pods', NS, 'app=db', ps => ps.length === 3 && ps.every(running));
    expect(created.map(p => p.metadata.name)).toEqual(['db-0', 'db-2', 'db-3']);
  });

  test('an image bump updates every pod in place: same names and UIDs, the new image', async () => {
    const objects = db('postgres:16.6');
    await apply(objects);
    const ps = await waitPods('3 pods on postgres:16.6', NS, 'app=db',
      (x, live) => x.length === 3 && x.every(running) && x.every(p => image(p) === 'postgres:16.6') && live?.status?.updatedReadyReplicas === 3,
      { object: find(objects, 'StatefulSet') });
    expect(ps.map(p => p.metadata.name)).toEqual(['db-0', 'db-2', 'db-3']);
    expect(uids(ps)).toEqual(uids(created));
  });
});

describe('AdvancedDaemonSet', () => {
  const agent = (imageName: string, rollout: lib.AdvancedDaemonSetRollingUpdateOptions = {}) => synthWith('AdvancedDaemonSet agent', chart => {
    new lib.AdvancedDaemonSet(chart, 'agent', {
      metadata: { name: 'agent' },
      podMetadata: { labels: { app: 'agent' } },
      containers: [container(imageName, 'main', 9100)],
      updateStrategy: lib.AdvancedDaemonSetUpdateStrategy.rollingUpdate({ maxUnavailable: kplus.PercentOrAbsolute.absolute(3), ...rollout }),
    });
  }).objects;
  const onNodes = (ps: Manifest[]) => ps.map(p => p.spec.nodeName).sort();

  test('one Running pod on each fake node', async () => {
    await apply(agent('node-exporter:1.8'));
    const ps = await waitPods('a pod per node', NS, 'app=agent', x => x.length === 3 && x.every(running));
    expect(onNodes(ps)).toEqual(['node-a1', 'node-a2', 'node-b1']);
  });

  test('a node-selector rollout updates only the pods on the selected nodes', async () => {
    const objects = agent('node-exporter:1.9', { nodeSelector: kplus.LabelSelector.of({ labels: { 'topology.kubernetes.io/zone': 'zone-b' } }) });
    await apply(objects);
    const ps = await waitPods('the zone-b pod on 1.9', NS, 'app=agent',
      (x, live) => x.length === 3 && x.every(running) && live?.status?.updatedNumberScheduled === 1 && observed(live),
      { object: find(objects, 'DaemonSet') });
    expect(ps.filter(p => image(p) === 'node-exporter:1.9').map(p => p.spec.nodeName)).toEqual(['node-b1']);
    await sleep(3000); // nothing else moves
    const still = await pods(NS, 'app=agent');
    expect(still.filter(p => image(p) === 'node-exporter:1.9').map(p => p.spec.nodeName)).toEqual(['node-b1']);
  });

  test('partition 1 then leaves exactly one node on the old image', async () => {
    const objects = agent('node-exporter:1.9', { partition: kplus.PercentOrAbsolute.absolute(1) });
    await apply(objects);
    const ps = await waitPods('2 of 3 pods on 1.9', NS, 'app=agent',
      (x, live) => x.length === 3 && x.every(running) && live?.status?.updatedNumberScheduled === 2 && observed(live),
      { object: find(objects, 'DaemonSet') });
    expect(ps.filter(p => image(p) === 'node-exporter:1.8').length).toBe(1);
    expect(onNodes(ps)).toEqual(['node-a1', 'node-a2', 'node-b1']);
  });
});

describe('SidecarSet', () => {
  const platform = (sidecarImage: string) => synthWith('SidecarSet log-agent', chart => {
    new lib.SidecarSet(chart, 'log-agent', {
      metadata: { name: 'log-agent' },
      selector: kplus.LabelSelector.of({ labels: { app: 'shop' } }),
      namespaceSelector: kplus.LabelSelector.of({ labels: { 'sidecar.example.com/inject': 'on' } }),
      containers: [{ name: 'log-agent', image: sidecarImage, securityContext: { ensureNonRoot: false } }],
    });
    for (const ns of ['sidecar-on', 'sidecar-off']) {
      new lib.CloneSet(chart, `shop-${ns}`, {
        metadata: { name: 'shop', namespace: ns },
        replicas: 1,
        podMetadata: { labels: { app: 'shop' } },
        containers: [container('nginx:1.27')],
      });
    }
  }).objects;
  let injected: Manifest;

  test('injected into the new pods of the selected namespace only', async () => {
    const objects = platform('fluent-bit:3.1');
    await apply(objects.filter(m => m.kind === 'SidecarSet'));
    await sleep(2000); // the pod webhook reads SidecarSets from its cache
    await apply(objects.filter(m => m.kind !== 'SidecarSet'));
    const [on] = await waitPods('the shop pod in sidecar-on', 'sidecar-on', 'app=shop', x => x.length === 1 && x.every(running));
    const [off] = await waitPods('the shop pod in sidecar-off', 'sidecar-off', 'app=shop', x => x.length === 1 && x.every(running));
    expect(on.spec.containers.map((c: any) => `${c.name}=${c.image}`).sort()).toEqual(['log-agent=fluent-bit:3.1', 'main=nginx:1.27']);
    expect(off.spec.containers.map((c: any) => c.name)).toEqual(['main']);
    injected = on;
  });

  test('a sidecar image bump updates the sidecar in place: same pod, new image', async () => {
    const objects = platform('fluent-bit:3.2');
    await apply(objects.filter(m => m.kind === 'SidecarSet'));
    const [pod] = await waitPods('the sidecar on fluent-bit:3.2', 'sidecar-on', 'app=shop',
      (x, live) => x.length === 1 && x.every(running) && image(x[0], 'log-agent') === 'fluent-bit:3.2' && live?.status?.updatedReadyPods === 1,
      { object: find(objects, 'SidecarSet') });
    expect(pod.metadata.uid).toBe(injected.metadata.uid);
    expect(image(pod)).toBe('nginx:1.27');
  });
});

describe('WorkloadSpread', () => {
  test('pods spread over subsets by node labels, maxReplicas honoured', async () => {
    const { objects } = synthWith('WorkloadSpread spread', chart => {
      const w = new lib.CloneSet(chart, 'spread', {
        metadata: { name: 'spread' },
        replicas: 3,
        podMetadata: { labels: { app: 'spread' } },
        containers: [container('nginx:1.27')],
      });
      w.spreadOver({
        metadata: { name: 'spread' },
        subsets: [
          { name: 'zone-a', requiredNodeLabels: [kplus.NodeLabelQuery.is('topology.kubernetes.io/zone', 'zone-a')], maxReplicas: kplus.PercentOrAbsolute.absolute(1) },
          { name: 'zone-b', requiredNodeLabels: [kplus.NodeLabelQuery.is('topology.kubernetes.io/zone', 'zone-b')] },
        ],
      });
    });
    await apply(objects.filter(m => m.kind === 'WorkloadSpread'));
    await sleep(2000); // the pod webhook reads WorkloadSpreads from its cache
    await apply(objects.filter(m => m.kind !== 'WorkloadSpread'));
    const ps = await waitPods('3 Running pods', NS, 'app=spread', x => x.length === 3 && x.every(running));
    const zone = (p: Manifest) => NODES.find(n => n.name === p.spec.nodeName)!.labels['topology.kubernetes.io/zone'];
    expect(ps.map(zone).sort()).toEqual(['zone-a', 'zone-b', 'zone-b']);
    const subsetOf = (p: Manifest) => JSON.parse(p.metadata.annotations['apps.kruise.io/matched-workloadspread']).subset;
    expect(ps.map(subsetOf).sort()).toEqual(['zone-a', 'zone-b', 'zone-b']);
  });
});

describe('PodUnavailableBudget', () => {
  test('a deletion beyond the budget is refused by the real webhook', async () => {
    // The pods may run only on a node that carries a label of this test's own; once they run the label goes,
    // so the CloneSet's replacement for a deleted pod stays Pending. Without that, kwok makes the replacement
    // Ready at once and the budget controller gives the budget its room back before the second deletion
    // (seen in CI even with both deletions sent at once): that is the budget working, not refusing.
    const room = { 'workloads.example.com/budget': 'room' };
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: NODES[0].name } };
    const label = async (labels: Record<string, string | null>) => {
      const r = await kube.mergePatch(node, { metadata: { labels } }, 'cluster-tier');
      if (r.status !== 200) throw new Error(`cluster tier: label node ${NODES[0].name}: HTTP ${r.status} ${JSON.stringify(r.body)}`);
    };
    const { objects } = synthWith('PodUnavailableBudget budget', chart => {
      const w = new lib.CloneSet(chart, 'budget', {
        metadata: { name: 'budget' },
        replicas: 3,
        podMetadata: { labels: { app: 'budget' } },
        containers: [container('nginx:1.27')],
      });
      w.scheduling.attract(kplus.Node.labeled(kplus.NodeLabelQuery.is('workloads.example.com/budget', 'room')));
      w.protect({ metadata: { name: 'budget' }, maxUnavailable: kplus.PercentOrAbsolute.absolute(1) });
    });
    await label(room);
    try {
      await apply(objects);
      const pub = find(objects, 'PodUnavailableBudget');
      const ps = await waitPods('3 Running pods, unavailableAllowed 1', NS, 'app=budget',
        (x, live) => x.length === 3 && x.every(running) && live?.status?.unavailableAllowed === 1, { object: pub });
      await label({ 'workloads.example.com/budget': null });
      const del = (p: Manifest) => kube.request('DELETE', `/api/v1/namespaces/${NS}/pods/${p.metadata.name}`);
      const first = await del(ps[0]);
      expect(`${first.status} ${first.status === 200 ? '' : first.body?.message}`).toBe('200 ');
      // the replacement is made and stays Pending: the budget has no room until it runs
      await waitPods('the replacement pod, Pending', NS, 'app=budget',
        x => x.some(p => !ps.some(o => o.metadata.uid === p.metadata.uid) && p.status?.phase === 'Pending'));
      const second = await del(ps[1]);
      console.log(`PodUnavailableBudget: second deletion HTTP ${second.status} ${second.body?.message ?? ''}`);
      expect(second.status).toBe(403);
      expect(second.body.message).toMatch(/^admission webhook "vpod\.kb\.io" denied the request: /);
    } finally {
      await label({ 'workloads.example.com/budget': null });
    }
  });
});

describe('Delete protection', () => {
  test('a Cascading namespace with running pods cannot be deleted; an empty one can', async () => {
    const { objects } = synthWith('DeleteProtection protected', chart => {
      for (const name of ['protected', 'protected-empty']) {
        const ns = new kplus.Namespace(chart, name, { metadata: { name } });
        lib.DeleteProtection.of(ns, lib.DeleteProtectionMode.CASCADING);
      }
      new lib.CloneSet(chart, 'guarded', {
        metadata: { name: 'guarded', namespace: 'protected' },
        replicas: 1,
        podMetadata: { labels: { app: 'guarded' } },
        containers: [container('nginx:1.27')],
      });
    });
    await apply(objects.filter(m => m.kind === 'Namespace'));
    for (const ns of ['protected', 'protected-empty']) await testNamespace(kube, ns, find(objects, 'Namespace', ns).metadata.labels);
    await apply(objects.filter(m => m.kind !== 'Namespace'));
    await waitPods('the guarded pod', 'protected', 'app=guarded', x => x.length === 1 && x.every(running));
    const refused = await kube.request('DELETE', '/api/v1/namespaces/protected?dryRun=All');
    console.log(`Cascading namespace with a running pod: HTTP ${refused.status} ${refused.body?.message}`);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/^admission webhook "vnamespace\.kb\.io" denied the request: /);
    expect((await kube.request('DELETE', '/api/v1/namespaces/protected-empty?dryRun=All')).status).toBe(200);
  });

  test('a CRD with custom resources cannot be deleted; one without can (the control plane labels its CRDs Cascading)', async () => {
    const refused = await kube.request('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/clonesets.apps.kruise.io?dryRun=All');
    console.log(`Cascading CRD with CloneSets: HTTP ${refused.status} ${refused.body?.message}`);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/^admission webhook "vcustomresourcedefinition\.kb\.io" denied the request: /);
    // Once its objects are gone, the same protection lets a CRD go (the earlier files of the shared
    // cluster leave objects of every kind: those of EphemeralJob are deleted first).
    const crd = 'ephemeraljobs.apps.kruise.io';
    const list = async () => (await kube.request('GET', '/apis/apps.kruise.io/v1alpha1/ephemeraljobs')).body.items as Manifest[];
    for (const m of await list()) await kube.request('DELETE', `/apis/apps.kruise.io/v1alpha1/namespaces/${m.metadata.namespace}/ephemeraljobs/${m.metadata.name}`);
    for (let until = Date.now() + 60_000; (await list()).length > 0;) {
      if (Date.now() > until) throw new Error(`cluster tier: EphemeralJobs still there 60 s after their deletion: ${(await list()).map(describeObject).join(', ')}`);
      await sleep(500);
    }
    const empty = await kube.request('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd}?dryRun=All`);
    console.log(`Cascading CRD without objects (${crd}): HTTP ${empty.status} ${empty.body?.message ?? ''}`);
    expect(empty.status).toBe(200);
  });
});
