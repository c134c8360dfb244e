/**
 * What the releases tier (test:cluster:releases) shares: the control plane of
 * one OpenKruise or Kruise Rollouts release as the tier installs it, the
 * released manager of that release (cluster.sh with CLUSTER_RELEASES=1
 * provides v1.8.4, v1.7.4 and v0.5.5 beside the tier's v1.9.0 and v0.6.2),
 * and the judge: every object of a corpus created with a server-side dry run
 * through the release's real webhooks, against our admission with that
 * release as the target.
 */
import { App, Chart } from 'cdk8s';
import { KruiseControlPlane, KruiseRolloutControlPlane } from '../../../src';
import { judgeManifest } from '../../../src/admission/judge';
import { ALL_KINDS, KindModel, crdName, renderCrd } from '../../../src/api';
import { sortKeys } from '../../../src/api/crd';
import { contextFromFlags } from '../../../src/releases/flags';
import { kindsOfLine } from '../../../src/releases/model';
import { Product } from '../../../src/releases/registry';
import { Kube, Manifest, describeObject } from '../kube';
import { Managers, ManagerProcess, managerSpec, installControlPlane, waitWebhooksPatched } from '../manager';
import { RolloutManagerProcess, RolloutManagers, rolloutManagerSpec } from '../rollout-manager';
import { Synth, synthApp } from '../sources';
import { Verdict, tally } from '../verdicts';

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x));

/** The releases the tier runs, the binary of each (from cluster.sh) and the line its control plane is rendered for. */
export const RELEASES = {
  'openkruise-1.9.0': { product: 'openkruise', line: '1.9', version: '1.9.0', env: 'CLUSTER_KRUISE_MANAGER_1_9_0' },
  'openkruise-1.8.4': { product: 'openkruise', line: '1.8', version: '1.8.4', env: 'CLUSTER_KRUISE_MANAGER_1_8' },
  'openkruise-1.7.4': { product: 'openkruise', line: '1.7', version: '1.7.4', env: 'CLUSTER_KRUISE_MANAGER_1_7' },
  'rollouts-0.6.2': { product: 'rollouts', line: '0.6', version: '0.6.2', env: 'CLUSTER_ROLLOUT_MANAGER' },
  'rollouts-0.5.5': { product: 'rollouts', line: '0.5', version: '0.5.5', env: 'CLUSTER_ROLLOUT_MANAGER_0_5' },
} as const;
export type ReleaseKey = keyof typeof RELEASES;

/** The released manager binary of a release. */
export function managerBinary(key: ReleaseKey): string {
  const env = RELEASES[key].env;
  const bin = process.env[env];
  if (!bin) throw new Error(`cluster tier: ${env} is not set; run the releases tier with \`npx projen test:cluster:releases\` (cluster.sh with CLUSTER_RELEASES=1)`);
  return bin;
}

/**
 * A synth with the CRDs and webhook paths of a release where the library's
 * rendering has another release's: each CRD is the release's model (labels,
 * annotations and a conversion webhook kept where the release's CRD serves
 * more than one version); a webhook of a kind the release serves in
 * v1alpha1 only takes the release's path (`/mutate-apps-kruise-io-v1alpha1-<kind>`:
 * 1.9 dropped the version from the paths of the kinds it gave a v1beta1) and
 * version, and the `template` annotation kruise-manager rebuilds its
 * webhooks from follows. The same objects when the library already renders
 * the release.
 */
export function asRelease(s: Synth, product: Product, line: string): Synth {
  const kinds = kindsOfLine(product, line);
  const byCrd = new Map(kinds.map(k => [crdName(k), k] as const));
  const objects: Manifest[] = [];
  for (const o of s.objects) {
    if (o.kind === 'CustomResourceDefinition' && String(o.spec?.group).endsWith('kruise.io')) {
      const k = byCrd.get(o.metadata.name);
      if (!k) continue;
      const crd = renderCrd(k, { labels: o.metadata.labels, annotations: o.metadata.annotations });
      if (o.spec.conversion?.strategy === 'Webhook' && crd.spec.versions.length > 1) crd.spec = sortKeys({ ...crd.spec, conversion: o.spec.conversion });
      else delete crd.spec.conversion;
      objects.push(crd);
    } else if (product === 'openkruise' && (o.kind === 'MutatingWebhookConfiguration' || o.kind === 'ValidatingWebhookConfiguration')) {
      const m = clone(o);
      for (const w of m.webhooks ?? []) {
        const rule = w.rules?.[0];
        const k = kinds.find(x => rule?.apiGroups?.includes(x.group) && rule?.resources?.includes(x.plural));
        if (!k || k.versions.some(v => v.name === 'v1beta1') || !rule.apiVersions.includes('v1beta1')) continue;
        const p: string = w.clientConfig.service.path;
        w.clientConfig.service.path = p.replace(/^\/(mutate|validate)-apps-kruise-io-/, '/$1-apps-kruise-io-v1alpha1-');
        rule.apiVersions = ['v1alpha1'];
      }
      if (m.metadata.annotations?.template !== undefined) m.metadata.annotations.template = JSON.stringify(m.webhooks.map((h: any) => sortKeys(h)));
      objects.push(m);
    } else {
      objects.push(o);
    }
  }
  const out = { name: `${s.name}, with the CRDs and webhooks of ${product} ${line}`, files: s.files, objects };
  return sameObjects(out, s) ? s : out;
}

