/**
 * The released kruise-rollout-manager v0.6.2 in the cluster tier, run the way
 * manager.ts runs kruise-manager: the command line and environment are read
 * from our synthesized `kruise-rollout-controller-manager` Deployment, the
 * process authenticates with a token of our ServiceAccount (so our RBAC is
 * all it has), and the API server reaches its webhooks through our webhook
 * Service (cluster.sh's service proxy forwards the Service's ClusterIP).
 *
 * Two things a Pod has that a process on the host has not, provided the
 * closest way:
 * - the Pod's namespace file: controller-runtime 0.14 takes the leader
 *   election namespace from /var/run/secrets/kubernetes.io/serviceaccount/namespace
 *   only (the manager has no flag for it). The process runs in a mount
 *   namespace of its own where a tmpfs on /run holds that one file
 *   (`unshare --mount`; the host is not touched).
 * - the image's working directory with the traffic-routing Lua scripts
 *   (`./lua_configuration`): the process runs in a folder holding a copy of
 *   the scripts build-rollout-manager.sh took from the same module.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Kube, describeObject } from './kube';
import { LoggedProcess, freePort, serviceAccountKubeconfig } from './manager';
import { Synth } from './sources';

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

function tierEnv() {
  const { CLUSTER_ROLLOUT_MANAGER, CLUSTER_ROUTES, CLUSTER_PIDS, CLUSTER_DIR } = process.env;
  if (!CLUSTER_ROLLOUT_MANAGER || !CLUSTER_ROUTES || !CLUSTER_PIDS || !CLUSTER_DIR) {
    throw new Error('cluster tier: CLUSTER_ROLLOUT_MANAGER, CLUSTER_ROUTES or CLUSTER_PIDS missing; run it with `npx projen test:cluster` (test/cluster/cluster.sh)');
  }
  return { manager: CLUSTER_ROLLOUT_MANAGER, routes: CLUSTER_ROUTES, pids: CLUSTER_PIDS, dir: CLUSTER_DIR };
}

/** kruise-rollout-manager as our Deployment describes it. */
export interface RolloutManagerSpec {
  readonly namespace: string;
  readonly serviceAccount: string;
  readonly args: string[];
  readonly env: Record<string, string>;
  readonly webhookService: { name: string; namespace: string };
}

/** Read the manager's command line and environment from the synthesized Deployment. */
export function rolloutManagerSpec(s: Synth): RolloutManagerSpec {
  const d = s.objects.find(m => m.kind === 'Deployment' && m.spec?.template?.spec?.containers?.some((c: any) => c.name === 'kruise-rollout'));
  if (!d) throw new Error(`cluster tier: ${s.name} has no Deployment with a kruise-rollout container`);
  const pod = d.spec.template.spec;
  const c = pod.containers.find((x: any) => x.name === 'kruise-rollout');
  if (JSON.stringify(c.command) !== '["/manager"]') throw new Error(`cluster tier: ${describeObject(d)} runs ${JSON.stringify(c.command)}, not the image's /manager`);
  const env: Record<string, string> = {};
  for (const e of c.env ?? []) {
    if (e.value !== undefined) env[e.name] = e.value;
    else if (e.valueFrom?.fieldRef?.fieldPath === 'metadata.namespace') env[e.name] = d.metadata.namespace;
    else throw new Error(`cluster tier: env ${e.name} of ${describeObject(d)} comes from ${JSON.stringify(e.valueFrom)}, which the tier cannot resolve`);
  }
  const service = s.objects.find(m => m.kind === 'MutatingWebhookConfiguration')?.webhooks?.[0]?.clientConfig?.service;
  if (!service) throw new Error(`cluster tier: ${s.name} has no MutatingWebhookConfiguration with a service reference`);
  return {
    namespace: d.metadata.namespace,
    serviceAccount: pod.serviceAccountName,
    args: c.args ?? [],
    env,
    webhookService: { name: service.name, namespace: service.namespace },
  };
}

/** The arguments with the addresses the manager binds moved to free loopback ports (replicas share one host here). */
export function rolloutOutOfClusterArgs(args: string[], ports: { health: number; metrics: number }): string[] {
  const bind: Record<string, number> = { '--health-probe-bind-address': ports.health, '--metrics-bind-address': ports.metrics };
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
  return out;
}

/** One running kruise-rollout-manager. */
export class RolloutManagerProcess extends LoggedProcess<{ webhook: number; health: number; metrics: number }> {}

let started = 0;

/** kruise-rollout-manager processes of one control plane, each an endpoint of the webhook Service. */
export class RolloutManagers {
  public readonly all: RolloutManagerProcess[] = [];
  private kubeconfig?: string;
  private clusterIP?: string;
  private servicePorts: number[] = [];

  /**
   * @param binary the kruise-rollout-manager to run (its lua_configuration/ beside bin/): the tier's v0.6.2
   * (CLUSTER_ROLLOUT_MANAGER) unless another release's is given (test:cluster:releases: CLUSTER_ROLLOUT_MANAGER_0_5)
   */
  constructor(private readonly kube: Kube, public readonly spec: RolloutManagerSpec, private readonly binary?: string) {}

