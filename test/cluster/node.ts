/**
 * The real node of the cluster tier (cluster.sh with CLUSTER_NODES=1:
 * containerd, kubelet and kube-proxy on this machine, node.sh), for the test
 * files that need containers to run: where the node and its registry are,
 * what containerd holds, the control plane as pods from our
 * `KruiseControlPlane`, pods' container statuses and HTTP answers, and
 * kubelet restarts.
 *
 * Any test file can use it under `CLUSTER_NODES=1`; `requireRealNode()`
 * says in one line that the run has no node otherwise.
 */
import { ChildProcess, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { App, Chart, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { parseAllDocuments } from 'yaml';
import { httpGet } from './http-get';
import { Kube, Manifest, applyAll, describeObject } from './kube';
import { testNamespace } from './manager';
import { rejections } from './prove';
import { Synth, synthApp } from './sources';
import { KruiseControlPlane, KruiseControlPlaneProps, KruiseRolloutControlPlane, KruiseRolloutControlPlaneProps } from '../../src';

export const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

/** The node cluster.sh started. */
export interface RealNode {
  readonly name: string;
  readonly ip: string;
  /** The node's folder (containerd's socket in run/, kubelet's command line, pod logs, volumes). */
  readonly dir: string;
  /** host:port of the registry of locally built images on 127.0.0.1. */
  readonly registry: string;
  /** containerd's socket. */
  readonly socket: string;
  /** The run's folder (logs of every process). */
  readonly clusterDir: string;
}

/** The node of this run; throws one clear line when the run has none. */
export function requireRealNode(): RealNode {
  const { CLUSTER_NODE_NAME, CLUSTER_NODE_IP, CLUSTER_NODE_DIR, CLUSTER_REGISTRY, CLUSTER_DIR } = process.env;
  if (!CLUSTER_NODE_NAME || !CLUSTER_NODE_IP || !CLUSTER_NODE_DIR || !CLUSTER_REGISTRY || !CLUSTER_DIR) {
    throw new Error('cluster tier: no real node in this run; run it with CLUSTER_NODES=1 test/cluster/cluster.sh (`npx projen test:cluster` does)');
  }
  return {
    name: CLUSTER_NODE_NAME,
    ip: CLUSTER_NODE_IP,
    dir: CLUSTER_NODE_DIR,
    registry: CLUSTER_REGISTRY,
    socket: path.join(CLUSTER_NODE_DIR, 'run', 'containerd.sock'),
    clusterDir: CLUSTER_DIR,
  };
}

/** A test image the registry serves (test/cluster/images/images.json), by its name under cluster-tier/. */
export function tierImage(name: string): string {
  return `${requireRealNode().registry}/cluster-tier/${name}`;
}

/** Run `ctr` against the node's containerd (namespace k8s.io, where the CRI keeps pods and images). */
export function ctr(args: string[]): string {
  const node = requireRealNode();
  const r = spawnSync('ctr', ['--address', node.socket, '--namespace', 'k8s.io', ...args], { encoding: 'utf-8', timeout: 30_000 });
  if (r.error || r.status !== 0) throw new Error(`cluster tier: ctr ${args.join(' ')} failed: ${r.error?.message ?? r.stderr}`);
  return r.stdout;
}

/** The image names containerd holds on the node. */
export function imagesOnNode(): string[] {
  return ctr(['images', 'list', '--quiet']).split('\n').filter(l => l && !l.startsWith('sha256:'));
}

/** The IDs of the containers containerd runs on the node (tasks in state RUNNING). */
export function runningContainerIds(): Set<string> {
  const out = ctr(['tasks', 'list']).split('\n').slice(1).filter(l => l.trim());
  return new Set(out.filter(l => /\bRUNNING\b/.test(l)).map(l => l.trim().split(/\s+/)[0]));
}

/** The registry's request log so far (one line a request: "METHOD URL"). */
export function registryLog(): string[] {
  const file = path.join(requireRealNode().clusterDir, 'registry.log');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf-8').split('\n').filter(l => l) : [];
}

export { httpGet };

/**
 * Poll until `probe` returns a value (not undefined/false), at most
 * `timeoutMs`; the error names what was awaited and the last state seen.
 */
export async function until<T>(
  what: string, timeoutMs: number, probe: () => Promise<T | undefined | false>, describe?: () => Promise<string>, intervalMs = 500,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v as T;
    if (Date.now() > deadline) {
      const state = describe ? `\n${await describe()}` : '';
      throw new Error(`cluster tier: ${what}: not within ${Math.round(timeoutMs / 1000)} s${state}`);
    }
    await sleep(intervalMs);
  }
}

// --- pods -----------------------------------------------------------------------

/** The pods of a namespace (optionally by label selector), not being deleted, by name. */
export async function podsOf(kube: Kube, ns: string, selector?: string): Promise<Manifest[]> {
  const q = selector ? `?labelSelector=${encodeURIComponent(selector)}` : '';
  const res = await kube.request('GET', `/api/v1/namespaces/${ns}/pods${q}`);
  if (res.status !== 200) throw new Error(`cluster tier: GET pods of ${ns}: HTTP ${res.status} ${res.body?.message}`);
  return (res.body.items as Manifest[]).filter(p => !p.metadata.deletionTimestamp).sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
}

export const isReady = (p: Manifest) => p.status?.phase === 'Running' && (p.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True');

/** A container's status in a pod. */
export function containerStatus(p: Manifest, name: string): any {
  const s = (p.status?.containerStatuses ?? []).find((c: any) => c.name === name);
  if (!s) throw new Error(`cluster tier: ${describeObject(p)} has no status for container ${name}: ${JSON.stringify(p.status?.containerStatuses)}`);
  return s;
}

/** What identifies a running pod and its containers: UID, IP, and per container its ID, restarts and image. */
export interface PodFacts {
  readonly name: string;
  readonly uid: string;
  readonly ip: string;
  readonly revision: string;
  readonly containers: Record<string, { id: string; restarts: number; image: string; imageID: string; started?: string }>;
}

export function podFacts(p: Manifest): PodFacts {
  const containers: PodFacts['containers'] = {};
  for (const c of p.status?.containerStatuses ?? []) {
    containers[c.name] = { id: c.containerID ?? '', restarts: c.restartCount ?? 0, image: c.image, imageID: c.imageID, started: c.state?.running?.startedAt };
  }
  return { name: p.metadata.name, uid: p.metadata.uid, ip: p.status?.podIP ?? '', revision: p.metadata.labels?.['controller-revision-hash'] ?? '', containers };
}

/** One line per pod for failure messages: phase, readiness and each container's state. */
export async function describePods(kube: Kube, ns: string, selector?: string): Promise<string> {
  const pods = await podsOf(kube, ns, selector);
  return pods.map(p => `  ${p.metadata.name} ${p.status?.phase} ready=${isReady(p)} ip=${p.status?.podIP} `
    + (p.status?.containerStatuses ?? []).map((c: any) => `${c.name}[${c.image} restarts=${c.restartCount} ${Object.keys(c.state ?? {})[0]}`
      + `${c.state?.waiting?.reason ? `:${c.state.waiting.reason}` : ''}]`).join(' ')).join('\n') || `  (no pods in ${ns})`;
}

/** Wait until `count` pods of the selector run and are ready; returns them. */
export async function waitPodsReady(kube: Kube, ns: string, selector: string, count: number, timeoutMs = 120_000): Promise<Manifest[]> {
  return until(`${count} ready pods ${selector} in ${ns}`, timeoutMs, async () => {
    const pods = await podsOf(kube, ns, selector);
    return pods.length === count && pods.every(isReady) ? pods : undefined;
  }, () => describePods(kube, ns, selector));
}

// --- the control planes as pods ---------------------------------------------------

/** The install namespace of the control plane the rung runs. */
export const KRUISE_NAMESPACE = 'kruise-system';

/**
 * Our `KruiseControlPlane` for the node: the image is the locally built
 * kruise-manager/kruise-daemon of the release the control plane installs
 * (`imageRepository`; the tag is the library's, v1.9.1 by default, or that of
 * `release` in `extra`), the daemon finds containerd's socket where the node
 * has it (`daemon.socketLocation`); the pull and pre-download gates the node
 * tests use are on. Nothing else differs from the defaults.
 */
export function nodeControlPlaneProps(extra: KruiseControlPlaneProps = {}): KruiseControlPlaneProps {
  const node = requireRealNode();
  return {
    imageRepository: `${node.registry}/cluster-tier/kruise-manager`,
    ...extra,
    featureGates: { ImagePullJobGate: true, PreDownloadImageForInPlaceUpdate: true, ...extra.featureGates },
    daemon: { socketLocation: path.join(node.dir, 'run'), ...extra.daemon },
  };
}

export function nodeControlPlaneSynth(extra: KruiseControlPlaneProps = {}): Synth {
  return synthApp('KruiseControlPlane on the real node', (app: App) => {
    new KruiseControlPlane(new Chart(app, 'kruise'), 'kruise', nodeControlPlaneProps(extra));
    return app;
  });
}

/** Whether the running pods of a workload are exactly its template's (no pod of an older template left, none terminating). */
async function podsMatchTemplate(kube: Kube, w: Manifest, count: number): Promise<boolean> {
  const selector = Object.entries(w.spec.selector.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`).join(',');
  const res = await kube.request('GET', `/api/v1/namespaces/${w.metadata.namespace}/pods?labelSelector=${encodeURIComponent(selector)}`);
  const pods: Manifest[] = res.body?.items ?? [];
  const images = (p: Manifest) => JSON.stringify(p.spec.containers.map((c: any) => c.image));
  const want = JSON.stringify(w.spec.template.spec.containers.map((c: any) => c.image));
  return pods.length === count && pods.every(p => !p.metadata.deletionTimestamp && isReady(p) && images(p) === want);
}

/** The Deployment's pods all updated and available, and no other pod of it left. */
export async function waitDeploymentAvailable(kube: Kube, ns: string, name: string, timeoutMs = 180_000): Promise<Manifest> {
  return until(`Deployment ${ns}/${name} available`, timeoutMs, async () => {
    const d = (await kube.request('GET', `/apis/apps/v1/namespaces/${ns}/deployments/${name}`)).body;
    const s = d?.status ?? {};
    const want = d?.spec?.replicas ?? 1;
    return s.observedGeneration >= d?.metadata?.generation && s.updatedReplicas === want && s.availableReplicas === want
      && (s.replicas ?? 0) === want && await podsMatchTemplate(kube, d, want) ? d : undefined;
  }, async () => describePods(kube, ns));
}

/** The DaemonSet's pod on every node it targets, updated and ready, and no other pod of it left. */
export async function waitDaemonSetReady(kube: Kube, ns: string, name: string, timeoutMs = 180_000): Promise<Manifest> {
  return until(`DaemonSet ${ns}/${name} ready`, timeoutMs, async () => {
    const d = (await kube.request('GET', `/apis/apps/v1/namespaces/${ns}/daemonsets/${name}`)).body;
    const s = d?.status ?? {};
    return s.observedGeneration >= d?.metadata?.generation && s.desiredNumberScheduled > 0 && s.numberReady === s.desiredNumberScheduled
      && s.updatedNumberScheduled === s.desiredNumberScheduled && s.numberAvailable === s.desiredNumberScheduled
      && await podsMatchTemplate(kube, d, s.desiredNumberScheduled) ? d : undefined;
  }, async () => describePods(kube, ns));
}

/** The holder of a Lease (the pod name part of `<pod>_<uid>`), or undefined. */
export async function leaseHolder(kube: Kube, ns: string, name: string): Promise<string | undefined> {
  const res = await kube.request('GET', `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases/${name}`);
  return res.status === 200 ? res.body.spec?.holderIdentity?.split('_')[0] : undefined;
}

/**
 * Install the control plane of `s` and wait until it serves from its pods:
 * the manager Deployment available, the daemon DaemonSet ready, the webhook
 * caBundles written. Applying the same synth again changes nothing, so
 * every file calls this and only the first pays for the start.
 */
export async function ensureKruise(kube: Kube, s: Synth = nodeControlPlaneSynth()): Promise<void> {
  const applied = await applyAll(kube, s.objects);
  const rejected = rejections(applied);
  if (rejected.length > 0) throw new Error(`cluster tier: the control plane was not applied:\n${rejected.join('\n')}`);
  const ns = s.objects.find(m => m.kind === 'Deployment')!.metadata.namespace;
  await waitDeploymentAvailable(kube, ns, 'kruise-controller-manager');
  await waitDaemonSetReady(kube, ns, 'kruise-daemon');
  await until('kruise-manager writes the caBundle of every webhook', 120_000, async () => {
    for (const m of s.objects.filter(x => x.kind === 'MutatingWebhookConfiguration' || x.kind === 'ValidatingWebhookConfiguration')) {
      const current = (await kube.get(m)).body;
      if ((current.webhooks ?? []).some((h: any) => !h.clientConfig?.caBundle)) return false;
    }
    return true;
  });
}

/**
 * The start of a test file on the real node: the node required, kruise-manager and kruise-daemon running as
 * our control plane's pods, the file's namespace created. Gives the API client (closed again if this fails).
 */
export async function openOnRealNode(ns: string): Promise<Kube> {
  requireRealNode();
  const kube = new Kube();
  try {
    await ensureKruise(kube);
    await testNamespace(kube, ns);
    return kube;
  } catch (e) {
    kube.close();
    throw e;
  }
}

/** The first synthesized object of a kind. */
export const findKind = (objects: Manifest[], kind: string): Manifest => objects.find(m => m.kind === kind)!;

/** Our `KruiseRolloutControlPlane` on the node: the locally built kruise-rollout-manager v0.6.2. */
export function nodeRolloutControlPlaneSynth(extra: KruiseRolloutControlPlaneProps = {}): Synth {
  const node = requireRealNode();
  return synthApp('KruiseRolloutControlPlane on the real node', (app: App) => {
    new KruiseRolloutControlPlane(new Chart(app, 'rollout'), 'rollout', {
      imageRepository: `${node.registry}/cluster-tier/kruise-rollout`,
      imageTag: 'v0.6.2',
      ...extra,
    });
    return app;
  });
}

// --- kubelet ----------------------------------------------------------------------

/** kubelets this file started again (stopped by cluster.sh at the end of the run, with every process in CLUSTER_PIDS). */
const restarted: ChildProcess[] = [];

/** Stop the node's kubelet (TERM), wait until it is gone. Containers keep running: they are containerd's. */
export async function stopKubelet(): Promise<void> {
  const node = requireRealNode();
  const pid = Number(fs.readFileSync(path.join(node.dir, 'kubelet.pid'), 'utf-8').trim());
  const own = restarted.find(c => c.pid === pid);
  try { process.kill(pid, 'SIGTERM'); } catch { return; }
  await until(`kubelet (pid ${pid}) to stop`, 20_000, async () => {
    if (own) return own.exitCode !== null || own.signalCode !== null;
    // cluster.sh's child stays a zombie until the run ends: gone once its state is Z
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf-8');
      return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
    } catch { return true; }
  });
}

/** Start kubelet again with the command line cluster.sh used; its pid goes to CLUSTER_PIDS and kubelet.pid. */
export function startKubelet(): ChildProcess {
  const node = requireRealNode();
  const args = fs.readFileSync(path.join(node.dir, 'kubelet.cmd'), 'utf-8').trim().split(/\s+/);
  const log = fs.openSync(path.join(node.clusterDir, `kubelet-${restarted.length + 2}.log`), 'w');
  const child = spawn('setpriv', ['--pdeathsig', 'KILL', '--', ...args], { stdio: ['ignore', log, log] });
  fs.closeSync(log);
  if (!child.pid) throw new Error('cluster tier: kubelet did not start again');
  // the test run may end while it runs (it dies with this process, and cluster.sh stops it by its pid)
  child.unref();
  restarted.push(child);
  fs.appendFileSync(process.env.CLUSTER_PIDS!, `${child.pid}\n`);
  fs.writeFileSync(path.join(node.dir, 'kubelet.pid'), `${child.pid}\n`);
  return child;
}

// --- workloads built with the library for the node ------------------------------------

/** Requests small enough for dozens of pods on one node, limits that never slow a start. */
export const SMALL_RESOURCES: kplus.ContainerResources = {
  cpu: { request: kplus.Cpu.millis(5), limit: kplus.Cpu.millis(500) },
  memory: { request: Size.mebibytes(8), limit: Size.mebibytes(64) },
};

/**
 * A container of the test server (test/cluster/images/server) from the
 * registry: `image` is a tag of images.json under cluster-tier/ (e.g.
 * "server:v1"). It listens on `port` (PORT), is pulled only when the node
 * lacks it, and its start is probed every second.
 */
export function serverContainer(image: string, o: { name?: string; port?: number; env?: Record<string, kplus.EnvValue> } = {}): kplus.ContainerProps {
  const port = o.port ?? 8080;
  return {
    name: o.name ?? 'server',
    image: tierImage(image),
    imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
    portNumber: port,
    envVariables: { PORT: kplus.EnvValue.fromValue(String(port)), ...o.env },
    resources: SMALL_RESOURCES,
    startup: kplus.Probe.fromTcpSocket({ port, periodSeconds: Duration.seconds(1), failureThreshold: 30 }),
  };
}

/**
 * The objects of one chart in namespace `ns`, built with the library in an
 * App that also holds the node's control plane (so synth checks them against
 * its feature gates); the control plane's own objects are left out.
 */
export function nodeObjects(name: string, ns: string, build: (chart: Chart) => void): Manifest[] {
  const s = synthApp(name, (app: App) => {
    new KruiseControlPlane(new Chart(app, 'kruise'), 'kruise', nodeControlPlaneProps());
    build(new Chart(app, 'app', { namespace: ns }));
    return app;
  });
  const files = Object.keys(s.files).filter(f => !/(^|-)kruise\.k8s\.yaml$/.test(f));
  return files.flatMap(f => parseAllDocuments(s.files[f]).map(d => d.toJSON()).filter(x => x));
}

/** Apply objects (server-side); every one must be accepted. */
export async function applyAccepted(kube: Kube, objects: Manifest[]): Promise<void> {
  const rejected = rejections(await applyAll(kube, objects));
  if (rejected.length > 0) throw new Error(`cluster tier: refused:\n${rejected.join('\n')}`);
}

/** The live object of a manifest. */
export async function live(kube: Kube, m: Manifest): Promise<Manifest> {
  const res = await kube.get(m);
  if (res.status !== 200) throw new Error(`cluster tier: GET ${describeObject(m)}: HTTP ${res.status} ${res.body?.message}`);
  return res.body;
}

/** The test server's answer at a pod's IP. */
export async function answerOf(p: Manifest, port = 8080): Promise<any> {
  const r = await httpGet(`http://${p.status.podIP}:${port}/`);
  if (r.status !== 200 || !r.json) throw new Error(`cluster tier: ${describeObject(p)} at ${p.status.podIP}:${port} answered ${r.status} ${r.body}`);
  return r.json;
}

/**
 * Wait until a CloneSet (or Advanced StatefulSet) settled: its latest spec
 * observed, `updated` pods on the update revision and all `replicas` ready,
 * and no pod in the middle of an in-place update; returns its pods.
 */
export async function waitWorkloadSettled(kube: Kube, m: Manifest, selector: string, updated: number, timeoutMs = 180_000): Promise<Manifest[]> {
  const ns = m.metadata.namespace;
  return until(`${describeObject(m)} settled with ${updated} updated pods`, timeoutMs, async () => {
    const w = await live(kube, m);
    const s = w.status ?? {};
    const replicas = w.spec.replicas ?? 1;
    if ((s.observedGeneration ?? 0) < w.metadata.generation || s.updatedReplicas !== updated || (s.updatedReadyReplicas ?? updated) !== updated
      || s.readyReplicas !== replicas) return undefined;
    const pods = await podsOf(kube, ns, selector);
    const moving = (p: Manifest) => (p.status?.conditions ?? []).some((c: any) => c.type === 'InPlaceUpdateReady' && c.status !== 'True');
    return pods.length === replicas && pods.every(p => isReady(p) && !moving(p)) ? pods : undefined;
  }, async () => `${JSON.stringify((await live(kube, m)).status)}\n${await describePods(kube, ns, selector)}`);
}
