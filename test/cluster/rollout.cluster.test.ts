/**
 * Kruise Rollouts with the real controllers: KruiseRolloutControlPlane
 * applied (the 4 CRDs Established), the released kruise-rollout-manager
 * v0.6.2 run from our Deployment with our RBAC next to kruise-manager v1.9.1
 * (KruiseControlPlane defaults), pods played by kwok. Then:
 *
 * - the manager keeps our webhook configurations and CRDs as we applied them
 *   (caBundle aside), through a resync, and applying our YAML again changes nothing;
 * - the Rollout admission corpus gets the same verdict from the real
 *   Rollout webhook as from synth (stricter cases and cluster skips listed);
 * - examples/canary-rollout is applied with 0 rejections through the real
 *   webhooks, and a new image on its CloneSet stops at the first canary step:
 *   the CloneSet's partition is held, one pod runs the new version, the
 *   Rollout reports step 1 paused, the canary Service and Ingress carry 20 %;
 *   approving the step moves it to step 2, and a GitOps re-apply of the
 *   manifests mid-release releases nothing.
 */
import { App, Chart } from 'cdk8s';
import { Applied, Kube, Manifest, applyAll, describeObject } from './kube';
import { Managers, defaultsSynth, fakeNodes, runControlPlane, testNamespace } from './manager';
import { rejections } from './prove';
import { RolloutManagerProcess, RolloutManagers, rolloutManagerSpec } from './rollout-manager';
import { Synth, exampleSynth, synthApp } from './sources';
import { Verdict, disagreementLine, tally } from './verdicts';
import { KruiseRolloutControlPlane } from '../../src';
import { ROLLOUT_KINDS, crdName } from '../../src/api';
import { rolloutAdmissionCases } from '../fixtures/admission';

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

/** What the example's pods, events and the managers say, for a failure message. */
async function diagnose(): Promise<string> {
  const pods = (await kube.request('GET', `/api/v1/namespaces/${NS}/pods`)).body.items ?? [];
  const events = (await kube.request('GET', `/api/v1/namespaces/${NS}/events`)).body.items ?? [];
  const lines = [
    ...pods.map((p: any) => `pod ${p.metadata.name} on ${p.spec.nodeName ?? '(unscheduled)'}: ${p.status?.phase} ${JSON.stringify((p.status?.conditions ?? []).map((c: any) => `${c.type}=${c.status}`))} `
      + `images ${JSON.stringify((p.status?.containerStatuses ?? []).map((c: any) => c.image))} labels ${JSON.stringify(p.metadata.labels)}`),
    ...events.slice(-15).map((e: any) => `event ${e.involvedObject?.kind}/${e.involvedObject?.name} ${e.reason}: ${e.message}`),
    ...(rollouts?.running() ?? []).map(p => p.tail(25)),
  ];
  return lines.join('\n');
}

/** Poll `read` until `ok` holds; the last value, or a failure naming `what` with it and what the cluster says. */
async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 120_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: T = await read();
  while (!ok(last)) {
    if (Date.now() > end) {
      const shown = JSON.stringify(last, (k, v) => (k === 'managedFields' ? undefined : v));
      throw new Error(`cluster tier: ${what} not reached within ${timeoutMs / 1000} s; last: ${shown.slice(0, 4000)}\n${await diagnose()}`);
    }
    await sleep(1000);
    last = await read();
  }
  return last;
}

function rolloutSynth(): Synth {
  return synthApp('KruiseRolloutControlPlane (defaults)', (app: App) => {
    new KruiseRolloutControlPlane(new Chart(app, 'kruise-rollout'), 'rollout');
    return app;
  });
}

let kube: Kube;
let kruise: Managers | undefined;
let rollouts: RolloutManagers | undefined;
let leader: RolloutManagerProcess;
const synth = rolloutSynth();
const example = exampleSynth('canary-rollout');
const NS = 'storefront';
const get = async (m: Manifest) => (await kube.get(m)).body;
const byKind = (s: Synth, kind: string) => {
  const hits = s.objects.filter(m => m.kind === kind);
  if (hits.length !== 1) throw new Error(`${s.name}: ${hits.length} ${kind}`);
  return hits[0];
};

