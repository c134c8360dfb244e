/**
 * The released kruise-manager v1.9.1 in the cluster tier, run from what the
 * library synthesizes: the command line and environment are read from our
 * kruise-controller-manager Deployment, the process authenticates with a
 * token of our kruise-manager ServiceAccount (so our RBAC is all it has), and
 * the API server reaches its webhooks through our webhook Service (the
 * service proxy of cluster.sh forwards the Service's ClusterIP to the
 * process).
 *
 * Also here: what a kube-controller-manager would do for the tests (the
 * `default` ServiceAccount of a namespace, the `not-ready` taint of a new
 * node) and fake nodes for kwok.
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import { Kube, Manifest, applyAll, describeObject } from './kube';
import { rejections } from './prove';
import { Synth, synthApp } from './sources';
import { KruiseControlPlane, KruiseFeatureGate } from '../../src';

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

/** The manager's controller cache-sync timeout in the tier: a CRD or version mismatch fails in seconds, not minutes. */
export const CACHE_SYNC_TIMEOUT = '20s';

/** Where the tier's processes and files are (from cluster.sh). */
function tierEnv() {
  const { CLUSTER_KRUISE_MANAGER, CLUSTER_ROUTES, CLUSTER_PIDS, CLUSTER_DIR, CLUSTER_SERVER } = process.env;
  if (!CLUSTER_KRUISE_MANAGER || !CLUSTER_ROUTES || !CLUSTER_PIDS || !CLUSTER_DIR || !CLUSTER_SERVER) {
    throw new Error('cluster tier: CLUSTER_KRUISE_MANAGER, CLUSTER_ROUTES or CLUSTER_PIDS missing; run it with `npx projen test:cluster` (test/cluster/cluster.sh)');
  }
  return { manager: CLUSTER_KRUISE_MANAGER, routes: CLUSTER_ROUTES, pids: CLUSTER_PIDS, dir: CLUSTER_DIR, server: CLUSTER_SERVER };
}

/** A free port on 127.0.0.1, below the kernel's ephemeral range (ports.js; cluster.sh picks its ports the same way). */
export function freePort(): Promise<number> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('./ports') as { freePort: () => Promise<number> }).freePort();
}

/** The manager as our Deployment describes it. */
export interface ManagerSpec {
  readonly namespace: string;
  readonly serviceAccount: string;
  readonly command: string[];
  readonly args: string[];
  /** Environment of the container, fieldRefs resolved as the kubelet would. */
  readonly env: Record<string, string>;
  /** The webhook Service the webhook configurations point at. */
  readonly webhookService: { name: string; namespace: string };
}

/** Read the manager's command line and environment from the synthesized Deployment. */
export function managerSpec(s: Synth): ManagerSpec {
  const deployments = s.objects.filter(m => m.kind === 'Deployment' && m.metadata?.name === 'kruise-controller-manager');
  if (deployments.length !== 1) throw new Error(`cluster tier: ${s.name} has ${deployments.length} Deployment kruise-controller-manager, expected 1`);
  const d = deployments[0];
  const pod = d.spec.template.spec;
  const c = (pod.containers ?? []).find((x: any) => x.name === 'manager');
  if (!c) throw new Error(`cluster tier: ${describeObject(d)} has no container named manager`);
  const env: Record<string, string> = {};
  for (const e of c.env ?? []) {
    if (e.value !== undefined) env[e.name] = e.value;
    else if (e.valueFrom?.fieldRef?.fieldPath === 'metadata.namespace') env[e.name] = d.metadata.namespace;
    else throw new Error(`cluster tier: env ${e.name} of ${describeObject(d)} comes from ${JSON.stringify(e.valueFrom)}, which the tier cannot resolve out of a cluster`);
  }
  const mutating = s.objects.find(m => m.kind === 'MutatingWebhookConfiguration');
  const service = mutating?.webhooks?.[0]?.clientConfig?.service;
  if (!service) throw new Error(`cluster tier: ${s.name} has no MutatingWebhookConfiguration with a service reference`);
  return {
    namespace: d.metadata.namespace,
    serviceAccount: pod.serviceAccountName,
    command: c.command ?? [],
    args: c.args ?? [],
    env,
    webhookService: { name: service.name, namespace: service.namespace },
  };
}

