/**
 * The judge of generated cases (test/generate): each case goes to the
 * release's real kube-apiserver and webhooks and through `cdk8s-kruise check`
 * targeting the same release, in process (`checkMain`, the CLI's own code,
 * reading the case as the CLI reads a file or standard input).
 *
 * - create: a server-side dry-run create, strict field validation (as kubectl
 *   sends it);
 * - update: the case's old object created for real, then the changed object
 *   sent as a dry-run update (PUT with the stored resourceVersion), then the
 *   old object deleted (its finalizers taken off if any hold it); `check`
 *   judges the pair with `--old-live` holding the old object;
 * - yaml: the text given to the real kubectl (`kubectl apply --dry-run=server
 *   -f`, strict field validation, its default) and to `check -` as standard
 *   input.
 *
 * Creates and YAML run many at a time (the requests batched over a pool of
 * connections); updates run one at a time, since a created object is cluster
 * state other cases would read (a SidecarSet, a budget), and a refusal that
 * names only objects already deleted is asked again (`CACHED_SIBLINGS`). A difference is a
 * disagreement unless our refusal declares itself stricter on purpose: its
 * message says the cluster admits the object and why we refuse it anyway
 * (`DECLARED_STRICTER`).
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { applyPatch, asApplied } from '../../../src/admission/apply';
import { ALL_KINDS } from '../../../src/api';
import { checkMain } from '../../../src/check/cli';
import { GenCase } from '../../generate/cases';
import { Kube, Manifest } from '../kube';

/** One side's verdict. */
export interface Outcome {
  readonly allowed: boolean;
  /** HTTP status (webhook side), or the exit code of check / kubectl. */
  readonly status: number;
  readonly message?: string;
}

/** A generated case as both sides judged it. */
export interface GenVerdict {
  readonly id: string;
  readonly index: number;
  readonly seed: number;
  readonly form: GenCase['form'];
  readonly from: string;
  readonly changes: readonly string[];
  readonly ours: Outcome;
  readonly cluster: Outcome;
  /** Not judged: an update whose old object the cluster refused, or a refusal for cluster state (`CLUSTER_STATE`). */
  readonly skipped?: string;
  readonly stricter?: boolean;
  /** `check` threw (never a verdict a user should see): a disagreement. */
  readonly crashed?: boolean;
}

/**
 * A refusal that says it is stricter than the cluster on purpose: the
 * message says the cluster (its webhook, the API server, the release) admits
 * the object, and then why we refuse it anyway.
 */
export const DECLARED_STRICTER = /\badmits\b[^;]*\b(?:but|then)\b/;

/**
 * Refusals that depend on objects of the cluster that no manifest under
 * check holds, which `check` cannot see: the cluster refusing for one of
 * these while we admit is cluster state, not a disagreement (counted apart,
 * as the corpus's `clusterSkip`). Each with the released source line that
 * decides it (the same line in v1.7.4, v1.8.4 and v1.9.0 unless given).
 */
export const CLUSTER_STATE: ReadonlyArray<{ readonly pattern: RegExp; readonly what: string; readonly source: string }> = [
  {
    pattern: /denied the request: no found Pod named /,
    what: 'a ContainerRecreateRequest for a Pod the cluster does not have',
    source: 'pkg/webhook/containerrecreaterequest/mutating/crr_mutating_handler.go:123',
  },
  {
    pattern: /denied the request: (container \S+ not found in Pod|not found \S+ containerStatus in Pod Status)/,
    what: 'a ContainerRecreateRequest for a container the Pod does not have',
    source: 'pkg/webhook/containerrecreaterequest/mutating/crr_mutating_handler.go:180-184 (v1.8.4, v1.9.0: 191-195)',
  },
  {
    pattern: /denied the request: \[?revision: Invalid value: .*Cannot find specific ControllerRevision/,
    what: 'a SidecarSet whose injection revision names a ControllerRevision the cluster does not have',
    source: 'pkg/webhook/sidecarset/validating/sidecarset_create_update_handler.go:202 (v1.8.4, v1.9.0: 203)',
  },
  {
    pattern: /spec\.scaleStrategy\.podsToDelete: Invalid value: "[^"]*": find pod .*?(failed|already terminating|owner is not this CloneSet)/,
    what: 'a CloneSet podsToDelete naming pods that must exist and belong to the CloneSet (a new CloneSet has none)',
    source: 'pkg/webhook/cloneset/validating/validation.go:116-120 (v1.9.0: 123-127)',
  },
];

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x));

