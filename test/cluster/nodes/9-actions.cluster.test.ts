/**
 * The Argo CD actions judged by reality: the actions of the docs' recipe
 * (`cdk8s-kruise health --argocd` applied server-side, read back from the
 * live argocd-cm) run on live objects by Argo CD v3.5.8's own Lua VM and
 * applied as its API server applies them (test/argocd: objects to create
 * after a dry run, the status part of the merge patch to the status
 * subresource, then the rest), and the controllers' answer is observed on the
 * node's containers:
 *
 * - approve moves a canary waiting at its step on to the next step (pods
 *   updated in place); step-back takes the release back to an earlier step,
 *   where it waits again, and the pods already updated stay so; pause holds
 *   it even when a step is approved; resume lets it finish;
 * - pause stops a CloneSet's update: a new image reaches no pod until resume,
 *   then every pod is updated in place;
 * - restart-in-place (a ContainerRecreateRequest) restarts the named container
 *   of a pod, which keeps its UID and IP, the other container untouched;
 * - a suspended AdvancedCronJob starts no job; run-now makes the job its
 *   controller would, which runs on the node and which the controller counts
 *   as its run; resumed, it runs on its schedule again.
 *
 * At every state, discovery lists exactly the actions that apply.
 */
import * as kplus from 'cdk8s-plus-28';
import * as lib from '../../../src';
import { main as cli } from '../../../src/cli';
import { ActionOutcome, runActions, runLiveAction } from '../../argocd/engine';
import { Kube, Manifest } from '../kube';
import { testNamespace } from '../manager';
import {
  answerOf, applyAccepted, containerStatus, ensureKruise, findKind, live, nodeObjects, nodeRolloutControlPlaneSynth, podFacts, podsOf,
  requireRealNode, serverContainer, sleep, tierImage, until, waitDeploymentAvailable, waitWorkloadSettled,
} from '../node';

const NS = 'node-actions';
const REAL = kplus.NodeLabelQuery.is('cdk8s-kruise.test/node', 'real');
let kube: Kube;
let data: Record<string, string>;

beforeAll(async () => {
  kube = new Kube();
  requireRealNode();
  await ensureKruise(kube);
  const rollouts = nodeRolloutControlPlaneSynth();
  await applyAccepted(kube, rollouts.objects);
  const d = rollouts.objects.find(m => m.kind === 'Deployment')!;
  await waitDeploymentAvailable(kube, d.metadata.namespace, d.metadata.name);
  await testNamespace(kube, NS);
  // the docs' Argo CD recipe: the ConfigMap applied server-side, the keys read back as Argo CD's settings manager reads them
  await kube.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'argocd' } }, { fieldManager: 'cluster-tier' });
  let yaml = '';
  expect(cli(['health', '--argocd'], { out: t => { yaml += t; }, err: t => { throw new Error(t); } })).toBe(0);
  expect(kube.kubectl(['apply', '--server-side', '-f', '-'], yaml).stderr).toBe('');
  data = (await kube.request('GET', '/api/v1/namespaces/argocd/configmaps/argocd-cm')).body.data;
  expect(Object.keys(data).filter(k => k.startsWith('resource.customizations.actions.')).length).toBe(7);
}, 400_000);

afterAll(() => kube?.close());

const env = () => ({ ...process.env, KUBECONFIG: kube.env.kubeconfig });

/** The actions Argo CD lists for the live object now. */
async function discovered(m: Manifest): Promise<string[]> {
  const [o] = runActions(data, [{ id: 'live', object: await live(kube, m) }]);
  expect(o.discoveryError).toBeUndefined();
  return o.actions!.map(a => a.name);
}

/** Run an action on the live object as Argo CD does; it must apply. */
function act(m: Manifest, action: string, params?: Record<string, string>): ActionOutcome {
  const [group, version] = m.apiVersion.includes('/') ? m.apiVersion.split('/') : ['', m.apiVersion];
  const namespace = m.metadata.namespace ?? NS;
  const o = runLiveAction(env(), data, { group, version, kind: m.kind, namespace, name: m.metadata.name, action, params });
  expect({ action, error: o.actionError }).toEqual({ action, error: undefined });
  expect(o.actions!.map(a => a.name)).toContain(action);
  console.log(`actions: ${m.kind} ${m.metadata.name}: ${action}${params ? ` ${JSON.stringify(params)}` : ''}: ${o.applied!.join('; ')}`);
  return o;
}