/** Whether two synths hold the same objects. */
export function sameObjects(a: Synth, b: Synth): boolean {
  return JSON.stringify(a.objects) === JSON.stringify(b.objects);
}

/** The feature gates of a synthesized kruise-manager Deployment (`--feature-gates`). */
export function gatesOf(s: Synth): Record<string, boolean> {
  const spec = managerSpec(s);
  const flag = spec.args.find(a => a.startsWith('--feature-gates='))?.slice('--feature-gates='.length) ?? '';
  return Object.fromEntries(flag.split(',').filter(x => x !== '').map(x => {
    const [gate, value] = x.split('=');
    return [gate, value === 'true'];
  }));
}

/** A kruise-manager control plane with ResourceDistributionGate and ImagePullJobGate on (off, their webhooks refuse every object of the kind). */
function judgingControlPlane(line: string, validateEphemeralJobs: boolean): Synth {
  return synthApp(`KruiseControlPlane (release ${line}, ResourceDistributionGate and ImagePullJobGate on${validateEphemeralJobs ? ', EphemeralJobs validated' : ''})`, (app: App) => {
    new KruiseControlPlane(new Chart(app, 'kruise'), 'kruise', {
      release: line,
      featureGates: { ResourceDistributionGate: true, ImagePullJobGate: true },
      validateEphemeralJobs,
    });
    return app;
  });
}

/**
 * The OpenKruise control plane that judges: ResourceDistributionGate and
 * ImagePullJobGate on, and on 1.9 the EphemeralJob webhook registered. The
 * charts of 1.7 and 1.8 install no EphemeralJob CRD (nor does the library's
 * control plane of those lines), so there an EphemeralJob is judged as such
 * a cluster judges it: it has no resource (404), and our admission refuses it.
 */
export function kruiseJudgingSynth(line: string): { library: Synth; installed: Synth } {
  const library = judgingControlPlane(line, line === '1.9');
  return { library, installed: asRelease(library, 'openkruise', line) };
}

/** The Kruise Rollouts control plane of a line. */
export function rolloutsSynth(line: string): { library: Synth; installed: Synth } {
  const library = synthApp(`KruiseRolloutControlPlane (release ${line})`, (app: App) => {
    new KruiseRolloutControlPlane(new Chart(app, 'kruise-rollout'), 'rollout', { release: line });
    return app;
  });
  return { library, installed: asRelease(library, 'rollouts', line) };
}

/** Install a release's OpenKruise control plane and start its released kruise-manager: ready, leading, every webhook's caBundle written. */
export async function runKruiseRelease(kube: Kube, key: ReleaseKey, s: Synth): Promise<{ managers: Managers; leader: ManagerProcess }> {
  await installControlPlane(kube, s);
  const managers = new Managers(kube, managerSpec(s), `kruise-manager-${RELEASES[key].version}`, managerBinary(key));
  const p = await managers.start();
  await managers.waitReady(p);
  const leader = await managers.waitLeader();
  await waitWebhooksPatched(kube, s);
  return { managers, leader };
}

/** Install a release's Kruise Rollouts control plane and start its released kruise-rollout-manager. */
export async function runRolloutsRelease(
  kube: Kube, key: ReleaseKey, s: Synth,
): Promise<{ managers: RolloutManagers; leader: RolloutManagerProcess }> {
  await installControlPlane(kube, s);
  const managers = new RolloutManagers(kube, rolloutManagerSpec(s), managerBinary(key));
  const p = await managers.start();
  await managers.waitReady(p);
  const leader = await managers.waitLeader();
  await waitWebhooksPatched(kube, s);
  return { managers, leader };
}

/**
 * Take a control plane away once its managers are stopped: the webhook
 * configurations first (nothing answers them any more), then the CRDs (the
 * next release installs its own; a CRD cannot drop a version it stored), each
 * waited for until gone. A deletion not taken is sent again, once a second. A
 * CRD the API server's clean-up has not removed within 120 s although it holds
 * no object any more (CI met one, with the machine loaded) has its finalizer
 * taken off, with a line saying so, since the next release's files need the
 * name free; one that still holds objects fails with its conditions.
 */
