/**
 * HA and faults of the control plane as shipped: two kruise-manager
 * processes (two replicas of our Deployment), only one holds the lease;
 * killing the leader moves the lease and the webhooks keep answering. With
 * every manager down, Pods of the install namespace can still be created (its
 * `control-plane: openkruise` label keeps the pod webhook away: no
 * self-deadlock), while Pods elsewhere are refused (failure policy Fail),
 * until a manager is back.
 */
import { Kube, Manifest } from './kube';
import { Managers, ManagerProcess, defaultsSynth, probeWebhooks, runControlPlane, testNamespace } from './manager';

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

let kube: Kube;
let managers: Managers;
let leader: ManagerProcess;

beforeAll(async () => {
  kube = new Kube();
  await testNamespace(kube, 'faults');
  ({ managers, leader } = await runControlPlane(kube, defaultsSynth(), 2));
});

afterAll(async () => {
  if (managers) await managers.stopAll();
  kube.close();
});

function pod(name: string, namespace: string): Manifest {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace }, spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] } };
}

async function createPod(m: Manifest) {
  const res = await kube.request('POST', `/api/v1/namespaces/${m.metadata.namespace}/pods?dryRun=All`, m);
  return { status: res.status, message: res.status < 300 ? undefined : res.body?.message };
}

test('two managers: exactly one holds the lease, the other waits for it', async () => {
  const [a, b] = managers.all;
  expect(managers.running().length).toBe(2);
  expect([a.isLeader(), b.isLeader()].filter(x => x)).toEqual([true]);
  const follower = managers.all.find(p => p !== leader)!;
  expect(follower.lines(/attempting to acquire leader lease/).length).toBe(1);
});

test('killing the leader moves the lease to the other manager, and the webhooks keep answering', async () => {
  const before = (await kube.request('GET', '/apis/coordination.k8s.io/v1/namespaces/kruise-system/leases/kruise-manager')).body.spec.holderIdentity;
  await managers.stop(leader, 'SIGKILL');
  // Right away (the lease has not moved yet): the webhooks of the other process answer.
  expect(await probeWebhooks(kube, 'faults')).toEqual({ status: 201, message: undefined, terminationMessagePath: '/dev/termination-log' });
  const next = await managers.waitLeader(60_000);
  expect(next).not.toBe(leader);
  const after = (await kube.request('GET', '/apis/coordination.k8s.io/v1/namespaces/kruise-system/leases/kruise-manager')).body.spec.holderIdentity;
  expect(after).not.toEqual(before);
  expect(await probeWebhooks(kube, 'faults')).toEqual({ status: 201, message: undefined, terminationMessagePath: '/dev/termination-log' });
  leader = next;
});

test('every manager down: Pods of the install namespace are still created; Pods elsewhere are refused by the pod webhook (Fail)', async () => {
  await managers.stopAll();
  await sleep(500);
  expect(await createPod(pod('still-starts', 'kruise-system'))).toEqual({ status: 201, message: undefined });
  const elsewhere = await createPod(pod('refused', 'faults'));
  expect(elsewhere.status).toBe(500);
  expect(elsewhere.message).toMatch(/mpod\.kb\.io/);
  console.log(`every manager down, a Pod in namespace faults: HTTP ${elsewhere.status} ${elsewhere.message}`);
});

test('a manager back: Pods elsewhere are created again', async () => {
  const p = await managers.start();
  await managers.waitReady(p);
  expect(await createPod(pod('back', 'faults'))).toEqual({ status: 201, message: undefined });
});
