/**
 * Our control planes running as pods on a real node (kubelet + containerd,
 * kube-proxy for Services), as we render them: `KruiseControlPlane` with the
 * locally built kruise-manager/kruise-daemon image of its default release
 * (v1.9.1) chosen through `imageRepository` and the daemon pointed at the node's
 * containerd through `daemon.socketLocation`, and `KruiseRolloutControlPlane`
 * with the locally built kruise-rollout-manager v0.6.2. Nothing in the YAML
 * is patched: the pods reach the API server through the `kubernetes`
 * Service, and the API server reaches their webhooks through our Services.
 *
 * The later files of nodes/ use the control planes this file installs
 * (ensureKruise applies the same YAML again, which changes nothing).
 */
import { Kube, Manifest, applyAll } from '../kube';
import { probeWebhooks, testNamespace } from '../manager';
import {
  KRUISE_NAMESPACE, RealNode, containerStatus, ensureKruise, httpGet, imagesOnNode, isReady, leaseHolder, nodeControlPlaneSynth,
  nodeRolloutControlPlaneSynth, podsOf, registryLog, requireRealNode, tierImage, until, waitDeploymentAvailable, waitPodsReady,
} from '../node';
import { rejections } from '../prove';

let kube: Kube;
let node: RealNode;
const NS = 'node-basics';

beforeAll(async () => {
  kube = new Kube();
  node = requireRealNode();
  await testNamespace(kube, NS);
});

afterAll(() => kube?.close());

describe('the real node', () => {
  test('is Ready, and a pod whose image comes from the local registry runs on containerd and answers HTTP at its pod IP', async () => {
    const n = (await kube.request('GET', `/api/v1/nodes/${node.name}`)).body;
    expect(n.status.nodeInfo.containerRuntimeVersion).toMatch(/^containerd:\/\/1\.[67]\./);
    expect(n.status.addresses).toContainEqual({ type: 'InternalIP', address: node.ip });
    const pod: Manifest = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'hello', namespace: NS, labels: { app: 'hello' } },
      spec: { containers: [{ name: 'server', image: tierImage('server:v1'), ports: [{ containerPort: 8080 }] }], terminationGracePeriodSeconds: 1 },
    };
    const res = await kube.apply(pod);
    expect(res.status).toBeLessThan(300);
    const [running] = await waitPodsReady(kube, NS, 'app=hello', 1, 60_000);
    expect(running.spec.nodeName).toBe(node.name);
    expect(running.status.podIP).toMatch(/^198\.18\.0\.\d+$/);
    expect(containerStatus(running, 'server').containerID).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
    const answer = await httpGet(`http://${running.status.podIP}:8080/`);
    expect(answer.json).toMatchObject({ version: 'v1', hostname: 'hello' });
    expect(imagesOnNode()).toContain(tierImage('server:v1'));
    expect(registryLog().some(l => / (HEAD|GET) \/v2\/cluster-tier\/server\/manifests\/v1$/.test(l))).toBe(true);
    await kube.request('DELETE', `/api/v1/namespaces/${NS}/pods/hello`);
  });
});