const versionsOf = async (selector: string) =>
  (await Promise.all((await podsOf(kube, NS, selector)).map(p => answerOf(p)))).map(a => a.version).sort();

describe('Rollout: approve, step-back, pause and resume a canary', () => {
  const shop = (image: string) => nodeObjects('act-canary', NS, chart => {
    const cs = new lib.CloneSet(chart, 'shop', {
      metadata: { name: 'act-shop' },
      replicas: 4,
      podMetadata: { labels: { app: 'act-shop' } },
      containers: [serverContainer(image)],
      updateStrategy: lib.CloneSetUpdateStrategy.inPlaceIfPossible(),
    });
    cs.rollout({
      metadata: { name: 'act-shop' },
      strategy: lib.RolloutStrategy.canary({
        steps: [
          { replicas: kplus.PercentOrAbsolute.absolute(1), pause: lib.RolloutPause.manual() },
          { replicas: kplus.PercentOrAbsolute.percent(50), pause: lib.RolloutPause.manual() },
          { replicas: kplus.PercentOrAbsolute.percent(100) },
        ],
      }),
    });
  });
  let rollout: Manifest;
  const uids = new Map<string, string>();
  const at = (step: number, canary: number) => until(`the Rollout waiting at step ${step} with ${canary} pod(s) on v2`, 180_000, async () => {
    const r = await live(kube, rollout);
    const s = r.status?.canaryStatus;
    return r.status?.currentStepIndex === step && s?.currentStepState === 'StepPaused' && s?.canaryReadyReplicas === canary ? r : undefined;
  }, async () => JSON.stringify((await live(kube, rollout)).status));

  test('a new image waits at step 1: discovery lists approve and pause', async () => {
    const objects = shop('server:v1');
    rollout = findKind(objects, 'Rollout');
    await applyAccepted(kube, objects.filter(m => m.kind === 'Rollout'));
    await applyAccepted(kube, objects.filter(m => m.kind !== 'Rollout'));
    for (const p of await waitWorkloadSettled(kube, findKind(objects, 'CloneSet'), 'app=act-shop', 4)) uids.set(p.metadata.name, p.metadata.uid);
    await until('the Rollout Healthy', 60_000, async () => (await live(kube, rollout)).status?.phase === 'Healthy');
    expect(await discovered(rollout)).toEqual([]);
    await applyAccepted(kube, shop('server:v2').filter(m => m.kind === 'CloneSet'));
    await at(1, 1);
    expect(await versionsOf('app=act-shop')).toEqual(['v1', 'v1', 'v1', 'v2']);
    expect(await discovered(rollout)).toEqual(['approve', 'pause']);
  }, 400_000);

  test('approve: the canary goes on to step 2, 2 pods on v2 in place', async () => {
    const o = act(rollout, 'approve');
    expect(o.statusPatch).toEqual({ status: { canaryStatus: { currentStepState: 'StepReady' } } });
    expect(o.patch).toBeUndefined();
    await at(2, 2);
    expect(await versionsOf('app=act-shop')).toEqual(['v1', 'v1', 'v2', 'v2']);
    expect(await discovered(rollout)).toEqual(['approve', 'pause', 'step-back']);
  }, 400_000);

  test('step-back: the release goes back to step 1 and waits there again; the pods already on v2 stay on v2', async () => {
    act(rollout, 'step-back');
    // kruise-rollout-manager jumps back to step 1 and pauses there; the batch release keeps the pods it updated
    // (a partition-style release updates no pod back: that is a revert of the workload in git)
    await at(1, 2);
    for (let i = 0; i < 3; i++) {
      await sleep(3000);
      expect(await versionsOf('app=act-shop')).toEqual(['v1', 'v1', 'v2', 'v2']);
    }
    const pods = await podsOf(kube, NS, 'app=act-shop');
    expect(pods.map(p => uids.get(p.metadata.name))).toEqual(pods.map(p => p.metadata.uid));
    expect(await discovered(rollout)).toEqual(['approve', 'pause']);
  }, 400_000);

  test('pause holds the release even when its step is approved; resume lets it finish, every pod kept', async () => {
    act(rollout, 'approve');
    await at(2, 2);
    act(rollout, 'pause');
    expect((await live(kube, rollout)).spec.strategy.paused).toBe(true);
    expect(await discovered(rollout)).toEqual(['approve', 'resume', 'step-back']);
    act(rollout, 'approve');
    // paused: the approved step does not move for 15 s
    for (let i = 0; i < 5; i++) {
      await sleep(3000);
      const r = await live(kube, rollout);
      expect({ step: r.status.currentStepIndex, versions: await versionsOf('app=act-shop') }).toEqual({ step: 2, versions: ['v1', 'v1', 'v2', 'v2'] });
    }
    act(rollout, 'resume');
    await until('the Rollout Healthy, the release done', 240_000, async () => (await live(kube, rollout)).status?.phase === 'Healthy',
      async () => JSON.stringify((await live(kube, rollout)).status));
    const pods = await waitWorkloadSettled(kube, findKind(shop('server:v2'), 'CloneSet'), 'app=act-shop', 4);
    expect(pods.map(p => [uids.get(p.metadata.name), podFacts(p).containers.server.image])).toEqual(pods.map(p => [p.metadata.uid, tierImage('server:v2')]));
    expect(await discovered(rollout)).toEqual([]);
  }, 600_000);
});

