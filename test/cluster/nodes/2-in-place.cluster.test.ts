/**
 * In-place updates observed on real containers: what a user of CloneSet,
 * Advanced StatefulSet and Advanced DaemonSet is promised, read from the pod
 * status the kubelet reports, from containerd, and from the test server's
 * HTTP answer (its version, process id and start time).
 *
 * - The walkthrough: a CloneSet image change with a partition restarts only
 *   the changed container of the pods it moves (restartCount + 1, a new
 *   container ID), keeps their UID and IP, and they answer with the new
 *   version; the other container and the pods beyond the partition are
 *   untouched. ReCreate, and an env change under InPlaceIfPossible, give new
 *   pods.
 * - A label that an env var reads (downward API): changing it restarts the
 *   container in place (kruise-daemon's part) and the new value is seen.
 * - PreDownloadImageForInPlaceUpdate: the new image is on the node (pulled by
 *   kruise-daemon for the CloneSet's ImagePullJob) while every pod still runs
 *   the old one, and the update then needs no pull.
 * - Advanced StatefulSet and Advanced DaemonSet in-place updates.
 */
import { Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as lib from '../../../src';
import { Kube } from '../kube';
import {
  answerOf, applyAccepted, findKind, imagesOnNode, live, nodeObjects, openOnRealNode, PodFacts, podFacts, podsOf, registryLog,
  requireRealNode, runningContainerIds, serverContainer, tierImage, until, waitPodsReady, waitWorkloadSettled,
} from '../node';

const NS = 'node-in-place';
let kube: Kube;

beforeAll(async () => {
  kube = await openOnRealNode(NS);
}, 400_000);

afterAll(() => kube?.close());

const byName = (facts: PodFacts[]) => new Map(facts.map(f => [f.name, f]));

describe('CloneSet in-place update with a partition, on real containers (the walkthrough)', () => {
  const web = (image: string) => nodeObjects('walkthrough', NS, chart => {
    new lib.CloneSet(chart, 'web', {
      metadata: { name: 'web' },
      replicas: 4,
      podMetadata: { labels: { app: 'web' } },
      containers: [serverContainer(image), serverContainer('server:v1', { name: 'helper', port: 8081 })],
      updateStrategy: lib.CloneSetUpdateStrategy.inPlaceIfPossible({ partition: kplus.PercentOrAbsolute.absolute(2) }),
    });
  });
  let before: PodFacts[];
  const answersBefore = new Map<string, { server: any; helper: any }>();

  test('4 pods run and answer v1 on both containers', async () => {
    const objects = web('server:v1');
    await applyAccepted(kube, objects);
    const pods = await waitWorkloadSettled(kube, findKind(objects, 'CloneSet'), 'app=web', 4);
    before = pods.map(podFacts);
    for (const p of pods) {
      const server = await answerOf(p, 8080);
      const helper = await answerOf(p, 8081);
      expect([server.version, helper.version]).toEqual(['v1', 'v1']);
      answersBefore.set(p.metadata.name, { server, helper });
    }
  });

  test('an image change with partition 2 restarts only the changed container of 2 pods, which keep UID and IP and answer v2', async () => {
    const objects = web('server:v2');
    await applyAccepted(kube, objects);
    const pods = await waitWorkloadSettled(kube, findKind(objects, 'CloneSet'), 'app=web', 2);
    const cs = await live(kube, findKind(objects, 'CloneSet'));
    const after = pods.map(podFacts);
    const old = byName(before);
    expect(after.map(f => f.uid).sort()).toEqual(before.map(f => f.uid).sort());

    const moved = after.filter(f => f.revision === cs.status.updateRevision);
    const kept = after.filter(f => !moved.includes(f));
    expect([moved.length, kept.length]).toEqual([2, 2]);
    const running = runningContainerIds();
    for (const f of moved) {
      const was = old.get(f.name)!;
      expect({ pod: f.name, uid: f.uid, ip: f.ip }).toEqual({ pod: f.name, uid: was.uid, ip: was.ip });
      // the changed container: restarted once, a new container, the new image
      expect(f.containers.server.restarts).toBe(was.containers.server.restarts + 1);
      expect(f.containers.server.id).not.toBe(was.containers.server.id);
      expect(f.containers.server.image).toBe(tierImage('server:v2'));
      // the other container: the same container, never restarted
      expect(f.containers.helper).toEqual(was.containers.helper);
      // containerd: the old server container is gone, the helper still runs
      expect(running.has(was.containers.server.id.replace('containerd://', ''))).toBe(false);
      expect(running.has(f.containers.helper.id.replace('containerd://', ''))).toBe(true);
      const p = pods.find(x => x.metadata.name === f.name)!;
      const server = await answerOf(p, 8080);
      const helper = await answerOf(p, 8081);
      expect(server.version).toBe('v2');
      expect(server.started).not.toBe(answersBefore.get(f.name)!.server.started);
      expect(helper).toEqual(answersBefore.get(f.name)!.helper);
    }
    // beyond the partition: nothing changed at all
    for (const f of kept) {
      expect(f).toEqual(old.get(f.name));
      const p = pods.find(x => x.metadata.name === f.name)!;
      expect(await answerOf(p, 8080)).toEqual(answersBefore.get(f.name)!.server);
    }
    console.log(`walkthrough: in place ${moved.map(f => `${f.name} (server restarts ${f.containers.server.restarts})`).join(', ')}; untouched ${kept.map(f => f.name).join(', ')}`);
  });

  test('ReCreate replaces the pods: every UID is new and the new pods answer v2', async () => {
    const objects = (image: string) => nodeObjects('recreate', NS, chart => {
      new lib.CloneSet(chart, 'recreate', {
        metadata: { name: 'recreate' },
        replicas: 2,
        podMetadata: { labels: { app: 'recreate' } },
        containers: [serverContainer(image)],
        updateStrategy: lib.CloneSetUpdateStrategy.recreate(),
      });
    });
    await applyAccepted(kube, objects('server:v1'));
    const first = await waitWorkloadSettled(kube, findKind(objects('server:v1'), 'CloneSet'), 'app=recreate', 2);
    await applyAccepted(kube, objects('server:v2'));
    const second = await waitWorkloadSettled(kube, findKind(objects('server:v2'), 'CloneSet'), 'app=recreate', 2);
    const oldUids = new Set(first.map(p => p.metadata.uid));
    expect(second.filter(p => oldUids.has(p.metadata.uid))).toEqual([]);
    for (const p of second) {
      expect(podFacts(p).containers.server.restarts).toBe(0);
      expect((await answerOf(p)).version).toBe('v2');
    }
  });

  test('InPlaceIfPossible with an env change recreates the pods, which answer with the new env', async () => {
    const objects = (color: string) => nodeObjects('env-change', NS, chart => {
      new lib.CloneSet(chart, 'colors', {
        metadata: { name: 'colors' },
        replicas: 2,
        podMetadata: { labels: { app: 'colors' } },
        containers: [serverContainer('server:v1', { env: { APP_COLOR: kplus.EnvValue.fromValue(color) } })],
        updateStrategy: lib.CloneSetUpdateStrategy.inPlaceIfPossible(),
      });
    });
    await applyAccepted(kube, objects('blue'));
    const first = await waitWorkloadSettled(kube, findKind(objects('blue'), 'CloneSet'), 'app=colors', 2);
    await applyAccepted(kube, objects('green'));
    const second = await waitWorkloadSettled(kube, findKind(objects('green'), 'CloneSet'), 'app=colors', 2);
    const oldUids = new Set(first.map(p => p.metadata.uid));
    expect(second.filter(p => oldUids.has(p.metadata.uid))).toEqual([]);
    for (const p of second) expect((await answerOf(p)).env.APP_COLOR).toBe('green');
  });
});

describe('in-place env from metadata (kruise-daemon restarts the container)', () => {
  test('a label the env reads changes: the container restarts in place and the new value is seen', async () => {
    const objects = (tier: string) => nodeObjects('env-from-metadata', NS, chart => {
      new lib.CloneSet(chart, 'tiered', {
        metadata: { name: 'tiered' },
        replicas: 2,
        podMetadata: { labels: { app: 'tiered', tier } },
        containers: [serverContainer('server:v1', { env: { APP_TIER: kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.POD_LABEL, { key: 'tier' }) } })],
        updateStrategy: lib.CloneSetUpdateStrategy.inPlaceIfPossible(),
      });
    });
    await applyAccepted(kube, objects('gold'));
    const first = await waitWorkloadSettled(kube, findKind(objects('gold'), 'CloneSet'), 'app=tiered', 2);
    for (const p of first) expect((await answerOf(p)).env.APP_TIER).toBe('gold');
    await applyAccepted(kube, objects('silver'));
    const second = await waitWorkloadSettled(kube, findKind(objects('silver'), 'CloneSet'), 'app=tiered', 2);
    const old = byName(first.map(podFacts));
    for (const p of second) {
      const f = podFacts(p);
      const was = old.get(f.name)!;
      expect({ uid: f.uid, ip: f.ip }).toEqual({ uid: was.uid, ip: was.ip });
      expect(f.containers.server.restarts).toBe(was.containers.server.restarts + 1);
      expect(f.containers.server.id).not.toBe(was.containers.server.id);
      expect(f.containers.server.image).toBe(was.containers.server.image);
      expect((await answerOf(p)).env.APP_TIER).toBe('silver');
    }
  });
});

