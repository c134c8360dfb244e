/**
 * The health checks judged by reality: workloads on the real node are driven
 * into the states the rules name (an in-place update mid-way, a partition
 * reached, a paused update, scaled to 0, OnDelete pods waiting, a failed and
 * a finished BroadcastJob, a SidecarSet upgrading), each state is observed on
 * the containers, and the object as the controllers left it goes through
 * both engines: the Lua scripts of the docs' Argo CD recipe
 * (`cdk8s-kruise health --argocd | kubectl apply --server-side -f -`, read
 * back from the live argocd-cm) in gopher-lua as Argo CD runs them, and the
 * CEL of `cdk8s-kruise health --flux` in Flux's CEL status evaluator
 * (test/health/engines). Both must give the outcome the test observed, and
 * the Argo CD actions the same ConfigMap's discovery scripts list for the
 * object (run by Argo CD v3.5.8's own Lua VM, test/argocd) must be those that
 * apply in that state. Every captured object and verdict is written to
 * .cache/cluster-tier/gitops-health.json.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { parse } from 'yaml';
import * as lib from '../../../src';
import { main as cli } from '../../../src/cli';
import { FLUX_STATUS } from '../../../src/health/cel';
import { HealthOutcome } from '../../../src/health/rule';
import { runActions } from '../../argocd/engine';
import { judge } from '../../health/engines';
import { Kube, Manifest } from '../kube';
import {
  applyAccepted, containerStatus, findKind, isReady, live, nodeObjects, openOnRealNode, podFacts, podsOf, serverContainer, sleep, tierImage, until,
  waitWorkloadSettled,
} from '../node';

const NS = 'node-health';
const ROOT = path.resolve(__dirname, '..', '..', '..');
const REAL = kplus.NodeLabelQuery.is('cdk8s-kruise.test/node', 'real');
let kube: Kube;
let scripts: Record<string, string>;
let exprs: any[];
const record: any[] = [];

function run(args: string[]): string {
  let out = '';
  const code = cli(args, { out: t => { out += t; }, err: t => { throw new Error(t); } });
  expect(code).toBe(0);
  return out;
}

beforeAll(async () => {
  kube = await openOnRealNode(NS);
  // the docs' Argo CD recipe: the ConfigMap applied server-side, read back as Argo CD reads it
  await kube.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'argocd' } }, { fieldManager: 'cluster-tier' });
  const applied = kube.kubectl(['apply', '--server-side', '-f', '-'], run(['health', '--argocd']));
  expect(applied.stderr).toBe('');
  const cm = (await kube.request('GET', '/api/v1/namespaces/argocd/configmaps/argocd-cm')).body;
  expect(cm.metadata.labels).toEqual({ 'app.kubernetes.io/name': 'argocd-cm', 'app.kubernetes.io/part-of': 'argocd' });
  scripts = cm.data;
  exprs = parse(run(['health', '--flux'])).healthCheckExprs;
}, 400_000);

afterAll(() => {
  const out = path.join(ROOT, '.cache', 'cluster-tier', 'gitops-health.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify(record, null, 1));
  kube?.close();
});

/**
 * The live object judged by both engines; both must say `outcome`. With `actions`, the Argo CD actions discovery
 * lists for it (Argo CD v3.5.8's Lua VM running the live argocd-cm's discovery scripts) must be those. Gives what
 * kstatus alone says of it.
 */
function expectHealth(state: string, obj: Manifest, outcome: HealthOutcome, actions?: string[]): string {
  if (actions) {
    const [d] = runActions(scripts, [{ id: state, object: obj }]);
    expect({ state, actions: d.actions?.map(a => a.name) ?? d.discoveryError }).toEqual({ state, actions });
    record.push({ state, actions: d.actions?.map(a => a.name) });
  }
  const group = obj.apiVersion.split('/')[0];
  const lua = scripts[`resource.customizations.health.${group}_${obj.kind}`];
  const cel = exprs.find(e => e.kind === obj.kind && e.apiVersion.split('/')[0] === group);
  const [r] = judge([{ id: state, lua, cel, kstatus: true, object: obj }]);
  const flux = r.flux ?? { error: r.fluxError };
  record.push({ state, observed: outcome, object: obj, argo: r.argo ?? { error: r.argoError }, flux, kstatus: r.kstatus });
  expect({ state, argo: r.argo?.status ?? r.argoError, flux: r.flux ?? r.fluxError }).toEqual({ state, argo: outcome, flux: FLUX_STATUS[outcome] });
  console.log(`health: ${state}: Argo CD ${r.argo!.status} (${r.argo!.message}), Flux ${r.flux} (kstatus alone: ${r.kstatus})`);
  return r.kstatus!;
}