/**
 * Apply a control-plane synth: every object accepted, CRDs Established. Also
 * creates what a kube-controller-manager would: the `default` ServiceAccount
 * of the namespaces it creates.
 */
export async function installControlPlane(kube: Kube, s: Synth): Promise<void> {
  const applied = await applyAll(kube, s.objects);
  const rejected = rejections(applied);
  if (rejected.length > 0) throw new Error(`cluster tier: ${s.name} was not applied:\n${rejected.join('\n')}`);
  for (const ns of s.objects.filter(m => m.kind === 'Namespace')) await ensureDefaultServiceAccount(kube, ns.metadata.name);
}

/** A token of a ServiceAccount (TokenRequest API), in a kubeconfig of its own. */
export async function serviceAccountKubeconfig(kube: Kube, namespace: string, name: string, file: string): Promise<string> {
  const res = await kube.request('POST', `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`, {
    apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 7200 },
  });
  if (res.status !== 201 || !res.body?.status?.token) {
    throw new Error(`cluster tier: no token for ServiceAccount ${namespace}/${name}: HTTP ${res.status} ${res.body?.message ?? JSON.stringify(res.body)}`);
  }
  const env = tierEnv();
  fs.writeFileSync(file, [
    'apiVersion: v1', 'kind: Config',
    'clusters:', '- name: cluster-tier', `  cluster: { server: "${env.server}", certificate-authority: "${path.join(env.dir, 'ca.crt')}" }`,
    'users:', `- name: ${name}`, `  user: { token: "${res.body.status.token}" }`,
    'contexts:', `- name: ${name}`, `  context: { cluster: cluster-tier, user: ${name}, namespace: ${namespace} }`,
    `current-context: ${name}`, '',
  ].join('\n'), { mode: 0o600 });
  return file;
}

/** kruise-manager processes started in this test file (numbers their names and logs). */
let started = 0;

/** A manager process this tier started (kruise-manager, kruise-rollout-manager): its exit and its log. */
export class LoggedProcess<Ports> {
  public exitCode: number | null = null;
  public readonly exited: Promise<void>;

  constructor(
    public readonly name: string,
    public readonly child: ChildProcess,
    public readonly logFile: string,
    public readonly ports: Ports,
    public readonly commandLine: string[],
  ) {
    this.exited = new Promise(resolve => child.on('exit', code => { this.exitCode = code ?? -1; resolve(); }));
  }

  public get running(): boolean {
    return this.exitCode === null;
  }

  /** The log so far. */
  public log(): string {
    return fs.existsSync(this.logFile) ? fs.readFileSync(this.logFile, 'utf-8') : '';
  }

  /** Log lines matching a pattern. */
  public lines(pattern: RegExp): string[] {
    return this.log().split('\n').filter(l => pattern.test(l));
  }

  /** The last lines of the log, for failure messages. */
  public tail(n = 40): string {
    return `--- last ${n} lines of ${this.logFile}:\n${this.log().split('\n').slice(-n).join('\n')}`;
  }

  /** Whether this process says it holds the leader lease. */
  public isLeader(): boolean {
    return this.lines(/successfully acquired lease/).length > 0;
  }
}

/** One running kruise-manager process. */
export class ManagerProcess extends LoggedProcess<{ webhook: number; metrics: number; health: number; pprof: number }> {
  constructor(
    name: string,
    child: ChildProcess,
    logFile: string,
    ports: { webhook: number; metrics: number; health: number; pprof: number },
    commandLine: string[],
    public readonly env: Record<string, string>,
  ) {
    super(name, child, logFile, ports, commandLine);
  }
}

