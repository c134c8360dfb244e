/**
 * A Kruise Rollouts canary on real pods, with kruise-rollout-manager and
 * kruise-manager running as pods from our control planes: a CloneSet's new
 * image stops at step 1 with one pod updated in place while the other pods
 * keep serving the old version (the same processes, answering through the
 * Service), and each approval (the status change `kubectl-kruise rollout
 * approve` makes) moves the release on until every pod answers the new
 * version, none of them recreated.
 */
import * as kplus from 'cdk8s-plus-28';
import * as lib from '../../../src';
import { Kube, Manifest } from '../kube';
import { testNamespace } from '../manager';
import {
  answerOf, applyAccepted, ensureKruise, findKind, httpGet, live, nodeObjects, nodeRolloutControlPlaneSynth, podFacts, podsOf,
  requireRealNode, serverContainer, sleep, tierImage, until, waitDeploymentAvailable, waitWorkloadSettled,
} from '../node';

const NS = 'node-rollout';
let kube: Kube;

beforeAll(async () => {
  kube = new Kube();
  requireRealNode();
  await ensureKruise(kube);
  const rollouts = nodeRolloutControlPlaneSynth();
  await applyAccepted(kube, rollouts.objects);
  const d = rollouts.objects.find(m => m.kind === 'Deployment')!;
  await waitDeploymentAvailable(kube, d.metadata.namespace, d.metadata.name);
  await testNamespace(kube, NS);
}, 400_000);

afterAll(() => kube?.close());

const shop = (image: string) => nodeObjects('canary', NS, chart => {
  const cs = new lib.CloneSet(chart, 'shop', {
    metadata: { name: 'shop' },
    replicas: 4,
    podMetadata: { labels: { app: 'shop' } },
    containers: [serverContainer(image)],
    updateStrategy: lib.CloneSetUpdateStrategy.inPlaceIfPossible(),
  });
  cs.exposeViaService({ name: 'shop', ports: [{ port: 80, targetPort: 8080 }] });
  cs.rollout({
    strategy: lib.RolloutStrategy.canary({
      steps: [
        { replicas: kplus.PercentOrAbsolute.absolute(1), pause: lib.RolloutPause.manual() },
        { replicas: kplus.PercentOrAbsolute.percent(50), pause: lib.RolloutPause.manual() },
        { replicas: kplus.PercentOrAbsolute.percent(100) },
      ],
    }),
  });
});

/** Ask the Service (kube-proxy routes its ClusterIP to the pods) `n` times; the versions that answered. */
async function askService(ip: string, n: number): Promise<{ versions: Set<string>; failures: string[] }> {
  const versions = new Set<string>();
  const failures: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await httpGet(`http://${ip}/`, 2000);
    if (r.status === 200) versions.add(r.json.version);
    else failures.push(`${r.status} ${r.body}`);
  }
  return { versions, failures };
}

const approve = (name: string) => kube.request('PATCH', `/apis/rollouts.kruise.io/v1beta1/namespaces/${NS}/rollouts/${name}/status`,
  { status: { canaryStatus: { currentStepState: 'StepReady' } } }, 'application/merge-patch+json');