/**
 * Refusals that name another object of the same kind, read from the
 * webhook's informer cache, not from the API server: the update cases create
 * and delete objects one after another, and a webhook whose cache has not yet
 * seen a delete judges the next case against an object that is gone. Such a
 * refusal whose every named object the API server answers 404 for is no
 * verdict: ask again (`ClusterSide`). Each gives the names the message holds.
 * The released source that writes each message (v1.9.1's lines; the same
 * messages in v1.7.4 and v1.8.4; Rollouts v0.5.5 and v0.6.2 alike):
 * - Rollout: pkg/webhook/rollout/validating/rollout_create_update_handler.go,
 *   validateRolloutConflict (the cached list of the namespace's Rollouts);
 * - PodUnavailableBudget: pkg/webhook/podunavailablebudget/validating/pub_create_update_handler.go:184-191;
 * - WorkloadSpread: pkg/webhook/workloadspread/validating/workloadspread_validation.go:399-400;
 * - SidecarSet: pkg/webhook/sidecarset/validating/sidecarset_create_update_handler.go:411-446.
 */
export const CACHED_SIBLINGS: ReadonlyArray<RegExp> = [
  /This rollout conflict with Rollout\([^/)\s]+\/([^)\s]+)\)/g,
  /is in conflict with other (?:PodUnavailableBudget|WorkloadSpread) ([^\s",;\]]+)/g,
  /container \S+ already exist in ([^\s",;\]]+)/g,
  /is in conflict with sidecarset ([^\s",;\]]+)/g,
];

/** How often, and how far apart, a refusal that names only objects already gone is asked again. */
const SETTLE_TRIES = 20;
const SETTLE_MS = 250;

/** The names of the other objects a refusal says it conflicts with (`CACHED_SIBLINGS`). */
export function cachedSiblings(message: string | undefined): string[] {
  const names = new Set<string>();
  for (const pattern of CACHED_SIBLINGS) for (const m of String(message ?? '').matchAll(pattern)) names.add(m[1]);
  return [...names];
}

/** The REST collection of a manifest's kind in `namespace` (the model's plural and scope; a version the release lacks answers 404). */
export function collection(m: Manifest, namespace: string): { at: string; namespaced: boolean } | undefined {
  const group = String(m.apiVersion ?? '').split('/')[0];
  const k = ALL_KINDS.find(x => x.group === group && x.kind === m.kind);
  if (!k) return undefined;
  const namespaced = k.scope === 'Namespaced';
  return { at: `/apis/${m.apiVersion}${namespaced ? `/namespaces/${namespace}` : ''}/${k.plural}`, namespaced };
}

/** An API answer as a verdict. */
const refusal = (r: { status: number; body: any }): Outcome =>
  ({ allowed: r.status < 300, status: r.status, message: r.status < 300 ? undefined : String(r.body?.message ?? r.body) });

/** Run at most `n` of `work` at a time, in order of start; results in input order. */
export async function pool<T, R>(items: readonly T[], n: number, work: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= items.length) return;
      out[i] = await work(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return out;
}

/** The cluster's side: requests to the release's API server (counted), and kubectl for text. */
export class ClusterSide {
  /** HTTP requests sent (kubectl's not counted: `kubectlRuns`). */
  public requests = 0;
  public kubectlRuns = 0;

  constructor(private readonly kube: Kube, private readonly namespace: string) {}

  /** One request; one that the connection drops (a kept-alive socket the server closed as it was reused) is sent again, at most 3 times. */
  private async req(method: string, at: string, body?: unknown, contentType?: string) {
    for (let attempt = 0; ; attempt++) {
      this.requests++;
      try {
        const r = await this.kube.request(method, at, body, contentType);
        // a webhook call the machine's load broke (the manager's connection dropped) is no verdict: ask again
        if (r.status === 500 && attempt < 3 && /failed calling webhook .*: (EOF|.*connection reset by peer|.*context deadline exceeded|.*connection refused)/.test(String(r.body?.message))) {
          await new Promise(res => setTimeout(res, 500));
          continue;
        }
        return r;
      } catch (e: any) {
        if (attempt >= 3 || !/socket hang up|ECONNRESET|EPIPE/.test(String(e?.message ?? e))) throw e;
        await new Promise(r => setTimeout(r, 200));
      }
    }
  }

  /** Make sure these namespaces exist (names that are no namespace name are left to fail). */
  public async namespaces(names: readonly string[]): Promise<void> {
    for (const name of [...new Set(names)]) {
      if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name) || name.length > 63) continue;
      if ((await this.req('GET', `/api/v1/namespaces/${name}`)).status === 200) continue;
      await this.req('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    }
  }

  /**
   * Whether a refusal names only objects of `m`'s kind (in `namespace`) that
   * the API server no longer holds (a webhook cache behind a delete:
   * `CACHED_SIBLINGS`); if so, after a pause of SETTLE_MS, so the caller can
   * ask again.
   */
  private async namesOnlyGone(m: Manifest, namespace: string, message: unknown): Promise<boolean> {
    const names = cachedSiblings(String(message ?? ''));
    const c = names.length > 0 ? collection(m, namespace) : undefined;
    if (!c) return false;
    const gone = await Promise.all(names.map(async n => (await this.req('GET', `${c.at}/${encodeURIComponent(n)}`)).status === 404));
    if (!gone.every(Boolean)) return false;
    await new Promise(res => setTimeout(res, SETTLE_MS));
    return true;
  }

  /** Send a request that judges `m`, again while its refusal names only objects already gone (`namesOnlyGone`), at most SETTLE_TRIES times. */
  private async judgedOnSettledCache(m: Manifest, send: () => Promise<{ status: number; body: any }>) {
    for (let attempt = 0; ; attempt++) {
      const r = await send();
      if (r.status < 300 || attempt >= SETTLE_TRIES || !(await this.namesOnlyGone(m, this.namespace, r.body?.message))) return r;
    }
  }

  /** A server-side dry-run create in the judge namespace. */
  public async create(original: Manifest): Promise<Outcome> {
    const m = clone(original);
    const c = collection(m, this.namespace);
    if (!c) return { allowed: false, status: 404, message: `no kind ${m.kind} in ${m.apiVersion}` };
    if (c.namespaced && m.metadata && typeof m.metadata === 'object') m.metadata.namespace = this.namespace;
    return refusal(await this.judgedOnSettledCache(m, () => this.req('POST', `${c.at}?dryRun=All&fieldValidation=Strict`, m)));
  }

  /**
   * Create `old` for real, apply `changed` over it as a dry run as `kubectl
   * apply` does (src/admission/apply.ts: a JSON merge patch from the manifest
   * last applied, `old`'s last-applied annotation, to the new one: fields the
   * cluster set and neither manifest names are kept), delete it again. `old`
   * refused: `{ oldRefused }`. Give `old` as `asApplied` makes it (as `kubectl
   * apply` creates it), and `check` the same object as `--live`.
   */
  public async update(oldObject: Manifest, changed: Manifest): Promise<{ outcome?: Outcome; oldRefused?: Outcome }> {
    const old = clone(oldObject);
    const m = clone(changed);
    const c = collection(old, this.namespace);
    if (!c) return { oldRefused: { allowed: false, status: 404, message: `no kind ${old.kind} in ${old.apiVersion}` } };
    if (c.namespaced) {
      old.metadata.namespace = this.namespace;
      if (m.metadata && typeof m.metadata === 'object') m.metadata.namespace = this.namespace;
    }
    const created = await this.judgedOnSettledCache(old, () => this.req('POST', `${c.at}?fieldValidation=Strict`, old));
    if (created.status >= 300) return { oldRefused: refusal(created) };
    const at = `${c.at}/${encodeURIComponent(old.metadata.name)}`;
    try {
      for (let attempt = 0; ; attempt++) {
        const live = await this.req('GET', at);
        // a controller removed it at once (a NodeImage without its Node): nothing to update
        if (live.status === 404) return { oldRefused: { allowed: false, status: 404, message: 'the old object was removed by its controller before the update' } };
        const patch = applyPatch(old, m);
        // kubectl apply patches the object at the manifest's own version (a version the release does not serve answers 404)
        const next = m.apiVersion !== old.apiVersion ? collection(m, this.namespace) : undefined;
        const patchAt = next ? `${next.at}/${encodeURIComponent(old.metadata.name)}` : at;
        const res = await this.judgedOnSettledCache(old, () => this.req('PATCH', `${patchAt}?dryRun=All&fieldValidation=Strict`, patch, 'application/merge-patch+json'));
        // a controller wrote the object between the read and the update: read it again
        if (res.status === 409 && attempt < 5 && /the object has been modified/.test(String(res.body?.message))) continue;
        // a webhook that reads the object from its manager's cache has not seen the create yet (kruise-rollout-manager v0.5.5): ask again
        if (attempt < 10 && /Internal error: .* not found/.test(String(res.body?.message))) {
          await new Promise(r => setTimeout(r, 500));
          continue;
        }
        if (res.status === 404 && !/admission webhook/.test(String(res.body?.message))) {
          return { oldRefused: { allowed: false, status: 404, message: 'the old object was removed by its controller before the update' } };
        }
        return { outcome: refusal(res) };
      }
    } finally {
      await this.remove(at);
    }
  }

  /** Delete an object and wait (at most 20 s) until it is gone; finalizers that hold it are taken off. */
  public async remove(at: string): Promise<void> {
    await this.req('DELETE', `${at}?propagationPolicy=Background`);
    const until = Date.now() + 20_000;
    for (;;) {
      const live = await this.req('GET', at);
      if (live.status === 404) return;
      if ((live.body?.metadata?.finalizers ?? []).length > 0) await this.req('PATCH', at, { metadata: { finalizers: null } }, 'application/merge-patch+json');
      if (Date.now() > until) throw new Error(`releases tier: ${at} still exists 20 s after delete: ${JSON.stringify(live.body?.metadata)}`);
      await new Promise(r => setTimeout(r, 100));
    }
  }

  /**
   * Texts as `kubectl apply --dry-run=server -f` reads them (strict field
   * validation, its default): one kubectl for a batch, each text a file of
   * its own; a text is admitted when kubectl names no error for its file.
   * A text whose refusal names only objects the API server no longer holds
   * (`CACHED_SIBLINGS`) is asked again alone, given its object (`objects`).
   */
  public async kubectl(texts: readonly string[], objects: ReadonlyArray<Manifest | undefined> = []): Promise<Outcome[]> {
    if (texts.length === 0) return [];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-judge-yaml-'));
    try {
      const files = texts.map((t, i) => {
        const f = path.join(dir, `case-${String(i).padStart(5, '0')}.yaml`);
        fs.writeFileSync(f, t);
        return f;
      });
      const apply = async (some: readonly string[]) => {
        this.kubectlRuns++;
        const args = ['--kubeconfig', this.kube.env.kubeconfig, 'apply', '--dry-run=server', '--validate=strict', ...some.flatMap(f => ['-f', f])];
        return run(this.kube.env.kubectl, args);
      };
      const { code, stdout, stderr } = await apply(files);
      const lines = stderr.split('\n').filter(l => l.trim() !== '');
      const applied = stdout.split('\n').filter(l => l.includes('(server dry run)')).length;
      const named = files.map(f => lines.filter(l => l.includes(f)));
      // kubectl names the file of some refusals only ("The Rollout "web" is invalid: ..." names none): when the lines do
      // not account for every file (an error line of no file, or fewer objects applied than files without one), each
      // such file is asked alone
      const alone = lines.some(l => !files.some(f => l.includes(f))) || applied !== named.filter((n, i) => n.length === 0 && texts[i].trim() !== '').length;
      const out: Outcome[] = [];
      for (const [i, f] of files.entries()) {
        let mine = named[i];
        let status = code;
        const alonePass = async () => {
          const one = await apply([f]);
          status = one.code;
          mine = one.code === 0 ? [] : one.stderr.split('\n').filter(l => l.trim() !== '');
          if (one.code === 0 && !one.stdout.includes('(server dry run)')) mine = ['kubectl printed no object'];
        };
        if (mine.length === 0 && alone && texts[i].trim() !== '') await alonePass();
        const object = objects[i];
        for (let attempt = 0; object && mine.length > 0 && attempt < SETTLE_TRIES; attempt++) {
          if (!(await this.namesOnlyGone(object, object.metadata?.namespace ?? 'default', mine.join('\n')))) break;
          await alonePass();
        }
        out.push(mine.length > 0 ? { allowed: false, status, message: mine.join('\n').split(dir + '/').join('') } : { allowed: true, status: 0 });
      }
      return out;
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}

function run(cmd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    p.stdout.on('data', d => out.push(d));
    p.stderr.on('data', d => err.push(d));
    p.on('error', reject);
    const timer = setTimeout(() => p.kill('SIGKILL'), 300_000);
    p.on('close', code => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout: Buffer.concat(out).toString('utf-8'), stderr: Buffer.concat(err).toString('utf-8') });
    });
  });
}

/** Our side: `cdk8s-kruise check` with the release's flags, on a text given as standard input (and the old object as `--live`). */
export class CheckSide {
  constructor(private readonly flags: string[]) {}

  public judge(text: string, live?: Manifest): Outcome & { warnings: string[]; crashed?: true } {
    let out = '';
    let err = '';
    const args = [...this.flags, '--output', 'json'];
    let liveFile: string | undefined;
    if (live) {
      liveFile = path.join(os.tmpdir(), `release-judge-live-${process.pid}.json`);
      fs.writeFileSync(liveFile, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [live] }));
      args.push('--live', liveFile);
    }
    let code: number;
    try {
      code = checkMain([...args, '-'], { out: t => { out += t; }, err: t => { err += t; }, stdin: () => text });
    } catch (e: any) {
      // check must never throw at a user: a crash is a disagreement whatever the cluster says
      return { allowed: false, status: 70, message: `check crashed: ${String(e?.stack ?? e).split('\n').slice(0, 3).join(' | ')}`, warnings: [], crashed: true };
    } finally {
      if (liveFile) fs.rmSync(liveFile, { force: true });
    }
    if (code === 1) return { allowed: false, status: 1, message: err.trim(), warnings: [] };
    const report = JSON.parse(out);
    const errors: string[] = report.results.flatMap((r: any) => r.errors);
    const warnings: string[] = report.results.flatMap((r: any) => r.warnings);
    return { allowed: code === 0, status: code, message: errors[0], warnings };
  }
}