test('CloneSet: pause stops the update (a new image reaches no pod), resume lets it finish in place', async () => {
  const cs = (image: string) => nodeObjects('act-pause', NS, chart => {
    new lib.CloneSet(chart, 'web', {
      metadata: { name: 'act-pause' },
      replicas: 3,
      podMetadata: { labels: { app: 'act-pause' } },
      containers: [serverContainer(image)],
      updateStrategy: lib.CloneSetUpdateStrategy.inPlaceIfPossible({ maxUnavailable: kplus.PercentOrAbsolute.absolute(1) }),
    });
  });
  const v1 = cs('server:v1');
  const m = findKind(v1, 'CloneSet');
  await applyAccepted(kube, v1);
  const before = (await waitWorkloadSettled(kube, m, 'app=act-pause', 3)).map(podFacts);
  expect(await discovered(m)).toEqual(['pause', 'scale']);
  // Argo CD's merge patch also drops the template's `creationTimestamp: null` (kruise-manager's webhook writes it; the
  // action's Lua has no null, so the field is gone from what it returns) and the webhook writes it back: no new revision
  const patch = act(m, 'pause').patch;
  expect(patch.spec.updateStrategy).toEqual({ paused: true });
  const template = patch.spec.template ? { template: { metadata: { creationTimestamp: null } } } : {};
  expect(patch).toEqual({ spec: { updateStrategy: { paused: true }, ...template } });
  expect(await discovered(m)).toEqual(['resume', 'scale']);
  // the commit of a new image, applied as Argo CD syncs it: the manifest sets no `paused`, so the pause stays
  await applyAccepted(kube, cs('server:v2'));
  await until('the new spec observed', 60_000, async () => {
    const c = await live(kube, m);
    return c.status?.observedGeneration >= c.metadata.generation && c.spec.updateStrategy.paused === true;
  });
  await sleep(10_000);
  expect((await podsOf(kube, NS, 'app=act-pause')).map(podFacts)).toEqual(before);
  act(m, 'resume');
  const after = await waitWorkloadSettled(kube, m, 'app=act-pause', 3);
  for (const p of after) {
    const was = before.find(b => b.name === p.metadata.name)!;
    const now = podFacts(p);
    expect({ uid: now.uid, ip: now.ip, restarts: now.containers.server.restarts, image: now.containers.server.image })
      .toEqual({ uid: was.uid, ip: was.ip, restarts: was.containers.server.restarts + 1, image: tierImage('server:v2') });
  }
}, 400_000);