let installed: Applied[] = [];

/** Every webhook and conversion webhook of the synth whose live caBundle is empty. */
async function withoutCa(): Promise<string[]> {
  const out: string[] = [];
  for (const m of synth.objects.filter(o => o.kind.endsWith('WebhookConfiguration') || o.spec?.conversion?.strategy === 'Webhook')) {
    const live = await get(m);
    const cas = m.kind === 'CustomResourceDefinition' ? [live.spec?.conversion?.webhook?.clientConfig?.caBundle] : (live.webhooks ?? []).map((w: any) => w.clientConfig?.caBundle);
    if (cas.length === 0 || cas.some((c: unknown) => !c)) out.push(describeObject(m));
  }
  return out;
}

// OpenKruise with kruise-manager, three kwok nodes, then Kruise Rollouts with kruise-rollout-manager.
beforeAll(async () => {
  kube = new Kube();
  ({ managers: kruise } = await runControlPlane(kube, defaultsSynth()));
  await fakeNodes(kube, [1, 2, 3].map(i => ({ name: `rollout-node-${i}` })));
  installed = await applyAll(kube, synth.objects);
  if (rejections(installed).length > 0) return;
  rollouts = new RolloutManagers(kube, rolloutManagerSpec(synth));
  const p = await rollouts.start();
  await rollouts.waitReady(p);
  leader = await rollouts.waitLeader();
  await until('the manager\'s CA in every webhook and conversion', withoutCa, missing => missing.length === 0, 60_000);
}, 300_000);

afterAll(async () => {
  if (rollouts) await rollouts.stopAll();
  // nothing answers these webhooks (failure policy Fail) once the manager is gone
  for (const m of synth.objects.filter(o => o.kind.endsWith('WebhookConfiguration'))) await kube.delete(m);
  if (kruise) await kruise.stopAll();
  kube.close();
});

describe('KruiseRolloutControlPlane on a real API server', () => {
  test('every object is accepted and the 4 CRDs are Established', async () => {
    expect(rejections(installed)).toEqual([]);
    const crds = synth.objects.filter(m => m.kind === 'CustomResourceDefinition').map(m => m.metadata.name).sort();
    expect(crds).toEqual(ROLLOUT_KINDS.map(crdName).sort());
    for (const name of crds) {
      const crd = await kube.waitEstablished(name, 30_000);
      expect(crd.status.conditions.filter((c: any) => c.status === 'True').map((c: any) => c.type)).toEqual(expect.arrayContaining(['Established', 'NamesAccepted']));
    }
  });

  test('kruise-rollout-manager v0.6.2 runs from our Deployment: ready, holds the lease, writes its CA into our webhooks and conversions', async () => {
    expect(leader.running).toBe(true);
    expect(leader.isLeader()).toBe(true);
    expect(await withoutCa()).toEqual([]);
    const secret = await kube.request('GET', '/api/v1/namespaces/kruise-rollout/secrets/kruise-rollout-webhook-certs');
    expect(Object.keys(secret.body.data ?? {}).sort()).toEqual(['ca-cert.pem', 'ca-key.pem', 'cert.pem', 'key.pem', 'tls.crt', 'tls.key']);
    const lease = await kube.request('GET', '/apis/coordination.k8s.io/v1/namespaces/kruise-rollout/leases/71ddec2c.kruise.io');
    expect(lease.status).toBe(200);
    console.log(`rollout tier: ${leader.name} ready and leading (lease kruise-rollout/71ddec2c.kruise.io held by ${lease.body.spec.holderIdentity}); command line: ${leader.commandLine.join(' ')}`);
  });

  test('the manager keeps what we applied: same webhooks, same template, nothing rewritten over a resync; applying again changes nothing', async () => {
    const watched = synth.objects.filter(m => m.kind.endsWith('WebhookConfiguration') || m.kind === 'CustomResourceDefinition');
    const before = await Promise.all(watched.map(get));
    for (const [i, m] of watched.entries()) {
      if (!m.kind.endsWith('WebhookConfiguration')) continue;
      const strip = (hooks: any[]) => hooks.map(h => ({ ...h, clientConfig: { ...h.clientConfig, caBundle: undefined } }));
      expect(JSON.parse(JSON.stringify(strip(before[i].webhooks)))).toEqual(m.webhooks);
      expect(before[i].metadata.annotations.template).toBe(m.metadata.annotations.template);
    }
    // the manager syncs its webhook configurations every minute and on every change
    await sleep(65_000);
    const after = await Promise.all(watched.map(get));
    expect(after.map(o => `${o.kind}/${o.metadata.name} ${o.metadata.resourceVersion}`)).toEqual(before.map(o => `${o.kind}/${o.metadata.name} ${o.metadata.resourceVersion}`));
    const beforeApply = await Promise.all(synth.objects.map(get));
    const again = await applyAll(kube, synth.objects);
    expect(rejections(again)).toEqual([]);
    const afterApply = await Promise.all(synth.objects.map(get));
    const changed = synth.objects.filter((_m, i) => beforeApply[i].metadata.resourceVersion !== afterApply[i].metadata.resourceVersion);
    expect(changed.map(describeObject)).toEqual([]);
    expect(leader.lines(/forbidden/i)).toEqual([]);
    expect(leader.lines(/Ignore webhook for/)).toEqual([]);
  }, 300_000);
});

