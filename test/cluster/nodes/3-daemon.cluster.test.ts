/**
 * What kruise-daemon does on a node, observed on real containers: image
 * pulls (ImagePullJob, ImageListPullJob, NodeImage) from the local registry
 * with their success and failure statuses, container restarts
 * (ContainerRecreateRequest), sidecars (SidecarSet injection, an in-place
 * sidecar upgrade, a hot upgrade), custom probes (PodProbeMarker), and the
 * jobs that run a container on every node (BroadcastJob, AdvancedCronJob).
 * Every object is built with the library and applied as synthesized.
 */
import { Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as lib from '../../../src';
import { Kube, Manifest } from '../kube';
import {
  answerOf, applyAccepted, containerStatus, findKind, httpGet, imagesOnNode, isReady, live, nodeObjects, openOnRealNode, podFacts, podsOf,
  registryLog, requireRealNode, serverContainer, sleep, tierImage, until, waitPodsReady, waitWorkloadSettled,
} from '../node';

const NS = 'node-daemon';
const REAL = kplus.NodeLabelQuery.is('cdk8s-kruise.test/node', 'real');
let kube: Kube;

beforeAll(async () => {
  kube = await openOnRealNode(NS);
}, 400_000);

afterAll(() => kube?.close());

const list = async (path: string) => ((await kube.request('GET', path)).body.items ?? []) as Manifest[];
/** The registry's log lines of requests for a manifest (an answer other than 200 follows the path). */
const manifestRequests = (repo: string, tag: string) => registryLog().filter(l => new RegExp(` (HEAD|GET) /v2/cluster-tier/${repo}/manifests/${tag}( |$)`).test(l));

describe('image pulls by kruise-daemon from the local registry', () => {
  test('ImagePullJob: the image is pulled onto the node and the job succeeds; a tag the registry lacks fails with the registry\'s answer', async () => {
    const node = requireRealNode();
    expect(imagesOnNode()).not.toContain(tierImage('pull-a:1'));
    const objects = nodeObjects('image-pull-jobs', NS, chart => {
      new lib.ImagePullJob(chart, 'pull-a', {
        metadata: { name: 'pull-a' },
        image: tierImage('pull-a:1'),
        nodes: lib.ImagePullNodes.labeled(kplus.LabelSelector.of({ labels: { 'cdk8s-kruise.test/node': 'real' } })),
        completionPolicy: lib.ImagePullJobCompletionPolicy.always({ activeDeadline: Duration.minutes(10) }),
      });
      new lib.ImagePullJob(chart, 'pull-missing', {
        metadata: { name: 'pull-missing' },
        image: tierImage('pull-a:no-such-tag'),
        nodes: lib.ImagePullNodes.labeled(kplus.LabelSelector.of({ labels: { 'cdk8s-kruise.test/node': 'real' } })),
        backoffLimit: 0,
        pullTimeout: Duration.seconds(60),
        completionPolicy: lib.ImagePullJobCompletionPolicy.always({ activeDeadline: Duration.minutes(10) }),
      });
    });
    await applyAccepted(kube, objects);
    const [ok, missing] = objects.filter(m => m.kind === 'ImagePullJob');
    const done = await until('both ImagePullJobs complete', 120_000, async () => {
      const a = await live(kube, ok);
      const b = await live(kube, missing);
      return a.status?.completionTime && b.status?.completionTime ? [a, b] : undefined;
    }, async () => JSON.stringify([(await live(kube, ok)).status, (await live(kube, missing)).status]));
    expect(done[0].status).toMatchObject({ desired: 1, succeeded: 1, failed: 0 });
    expect(done[1].status).toMatchObject({ desired: 1, succeeded: 0, failed: 1, failedNodes: [node.name] });
    expect(imagesOnNode()).toContain(tierImage('pull-a:1'));
    expect(manifestRequests('pull-a', '1').length).toBeGreaterThan(0);
    expect(manifestRequests('pull-a', 'no-such-tag').length).toBeGreaterThan(0);
    // the node's own record: the tag it failed to pull, with the runtime's message
    const ni = (await kube.request('GET', `/apis/apps.kruise.io/v1beta1/nodeimages/${node.name}`)).body;
    const tags = ni.status?.imageStatuses?.[`${node.registry}/cluster-tier/pull-a`]?.tags ?? [];
    const failed = tags.find((t: any) => t.tag === 'no-such-tag');
    console.log(`NodeImage ${node.name}, pull-a: ${JSON.stringify(tags)}`);
    expect(failed?.phase).toBe('Failed');
    expect(failed?.message).toMatch(/not found/i);
    expect(tags.find((t: any) => t.tag === '1')?.phase).toBe('Succeeded');
  });

  test('ImageListPullJob: one ImagePullJob per image, both images pulled onto the node', async () => {
    for (const i of ['pull-b:1', 'pull-c:1']) expect(imagesOnNode()).not.toContain(tierImage(i));
    const objects = nodeObjects('image-list-pull-job', NS, chart => {
      new lib.ImageListPullJob(chart, 'warm', {
        metadata: { name: 'warm' },
        images: [tierImage('pull-b:1'), tierImage('pull-c:1')],
        nodes: lib.ImagePullNodes.labeled(kplus.LabelSelector.of({ labels: { 'cdk8s-kruise.test/node': 'real' } })),
        completionPolicy: lib.ImagePullJobCompletionPolicy.always({ activeDeadline: Duration.minutes(10) }),
      });
    });
    await applyAccepted(kube, objects);
    const ilpj = findKind(objects, 'ImageListPullJob');
    const status = await until('the ImageListPullJob completes', 120_000, async () => {
      const s = (await live(kube, ilpj)).status;
      return s?.completionTime ? s : undefined;
    }, async () => JSON.stringify((await live(kube, ilpj)).status));
    expect(status).toMatchObject({ desired: 2, succeeded: 2 });
    const jobs = (await list(`/apis/apps.kruise.io/v1beta1/namespaces/${NS}/imagepulljobs`))
      .filter(j => j.metadata.ownerReferences?.some((o: any) => o.kind === 'ImageListPullJob' && o.name === 'warm'));
    expect(jobs.map(j => j.spec.image).sort()).toEqual([tierImage('pull-b:1'), tierImage('pull-c:1')]);
    for (const i of ['pull-b:1', 'pull-c:1']) expect(imagesOnNode()).toContain(tierImage(i));
  });

  test('NodeImage: a tag written into the node\'s spec is pulled (Succeeded); a tag the registry lacks is Failed with the registry\'s answer', async () => {
    const node = requireRealNode();
    const name = `${node.registry}/cluster-tier/pull-d`;
    const pullPolicy = { backoffLimit: 0, timeoutSeconds: 60, ttlSecondsAfterFinished: 600 };
    const patch = { spec: { images: { [name]: { tags: [{ tag: '1', version: 0, pullPolicy }, { tag: 'absent', version: 0, pullPolicy }] } } } };
    const res = await kube.request('PATCH', `/apis/apps.kruise.io/v1beta1/nodeimages/${node.name}`, patch, 'application/merge-patch+json');
    expect(res.status).toBe(200);
    const tags = await until('both tags of pull-d to finish on the node', 120_000, async () => {
      const ni = (await kube.request('GET', `/apis/apps.kruise.io/v1beta1/nodeimages/${node.name}`)).body;
      const t: any[] = ni.status?.imageStatuses?.[name]?.tags ?? [];
      return t.length === 2 && t.every(x => x.phase === 'Succeeded' || x.phase === 'Failed') ? t : undefined;
    });
    console.log(`NodeImage ${node.name}, pull-d: ${JSON.stringify(tags)}`);
    const byTag = Object.fromEntries(tags.map(t => [t.tag, t]));
    expect(byTag['1'].phase).toBe('Succeeded');
    expect(byTag['1'].imageID).toMatch(new RegExp(`^${name}@sha256:[0-9a-f]{64}$`));
    expect(byTag.absent.phase).toBe('Failed');
    expect(byTag.absent.message).toMatch(/not found/i);
    expect(imagesOnNode()).toContain(`${name}:1`);
    expect(imagesOnNode()).not.toContain(`${name}:absent`);
  });
});

describe('ContainerRecreateRequest', () => {
  test('the named container restarts (a new container, restartCount + 1), the other does not, and the request reaches Completed', async () => {
    const build = (podName?: string) => nodeObjects('crr', NS, chart => {
      const cs = new lib.CloneSet(chart, 'restartable', {
        metadata: { name: 'restartable' },
        replicas: 1,
        podMetadata: { labels: { app: 'restartable' } },
        containers: [serverContainer('server:v1'), serverContainer('server:v1', { name: 'helper', port: 8081 })],
      });
      if (podName) cs.recreateContainers(podName, { containers: ['server'], metadata: { name: `restart-${podName}` } });
    });
    await applyAccepted(kube, build());
    const [pod] = await waitWorkloadSettled(kube, findKind(build(), 'CloneSet'), 'app=restartable', 1);
    const before = podFacts(pod);
    const startedBefore = (await answerOf(pod)).started;
    const crr = findKind(build(pod.metadata.name), 'ContainerRecreateRequest');
    await applyAccepted(kube, [crr]);
    const done = await until('the ContainerRecreateRequest completes', 120_000, async () => {
      const c = await live(kube, crr);
      return c.status?.phase === 'Completed' ? c : undefined;
    }, async () => JSON.stringify((await live(kube, crr)).status));
    expect(done.status.containerRecreateStates).toEqual([expect.objectContaining({ name: 'server', phase: 'Succeeded' })]);
    const [after] = await waitPodsReady(kube, NS, 'app=restartable', 1);
    const f = podFacts(after);
    expect(f.uid).toBe(before.uid);
    expect(f.containers.server.restarts).toBe(before.containers.server.restarts + 1);
    expect(f.containers.server.id).not.toBe(before.containers.server.id);
    expect(f.containers.helper).toEqual(before.containers.helper);
    expect((await answerOf(after)).started).not.toBe(startedBefore);
  });
});

describe('SidecarSet on real pods', () => {
  const selector = kplus.LabelSelector.of({ labels: { app: 'meshed' } });
  const sidecars = (image: string, hot: boolean) => nodeObjects('sidecars', NS, chart => {
    new lib.SidecarSet(chart, 'mesh', {
      metadata: { name: 'node-mesh' },
      selector,
      namespace: NS,
      containers: [{
        // no port, so no startup probe: the SidecarSet webhook refuses a probe without successThreshold
        ...serverContainer(image, { name: 'proxy', port: 9090, env: { SERVER_REUSEPORT: kplus.EnvValue.fromValue('1') } }),
        portNumber: undefined,
        startup: undefined,
        upgradeStrategy: hot ? lib.SidecarUpgradeStrategy.hot(tierImage('pause:1')) : undefined,
      }],
    });
  });
  const app = (name: string) => nodeObjects('meshed app', NS, chart => {
    new lib.CloneSet(chart, name, {
      metadata: { name },
      replicas: 1,
      podMetadata: { labels: { app: 'meshed', workload: name } },
      containers: [serverContainer('server:v1')],
    });
  });

  test('the sidecar is injected into a real pod and runs; a new sidecar image upgrades it in place, the app container untouched', async () => {
    await applyAccepted(kube, sidecars('server:v1', false));
    await sleep(2000); // the pod webhook reads SidecarSets from its cache
    await applyAccepted(kube, app('cold'));
    const [pod] = await waitPodsReady(kube, NS, 'workload=cold', 1);
    expect(pod.spec.containers.map((c: any) => c.name).sort()).toEqual(['proxy', 'server']);
    expect((await answerOf(pod, 9090)).version).toBe('v1');
    const before = podFacts(pod);
    await applyAccepted(kube, sidecars('server:v2', false));
    const after = await until('the sidecar upgraded in place', 120_000, async () => {
      const [p] = await podsOf(kube, NS, 'workload=cold');
      const f = p && podFacts(p);
      return f && isReady(p) && f.containers.proxy?.image === tierImage('server:v2') ? p : undefined;
    }, () => podsOf(kube, NS, 'workload=cold').then(ps => JSON.stringify(ps.map(podFacts))));
    const f = podFacts(after);
    expect(f.uid).toBe(before.uid);
    expect(f.containers.proxy.restarts).toBe(before.containers.proxy.restarts + 1);
    expect(f.containers.proxy.id).not.toBe(before.containers.proxy.id);
    expect(f.containers.server).toEqual(before.containers.server);
    expect((await answerOf(after, 9090)).version).toBe('v2');
    // the sidecar set's own account of it
    const ss = findKind(sidecars('server:v2', false), 'SidecarSet');
    await until('the SidecarSet to count the pod updated and ready', 30_000, async () => {
      const st = (await live(kube, ss)).status;
      return st?.matchedPods === 1 && st?.updatedPods === 1 && st?.updatedReadyPods === 1;
    }, async () => JSON.stringify((await live(kube, ss)).status));
    await kube.delete(findKind(sidecars('server:v2', false), 'SidecarSet'));
    await kube.request('DELETE', `/apis/apps.kruise.io/v1alpha1/namespaces/${NS}/clonesets/cold`);
  });

  test('a hot upgrade swaps the sidecar pair (the new copy starts, then the old one takes the empty image) and the pod answers every request meanwhile', async () => {
    const setFor = (image: string) => sidecars(image, true);
    const ssName = findKind(setFor('server:v1'), 'SidecarSet');
    await kube.waitGone(ssName, 60_000);
    await applyAccepted(kube, setFor('server:v1'));
    await sleep(2000);
    await applyAccepted(kube, app('hot'));
    const [pod] = await waitPodsReady(kube, NS, 'workload=hot', 1);
    expect(pod.spec.containers.map((c: any) => c.name).sort()).toEqual(['proxy-1', 'proxy-2', 'server']);
    const ip = pod.status.podIP;
    expect((await answerOf(pod, 9090)).version).toBe('v1');
    const before = podFacts(pod);

    // ask the pod every 100 ms, on the sidecar's port and the app's, while the sidecar is upgraded
    const seen: string[] = [];
    const failures: string[] = [];
    let asking = true;
    const asker = (async () => {
      for (let i = 0; asking && i < 1200; i++) {
        const [side, main] = await Promise.all([httpGet(`http://${ip}:9090/`, 2000), httpGet(`http://${ip}:8080/`, 2000)]);
        if (side.status !== 200) failures.push(`sidecar: ${side.status} ${side.body}`);
        else if (seen[seen.length - 1] !== side.json.version) seen.push(side.json.version);
        if (main.status !== 200) failures.push(`app: ${main.status} ${main.body}`);
        await sleep(100);
      }
    })();
    await applyAccepted(kube, setFor('server:v2'));
    const after = await until('the hot upgrade to finish', 150_000, async () => {
      const [p] = await podsOf(kube, NS, 'workload=hot');
      if (!p || !isReady(p)) return undefined;
      const images = Object.fromEntries(p.status.containerStatuses.map((c: any) => [c.name, c.image]));
      const working = p.metadata.annotations?.['kruise.io/sidecarset-working-hotupgrade-container'];
      const pair = [images['proxy-1'], images['proxy-2']].sort();
      return pair.includes(tierImage('server:v2')) && pair.includes(tierImage('pause:1')) && working && images[JSON.parse(working).proxy] === tierImage('server:v2') ? p : undefined;
    }, () => podsOf(kube, NS, 'workload=hot').then(ps => JSON.stringify(ps.map(p => [podFacts(p), p.metadata.annotations]))));
    await sleep(1000);
    asking = false;
    await asker;
    console.log(`hot upgrade: the sidecar answered ${seen.join(' -> ')}; ${failures.length} failed requests`);
    expect(failures).toEqual([]);
    expect(seen[0]).toBe('v1');
    expect(seen[seen.length - 1]).toBe('v2');
    const f = podFacts(after);
    expect(f.uid).toBe(before.uid);
    expect(f.containers.server).toEqual(before.containers.server);
  });
});

describe('PodProbeMarker', () => {
  test('kruise-daemon runs the probes against the real pod and marks it: the passing probe\'s condition True with its label, the failing one\'s False with its label', async () => {
    const objects = nodeObjects('probe-marker', NS, chart => {
      const cs = new lib.CloneSet(chart, 'probed', {
        metadata: { name: 'probed' },
        replicas: 1,
        podMetadata: { labels: { app: 'probed' } },
        containers: [serverContainer('server:v1')],
      });
      cs.addProbeMarker(
        {
          name: 'healthy',
          containerName: 'server',
          podConditionType: 'example.com/healthy',
          probe: kplus.Probe.fromHttpGet('/healthz', { port: 8080, periodSeconds: Duration.seconds(2) }),
          whenSucceeded: { labels: { 'example.com/healthy': 'yes' } },
        },
        {
          name: 'failing',
          containerName: 'server',
          podConditionType: 'example.com/failing',
          probe: kplus.Probe.fromCommand(['/server', 'probe', 'http://127.0.0.1:8080/fail'], { periodSeconds: Duration.seconds(2) }),
          whenFailed: { labels: { 'example.com/failing': 'yes' } },
        },
      );
    });
    await applyAccepted(kube, objects);
    const marked = await until('both probe marks on the pod', 120_000, async () => {
      const [p] = await podsOf(kube, NS, 'app=probed');
      const cond = (t: string) => (p?.status?.conditions ?? []).find((c: any) => c.type === t);
      return p && cond('example.com/healthy') && cond('example.com/failing')
        && p.metadata.labels?.['example.com/healthy'] && p.metadata.labels?.['example.com/failing'] ? p : undefined;
    }, () => podsOf(kube, NS, 'app=probed').then(ps => JSON.stringify(ps.map(p => [p.metadata.labels, p.status?.conditions]))));
    const cond = (t: string) => marked.status.conditions.find((c: any) => c.type === t);
    expect(cond('example.com/healthy').status).toBe('True');
    // the daemon's HTTP GET reached the server in the pod: the condition carries its answer
    expect(cond('example.com/healthy').message).toBe('ok\n');
    expect(cond('example.com/failing').status).toBe('False');
    expect(marked.metadata.labels).toMatchObject({ 'example.com/healthy': 'yes', 'example.com/failing': 'yes' });
    expect(containerStatus(marked, 'server').restartCount).toBe(0);
  });
});

describe('jobs that run a container on every real node', () => {
  const jobContainer = (): kplus.ContainerProps => ({ ...serverContainer('server:v1'), startup: undefined, args: ['run-for', '1s'], portNumber: undefined });

  test('BroadcastJob runs its container to completion (exit code 0) on the real node and completes', async () => {
    const objects = nodeObjects('broadcast-job', NS, chart => {
      const bj = new lib.BroadcastJob(chart, 'node-check', {
        metadata: { name: 'node-check' },
        podMetadata: { labels: { app: 'node-check' } },
        containers: [jobContainer()],
        completionPolicy: lib.BroadcastJobCompletionPolicy.always({ activeDeadline: Duration.minutes(5) }),
      });
      bj.scheduling.attract(kplus.Node.labeled(REAL));
    });
    await applyAccepted(kube, objects);
    const bj = findKind(objects, 'BroadcastJob');
    const job = await until('the BroadcastJob completes', 120_000, async () => {
      const j = await live(kube, bj);
      return j.status?.phase === 'completed' ? j : undefined;
    }, async () => `${JSON.stringify((await live(kube, bj)).status)}\n${JSON.stringify((await list(`/api/v1/namespaces/${NS}/pods?labelSelector=app%3Dnode-check`)).map(p => p.status))}`);
    expect(job.status).toMatchObject({ succeeded: 1, failed: 0, desired: 1 });
    const pods = await list(`/api/v1/namespaces/${NS}/pods?labelSelector=app%3Dnode-check`);
    expect(pods.length).toBe(1);
    expect(pods[0].status.phase).toBe('Succeeded');
    expect(containerStatus(pods[0], 'server').state.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    const log = await kube.request('GET', `/api/v1/namespaces/${NS}/pods/${pods[0].metadata.name}/log`);
    expect(String(log.body)).toContain('server v1: done');
  });

  test('AdvancedCronJob fires: its BroadcastJob\'s container runs to completion on the real node', async () => {
    const objects = nodeObjects('advanced-cron-job', NS, chart => {
      const acj = new lib.AdvancedCronJob(chart, 'every-15s', {
        metadata: { name: 'every-15s' },
        schedule: '@every 15s',
        concurrencyPolicy: lib.AdvancedCronJobConcurrencyPolicy.FORBID,
        successfulJobsHistoryLimit: 3,
        template: lib.AdvancedCronJobTemplate.broadcastJob({ podMetadata: { labels: { app: 'cron-check' } }, containers: [jobContainer()] }),
      });
      acj.workload!.scheduling.attract(kplus.Node.labeled(REAL));
    });
    await applyAccepted(kube, objects);
    const acj = findKind(objects, 'AdvancedCronJob');
    const owned = await until('a BroadcastJob of the AdvancedCronJob to complete', 90_000, async () => {
      const jobs = (await list(`/apis/apps.kruise.io/v1beta1/namespaces/${NS}/broadcastjobs`))
        .filter(j => j.metadata.ownerReferences?.some((o: any) => o.kind === 'AdvancedCronJob' && o.name === acj.metadata.name));
      return jobs.find(j => j.status?.phase === 'completed');
    });
    expect(owned.status).toMatchObject({ succeeded: 1, failed: 0 });
    const pods = (await list(`/api/v1/namespaces/${NS}/pods?labelSelector=app%3Dcron-check`)).filter(p => p.metadata.ownerReferences?.some((o: any) => o.name === owned.metadata.name));
    expect(pods.map(p => [p.spec.nodeName, p.status.phase])).toEqual([[requireRealNode().name, 'Succeeded']]);
    expect(containerStatus(pods[0], 'server').state.terminated.exitCode).toBe(0);
    await kube.delete(acj);
  });
});