describe('PreDownloadImageForInPlaceUpdate', () => {
  test('the new image is on the node before any pod updates, and the update then pulls nothing', async () => {
    const image = 'server:v3';
    expect(imagesOnNode()).not.toContain(tierImage(image));
    const objects = (img: string, partition: number) => nodeObjects('pre-download', NS, chart => {
      new lib.CloneSet(chart, 'prefetch', {
        metadata: { name: 'prefetch' },
        replicas: 4,
        podMetadata: { labels: { app: 'prefetch' } },
        containers: [serverContainer(img)],
        updateStrategy: lib.CloneSetUpdateStrategy.inPlaceIfPossible({ partition: kplus.PercentOrAbsolute.absolute(partition) }),
      });
    });
    await applyAccepted(kube, objects('server:v1', 4));
    const first = await waitWorkloadSettled(kube, findKind(objects('server:v1', 4), 'CloneSet'), 'app=prefetch', 4);
    const cs = findKind(objects(image, 4), 'CloneSet');
    await applyAccepted(kube, [cs]);
    const job = await until('the CloneSet\'s ImagePullJob to succeed on the node', 120_000, async () => {
      const jobs = (await kube.request('GET', `/apis/apps.kruise.io/v1alpha1/namespaces/${NS}/imagepulljobs`)).body.items ?? [];
      const j = jobs.find((x: any) => x.metadata.ownerReferences?.some((o: any) => o.kind === 'CloneSet' && o.name === 'prefetch'));
      return j?.status?.succeeded === 1 ? j : undefined;
    });
    expect(job.spec.image).toBe(tierImage(image));
    expect(imagesOnNode()).toContain(tierImage(image));
    // every pod still the one it was, on the old image, not restarted
    const pods = await podsOf(kube, NS, 'app=prefetch');
    expect(pods.map(podFacts)).toEqual(first.map(podFacts));
    const pulledAt = registryLog().length;

    await applyAccepted(kube, objects(image, 0));
    const second = await waitWorkloadSettled(kube, cs, 'app=prefetch', 4);
    for (const p of second) {
      expect(podFacts(p).containers.server.image).toBe(tierImage(image));
      expect((await answerOf(p)).version).toBe('v3');
    }
    expect(second.map(p => p.metadata.uid).sort()).toEqual(first.map(p => p.metadata.uid).sort());
    // kubelet found the image on the node: nothing of server:v3 was asked of the registry during the update
    expect(registryLog().slice(pulledAt).filter(l => l.includes('/v2/cluster-tier/server/manifests/v3'))).toEqual([]);
  });
});