/**
 * The kruise-manager processes of one control plane, each an endpoint of the
 * webhook Service.
 */
export class Managers {
  public readonly all: ManagerProcess[] = [];
  private kubeconfig?: string;
  private clusterIP?: string;

  /**
   * @param binary the kruise-manager to run: the tier's v1.9.1 (CLUSTER_KRUISE_MANAGER) unless another
   * release's is given (CLUSTER_KRUISE_MANAGER_1_9_0; test:cluster:releases: CLUSTER_KRUISE_MANAGER_1_8, ..._1_7)
   */
  constructor(private readonly kube: Kube, public readonly spec: ManagerSpec, private readonly label = 'kruise-manager', private readonly binary?: string) {}

  /** Start one more process; resolves when it is started (not yet ready). */
  public async start(): Promise<ManagerProcess> {
    const env = tierEnv();
    const spec = this.spec;
    const name = `${this.label}-${this.spec.namespace}-${++started}`;
    const dir = path.join(env.dir, name);
    fs.mkdirSync(path.join(dir, 'certs'), { recursive: true });
    this.kubeconfig ??= await serviceAccountKubeconfig(this.kube, spec.namespace, spec.serviceAccount, path.join(env.dir, `${this.label}.kubeconfig`));
    const ports = { webhook: await freePort(), metrics: await freePort(), health: await freePort(), pprof: await freePort() };
    const args = outOfClusterArgs(spec.args, ports);
    const procEnv: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      ...spec.env,
      // Out of a cluster: the API server from a kubeconfig with our ServiceAccount's token; the
      // webhook server on a port of its own (several processes share one host); certificates
      // written to our Secret (as in a cluster) and to a folder of its own. WEBHOOK_HOST stays
      // unset on purpose: with it, kruise-manager rewrites every webhook and conversion webhook
      // to `url: https://<host>:<port>/...` instead of our Service, so our Service would never be
      // tested (and our YAML could no longer be re-applied: a webhook with both url and service
      // is invalid). The API server reaches the process through our Service instead (cluster.sh's
      // service proxy forwards its ClusterIP to 127.0.0.1:<port>).
      KUBECONFIG: this.kubeconfig,
      WEBHOOK_PORT: String(ports.webhook),
      WEBHOOK_CERT_DIR: path.join(dir, 'certs'),
      WEBHOOK_CERT_WRITER: 'secret',
    };
    const logFile = path.join(env.dir, `${name}.log`);
    const out = fs.openSync(logFile, 'w');
    const binary = this.binary ?? env.manager;
    const child = spawn('setpriv', ['--pdeathsig', 'KILL', '--', binary, ...args], { env: procEnv, stdio: ['ignore', out, out], cwd: dir });
    fs.closeSync(out);
    fs.appendFileSync(env.pids, `${child.pid}\n`);
    const p = new ManagerProcess(name, child, logFile, ports, [binary, ...args], procEnv);
    this.all.push(p);
    void p.exited.then(() => this.writeRoutes());
    await this.writeRoutes();
    return p;
  }

  public running(): ManagerProcess[] {
    return this.all.filter(p => p.running);
  }

  /** The ClusterIP:port the API server dials for the webhook Service, pointing at every running process. */
  private async writeRoutes(): Promise<void> {
    const env = tierEnv();
    const svc = this.spec.webhookService;
    if (!this.clusterIP) {
      const res = await this.kube.request('GET', `/api/v1/namespaces/${svc.namespace}/services/${svc.name}`);
      if (res.status !== 200) throw new Error(`cluster tier: webhook Service ${svc.namespace}/${svc.name} not found (HTTP ${res.status}); install the control plane first`);
      this.clusterIP = res.body.spec.clusterIP;
      this.servicePorts = (res.body.spec.ports ?? []).map((p: any) => p.port);
    }
    const routes = JSON.parse(fs.readFileSync(env.routes, 'utf-8'));
    for (const port of this.servicePorts) {
      routes[`${this.clusterIP}:${port}`] = this.running().map(p => `127.0.0.1:${p.ports.webhook}`);
    }
    fs.writeFileSync(`${env.routes}.tmp`, JSON.stringify(routes, null, 2));
    fs.renameSync(`${env.routes}.tmp`, env.routes);
  }
  // eslint-disable-next-line @typescript-eslint/member-ordering
  private servicePorts: number[] = [];

  /** Wait until a process answers /readyz with 200 (its webhook server and certificates are up). */
  public async waitReady(p: ManagerProcess, timeoutMs = 120_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      if (!p.running) throw new Error(`cluster tier: ${p.name} exited with ${p.exitCode} before it was ready\n${p.tail()}`);
      if (await httpStatus(`http://127.0.0.1:${p.ports.health}/readyz`) === 200) return;
      await sleep(500);
    }
    throw new Error(`cluster tier: ${p.name} not ready within ${timeoutMs / 1000} s\n${p.tail()}`);
  }

  /** Wait until one running process holds the lease; returns it. */
  public async waitLeader(timeoutMs = 90_000): Promise<ManagerProcess> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const leaders = this.running().filter(p => p.isLeader());
      if (leaders.length === 1) return leaders[0];
      if (leaders.length > 1) throw new Error(`cluster tier: ${leaders.map(p => p.name).join(', ')} all say they hold the lease`);
      await sleep(500);
    }
    throw new Error(`cluster tier: no kruise-manager took the lease within ${timeoutMs / 1000} s\n${this.running().map(p => p.tail(20)).join('\n')}`);
  }

  /** Stop a process (TERM, then KILL after 15 s). */
  public async stop(p: ManagerProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (!p.running) return;
    p.child.kill(signal);
    const killed = setTimeout(() => p.child.kill('SIGKILL'), 15_000);
    await p.exited;
    clearTimeout(killed);
    await this.writeRoutes();
  }

  public async stopAll(): Promise<void> {
    for (const p of this.all) await this.stop(p);
  }
}