const slowReady = (image: string, o: { name?: string; port?: number } = {}): kplus.ContainerProps => ({
  ...serverContainer(image, o),
  // ready 8 s after each (re)start: an update stays visible mid-way
  readiness: kplus.Probe.fromTcpSocket({
    port: o.port ?? 8080, initialDelaySeconds: Duration.seconds(8), periodSeconds: Duration.seconds(1), successThreshold: 1,
  }),
});
const serverImageOf = (p: Manifest, name = 'server') => p.spec.containers.find((c: any) => c.name === name).image;

describe('CloneSet', () => {
  const cloneSet = (name: string, image: string, o: { replicas: number; partition?: number; paused?: boolean }) => nodeObjects(name, NS, chart => {
    new lib.CloneSet(chart, name, {
      metadata: { name },
      replicas: o.replicas,
      podMetadata: { labels: { app: name } },
      containers: [slowReady(image)],
      updateStrategy: lib.CloneSetUpdateStrategy.inPlaceIfPossible({
        maxUnavailable: kplus.PercentOrAbsolute.absolute(1),
        partition: o.partition === undefined ? undefined : kplus.PercentOrAbsolute.absolute(o.partition),
        paused: o.paused,
      }),
    });
  });

  test('rolled out, then in place mid-way (one pod restarted on v2 and not ready yet), then rolled out again', async () => {
    const v1 = cloneSet('mid', 'server:v1', { replicas: 2 });
    await applyAccepted(kube, v1);
    await waitWorkloadSettled(kube, findKind(v1, 'CloneSet'), 'app=mid', 2);
    expectHealth('CloneSet rolled out', await live(kube, findKind(v1, 'CloneSet')), 'Healthy', ['pause', 'scale']);

    const v2 = cloneSet('mid', 'server:v2', { replicas: 2 });
    await applyAccepted(kube, v2);
    const mid = await until('the in-place update mid-way', 120_000, async () => {
      const cs = await live(kube, findKind(v2, 'CloneSet'));
      if ((cs.status?.observedGeneration ?? 0) < cs.metadata.generation) return undefined;
      const pods = await podsOf(kube, NS, 'app=mid');
      // restarted on v2 and started (a container ID: kruise-daemon can restart it again), not ready yet
      const restarted = pods.filter(p => containerStatus(p, 'server')?.image?.endsWith('server:v2') && containerStatus(p, 'server')?.containerID && !isReady(p));
      return restarted.length === 1 && pods.length === 2 ? { cs, pods } : undefined;
    }, undefined, 200);
    expect(mid.pods.filter(p => podFacts(p).containers.server.restarts === 1)).toHaveLength(1);
    // Argo CD's Pod discovery is not asserted here: on this stop's runs it listed nothing for either pod mid-way,
    // though their statuses read as its conditions ask and the unit tests (test/health/actions.test.ts) and
    // nodes/9-actions run the same action through Argo CD's Lua; an open finding of the closing note
    // without healthCheckExprs, kstatus calls it ready: it only checks that the spec is observed
    expect(expectHealth('CloneSet in place, mid-way', mid.cs, 'Progressing', ['pause', 'scale'])).toBe('Current');

    await waitWorkloadSettled(kube, findKind(v2, 'CloneSet'), 'app=mid', 2);
    expectHealth('CloneSet rolled out in place', await live(kube, findKind(v2, 'CloneSet')), 'Healthy');
  }, 400_000);

  test('partition reached: 2 of 3 pods on v2, the third on v1', async () => {
    const v1 = cloneSet('part', 'server:v1', { replicas: 3, partition: 1 });
    await applyAccepted(kube, v1);
    await waitWorkloadSettled(kube, findKind(v1, 'CloneSet'), 'app=part', 3);
    const v2 = cloneSet('part', 'server:v2', { replicas: 3, partition: 1 });
    await applyAccepted(kube, v2);
    const pods = await waitWorkloadSettled(kube, findKind(v2, 'CloneSet'), 'app=part', 2);
    expect(pods.map(p => containerStatus(p, 'server').image.replace(/.*:/, '')).sort()).toEqual(['v1', 'v2', 'v2']);
    expectHealth('CloneSet partition reached', await live(kube, findKind(v2, 'CloneSet')), 'Suspended', ['pause', 'scale']);
  }, 400_000);

  test('paused: the new image is not rolled to any pod', async () => {
    const v1 = cloneSet('paused', 'server:v1', { replicas: 2 });
    await applyAccepted(kube, v1);
    const before = (await waitWorkloadSettled(kube, findKind(v1, 'CloneSet'), 'app=paused', 2)).map(podFacts);
    const v2 = cloneSet('paused', 'server:v2', { replicas: 2, paused: true });
    await applyAccepted(kube, v2);
    const cs = await until('the paused spec observed', 60_000, async () => {
      const c = await live(kube, findKind(v2, 'CloneSet'));
      return (c.status?.observedGeneration ?? 0) >= c.metadata.generation ? c : undefined;
    });
    await sleep(5000);
    expect((await podsOf(kube, NS, 'app=paused')).map(podFacts)).toEqual(before);
    expectHealth('CloneSet paused', await live(kube, cs), 'Suspended', ['resume', 'scale']);
  }, 400_000);

  test('scaled to 0: no pod left', async () => {
    const v1 = cloneSet('zero', 'server:v1', { replicas: 1 });
    await applyAccepted(kube, v1);
    await waitWorkloadSettled(kube, findKind(v1, 'CloneSet'), 'app=zero', 1);
    const none = cloneSet('zero', 'server:v1', { replicas: 0 });
    await applyAccepted(kube, none);
    const cs = await until('scaled to 0', 120_000, async () => {
      const c = await live(kube, findKind(none, 'CloneSet'));
      const pods = await kube.request('GET', `/api/v1/namespaces/${NS}/pods?labelSelector=app%3Dzero`);
      return (c.status?.observedGeneration ?? 0) >= c.metadata.generation && pods.body.items.length === 0 && c.status.replicas === 0 ? c : undefined;
    });
    expectHealth('CloneSet scaled to 0', cs, 'Healthy', ['pause', 'scale']);
  }, 300_000);
});

