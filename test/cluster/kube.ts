/**
 * A small Kubernetes API client for the cluster tier: server-side apply,
 * get, patch and delete over HTTPS with the admin client certificate that
 * test/cluster/cluster.sh generated, resource discovery, and kubectl for
 * what only kubectl does (client-side apply).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as https from 'https';
import * as path from 'path';

/** The manager name this library's objects are applied with. */
export const FIELD_MANAGER = 'cdk8s-kruise';

export type Manifest = Record<string, any>;

/** The cluster started by cluster.sh, from its environment. */
export interface ClusterEnv {
  readonly server: string;
  readonly dir: string;
  readonly kubectl: string;
  readonly kubeconfig: string;
}

/** The cluster this run talks to; throws one clear line when there is none. */
export function clusterEnv(): ClusterEnv {
  const { CLUSTER_SERVER, CLUSTER_DIR, CLUSTER_BIN, KUBECONFIG } = process.env;
  if (!CLUSTER_SERVER || !CLUSTER_DIR || !CLUSTER_BIN || !KUBECONFIG) {
    throw new Error('cluster tier: no cluster in the environment; run it with `npx projen test:cluster` (test/cluster/cluster.sh starts one)');
  }
  return { server: CLUSTER_SERVER, dir: CLUSTER_DIR, kubectl: path.join(CLUSTER_BIN, 'kubectl'), kubeconfig: KUBECONFIG };
}

/** An API response. */
export interface Response {
  readonly status: number;
  readonly body: any;
}

/** Where a kind lives in the API. */
export interface ResourceInfo {
  readonly plural: string;
  readonly namespaced: boolean;
}

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

/** `kind/name` (namespace) apiVersion: how an object is named in messages. */
export function describeObject(m: Manifest): string {
  const ns = m.metadata?.namespace ? ` in namespace ${m.metadata.namespace}` : '';
  return `${m.kind}/${m.metadata?.name} (${m.apiVersion})${ns}`;
}

export class Kube {
  private readonly agent: https.Agent;
  private readonly url: URL;
  private readonly resources = new Map<string, ResourceInfo>();

  /** @param maxSockets connections kept to the API server (requests beyond them wait for one) */
  constructor(public readonly env: ClusterEnv = clusterEnv(), maxSockets = 4) {
    const read = (f: string) => fs.readFileSync(path.join(env.dir, f));
    this.agent = new https.Agent({ ca: read('ca.crt'), cert: read('admin.crt'), key: read('admin.key'), keepAlive: true, maxSockets });
    this.url = new URL(env.server);
  }

  /** Close the connection pool (call in afterAll). */
  public close() {
    this.agent.destroy();
  }

