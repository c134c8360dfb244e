/**
 * Faults on a real node, with the control plane running as pods:
 *
 * - kruise-daemon's pod is killed while it pulls an image for an
 *   ImagePullJob (the registry answers that image slowly): the DaemonSet
 *   brings a new daemon pod back, and the job still completes;
 * - kubelet is stopped in the middle of a CloneSet in-place update: the
 *   containers keep running (they are containerd's), and once kubelet is back
 *   the update finishes with every pod kept and restarted once;
 * - kruise-manager is stopped (its Deployment scaled to 0) in the middle of an
 *   in-place update: nothing more is updated while it is gone, and once our
 *   YAML is applied again the update resumes and finishes with no pod
 *   recreated.
 *
 * kubelet is started again by this file (node.ts), with cluster.sh's command
 * line; cluster.sh stops it with the run.
 */
import { Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as lib from '../../../src';
import { Kube, Manifest } from '../kube';
import {
  answerOf, applyAccepted, ensureKruise, findKind, imagesOnNode, isReady, KRUISE_NAMESPACE, live, nodeControlPlaneSynth, nodeObjects,
  openOnRealNode, podFacts, podsOf, registryLog, requireRealNode, runningContainerIds, serverContainer, sleep, startKubelet, stopKubelet,
  tierImage, until, waitDaemonSetReady, waitWorkloadSettled,
} from '../node';

const NS = 'node-faults';
let kube: Kube;

beforeAll(async () => {
  kube = await openOnRealNode(NS);
}, 400_000);

afterAll(() => kube?.close());

const nodeReady = async () => {
  const n = (await kube.request('GET', `/api/v1/nodes/${requireRealNode().name}`)).body;
  return (n.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True');
};

test('kruise-daemon\'s pod killed during an ImagePullJob: the DaemonSet brings it back and the job completes', async () => {
  const node = requireRealNode();
  const image = tierImage('pull-slow:1');
  expect(imagesOnNode()).not.toContain(image);
  const objects = nodeObjects('pull during a daemon restart', NS, chart => {
    new lib.ImagePullJob(chart, 'slow', {
      metadata: { name: 'slow' },
      image,
      nodes: lib.ImagePullNodes.labeled(kplus.LabelSelector.of({ labels: { 'cdk8s-kruise.test/node': 'real' } })),
      pullTimeout: Duration.minutes(2),
      completionPolicy: lib.ImagePullJobCompletionPolicy.always({ activeDeadline: Duration.minutes(10) }),
    });
  });
  const daemonOf = async () => (await podsOf(kube, KRUISE_NAMESPACE, 'control-plane=daemon')).find(p => p.spec.nodeName === node.name);
  const first = (await daemonOf())!;
  const seenBefore = registryLog().length;
  await applyAccepted(kube, objects);
  // the daemon has started the pull: the registry got its first request for the image
  await until('the daemon to ask the registry for pull-slow', 60_000, async () =>
    registryLog().slice(seenBefore).some(l => l.includes('/v2/cluster-tier/pull-slow/')));
  expect(imagesOnNode()).not.toContain(image);
  const res = await kube.request('DELETE', `/api/v1/namespaces/${KRUISE_NAMESPACE}/pods/${first.metadata.name}?gracePeriodSeconds=0`);
  expect(res.status).toBe(200);
  const second = await until('a new kruise-daemon pod ready on the node', 120_000, async () => {
    const p = await daemonOf();
    return p && p.metadata.uid !== first.metadata.uid && isReady(p) ? p : undefined;
  });
  expect(second.spec.nodeName).toBe(node.name);
  await waitDaemonSetReady(kube, KRUISE_NAMESPACE, 'kruise-daemon');
  const job = findKind(objects, 'ImagePullJob');
  const done = await until('the ImagePullJob to complete', 180_000, async () => {
    const j = await live(kube, job);
    return j.status?.completionTime ? j : undefined;
  }, async () => JSON.stringify((await live(kube, job)).status));
  expect(done.status).toMatchObject({ desired: 1, succeeded: 1, failed: 0 });
  expect(imagesOnNode()).toContain(image);
});

describe('an in-place update through a kubelet restart and through a kruise-manager outage', () => {
  const web = (name: string, image: string) => nodeObjects(`in-place ${name}`, NS, chart => {
    new lib.CloneSet(chart, name, {
      metadata: { name },
      replicas: 4,
      podMetadata: { labels: { app: name } },
      containers: [serverContainer(image)],
      // one pod at a time, each held for 5 s after its restart: the update lasts long enough to be interrupted
      updateStrategy: lib.CloneSetUpdateStrategy.inPlaceIfPossible({ maxUnavailable: kplus.PercentOrAbsolute.absolute(1) }),
      minReady: Duration.seconds(5),
    });
  });
  const specImage = (p: Manifest) => p.spec.containers.find((c: any) => c.name === 'server').image;

  test('kubelet stopped mid-update: the containers keep running, and once kubelet is back the update finishes in place', async () => {
    await applyAccepted(kube, web('through-kubelet', 'server:v1'));
    const cs = findKind(web('through-kubelet', 'server:v1'), 'CloneSet');
    const first = await waitWorkloadSettled(kube, cs, 'app=through-kubelet', 4);
    await applyAccepted(kube, web('through-kubelet', 'server:v2'));
    await until('the first pod updated', 60_000, async () =>
      (await podsOf(kube, NS, 'app=through-kubelet')).some(p => podFacts(p).containers.server?.image === tierImage('server:v2')));
    await stopKubelet();
    try {
      // without kubelet nothing restarts and nothing stops: every container of the pods runs on
      const ids = (await podsOf(kube, NS, 'app=through-kubelet')).map(p => podFacts(p).containers.server.id.replace('containerd://', ''));
      await sleep(8000);
      const running = runningContainerIds();
      expect(ids.filter(id => !running.has(id))).toEqual([]);
      for (const p of await podsOf(kube, NS, 'app=through-kubelet')) expect((await answerOf(p)).version).toMatch(/^v[12]$/);
    } finally {
      startKubelet();
    }
    await until('the node Ready again', 60_000, nodeReady);
    const after = await waitWorkloadSettled(kube, cs, 'app=through-kubelet', 4, 240_000);
    const old = new Map(first.map(p => [p.metadata.name, podFacts(p)]));
    for (const p of after) {
      const f = podFacts(p);
      expect({ uid: f.uid, restarts: f.containers.server.restarts }).toEqual({ uid: old.get(f.name)!.uid, restarts: 1 });
      expect((await answerOf(p)).version).toBe('v2');
    }
  });

  test('kruise-manager stopped mid-update: no pod moves while it is gone; with our YAML applied again the update resumes, no pod recreated', async () => {
    await applyAccepted(kube, web('through-manager', 'server:v1'));
    const cs = findKind(web('through-manager', 'server:v1'), 'CloneSet');
    const first = await waitWorkloadSettled(kube, cs, 'app=through-manager', 4);
    await applyAccepted(kube, web('through-manager', 'server:v2'));
    await until('the first pod updated', 60_000, async () =>
      (await podsOf(kube, NS, 'app=through-manager')).some(p => specImage(p) === tierImage('server:v2')));
    const scale = await kube.request('PATCH', `/apis/apps/v1/namespaces/${KRUISE_NAMESPACE}/deployments/kruise-controller-manager/scale`,
      { spec: { replicas: 0 } }, 'application/merge-patch+json');
    expect(scale.status).toBe(200);
    await until('every kruise-manager pod gone', 60_000, async () => (await podsOf(kube, KRUISE_NAMESPACE, 'control-plane=controller-manager')).length === 0);
    const moved = async () => (await podsOf(kube, NS, 'app=through-manager')).filter(p => specImage(p) === tierImage('server:v2')).length;
    const during = await moved();
    expect(during).toBeLessThan(4);
    await sleep(10_000);
    expect(await moved()).toBe(during);

    await ensureKruise(kube, nodeControlPlaneSynth());
    const after = await waitWorkloadSettled(kube, cs, 'app=through-manager', 4, 240_000);
    const old = new Map(first.map(p => [p.metadata.name, podFacts(p)]));
    expect(after.map(p => p.metadata.uid).sort()).toEqual(first.map(p => p.metadata.uid).sort());
    for (const p of after) {
      expect(podFacts(p).containers.server.restarts).toBe(old.get(p.metadata.name)!.containers.server.restarts + 1);
      expect((await answerOf(p)).version).toBe('v2');
    }
    console.log(`kruise-manager outage: ${during} of 4 pods had moved when it stopped; the other ${4 - during} moved once it was back`);
  });
});
