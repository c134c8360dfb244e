/**
 * AKS under GitOps, with the released kruise-manager. AKS's Admissions
 * Enforcer adds two namespaceSelector terms, `control-plane NotIn ["true"]` and
 * `kubernetes.azure.com/managedby NotIn ["aks"]`, to every webhook that lacks
 * them (openkruise/charts issue #155). There is no AKS here: what the enforcer
 * writes is written by a field manager of its name, as the terms chart 1.9.1's
 * `aksIntegration` renders (the chart's author's fix for the issue) and no
 * more. What is real is what kruise-manager and the API server do with them:
 *
 * - without `aksIntegration`, kruise-manager rebuilds its webhooks from their
 *   `template` annotation and takes the terms away again (the loop of the
 *   issue), so an engine that compares what it applies with the live object
 *   sees a difference every time the enforcer has been;
 * - with `aksIntegration`, the terms are ours: kruise-manager keeps them, the
 *   enforcer finds nothing to add, and a server-side re-apply (as Flux does)
 *   and a comparison (as Argo CD does) find nothing changed but the caBundle
 *   kruise-manager writes.
 */
import { App, Chart } from 'cdk8s';
import { Kube, Manifest } from './kube';
import { Managers, runControlPlane } from './manager';
import { Synth, synthApp } from './sources';
import * as lib from '../../src';

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));
const CONFIGS = ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'];
const AKS_TERMS = [
  { key: 'control-plane', operator: 'NotIn', values: ['true'] },
  { key: 'kubernetes.azure.com/managedby', operator: 'NotIn', values: ['aks'] },
];

let kube: Kube;
let managers: Managers | undefined;

beforeAll(() => {
  kube = new Kube();
});

afterAll(async () => {
  if (managers) await managers.stopAll();
  kube.close();
});

function controlPlane(aksIntegration: boolean): Synth {
  return synthApp(`KruiseControlPlane (aksIntegration ${aksIntegration})`, (app: App) => {
    new lib.KruiseControlPlane(new Chart(app, 'kruise'), 'kruise', { aksIntegration });
    return app;
  });
}

/** Whether a webhook's namespaceSelector excludes what the enforcer excludes. */
const hasAksTerms = (w: any) => {
  const exprs: any[] = w.namespaceSelector?.matchExpressions ?? [];
  return exprs.some(e => e.key === 'control-plane' && e.operator === 'NotIn' && e.values.includes('true'))
    && exprs.some(e => e.key === 'kubernetes.azure.com/managedby' && e.operator === 'NotIn' && e.values.includes('aks'));
};

const live = async (kind: string) => (await kube.request('GET', `/apis/admissionregistration.k8s.io/v1/${kind.toLowerCase()}s/kruise-${kind.startsWith('M') ? 'mutating' : 'validating'}-webhook-configuration`)).body;

/**
 * What the enforcer writes: the two terms on every webhook that lacks them (beside the terms it has), as a server-side
 * apply by a field manager of its name. Returns how many webhooks it changed.
 */
async function enforce(): Promise<number> {
  let changed = 0;
  for (const kind of CONFIGS) {
    const obj = await live(kind);
    const webhooks = (obj.webhooks as any[]).filter(w => !hasAksTerms(w)).map(w => ({
      name: w.name,
      namespaceSelector: { matchExpressions: [...(w.namespaceSelector?.matchExpressions ?? []), ...AKS_TERMS] },
    }));
    if (webhooks.length === 0) continue;
    changed += webhooks.length;
    const res = await kube.apply({ apiVersion: obj.apiVersion ?? 'admissionregistration.k8s.io/v1', kind, metadata: { name: obj.metadata.name }, webhooks } as Manifest,
      { fieldManager: 'admissionsenforcer', force: true });
    if (res.status >= 300) throw new Error(`cluster tier: the enforcer's apply was refused: HTTP ${res.status} ${res.body?.message}`);
  }
  return changed;
}

/** The live webhooks without what kruise-manager writes at runtime (the caBundle), against the synthesized ones. */
async function differences(s: Synth): Promise<string[]> {
  const out: string[] = [];
  for (const kind of CONFIGS) {
    const desired = s.objects.find(o => o.kind === kind)!.webhooks as any[];
    const now = ((await live(kind)).webhooks as any[]).map(w => ({ ...w, clientConfig: { ...w.clientConfig, caBundle: undefined } }));
    for (const d of desired) {
      const l = now.find(w => w.name === d.name);
      if (JSON.stringify(l?.namespaceSelector ?? {}) !== JSON.stringify(d.namespaceSelector ?? {})) out.push(`${kind} ${d.name}: namespaceSelector`);
    }
  }
  return out;
}

describe('AKS\'s Admissions Enforcer and kruise-manager', () => {
  test('without aksIntegration: kruise-manager takes the enforcer\'s terms away again, so every visit of the enforcer is a difference', async () => {
    const s = controlPlane(false);
    ({ managers } = await runControlPlane(kube, s));
    expect(await differences(s)).toEqual([]);
    expect(await enforce()).toBe(37);
    // kruise-manager rebuilds its webhooks from the template annotation, which has no such terms
    const deadline = Date.now() + 90_000;
    let left: number[] = [];
    while (Date.now() < deadline) {
      left = await Promise.all(CONFIGS.map(async k => ((await live(k)).webhooks as any[]).filter(hasAksTerms).length));
      if (left.every(n => n === 0)) break;
      await sleep(1000);
    }
    expect(left).toEqual([0, 0]);
    // and the enforcer, back, finds every webhook without them
    expect(await enforce()).toBe(37);
    await managers!.stopAll();
    managers = undefined;
  }, 300_000);

  test('with aksIntegration: the terms are ours and kruise-manager keeps them; the enforcer adds nothing, and a server-side re-apply changes nothing', async () => {
    const s = controlPlane(true);
    ({ managers } = await runControlPlane(kube, s));
    // kruise-manager has written its caBundles (runControlPlane waits for it): the selectors are still the synthesized ones
    expect(await differences(s)).toEqual([]);
    expect(await enforce()).toBe(0);
    const before = await Promise.all(CONFIGS.map(async k => (await live(k)).metadata.resourceVersion));
    // some of kruise-manager's reconciliations later, nothing has moved
    await sleep(20_000);
    expect(await differences(s)).toEqual([]);
    expect(await enforce()).toBe(0);
    // a server-side apply of the same manifests by the same field manager, as a GitOps engine repeats it, meets no
    // conflict (without force) and changes no field: the resourceVersion stays
    for (const o of s.objects.filter(x => CONFIGS.includes(x.kind))) {
      const res = await kube.apply(o, { force: false });
      expect(`${o.kind} ${res.status} ${res.status === 200 ? '' : res.body?.message}`).toBe(`${o.kind} 200 `);
    }
    const after = await Promise.all(CONFIGS.map(async k => (await live(k)).metadata.resourceVersion));
    expect(after).toEqual(before);
  }, 300_000);
});