export async function uninstall(kube: Kube, s: Synth): Promise<void> {
  await removeAll(kube, s.objects.filter(m => m.kind.endsWith('WebhookConfiguration') || m.kind === 'CustomResourceDefinition'));
}

/** Delete objects in order and wait until every one is gone, as `uninstall` says. */
export async function removeAll(kube: Kube, toRemove: Manifest[]): Promise<void> {
  let left = toRemove;
  const last = new Map<Manifest, Manifest | string>();
  const until = Date.now() + 120_000;
  while (left.length > 0 && Date.now() < until) {
    const next: Manifest[] = [];
    for (const m of left) {
      const r = await kube.delete(m);
      if (r.status === 404) continue;
      last.set(m, r.status < 300 ? r.body : `HTTP ${r.status} ${r.body?.message ?? JSON.stringify(r.body)}`);
      next.push(m);
    }
    left = next;
    if (left.length > 0) await sleep(1000);
  }
  for (const m of left) {
    const answer = last.get(m);
    const conditions = typeof answer === 'string' ? answer : JSON.stringify(answer?.status?.conditions ?? []);
    const objects = m.kind === 'CustomResourceDefinition' ? await instances(kube, m) : undefined;
    if (objects !== 0) {
      throw new Error(`cluster tier: ${describeObject(m)} still exists 120 s after delete (${objects ?? '?'} objects left): ${conditions}`);
    }
    console.log(`release tier: ${describeObject(m)} holds no object but is still terminating 120 s after delete; its finalizer is taken off: ${conditions}`);
    await kube.mergePatch(m, { metadata: { finalizers: null } }, 'cluster-tier');
    await kube.waitGone(m, 30_000);
  }
  kube.forgetDiscovery();
}

/** How many objects of a CRD's kind are left, in its storage version, or undefined when the list fails. */
async function instances(kube: Kube, crd: Manifest): Promise<number | undefined> {
  const version = (crd.spec.versions as any[]).find(v => v.storage)?.name;
  const r = await kube.request('GET', `/apis/${crd.spec.group}/${version}/${crd.spec.names.plural}`);
  return r.status === 200 ? (r.body.items ?? []).length : undefined;
}

/** One object of a corpus, with what we say of it and, when the webhook may differ on purpose, why. */
export interface JudgedCase {
  readonly id: string;
  readonly manifest: Manifest;
  readonly stricter?: string;
  readonly clusterSkip?: string;
}


const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

const kindOf = (m: Manifest): KindModel | undefined => ALL_KINDS.find(k => `${k.group}` === String(m.apiVersion).split('/')[0] && k.kind === m.kind);

/**
 * Dry-run create in `namespace`, through the release's webhooks. The path is
 * the kind's (the model's plural and scope), not the server's discovery: a
 * version the release does not serve answers 404, the server's own refusal.
 */
async function webhookVerdict(kube: Kube, original: Manifest, namespace: string): Promise<Verdict['webhook']> {
  const m = clone(original);
  const k = kindOf(m);
  if (!k) throw new Error(`cluster tier: ${describeObject(m)} is not a kind of the model`);
  const namespaced = k.scope === 'Namespaced';
  if (namespaced) m.metadata.namespace = namespace;
  const at = `/apis/${m.apiVersion}${namespaced ? `/namespaces/${namespace}` : ''}/${k.plural}`;
  const res = await kube.request('POST', `${at}?dryRun=All&fieldValidation=Strict`, m);
  return { allowed: res.status < 300, status: res.status, message: res.status < 300 ? undefined : (res.body?.message ?? String(res.body)) };
}

/**
 * Judge a corpus on one release: our verdict (admission with the release as
 * the target, the control plane's feature gates) against the real webhook's.
 * Prints each difference and a tally, writes them to
 * .cache/cluster-tier/release-judge-<release>.json; returns the disagreements
 * (a difference neither `stricter` nor `clusterSkip` excuses).
 */
export async function judgeCorpus(
  kube: Kube, key: ReleaseKey, cases: JudgedCase[], gates: Record<string, boolean>, namespace: string,
): Promise<{ verdicts: Verdict[]; disagree: Verdict[] }> {
  const r = RELEASES[key];
  const ctx = contextFromFlags(r.product === 'openkruise' ? { openkruise: r.version, featureGates: gates } : { rollouts: r.version });
  const verdicts: Verdict[] = [];
  for (const c of cases) {
    const { errors } = judgeManifest(c.manifest, ctx);
    verdicts.push({
      id: c.id,
      object: describeObject(c.manifest),
      ours: { allowed: errors.length === 0, message: errors[0] },
      webhook: await webhookVerdict(kube, c.manifest, namespace),
      stricter: c.stricter,
      clusterSkip: c.clusterSkip,
    });
  }
  const { disagree } = tally(`release judge ${key}`, `release-judge-${key}.json`, verdicts, { release: key });
  return { verdicts, disagree };
}
