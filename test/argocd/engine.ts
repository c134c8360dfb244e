/**
 * Argo CD's own code on our Argo CD configuration: `argocd-engine` (a Go
 * program built from the Go module proxy by build.sh: Argo CD v3.5.8's
 * util/lua and gitops-engine) runs the resource actions of an argocd-cm as
 * Argo CD's API server runs them, applies them as it applies them, and syncs
 * manifests with gitops-engine. A group of tests that needs it builds it on
 * first use; without the Go toolchain the group is one skipped test saying so.
 */
import { execFileSync, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { SKIPPED_GROUP } from '../util/reference';

const BUILD = path.join(__dirname, 'build.sh');

/** One object an action runs on (`action` unset: discovery only). */
export interface ActionCase {
  readonly id: string;
  readonly object: unknown;
  readonly action?: string;
  readonly params?: Record<string, string>;
}

/** An action discovery lists. */
export interface DiscoveredAction {
  readonly name: string;
  readonly displayName?: string;
  readonly disabled?: boolean;
  readonly iconClass?: string;
  /** The names of its parameters (Argo CD v3.5 reads only a parameter's name). */
  readonly params?: string[];
}

/** What Argo CD would do. */
export interface ActionOutcome {
  readonly id?: string;
  readonly actions: DiscoveredAction[] | null;
  readonly discoveryError?: string;
  /** Objects to create. */
  readonly create?: { operation: 'create'; resource: any }[];
  /** The status part of the merge patch (sent to the status subresource). */
  readonly statusPatch?: any;
  /** The rest of the merge patch (sent to the object). */
  readonly patch?: any;
  readonly actionError?: string;
  /** What `run` applied, in order. */
  readonly applied?: string[];
}

let binary: string | undefined | null = null;

/** The path of argocd-engine, built when the Go toolchain is there; undefined without it. */
export function argocdEngineBinary(): string | undefined {
  if (binary !== null) return binary;
  const built = execFileSync('bash', [BUILD, '--if-built']).toString().trim();
  if (built) return (binary = built);
  if (spawnSync('go', ['version']).status !== 0) return (binary = undefined);
  const r = spawnSync('bash', [BUILD], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`building argocd-engine failed:\n${r.stderr}`);
  return (binary = r.stdout.trim());
}

/** ARGOCD_ENGINE_LOG=FILE appends argocd-engine's log (gitops-engine's, verbose for a sync) to FILE as it runs. */
const LOG = process.env.ARGOCD_ENGINE_LOG;

function engine(command: string, input: unknown, env: NodeJS.ProcessEnv = process.env, timeout = 120_000): any {
  const bin = argocdEngineBinary();
  if (!bin) throw new Error('argocd-engine is not built');
  const log = LOG ? fs.openSync(LOG, 'a') : undefined;
  try {
    const r = spawnSync(bin, [command], {
      input: JSON.stringify(input), env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout, stdio: ['pipe', 'pipe', log ?? 'pipe'],
    });
    if (r.status !== 0) throw new Error(`argocd-engine ${command} failed (${r.status ?? r.signal}): ${log !== undefined ? `see ${LOG}` : r.stderr}`);
    return JSON.parse(r.stdout);
  } finally {
    if (log !== undefined) fs.closeSync(log);
  }
}

/** Discovery, and each case's action, run by Argo CD's Lua VM with the overrides of `data` (argocd-cm's data). */
export function runActions(data: Record<string, string>, cases: readonly ActionCase[]): ActionOutcome[] {
  return engine('actions', { data, cases });
}

/** One action run on a live object and applied as Argo CD's API server applies it (KUBECONFIG from `env`). */
export function runLiveAction(env: NodeJS.ProcessEnv, data: Record<string, string>, o: {
  group: string; version: string; kind: string; namespace?: string; name: string; action: string; params?: Record<string, string>;
}): ActionOutcome {
  return engine('run', { data, ...o }, env);
}

/** One result of a sync, per object. */
export interface SyncResult {
  readonly group: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  readonly status: string;
  readonly message?: string;
  readonly syncPhase?: string;
  readonly order: number;
}

/** What a gitops-engine sync did, and what Argo CD's diff still finds different afterwards. */
export interface SyncOutcome {
  readonly results: SyncResult[];
  readonly error?: string;
  readonly seconds: number;
  readonly drift: { group: string; kind: string; namespace?: string; name: string; diff: string }[];
  readonly managed: number;
}

/**
 * A sync of `manifests` as application `app` by gitops-engine (KUBECONFIG from `env`). It runs for minutes, so
 * it does not block the event loop: the caller's keep-alive connections to the API server see the server
 * close them meanwhile, instead of being written to once they are dead (EPIPE).
 */
export async function sync(env: NodeJS.ProcessEnv, request: {
  app: string;
  namespace?: string;
  data: Record<string, string>;
  manifests: unknown[];
  serverSideApply: boolean;
  prune: boolean;
  ignoreDifferences?: unknown[];
  /** Argo CD's server-side diff (the Application's `argocd.argoproj.io/compare-options: ServerSideDiff=true`). */
  serverSideDiff?: boolean;
  timeoutSeconds?: number;
  verbose?: boolean;
}): Promise<SyncOutcome> {
  const bin = argocdEngineBinary();
  if (!bin) throw new Error('argocd-engine is not built');
  const log = LOG ? fs.openSync(LOG, 'a') : undefined;
  try {
    const child = spawn(bin, ['sync'], { env, stdio: ['pipe', 'pipe', log ?? 'pipe'], timeout: ((request.timeoutSeconds ?? 600) + 120) * 1000 });
    let out = '';
    let err = '';
    child.stdout!.setEncoding('utf8').on('data', (t: string) => { out += t; });
    child.stderr?.setEncoding('utf8').on('data', (t: string) => { err += t; });
    const done = new Promise<number | string>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code, signal) => resolve(code ?? signal ?? 'unknown'));
    });
    child.stdin!.end(JSON.stringify({ verbose: LOG !== undefined, ...request }));
    const code = await done;
    if (code !== 0) throw new Error(`argocd-engine sync failed (${code}): ${log !== undefined ? `see ${LOG}` : err}`);
    return JSON.parse(out);
  } finally {
    if (log !== undefined) fs.closeSync(log);
  }
}

/** `describe(name, fn)` when argocd-engine can run; otherwise one skipped test saying why. */
export function describeWithArgoCd(name: string, fn: () => void): void {
  if (argocdEngineBinary()) {
    describe(name, fn);
    return;
  }
  describe(name, () => {
    test.skip(`${SKIPPED_GROUP}the Go toolchain (go) is not on PATH to build test/argocd`, () => undefined);
  });
}