/**
 * The manager's arguments with the addresses it binds moved to free loopback
 * ports (in a cluster each replica has its own Pod IP; here they share
 * 127.0.0.1), and the controller cache-sync timeout made short.
 */
export function outOfClusterArgs(args: string[], ports: { metrics: number; health: number; pprof: number }): string[] {
  const bind: Record<string, number> = { '--metrics-addr': ports.metrics, '--health-probe-addr': ports.health, '--pprof-addr': ports.pprof };
  const seen = new Set<string>();
  const out = args.map(a => {
    const [flag] = a.split('=');
    if (flag in bind) {
      seen.add(flag);
      return `${flag}=127.0.0.1:${bind[flag]}`;
    }
    return a;
  });
  for (const [flag, port] of Object.entries(bind)) if (!seen.has(flag)) out.push(`${flag}=127.0.0.1:${port}`);
  if (!out.some(a => a.startsWith('--controller-cache-sync-timeout'))) out.push(`--controller-cache-sync-timeout=${CACHE_SYNC_TIMEOUT}`);
  return out;
}

function httpStatus(url: string): Promise<number> {
  return new Promise(resolve => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const req = require('http').get(url, (res: any) => { res.resume(); resolve(res.statusCode ?? 0); });
    req.on('error', () => resolve(0));
    req.setTimeout(2000, () => { req.destroy(); resolve(0); });
  });
}

// --- what kube-controller-manager would do ---------------------------------

/** The `default` ServiceAccount of a namespace (the serviceaccount controller's job). */
export async function ensureDefaultServiceAccount(kube: Kube, namespace: string): Promise<void> {
  const res = await kube.apply({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace } }, { fieldManager: 'cluster-tier' });
  if (res.status >= 300) throw new Error(`cluster tier: cannot create ServiceAccount default in ${namespace}: HTTP ${res.status} ${res.body?.message}`);
}