/** The flags of `check` for a release: the release, and the feature gates of the judging control plane. */
export function checkFlags(product: 'openkruise' | 'rollouts', version: string, gates: Record<string, boolean>): string[] {
  const flags = product === 'openkruise' ? ['--openkruise', version] : ['--rollouts', version];
  const g = Object.entries(gates).map(([k, v]) => `${k}=${v}`).join(',');
  if (product === 'openkruise' && g !== '') flags.push('--feature-gates', g);
  return flags;
}

/** What a judged run measured. */
export interface GenRun {
  readonly verdicts: GenVerdict[];
  readonly disagree: GenVerdict[];
  readonly seconds: number;
  readonly requests: number;
  readonly kubectlRuns: number;
}

/**
 * Judge generated cases: creates and texts `concurrency` at a time (texts in
 * kubectl batches), then updates one at a time.
 */
export async function judgeGenerated(cluster: ClusterSide, ours: CheckSide, cases: readonly GenCase[], concurrency: number): Promise<GenRun> {
  const started = Date.now();
  const requests0 = cluster.requests;
  const kubectl0 = cluster.kubectlRuns;
  const verdicts: GenVerdict[] = new Array(cases.length);
  const base = (c: GenCase) => ({ id: c.id, index: c.index, seed: c.seed, form: c.form, from: c.from, changes: c.changes });
  const finish = (c: GenCase, mine: Outcome & { crashed?: true }, theirs: Outcome): GenVerdict => {
    if (mine.crashed) return { ...base(c), ours: { allowed: false, status: mine.status, message: mine.message }, cluster: theirs, crashed: true };
    const stricter = !mine.allowed && theirs.allowed && DECLARED_STRICTER.test(mine.message ?? '');
    const ourOutcome = { allowed: mine.allowed, status: mine.status, message: mine.message };
    const state = mine.allowed && !theirs.allowed ? CLUSTER_STATE.find(x => x.pattern.test(theirs.message ?? '')) : undefined;
    return { ...base(c), ours: ourOutcome, cluster: theirs, stricter: stricter || undefined, skipped: state ? `cluster state: ${state.what} (${state.source})` : undefined };
  };
  const creates = cases.map((c, i) => [c, i] as const).filter(([c]) => c.form === 'create');
  await pool(creates, concurrency, async ([c, i]) => {
    verdicts[i] = finish(c, ours.judge(JSON.stringify(c.manifest)), await cluster.create(c.manifest));
  });
  const texts = cases.map((c, i) => [c, i] as const).filter(([c]) => c.form === 'yaml');
  const batches: Array<typeof texts> = [];
  for (let i = 0; i < texts.length; i += 50) batches.push(texts.slice(i, i + 50));
  // the namespaces the texts name (kubectl creates in the object's own namespace)
  await cluster.namespaces(texts.map(([c]) => c.manifest?.metadata?.namespace).filter((n): n is string => typeof n === 'string'));
  await pool(batches, Math.max(1, Math.min(2, concurrency)), async batch => {
    const theirs = await cluster.kubectl(batch.map(([c]) => c.yaml!), batch.map(([c]) => c.manifest));
    batch.forEach(([c, i], k) => { verdicts[i] = finish(c, ours.judge(c.yaml!), theirs[k]); });
  });
  for (const [c, i] of cases.map((x, k) => [x, k] as const).filter(([x]) => x.form === 'update')) {
    const applied = clone(c.old!);
    // an update keeps the object's name: a change of the name makes the old object carry it too
    if (c.manifest.metadata && typeof c.manifest.metadata === 'object' && typeof c.manifest.metadata.name === 'string') applied.metadata.name = c.manifest.metadata.name;
    // created as kubectl apply creates it
    const old = asApplied(applied);
    const r = await cluster.update(old, c.manifest);
    if (r.oldRefused) {
      const skipped = `the cluster refused the old object: ${r.oldRefused.message}`;
      verdicts[i] = { ...base(c), ours: { allowed: false, status: -1 }, cluster: r.oldRefused, skipped };
      continue;
    }
    verdicts[i] = finish(c, ours.judge(JSON.stringify(c.manifest), old), r.outcome!);
  }
  const disagree = verdicts.filter(v => v.crashed || (!v.skipped && v.ours.allowed !== v.cluster.allowed && !v.stricter));
  const seconds = (Date.now() - started) / 1000;
  return { verdicts, disagree, seconds, requests: cluster.requests - requests0, kubectlRuns: cluster.kubectlRuns - kubectl0 };
}
