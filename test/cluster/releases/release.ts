/**
 * What the releases tier (test:cluster:releases) shares: the control plane of
 * one OpenKruise or Kruise Rollouts release as the tier installs it, the
 * released manager of that release (built by build-manager.sh or
 * build-rollout-manager.sh for its version, on a cluster of the file's own:
 * cluster.ts), and the corpus judge: every object of a corpus created with a
 * server-side dry run through the release's real webhooks, against our
 * admission with that release as the target. Generated cases have their own
 * judge (judge.ts).
 */
import { App, Chart } from 'cdk8s';
import { KruiseControlPlane, KruiseRolloutControlPlane } from '../../../src';
import { judgeManifest } from '../../../src/admission/judge';
import { ALL_KINDS, KindModel, crdName, renderCrd } from '../../../src/api';
import { sortKeys } from '../../../src/api/crd';
import { contextFromFlags } from '../../../src/releases/flags';
import { kindsOfLine } from '../../../src/releases/model';
import { Product, lineOf } from '../../../src/releases/registry';
import { Kube, Manifest, describeObject } from '../kube';
import { Managers, ManagerProcess, managerSpec, installControlPlane, waitWebhooksPatched } from '../manager';
import { RolloutManagerProcess, RolloutManagers, rolloutManagerSpec } from '../rollout-manager';
import { Synth, synthApp } from '../sources';
import { Verdict, tally } from '../verdicts';
import { builtBinary } from './cluster';
import { pool } from './judge';

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x));

/** The releases the tier runs, the build script and version of each one's manager, and the line its control plane is rendered for. */
export const RELEASES = {
  'openkruise-1.9.1': { product: 'openkruise', line: '1.9', version: '1.9.1', build: ['build-manager.sh', 'v1.9.1'] },
  'openkruise-1.9.0': { product: 'openkruise', line: '1.9', version: '1.9.0', build: ['build-manager.sh', 'v1.9.0'] },
  'openkruise-1.8.4': { product: 'openkruise', line: '1.8', version: '1.8.4', build: ['build-manager.sh', 'v1.8.4'] },
  'openkruise-1.7.4': { product: 'openkruise', line: '1.7', version: '1.7.4', build: ['build-manager.sh', 'v1.7.4'] },
  'rollouts-0.6.2': { product: 'rollouts', line: '0.6', version: '0.6.2', build: ['build-rollout-manager.sh', 'v0.6.2'] },
  'rollouts-0.5.5': { product: 'rollouts', line: '0.5', version: '0.5.5', build: ['build-rollout-manager.sh', 'v0.5.5'] },
} as const;
export type ReleaseKey = keyof typeof RELEASES;

/** The released manager binary of a release, built on first use by its build script (cached by content hash). */
export function managerBinary(key: ReleaseKey): string {
  const [script, version] = RELEASES[key].build;
  return builtBinary(script, version);
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
 * ImagePullJobGate on, and, where the line's chart installs the kind, the
 * EphemeralJob webhook registered. The charts of 1.7 and 1.8 install no
 * EphemeralJob CRD (and the library refuses `validateEphemeralJobs` there):
 * their clusters answer an EphemeralJob as a cluster without the kind does
 * (404), and our admission refuses it.
 */
export function kruiseJudgingSynth(line: string): { library: Synth; installed: Synth } {
  const withJobs = !(lineOf('openkruise', line)?.chartLeavesOut ?? []).includes('EphemeralJob');
  const library = judgingControlPlane(line, withJobs);
  return { library, installed: asRelease(library, 'openkruise', line) };
}

/** The kinds whose CRD a line's chart does not install (its clusters have no such kind). */
export function kindsLeftOut(line: string): readonly string[] {
  return lineOf('openkruise', line)?.chartLeavesOut ?? [];
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

/** One object of a corpus, with what we say of it and, when the webhook may differ on purpose, why. */
export interface JudgedCase {
  readonly id: string;
  readonly manifest: Manifest;
  readonly stricter?: string;
  readonly clusterSkip?: string;
}

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
  // dry runs store nothing: many at a time
  const verdicts: Verdict[] = await pool(cases, 8, async c => {
    const { errors } = judgeManifest(c.manifest, ctx);
    return {
      id: c.id,
      object: describeObject(c.manifest),
      ours: { allowed: errors.length === 0, message: errors[0] },
      webhook: await webhookVerdict(kube, c.manifest, namespace),
      stricter: c.stricter,
      clusterSkip: c.clusterSkip,
    };
  });
  const { disagree } = tally(`release judge ${key}`, `release-judge-${key}.json`, verdicts, { release: key });
  return { verdicts, disagree };
}