  /**
   * One HTTP request; the body is parsed as JSON when it is JSON. A request
   * sent on a kept-alive connection the API server had just closed (it never
   * reached the server: EPIPE or ECONNRESET on a reused socket) is sent again
   * on a new one, at most twice.
   */
  public async request(method: string, apiPath: string, body?: unknown, contentType = 'application/json'): Promise<Response> {
    const payload = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.send(method, apiPath, payload, contentType);
      } catch (e: any) {
        if (!(e?.reusedSocket && ['EPIPE', 'ECONNRESET'].includes(e.code)) || attempt >= 2) throw e;
      }
    }
  }

  private send(method: string, apiPath: string, payload: Buffer | undefined, contentType: string): Promise<Response> {
    return new Promise((resolve, reject) => {
      const req = https.request({
        agent: this.agent,
        host: this.url.hostname,
        port: this.url.port,
        method,
        path: apiPath,
        headers: {
          Accept: 'application/json',
          ...(payload ? { 'Content-Type': contentType, 'Content-Length': payload.length } : {}),
        },
      }, res => {
        const chunks: Buffer[] = [];
        res.on('data', c => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf-8');
          let parsed: unknown = text;
          try { parsed = JSON.parse(text); } catch { /* not JSON */ }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      });
      req.on('error', (e: any) => reject(Object.assign(e, { reusedSocket: req.reusedSocket })));
      req.setTimeout(60_000, () => req.destroy(new Error(`cluster tier: ${method} ${apiPath} timed out after 60 s`)));
      if (payload) req.write(payload);
      req.end();
    });
  }

  /** Forget discovery results (after CRDs change). */
  public forgetDiscovery() {
    this.resources.clear();
  }

  private async discover(apiVersion: string): Promise<void> {
    const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    const res = await this.request('GET', base);
    if (res.status !== 200) return;
    for (const r of res.body.resources ?? []) {
      if (String(r.name).includes('/')) continue; // subresources
      this.resources.set(`${apiVersion}|${r.kind}`, { plural: r.name, namespaced: r.namespaced });
    }
  }

  /** Where a kind is served; waits up to 30 s for a kind a new CRD adds. */
  public async resource(apiVersion: string, kind: string): Promise<ResourceInfo> {
    const key = `${apiVersion}|${kind}`;
    for (let attempt = 0; attempt < 60; attempt++) {
      const hit = this.resources.get(key);
      if (hit) return hit;
      await this.discover(apiVersion);
      if (this.resources.has(key)) continue;
      await sleep(500);
    }
    throw new Error(`cluster tier: the API server does not serve ${kind} in ${apiVersion}`);
  }

  /** The REST path of an object (of its collection when name is omitted). */
  public async pathOf(m: Manifest, name: string | undefined = m.metadata?.name): Promise<string> {
    const info = await this.resource(m.apiVersion, m.kind);
    const base = String(m.apiVersion).includes('/') ? `/apis/${m.apiVersion}` : `/api/${m.apiVersion}`;
    const ns = info.namespaced ? `/namespaces/${encodeURIComponent(m.metadata?.namespace ?? 'default')}` : '';
    return `${base}${ns}/${info.plural}${name ? `/${encodeURIComponent(name)}` : ''}`;
  }

  /**
   * Server-side apply of one object, with strict field validation (unknown or
   * duplicate fields are errors, not silently pruned).
   */
  public async apply(m: Manifest, o: { fieldManager?: string; dryRun?: boolean; force?: boolean } = {}): Promise<Response> {
    const q = new URLSearchParams({ fieldManager: o.fieldManager ?? FIELD_MANAGER, fieldValidation: 'Strict' });
    if (o.force ?? true) q.set('force', 'true');
    if (o.dryRun) q.set('dryRun', 'All');
    return this.request('PATCH', `${await this.pathOf(m)}?${q}`, m, 'application/apply-patch+yaml');
  }

  public async get(m: Manifest): Promise<Response> {
    return this.request('GET', await this.pathOf(m));
  }

  /** A JSON merge patch, as a controller writes runtime values. */
  public async mergePatch(m: Manifest, patch: unknown, fieldManager: string): Promise<Response> {
    const q = new URLSearchParams({ fieldManager });
    return this.request('PATCH', `${await this.pathOf(m)}?${q}`, patch, 'application/merge-patch+json');
  }

  public async delete(m: Manifest): Promise<Response> {
    return this.request('DELETE', await this.pathOf(m));
  }

  /** Wait until a GET of the object answers 404. */
  public async waitGone(m: Manifest, timeoutMs = 60_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      if ((await this.get(m)).status === 404) return;
      await sleep(250);
    }
    throw new Error(`cluster tier: ${describeObject(m)} still exists ${timeoutMs / 1000} s after delete`);
  }

  /**
   * Make sure a namespace exists. One that exists is left alone: applying a
   * bare Namespace again with the same field manager would remove the labels
   * a test gave it.
   */
  public async ensureNamespace(name: string): Promise<void> {
    if ((await this.request('GET', `/api/v1/namespaces/${name}`)).status === 200) return;
    const res = await this.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, { fieldManager: 'cluster-tier' });
    if (res.status >= 300) throw new Error(`cluster tier: cannot create namespace ${name}: ${res.status} ${res.body?.message ?? res.body}`);
  }

  /** Wait until a CustomResourceDefinition is Established (its API is served). */
  public async waitEstablished(crdName: string, timeoutMs = 60_000): Promise<Manifest> {
    const until = Date.now() + timeoutMs;
    let last: any;
    while (Date.now() < until) {
      const res = await this.request('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crdName}`);
      last = res.body;
      const conditions: any[] = res.body?.status?.conditions ?? [];
      if (conditions.some(c => c.type === 'Established' && c.status === 'True')) return res.body;
      await sleep(250);
    }
    throw new Error(`cluster tier: CRD ${crdName} not Established within ${timeoutMs / 1000} s: ${JSON.stringify(last?.status?.conditions)}`);
  }

  /** Run kubectl against this cluster; never throws, returns its outcome. */
  public kubectl(args: string[], input?: string): { status: number; stdout: string; stderr: string } {
    const r = spawnSync(this.env.kubectl, ['--kubeconfig', this.env.kubeconfig, ...args], { input, encoding: 'utf-8', timeout: 120_000 });
    if (r.error) throw new Error(`cluster tier: kubectl could not run: ${r.error.message}`);
    return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  }
}