test('Pod: restart-in-place restarts the named container, the pod keeps its UID and IP and its other container', async () => {
  const objects = nodeObjects('act-restart', NS, chart => {
    new lib.CloneSet(chart, 'web', {
      metadata: { name: 'act-restart' },
      replicas: 1,
      podMetadata: { labels: { app: 'act-restart' } },
      containers: [serverContainer('server:v1'), { ...serverContainer('server:v1', { name: 'log', port: 9090 }), portNumber: undefined, startup: undefined }],
    });
  });
  await applyAccepted(kube, objects);
  const [p] = await waitWorkloadSettled(kube, findKind(objects, 'CloneSet'), 'app=act-restart', 1);
  const before = podFacts(p);
  const started = (await answerOf(p)).started;
  const podRef: Manifest = { apiVersion: 'v1', kind: 'Pod', metadata: { name: p.metadata.name, namespace: NS } };
  expect(await discovered(podRef)).toEqual(['restart-in-place']);
  const o = act(podRef, 'restart-in-place', { container: 'server' });
  const crrName = o.create![0].resource.metadata.name;
  const crr = await until('the ContainerRecreateRequest Completed', 120_000, async () => {
    const r = await kube.request('GET', `/apis/apps.kruise.io/v1alpha1/namespaces/${NS}/containerrecreaterequests/${crrName}`);
    return r.body.status?.phase === 'Completed' ? r.body : undefined;
  });
  expect(crr.status.containerRecreateStates).toEqual([{ name: 'server', phase: 'Succeeded', isKilled: true }]);
  const after = await until('the pod ready again', 120_000, async () => {
    const [x] = await podsOf(kube, NS, 'app=act-restart');
    return containerStatus(x, 'server').ready && containerStatus(x, 'server').restartCount === before.containers.server.restarts + 1 ? x : undefined;
  });
  const now = podFacts(after);
  expect({ uid: now.uid, ip: now.ip }).toEqual({ uid: before.uid, ip: before.ip });
  expect(now.containers.server.id).not.toBe(before.containers.server.id);
  expect(now.containers.log).toEqual(before.containers.log);
  expect((await answerOf(after)).started).not.toBe(started);
  console.log(`actions: restart-in-place: ${crrName} Completed; server restarted (${before.containers.server.id.slice(0, 25)} -> ${now.containers.server.id.slice(0, 25)}), log kept, UID and IP kept`);
}, 400_000);

test('AdvancedCronJob: suspended, it starts no job; run-now runs one as the controller would; resumed, it runs on its schedule', async () => {
  const objects = nodeObjects('act-cron', NS, chart => {
    const acj = new lib.AdvancedCronJob(chart, 'cron', {
      metadata: { name: 'act-cron' },
      schedule: '@every 20s',
      concurrencyPolicy: lib.AdvancedCronJobConcurrencyPolicy.FORBID,
      template: lib.AdvancedCronJobTemplate.broadcastJob({
        podMetadata: { labels: { app: 'act-cron' } },
        containers: [{ ...serverContainer('server:v1'), startup: undefined, portNumber: undefined, args: ['run-for', '1s'] }],
      }),
    });
    acj.workload!.scheduling.attract(kplus.Node.labeled(REAL));
  });
  const cron = findKind(objects, 'AdvancedCronJob');
  const jobsOf = async () => ((await kube.request('GET', `/apis/apps.kruise.io/v1beta1/namespaces/${NS}/broadcastjobs`)).body.items as Manifest[])
    .filter(j => (j.metadata.ownerReferences ?? []).some((r: any) => r.kind === 'AdvancedCronJob' && r.name === 'act-cron'));
  await applyAccepted(kube, objects);
  expect(await discovered(cron)).toEqual(['run-now', 'suspend']);
  act(cron, 'suspend');
  expect(await discovered(cron)).toEqual(['resume', 'run-now']);
  // two schedules pass: no job
  await sleep(45_000);
  expect((await jobsOf()).map(j => j.metadata.name)).toEqual([]);

  const o = act(cron, 'run-now');
  const name = o.create![0].resource.metadata.name;
  const job = await until(`BroadcastJob ${name} completed`, 120_000, async () => {
    const j = (await jobsOf()).find(x => x.metadata.name === name);
    return j?.status?.phase === 'completed' ? j : undefined;
  });
  expect(job.status.succeeded).toBe(1);
  await until('the AdvancedCronJob counts the run (lastScheduleTime)', 60_000, async () =>
    (await live(kube, cron)).status?.lastScheduleTime === job.metadata.annotations['apps.kruise.io/scheduled-at']);
  expect((await jobsOf()).map(j => j.metadata.name)).toEqual([name]);

  act(cron, 'resume');
  await until('a scheduled job after resume', 60_000, async () => (await jobsOf()).some(j => j.metadata.name !== name));
}, 400_000);