describe('Advanced StatefulSet and Advanced DaemonSet in place on real pods', () => {
  test('Advanced StatefulSet: an image change restarts the container of each pod in place (same names and UIDs), which answer v4', async () => {
    const objects = (image: string) => nodeObjects('advanced-statefulset', NS, chart => {
      new lib.AdvancedStatefulSet(chart, 'db', {
        metadata: { name: 'db' },
        replicas: 2,
        podMetadata: { labels: { app: 'db' } },
        containers: [serverContainer(image)],
        podManagementPolicy: kplus.PodManagementPolicy.PARALLEL,
        updateStrategy: lib.AdvancedStatefulSetUpdateStrategy.rollingUpdate({ podUpdatePolicy: lib.PodUpdatePolicy.IN_PLACE_IF_POSSIBLE }),
      });
    });
    await applyAccepted(kube, objects('server:v1'));
    const sts = findKind(objects('server:v1'), 'StatefulSet');
    const first = await waitWorkloadSettled(kube, sts, 'app=db', 2);
    expect(first.map(p => p.metadata.name)).toEqual(['db-0', 'db-1']);
    await applyAccepted(kube, objects('server:v4'));
    const second = await waitWorkloadSettled(kube, sts, 'app=db', 2);
    const old = byName(first.map(podFacts));
    for (const p of second) {
      const f = podFacts(p);
      const was = old.get(f.name)!;
      expect({ name: f.name, uid: f.uid, ip: f.ip }).toEqual({ name: was.name, uid: was.uid, ip: was.ip });
      expect(f.containers.server.restarts).toBe(was.containers.server.restarts + 1);
      expect(f.containers.server.id).not.toBe(was.containers.server.id);
      expect((await answerOf(p)).version).toBe('v4');
    }
  });

  test('Advanced DaemonSet: an image change restarts its pod\'s container in place on the real node, which answers v5', async () => {
    const node = requireRealNode();
    const objects = (image: string) => nodeObjects('advanced-daemonset', NS, chart => {
      const ds = new lib.AdvancedDaemonSet(chart, 'agent', {
        metadata: { name: 'agent' },
        podMetadata: { labels: { app: 'agent' } },
        containers: [serverContainer(image)],
        updateStrategy: lib.AdvancedDaemonSetUpdateStrategy.inPlaceIfPossible(),
        minReady: Duration.seconds(0),
      });
      ds.scheduling.attract(kplus.Node.labeled(kplus.NodeLabelQuery.is('cdk8s-kruise.test/node', 'real')));
    });
    await applyAccepted(kube, objects('server:v1'));
    const [first] = await waitPodsReady(kube, NS, 'app=agent', 1);
    expect(first.spec.nodeName).toBe(node.name);
    await applyAccepted(kube, objects('server:v5'));
    const ds = findKind(objects('server:v5'), 'DaemonSet');
    const [second] = await until('the agent pod updated in place', 120_000, async () => {
      const d = await live(kube, ds);
      const pods = await podsOf(kube, NS, 'app=agent');
      return d.status?.updatedNumberScheduled === 1 && d.status?.numberReady === 1 && pods.length === 1
        && podFacts(pods[0]).containers.server?.image === tierImage('server:v5') && (await answerOf(pods[0]).catch(() => ({}))).version === 'v5' ? pods : undefined;
    });
    const f = podFacts(second);
    const was = podFacts(first);
    expect({ uid: f.uid, ip: f.ip }).toEqual({ uid: was.uid, ip: was.ip });
    expect(f.containers.server.restarts).toBe(was.containers.server.restarts + 1);
    expect(f.containers.server.id).not.toBe(was.containers.server.id);
  });
});