/** A namespace for a test, with its `default` ServiceAccount. */
export async function testNamespace(kube: Kube, name: string, labels: Record<string, string> = {}): Promise<void> {
  const res = await kube.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } }, { fieldManager: 'cluster-tier' });
  if (res.status >= 300) throw new Error(`cluster tier: cannot create namespace ${name}: HTTP ${res.status} ${res.body?.message}`);
  await ensureDefaultServiceAccount(kube, name);
}

/**
 * Fake nodes played by kwok: created, waited for Ready, and freed of the
 * `node.kubernetes.io/not-ready` taint the API server gives every new node
 * (the node lifecycle controller's job).
 */
export async function fakeNodes(kube: Kube, nodes: Array<{ name: string; labels?: Record<string, string> }>): Promise<void> {
  for (const n of nodes) {
    const m: Manifest = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: n.name, annotations: { 'kwok.x-k8s.io/node': 'fake' }, labels: { 'type': 'kwok', 'kubernetes.io/hostname': n.name, ...n.labels } },
    };
    const res = await kube.apply(m, { fieldManager: 'cluster-tier' });
    if (res.status >= 300) throw new Error(`cluster tier: cannot create Node ${n.name}: HTTP ${res.status} ${res.body?.message}`);
  }
  for (const n of nodes) {
    const until = Date.now() + 60_000;
    let node: any;
    for (;;) {
      node = (await kube.request('GET', `/api/v1/nodes/${n.name}`)).body;
      const ready = (node.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True');
      const taints: any[] = node.spec?.taints ?? [];
      if (ready && !taints.some(t => t.key === 'node.kubernetes.io/not-ready')) break;
      if (ready) {
        const rest = taints.filter(t => t.key !== 'node.kubernetes.io/not-ready');
        const patch = [{ op: 'test', path: '/spec/taints', value: taints }, { op: 'replace', path: '/spec/taints', value: rest }];
        await kube.request('PATCH', `/api/v1/nodes/${n.name}`, patch, 'application/json-patch+json');
        continue;
      }
      if (Date.now() > until) throw new Error(`cluster tier: kwok did not make Node ${n.name} Ready within 60 s: ${JSON.stringify(node.status?.conditions)}`);
      await sleep(250);
    }
  }
}

/**
 * The storage provisioner's part: a PersistentVolume for every claim still
 * Pending, bound to it (kube-controller-manager's binder completes the
 * binding, so it needs a cluster with kube-controller-manager: full/). The
 * tier's clusters have no StorageClass and no provisioner; a user's has both.
 * On a real node, where kubelet creates the folder, `hostPathBase` is a
 * folder of the run.
 */
export async function provisionClaims(kube: Kube, hostPathBase = '/var/lib/cluster-tier'): Promise<void> {
  const claims = (await kube.request('GET', '/api/v1/persistentvolumeclaims')).body?.items ?? [];
  for (const c of claims) {
    if (c.status?.phase !== 'Pending' || c.spec.volumeName) continue;
    const name = `pv-${c.metadata.namespace}-${c.metadata.name}`;
    await kube.apply({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name },
      spec: {
        capacity: { storage: c.spec.resources.requests.storage },
        accessModes: c.spec.accessModes,
        hostPath: { path: `${hostPathBase}/${name}` },
        claimRef: { namespace: c.metadata.namespace, name: c.metadata.name, uid: c.metadata.uid },
        ...(c.spec.storageClassName ? { storageClassName: c.spec.storageClassName } : {}),
      },
    }, { fieldManager: 'cluster-tier' });
  }
}

/** Delete fake nodes (their pods go with them: kwok plays the kubelet's part). */
export async function deleteNodes(kube: Kube, names: string[]): Promise<void> {
  for (const n of names) await kube.request('DELETE', `/api/v1/nodes/${n}`);
}

// --- a control plane with its managers, as the test files use it -----------

