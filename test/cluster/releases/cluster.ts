/**
 * A cluster of one's own for one release of the releases tier: each test file
 * of test/cluster/releases starts its own etcd, kube-apiserver (webhooks on),
 * kube-controller-manager, kube-scheduler and kwok with cluster.sh, on free
 * loopback ports, runs its release's manager against it and stops it all when
 * it ends. The files run side by side (jest workers, jest.releases.config.js),
 * so every release is judged on a fresh cluster at the same time as the
 * others, and no release's CRDs have to be uninstalled for the next one.
 *
 * cluster.sh runs `hold.js`, which writes the cluster's environment
 * (KUBECONFIG, CLUSTER_*) to a file and holds the cluster up until it gets
 * SIGTERM; this module puts that environment into the test file's
 * `process.env` (each jest test file has its own), so kube.ts and manager.ts
 * talk to this cluster.
 */
import { ChildProcess, execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const here = __dirname;
const tier = path.dirname(here);
const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

/** One running cluster of this test file. */
export interface OwnCluster {
  /** The environment cluster.sh gave its command (also set in `process.env`). */
  readonly env: Record<string, string>;
  /** cluster.sh's own output (the builds, the start). */
  readonly log: string;
  /** Stop the cluster and wait until cluster.sh has stopped every process and removed its folder. */
  stop(): Promise<void>;
}

/**
 * Start a cluster for this test file and point `process.env` at it. Waits
 * for cluster.sh to build what it needs (cached by content hash: instant once
 * built; in a cold CI run the background prebuild builds it) and to start;
 * fails with cluster.sh's output when it exits first.
 */
export async function ownCluster(label: string, o: { controllerManager?: boolean } = {}): Promise<OwnCluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `release-cluster-${label}-`));
  const envFile = path.join(dir, 'env.json');
  const log = path.join(dir, 'cluster.log');
  const out = fs.openSync(log, 'w');
  const env: Record<string, string> = { ...(process.env as Record<string, string>) };
  for (const k of Object.keys(env)) if (k === 'KUBECONFIG' || k.startsWith('CLUSTER_')) delete env[k];
  if (o.controllerManager) env.CLUSTER_CONTROLLER_MANAGER = '1';
  // cluster.sh gets TERM when this process dies, and its trap stops the cluster
  const child: ChildProcess = spawn('setpriv', ['--pdeathsig', 'TERM', '--', 'bash', path.join(tier, 'cluster.sh'), 'run', '--',
    process.execPath, path.join(here, 'hold.js'), envFile], { env, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  let exit: number | null = null;
  const exited = new Promise<void>(resolve => child.on('exit', code => { exit = code ?? -1; resolve(); }));
  // the first run on a new machine builds the binaries first (build scripts print as they go)
  const until = Date.now() + 90 * 60_000;
  while (!fs.existsSync(envFile)) {
    if (exit !== null) throw new Error(`releases tier: the cluster for ${label} did not start (cluster.sh exit ${exit}):\n${fs.readFileSync(log, 'utf-8')}`);
    if (Date.now() > until) {
      child.kill('SIGTERM');
      throw new Error(`releases tier: the cluster for ${label} was not up within 90 min:\n${fs.readFileSync(log, 'utf-8')}`);
    }
    await sleep(250);
  }
  const held = JSON.parse(fs.readFileSync(envFile, 'utf-8')) as { pid: number; env: Record<string, string> };
  for (const k of Object.keys(process.env)) if (k === 'KUBECONFIG' || k.startsWith('CLUSTER_')) delete process.env[k];
  Object.assign(process.env, held.env);
  return {
    env: held.env,
    get log() { return fs.readFileSync(log, 'utf-8'); },
    stop: async () => {
      if (exit === null) {
        try { process.kill(held.pid, 'SIGTERM'); } catch { /* already gone */ }
        const killed = setTimeout(() => child.kill('SIGTERM'), 60_000);
        await exited;
        clearTimeout(killed);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The path of a released manager binary, built by its build script on first
 * use (cached by content hash; a build the background prebuild is running is
 * waited for): `build-manager.sh v1.8.4`, `build-rollout-manager.sh v0.5.5`.
 */
export function builtBinary(script: 'build-manager.sh' | 'build-rollout-manager.sh', version: string): string {
  const out = execFileSync('bash', [path.join(tier, script), version], { encoding: 'utf-8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 90 * 60_000 });
  const bin = out.trim().split('\n').pop() ?? '';
  if (!fs.existsSync(bin)) throw new Error(`releases tier: ${script} ${version} printed no binary (${out.trim()})`);
  return bin;
}