describe('a canary release on real pods', () => {
  let rollout: Manifest;
  let serviceIP: string;
  let before: Map<string, { uid: string; started: string }>;

  test('4 pods answer v1 through the Service, and the Rollout is Healthy', async () => {
    const objects = shop('server:v1');
    rollout = findKind(objects, 'Rollout');
    await applyAccepted(kube, objects.filter(m => m.kind === 'Rollout'));
    await applyAccepted(kube, objects.filter(m => m.kind !== 'Rollout'));
    const pods = await waitWorkloadSettled(kube, findKind(objects, 'CloneSet'), 'app=shop', 4);
    await until('the Rollout Healthy', 60_000, async () => (await live(kube, rollout)).status?.phase === 'Healthy');
    serviceIP = (await live(kube, findKind(objects, 'Service'))).spec.clusterIP;
    expect(serviceIP).toMatch(/^198\.19\./);
    // the endpoints reach kube-proxy's rules a moment after the pods are ready
    await until('the Service to answer', 30_000, async () => (await httpGet(`http://${serviceIP}/`, 1000)).status === 200);
    before = new Map();
    for (const p of pods) before.set(p.metadata.name, { uid: p.metadata.uid, started: (await answerOf(p)).started });
    const asked = await askService(serviceIP, 20);
    expect({ failures: asked.failures, versions: [...asked.versions] }).toEqual({ failures: [], versions: ['v1'] });
  });

  test('a new image stops at step 1: one pod runs v2 in place, the 3 others keep serving v1 from the same processes', async () => {
    await applyAccepted(kube, shop('server:v2').filter(m => m.kind === 'CloneSet'));
    const ro = await until('the Rollout paused at step 1', 120_000, async () => {
      const r = await live(kube, rollout);
      return r.status?.currentStepIndex === 1 && r.status?.canaryStatus?.currentStepState === 'StepPaused' && r.status?.canaryStatus?.canaryReadyReplicas === 1 ? r : undefined;
    }, async () => JSON.stringify((await live(kube, rollout)).status));
    expect(ro.status.canaryStatus.canaryReplicas).toBe(1);
    // step 1 holds: over a few seconds nothing more moves, and the old pods answer all along
    for (let round = 0; round < 3; round++) {
      const pods = await podsOf(kube, NS, 'app=shop');
      const answers = await Promise.all(pods.map(p => answerOf(p)));
      const v2 = answers.filter(a => a.version === 'v2');
      const v1 = pods.filter((_, i) => answers[i].version === 'v1');
      expect([v2.length, v1.length]).toEqual([1, 3]);
      for (const p of v1) {
        expect(p.metadata.uid).toBe(before.get(p.metadata.name)!.uid);
        expect((await answerOf(p)).started).toBe(before.get(p.metadata.name)!.started);
      }
      for (const p of pods) expect(p.metadata.uid).toBe(before.get(p.metadata.name)!.uid);
      const asked = await askService(serviceIP, 10);
      expect(asked.failures).toEqual([]);
      await sleep(2000);
    }
    expect((await live(kube, rollout)).status.currentStepIndex).toBe(1);
  });

  test('approval moves it to step 2 (half the pods on v2), and the last approval completes it, every pod kept', async () => {
    expect((await approve('shop')).status).toBe(200);
    await until('the Rollout paused at step 2 with 2 pods on v2', 120_000, async () => {
      const r = await live(kube, rollout);
      return r.status?.currentStepIndex === 2 && r.status?.canaryStatus?.currentStepState === 'StepPaused' && r.status?.canaryStatus?.canaryReadyReplicas === 2;
    }, async () => JSON.stringify((await live(kube, rollout)).status));
    const mid = await Promise.all((await podsOf(kube, NS, 'app=shop')).map(p => answerOf(p)));
    expect(mid.map(a => a.version).sort()).toEqual(['v1', 'v1', 'v2', 'v2']);

    expect((await approve('shop')).status).toBe(200);
    await until('the Rollout Healthy again, the release done', 180_000, async () => {
      const r = await live(kube, rollout);
      return r.status?.phase === 'Healthy';
    }, async () => JSON.stringify((await live(kube, rollout)).status));
    const pods = await waitWorkloadSettled(kube, findKind(shop('server:v2'), 'CloneSet'), 'app=shop', 4);
    for (const p of pods) {
      expect(p.metadata.uid).toBe(before.get(p.metadata.name)!.uid);
      expect(podFacts(p).containers.server.image).toBe(tierImage('server:v2'));
      expect((await answerOf(p)).version).toBe('v2');
    }
    const asked = await askService(serviceIP, 20);
    expect({ failures: asked.failures, versions: [...asked.versions] }).toEqual({ failures: [], versions: ['v2'] });
  });
});