describe('the Rollout webhook judges our admission rules', () => {
  test('every Rollout case gets the same verdict from the real webhook as from synth', async () => {
    await testNamespace(kube, 'rollout-judge');
    const verdicts: Verdict[] = [];
    for (const c of rolloutAdmissionCases()) {
      const m = JSON.parse(JSON.stringify(c.manifest));
      m.metadata.namespace = 'rollout-judge';
      const res = await kube.request('POST', `${await kube.pathOf(m, '')}?dryRun=All&fieldValidation=Strict`, m);
      verdicts.push({
        id: c.id,
        object: describeObject(m),
        ours: { allowed: c.allowed, message: c.message },
        webhook: { allowed: res.status < 300, status: res.status, message: res.status < 300 ? undefined : res.body?.message },
        stricter: c.stricter,
        clusterSkip: c.clusterSkip,
      });
    }
    const { disagree } = tally('rollout judge', 'rollout-webhook-judge.json', verdicts);
    expect(disagree.map(disagreementLine)).toEqual([]);
    expect(verdicts.length).toBeGreaterThan(50);
  });
});

describe('examples/canary-rollout under the real controllers', () => {
  const cloneSet = byKind(example, 'CloneSet');
  const rollout = byKind(example, 'Rollout');

  test('is applied with 0 rejections through the real webhooks; the CloneSet runs 4 pods and the Rollout is Healthy', async () => {
    // the namespace and its `default` ServiceAccount (the serviceaccount controller's job in a cluster)
    await testNamespace(kube, NS);
    const applied = await applyAll(kube, example.objects);
    expect(rejections(applied)).toEqual([]);
    await until('CloneSet storefront/web with 4 ready pods', () => get(cloneSet), cs => cs.status?.readyReplicas === 4 && cs.status?.updatedReplicas === 4, 180_000);
    const ro = await until('Rollout storefront/web Healthy', () => get(rollout), r => r.status?.phase === 'Healthy', 120_000);
    expect(ro.metadata.finalizers).toContain('rollouts.kruise.io/rollout');
  });

  test('a new image stops at the first canary step: the partition is held, one pod is new, the Rollout reports step 1 paused', async () => {
    const next = JSON.parse(JSON.stringify(cloneSet));
    next.spec.template.spec.containers[0].image = 'nginxinc/nginx-unprivileged:1.27.4';
    const res = await kube.apply(next);
    expect(res.status).toBeLessThan(300);
    const ro = await until('Rollout step 1 paused', () => get(rollout),
      r => r.status?.currentStepIndex === 1 && r.status?.currentStepState === 'StepPaused' && r.status?.canaryStatus?.canaryReadyReplicas === 1, 180_000);
    expect(ro.status.phase).toBe('Progressing');
    expect(ro.status.canaryStatus.canaryReplicas).toBe(1);
    const cs = await get(cloneSet);
    const partition = cs.spec.updateStrategy.partition;
    expect(typeof partition === 'number' ? partition : Math.ceil(Number(String(partition).replace('%', '')) * 4 / 100)).toBe(3);
    expect(cs.status.updatedReplicas).toBe(1);
    expect(cs.metadata.annotations['rollouts.kruise.io/in-progressing']).toContain('"rolloutName":"web"');
    // held: the step waits for approval, nothing else moves
    await sleep(20_000);
    const still = await get(cloneSet);
    expect(still.spec.updateStrategy.partition).toEqual(partition);
    expect(still.status.updatedReplicas).toBe(1);
    expect((await get(rollout)).status.currentStepState).toBe('StepPaused');
    // the traffic split of step 1: a canary Service and a canary Ingress with 20 % of the traffic
    const canaryService = await kube.request('GET', `/api/v1/namespaces/${NS}/services/web-canary`);
    expect(canaryService.status).toBe(200);
    const canaryIngress = await kube.request('GET', `/apis/networking.k8s.io/v1/namespaces/${NS}/ingresses/web-canary`);
    expect(canaryIngress.status).toBe(200);
    expect(canaryIngress.body.metadata.annotations).toEqual(expect.objectContaining({
      'nginx.ingress.kubernetes.io/canary': 'true',
      'nginx.ingress.kubernetes.io/canary-weight': '20',
    }));
    console.log(`rollout tier: step ${ro.status.currentStepIndex} ${ro.status.currentStepState}, CloneSet partition ${JSON.stringify(partition)}, updated ${cs.status.updatedReplicas}/4, canary weight 20`);
  });

  test('a GitOps re-apply of the same manifests during the release releases nothing', async () => {
    const next = example.objects.map(o => {
      const m = JSON.parse(JSON.stringify(o));
      if (m.kind === 'CloneSet') m.spec.template.spec.containers[0].image = 'nginxinc/nginx-unprivileged:1.27.4';
      return m;
    });
    expect(rejections(await applyAll(kube, next))).toEqual([]);
    await sleep(10_000);
    const cs = await get(cloneSet);
    expect(cs.status.updatedReplicas).toBe(1);
    expect((await get(rollout)).status.currentStepIndex).toBe(1);
  });

  test('approving the step moves the release to step 2 (half of the pods, 50 % of the traffic)', async () => {
    expect((await get(rollout)).status.canaryStatus.currentStepState).toBe('StepPaused');
    const res = await kube.request('PATCH', `/apis/rollouts.kruise.io/v1beta1/namespaces/${NS}/rollouts/web/status`,
      { status: { canaryStatus: { currentStepState: 'StepReady' } } }, 'application/merge-patch+json');
    expect(res.status).toBe(200);
    const ro = await until('Rollout step 2', () => get(rollout), r => r.status?.currentStepIndex === 2 && r.status?.canaryStatus?.canaryReadyReplicas === 2, 180_000);
    expect(['StepPaused', 'StepUpgrade', 'StepTrafficRouting', 'StepMetricsAnalysis']).toContain(ro.status.currentStepState);
    const cs = await until('CloneSet with 2 updated pods', () => get(cloneSet), c => c.status?.updatedReplicas === 2);
    const ingress = await until('canary weight 50', async () => (await kube.request('GET', `/apis/networking.k8s.io/v1/namespaces/${NS}/ingresses/web-canary`)).body,
      i => i.metadata?.annotations?.['nginx.ingress.kubernetes.io/canary-weight'] === '50');
    expect(ingress.metadata.annotations['nginx.ingress.kubernetes.io/canary-weight']).toBe('50');
    console.log(`rollout tier: approved; step ${ro.status.currentStepIndex}, CloneSet partition ${JSON.stringify(cs.spec.updateStrategy.partition)}, updated ${cs.status.updatedReplicas}/4`);
  });
});