/** The control plane of `build`, installed, with `replicas` kruise-manager processes started and ready, one holding the lease. */
export async function runControlPlane(kube: Kube, s: Synth, replicas = 1): Promise<{ managers: Managers; leader: ManagerProcess }> {
  await installControlPlane(kube, s);
  const managers = new Managers(kube, managerSpec(s));
  for (let i = 0; i < replicas; i++) await managers.start();
  for (const p of managers.all) await managers.waitReady(p);
  const leader = await managers.waitLeader();
  await waitWebhooksPatched(kube, s);
  return { managers, leader };
}

/** Wait until kruise-manager has written a caBundle into every webhook and conversion webhook of the synth. */
export async function waitWebhooksPatched(kube: Kube, s: Synth, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  let missing: string[] = [];
  while (Date.now() < until) {
    missing = await unpatched(kube, s);
    if (missing.length === 0) return;
    await sleep(500);
  }
  throw new Error(`cluster tier: kruise-manager did not write the caBundle of: ${missing.join(', ')}`);
}

/** Webhooks and conversion webhooks of the synth whose live caBundle is still empty. */
export async function unpatched(kube: Kube, s: Synth): Promise<string[]> {
  const out: string[] = [];
  for (const m of s.objects) {
    if (m.kind === 'MutatingWebhookConfiguration' || m.kind === 'ValidatingWebhookConfiguration') {
      const live = (await kube.get(m)).body;
      for (const h of live.webhooks ?? []) if (!h.clientConfig?.caBundle) out.push(`${m.kind}/${m.metadata.name} ${h.name}`);
    } else if (m.kind === 'CustomResourceDefinition' && m.spec?.conversion?.strategy === 'Webhook') {
      const live = (await kube.get(m)).body;
      if (!live.spec?.conversion?.webhook?.clientConfig?.caBundle) out.push(`CRD ${m.metadata.name} conversion`);
    }
  }
  return out;
}

/** The control plane with its defaults, synthesized. */
export function defaultsSynth(): Synth {
  return synthApp('KruiseControlPlane (defaults)', (app: App) => {
    new KruiseControlPlane(new Chart(app, 'kruise'), 'kruise');
    return app;
  });
}

/**
 * The control plane whose webhooks judge every kind: the defaults plus what
 * keeps a kind's webhook from judging at all (with ResourceDistributionGate or
 * ImagePullJobGate off, the webhook refuses every ResourceDistribution or
 * ImagePullJob whatever it holds; the EphemeralJob webhook is registered only
 * on request).
 */
export function judgingSynth(): Synth {
  return synthApp('KruiseControlPlane (defaults, ResourceDistributionGate and ImagePullJobGate on, EphemeralJobs validated)', (app: App) => {
    new KruiseControlPlane(new Chart(app, 'kruise'), 'kruise', {
      featureGates: { [KruiseFeatureGate.RESOURCE_DISTRIBUTION_GATE]: true, [KruiseFeatureGate.IMAGE_PULL_JOB_GATE]: true },
      validateEphemeralJobs: true,
    });
    return app;
  });
}

/** A CloneSet for a dry-run create: its Pod template gets defaults only the mutating webhook sets. */
function probeCloneSet(namespace: string): Manifest {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'webhook-probe', namespace },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'webhook-probe' } },
      template: { metadata: { labels: { app: 'webhook-probe' } }, spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] } },
    },
  };
}

/** Dry-run create of the probe CloneSet: the object as the webhooks left it, or the refusal. */
export async function probeWebhooks(kube: Kube, namespace: string) {
  const m = probeCloneSet(namespace);
  const res = await kube.request('POST', `${await kube.pathOf(m, '')}?dryRun=All`, m);
  const container = res.body?.spec?.template?.spec?.containers?.[0] ?? {};
  return { status: res.status, message: res.body?.message, terminationMessagePath: container.terminationMessagePath };
}