describe('KruiseControlPlane as pods, from our YAML', () => {
  const synth = nodeControlPlaneSynth();

  beforeAll(async () => {
    await ensureKruise(kube, synth);
  }, 400_000);

  test('kruise-manager runs as our Deployment, from the image of imageRepository and the default release, and one of its pods holds the lease', async () => {
    const pods = await podsOf(kube, KRUISE_NAMESPACE, 'control-plane=controller-manager');
    const deployment = synth.objects.find(m => m.kind === 'Deployment' && m.metadata.name === 'kruise-controller-manager')!;
    expect(pods.length).toBe(deployment.spec.replicas);
    for (const p of pods) {
      expect(isReady(p)).toBe(true);
      expect(p.spec.nodeName).toBe(node.name);
      expect(containerStatus(p, 'manager').image).toBe(`${node.registry}/cluster-tier/kruise-manager:v1.9.1`);
      expect(p.status.podIP).toMatch(/^198\.18\.0\.\d+$/);
    }
    const holder = await until('a kruise-manager pod to hold the lease', 60_000, () => leaseHolder(kube, KRUISE_NAMESPACE, 'kruise-manager'));
    expect(pods.map(p => p.metadata.name)).toContain(holder);
  });

  test('kruise-daemon runs as our DaemonSet on the real node, finds containerd under /hostvarrun and serves its health endpoint', async () => {
    const pods = (await podsOf(kube, KRUISE_NAMESPACE, 'control-plane=daemon')).filter(p => p.spec.nodeName === node.name);
    expect(pods.length).toBe(1);
    const [daemon] = pods;
    expect(isReady(daemon)).toBe(true);
    expect(daemon.spec.hostNetwork).toBe(true);
    expect(containerStatus(daemon, 'daemon').image).toBe(`${node.registry}/cluster-tier/kruise-manager:v1.9.1`);
    const log = await kube.request('GET', `/api/v1/namespaces/${KRUISE_NAMESPACE}/pods/${daemon.metadata.name}/log`);
    expect(log.status).toBe(200);
    expect(String(log.body)).toMatch(/hostvarrun\/containerd\.sock/);
    // --addr=:10221 on the node's network
    expect((await httpGet(`http://${node.ip}:10221/healthz`)).status).toBe(200);
  });

  test('the API server reaches the webhooks through our Service: a dry-run CloneSet gets the defaults only the mutating webhook sets', async () => {
    const slices = (await kube.request('GET', `/apis/discovery.k8s.io/v1/namespaces/${KRUISE_NAMESPACE}/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3Dkruise-webhook-service`)).body.items;
    const managers = await podsOf(kube, KRUISE_NAMESPACE, 'control-plane=controller-manager');
    expect(slices.flatMap((s: any) => s.endpoints.flatMap((e: any) => e.addresses)).sort()).toEqual(managers.map(p => p.status.podIP).sort());
    const probe = await probeWebhooks(kube, NS);
    expect(probe.status).toBe(201);
    expect(probe.terminationMessagePath).toBe('/dev/termination-log');
  });

  test('applying our YAML again changes nothing and keeps every pod', async () => {
    const before = (await podsOf(kube, KRUISE_NAMESPACE)).map(p => p.metadata.uid).sort();
    const again = await applyAll(kube, nodeControlPlaneSynth().objects);
    expect(rejections(again)).toEqual([]);
    await waitDeploymentAvailable(kube, KRUISE_NAMESPACE, 'kruise-controller-manager');
    expect((await podsOf(kube, KRUISE_NAMESPACE)).map(p => p.metadata.uid).sort()).toEqual(before);
  });
});

describe('KruiseRolloutControlPlane as pods, from our YAML', () => {
  const synth = nodeRolloutControlPlaneSynth();

  test('kruise-rollout-manager runs as our Deployment, holds the lease and writes its CA into our webhooks', async () => {
    expect(rejections(await applyAll(kube, synth.objects))).toEqual([]);
    const deployment = synth.objects.find(m => m.kind === 'Deployment')!;
    const ns = deployment.metadata.namespace;
    await waitDeploymentAvailable(kube, ns, deployment.metadata.name);
    const pods = await podsOf(kube, ns, `control-plane=${deployment.metadata.name}`);
    expect(pods.length).toBe(deployment.spec.replicas);
    for (const p of pods) expect(containerStatus(p, 'kruise-rollout').image).toBe(`${node.registry}/cluster-tier/kruise-rollout:v0.6.2`);
    const holder = await until('a kruise-rollout-manager pod to hold the lease', 90_000, async () => {
      const leases = (await kube.request('GET', `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`)).body.items ?? [];
      return leases.map((l: any) => l.spec?.holderIdentity?.split('_')[0]).find((h: string) => pods.some(p => p.metadata.name === h));
    });
    expect(holder).toBeDefined();
    await until('kruise-rollout-manager writes the caBundle of its webhooks', 90_000, async () => {
      for (const m of synth.objects.filter(x => x.kind.endsWith('WebhookConfiguration'))) {
        const live = (await kube.get(m)).body;
        if ((live.webhooks ?? []).some((h: any) => !h.clientConfig?.caBundle)) return false;
      }
      return true;
    });
  }, 300_000);
});