  public async start(): Promise<RolloutManagerProcess> {
    const env = tierEnv();
    const binary = this.binary ?? env.manager;
    const spec = this.spec;
    const name = `kruise-rollout-manager-${spec.namespace}-${++started}`;
    const dir = path.join(env.dir, name);
    fs.mkdirSync(path.join(dir, 'certs'), { recursive: true });
    // a copy, not a link: the manager walks ./lua_configuration with filepath.Walk, which does not enter a symlinked root
    fs.cpSync(path.join(path.dirname(path.dirname(binary)), 'lua_configuration'), path.join(dir, 'lua_configuration'), { recursive: true });
    this.kubeconfig ??= await serviceAccountKubeconfig(this.kube, spec.namespace, spec.serviceAccount, path.join(env.dir, 'kruise-rollout-manager.kubeconfig'));
    const ports = { webhook: await freePort(), health: await freePort(), metrics: await freePort() };
    const args = rolloutOutOfClusterArgs(spec.args, ports);
    const procEnv: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      ...spec.env,
      // Out of a cluster: the API server from a kubeconfig with our ServiceAccount's token; the
      // webhook server on a port of its own; certificates to our namespace's Secret (the default
      // writer) and to a folder of its own. WEBHOOK_HOST stays unset: with it the manager rewrites
      // the webhooks to a URL and our Service would never be exercised.
      KUBECONFIG: this.kubeconfig,
      WEBHOOK_PORT: String(ports.webhook),
      WEBHOOK_CERT_DIR: path.join(dir, 'certs'),
    };
    const logFile = path.join(env.dir, `${name}.log`);
    const out = fs.openSync(logFile, 'w');
    // A mount namespace of its own with the Pod's namespace file on a tmpfs over /run (see the header).
    const podFiles = [
      'mount -t tmpfs -o size=1m tmpfs /run',
      'mkdir -p /run/secrets/kubernetes.io/serviceaccount',
      'printf %s "$POD_NAMESPACE" > /run/secrets/kubernetes.io/serviceaccount/namespace',
      'exec setpriv --pdeathsig KILL -- "$@"',
    ].join(' && ');
    const child = spawn('unshare', ['--mount', '--propagation', 'private', '--', 'sh', '-c', podFiles, 'sh', binary, ...args],
      { env: procEnv, stdio: ['ignore', out, out], cwd: dir });
    fs.closeSync(out);
    fs.appendFileSync(env.pids, `${child.pid}\n`);
    const p = new RolloutManagerProcess(name, child, logFile, ports, [binary, ...args]);
    this.all.push(p);
    void p.exited.then(() => this.writeRoutes());
    await this.writeRoutes();
    return p;
  }

  public running(): RolloutManagerProcess[] {
    return this.all.filter(p => p.running);
  }

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
    for (const port of this.servicePorts) routes[`${this.clusterIP}:${port}`] = this.running().map(p => `127.0.0.1:${p.ports.webhook}`);
    fs.writeFileSync(`${env.routes}.tmp`, JSON.stringify(routes, null, 2));
    fs.renameSync(`${env.routes}.tmp`, env.routes);
  }

  /** Wait until a process answers /readyz with 200. */
  public async waitReady(p: RolloutManagerProcess, timeoutMs = 120_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      if (!p.running) throw new Error(`cluster tier: ${p.name} exited with ${p.exitCode} before it was ready\n${p.tail()}`);
      if (await httpStatus(`http://127.0.0.1:${p.ports.health}/readyz`) === 200) return;
      await sleep(500);
    }
    throw new Error(`cluster tier: ${p.name} not ready within ${timeoutMs / 1000} s\n${p.tail()}`);
  }

  /** Wait until one running process holds the lease. */
  public async waitLeader(timeoutMs = 90_000): Promise<RolloutManagerProcess> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const leaders = this.running().filter(p => p.isLeader());
      if (leaders.length === 1) return leaders[0];
      if (leaders.length > 1) throw new Error(`cluster tier: ${leaders.map(p => p.name).join(', ')} all say they hold the lease`);
      await sleep(500);
    }
    throw new Error(`cluster tier: no kruise-rollout-manager took the lease within ${timeoutMs / 1000} s\n${this.running().map(p => p.tail(30)).join('\n')}`);
  }

  public async stop(p: RolloutManagerProcess): Promise<void> {
    if (!p.running) return;
    p.child.kill('SIGTERM');
    const killed = setTimeout(() => p.child.kill('SIGKILL'), 15_000);
    await p.exited;
    clearTimeout(killed);
    await this.writeRoutes();
  }

  public async stopAll(): Promise<void> {
    for (const p of this.all) await this.stop(p);
  }
}

function httpStatus(url: string): Promise<number> {
  return new Promise(resolve => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const req = require('http').get(url, (res: any) => { res.resume(); resolve(res.statusCode ?? 0); });
    req.on('error', () => resolve(0));
    req.setTimeout(2000, () => { req.destroy(); resolve(0); });
  });
}