test('Advanced StatefulSet OnDelete: the new image waits for the pod\'s deletion', async () => {
  const sts = (image: string) => nodeObjects('ondelete', NS, chart => {
    new lib.AdvancedStatefulSet(chart, 'ondelete', {
      metadata: { name: 'ondelete' },
      replicas: 1,
      podMetadata: { labels: { app: 'ondelete' } },
      containers: [serverContainer(image)],
      updateStrategy: lib.AdvancedStatefulSetUpdateStrategy.onDelete(),
    });
  });
  await applyAccepted(kube, sts('server:v1'));
  const before = (await waitWorkloadSettled(kube, findKind(sts('server:v1'), 'StatefulSet'), 'app=ondelete', 1)).map(podFacts);
  await applyAccepted(kube, sts('server:v2'));
  const s = await until('the new spec observed', 60_000, async () => {
    const x = await live(kube, findKind(sts('server:v2'), 'StatefulSet'));
    return (x.status?.observedGeneration ?? 0) >= x.metadata.generation && x.status.updateRevision !== x.status.currentRevision ? x : undefined;
  });
  await sleep(3000);
  expect((await podsOf(kube, NS, 'app=ondelete')).map(podFacts)).toEqual(before);
  expectHealth('Advanced StatefulSet OnDelete, pod waiting', await live(kube, s), 'Suspended', ['scale']);
}, 300_000);