/** Namespaces first, CRDs next, then everything else in the given order. */
export function applyOrder(objects: Manifest[]): Manifest[] {
  const rank = (m: Manifest) => (m.kind === 'Namespace' ? 0 : m.kind === 'CustomResourceDefinition' ? 1 : 2);
  return objects.map((m, i) => [m, i] as const).sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1]).map(([m]) => m);
}

/** The outcome of applying one object. */
export interface Applied {
  readonly object: Manifest;
  readonly response: Response;
}

/** A rejection in a readable form: the object, the status and the server's message. */
export function describeRejection(a: Applied): string {
  const msg = typeof a.response.body === 'string' ? a.response.body : a.response.body?.message ?? JSON.stringify(a.response.body);
  return `${describeObject(a.object)} rejected (HTTP ${a.response.status}): ${msg}\n--- object:\n${JSON.stringify(a.object, null, 2)}`;
}

/**
 * The objects a second apply changed (new resourceVersion or generation),
 * one line each with the managers before and after. An object whose YAML
 * sets nothing but its name owns no field, so the server records no manager
 * for it; where the server defaults fields of the kind (a Secret's type, a
 * Namespace's label), the next apply rewrites it to add a
 * `before-first-apply` manager: the line says so.
 */
export function changedObjects(first: Applied[], again: Applied[], fieldManager = FIELD_MANAGER): string[] {
  const out: string[] = [];
  const managers = (a: Applied) => (a.response.body?.metadata?.managedFields ?? []).map((f: any) => `${f.manager}/${f.operation}`).join(',');
  again.forEach((a, i) => {
    const before = first[i]?.response.body?.metadata;
    const after = a.response.body?.metadata;
    if (before?.resourceVersion === after?.resourceVersion && before?.generation === after?.generation) return;
    const unowned = !(first[i]?.response.body?.metadata?.managedFields ?? []).some((f: any) => f.manager === fieldManager);
    out.push(`${describeObject(a.object)}: resourceVersion ${before?.resourceVersion} -> ${after?.resourceVersion}, `
      + `generation ${before?.generation} -> ${after?.generation}, managers [${managers(first[i])}] -> [${managers(a)}]`
      + (unowned ? `; the object sets no field but its name, so ${fieldManager} owned nothing after the first apply: give it a label` : ''));
  });
  return out;
}

/**
 * Apply a set of objects as one synth: Namespaces and CRDs first (the CRDs
 * waited for until Established), then the namespaces the other objects use
 * that the set does not declare, then everything else. Returns every
 * outcome; a rejection does not stop the others.
 */
export async function applyAll(kube: Kube, objects: Manifest[], o: { fieldManager?: string; dryRun?: boolean } = {}): Promise<Applied[]> {
  const out: Applied[] = [];
  const ordered = applyOrder(objects);
  const first = ordered.filter(m => m.kind === 'Namespace' || m.kind === 'CustomResourceDefinition');
  const rest = ordered.filter(m => !first.includes(m));
  for (const m of first) out.push({ object: m, response: await kube.apply(m, o) });
  const crds = out.filter(a => a.object.kind === 'CustomResourceDefinition' && a.response.status < 300);
  if (crds.length > 0 && !o.dryRun) {
    for (const a of crds) await kube.waitEstablished(a.object.metadata.name);
    kube.forgetDiscovery();
  }
  const declared = new Set(first.filter(m => m.kind === 'Namespace').map(m => m.metadata.name));
  const used = new Set<string>();
  for (const m of rest) {
    const info = await kube.resource(m.apiVersion, m.kind);
    if (info.namespaced) used.add(m.metadata?.namespace ?? 'default');
  }
  for (const ns of [...used].sort()) if (!declared.has(ns)) await kube.ensureNamespace(ns);
  for (const m of rest) out.push({ object: m, response: await kube.apply(m, o) });
  return out;
}