describe('BroadcastJob', () => {
  const job = (name: string, args: string[]) => nodeObjects(name, NS, chart => {
    const bj = new lib.BroadcastJob(chart, name, {
      metadata: { name },
      podMetadata: { labels: { app: name } },
      containers: [{ ...serverContainer('server:v1'), startup: undefined, portNumber: undefined, args }],
      completionPolicy: lib.BroadcastJobCompletionPolicy.always({ activeDeadline: Duration.minutes(5) }),
    });
    bj.scheduling.attract(kplus.Node.labeled(REAL));
  });
  const finished = async (objects: Manifest[], name: string) => {
    await applyAccepted(kube, objects);
    const j = await until(`BroadcastJob ${name} finished`, 120_000, async () => {
      const x = await live(kube, findKind(objects, 'BroadcastJob'));
      return ['completed', 'failed'].includes(x.status?.phase) ? x : undefined;
    });
    const [pod] = (await kube.request('GET', `/api/v1/namespaces/${NS}/pods?labelSelector=app%3D${name}`)).body.items;
    return { j, pod };
  };

  test('finished: its container exited 0 on the node', async () => {
    const { j, pod } = await finished(job('done', ['run-for', '1s']), 'done');
    expect(containerStatus(pod, 'server').state.terminated.exitCode).toBe(0);
    expectHealth('BroadcastJob finished', j, 'Healthy', []);
  }, 300_000);

  test('failed: its container exited 1 (failurePolicy FailFast, the default)', async () => {
    const { j, pod } = await finished(job('broken', ['probe', 'http://127.0.0.1:1/']), 'broken');
    expect(j.status.phase).toBe('failed');
    expect(pod === undefined || containerStatus(pod, 'server').state.terminated.exitCode === 1).toBe(true);
    expectHealth('BroadcastJob failed', j, 'Degraded', []);
  }, 300_000);
});

test('SidecarSet upgrading in place, then upgraded', async () => {
  const mesh = (image: string) => nodeObjects('health-mesh', NS, chart => {
    new lib.SidecarSet(chart, 'mesh', {
      metadata: { name: 'health-mesh' },
      selector: kplus.LabelSelector.of({ labels: { mesh: 'health' } }),
      namespace: NS,
      containers: [{ ...slowReady(image, { name: 'proxy', port: 9090 }), portNumber: undefined, startup: undefined }],
    });
  });
  const app = nodeObjects('meshed', NS, chart => {
    new lib.CloneSet(chart, 'meshed', {
      metadata: { name: 'meshed' },
      replicas: 2,
      podMetadata: { labels: { app: 'meshed', mesh: 'health' } },
      containers: [serverContainer('server:v1')],
    });
  });
  await applyAccepted(kube, mesh('server:v1'));
  await applyAccepted(kube, app);
  await waitWorkloadSettled(kube, findKind(app, 'CloneSet'), 'app=meshed', 2);
  const ss = findKind(mesh('server:v1'), 'SidecarSet');
  await until('the SidecarSet counts its 2 pods ready', 120_000, async () => {
    const s = await live(kube, ss);
    return s.status?.matchedPods === 2 && s.status?.updatedReadyPods === 2;
  });
  expectHealth('SidecarSet injected', await live(kube, ss), 'Healthy', []);

  await applyAccepted(kube, mesh('server:v2'));
  const mid = await until('the sidecar upgrade mid-way', 120_000, async () => {
    const s = await live(kube, ss);
    if ((s.status?.observedGeneration ?? 0) < s.metadata.generation) return undefined;
    const pods = await podsOf(kube, NS, 'app=meshed');
    const upgraded = pods.filter(p => containerStatus(p, 'proxy')?.image?.endsWith('server:v2'));
    return upgraded.length >= 1 && pods.some(p => !isReady(p) || !upgraded.includes(p)) && s.status.updatedReadyPods < 2 ? { s, pods } : undefined;
  }, undefined, 200);
  expect(mid.pods.map(p => serverImageOf(p)).every(i => i === tierImage('server:v1'))).toBe(true);
  expect(expectHealth('SidecarSet upgrading', mid.s, 'Progressing')).toBe('Current');

  const done = await until('the sidecar upgraded on both pods', 120_000, async () => {
    const s = await live(kube, ss);
    return s.status?.updatedPods === 2 && s.status?.updatedReadyPods === 2 ? s : undefined;
  });
  expectHealth('SidecarSet upgraded', done, 'Healthy');
}, 400_000);
