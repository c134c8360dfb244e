/**
 * The update plan of changes under a Kruise Rollouts Rollout, judged by the
 * real controllers: kruise-manager v1.9.1 and kruise-rollout-manager v0.6.2
 * (run from KruiseRolloutControlPlane, as rollout.cluster.test.ts runs it),
 * with kube-controller-manager for Deployments and their ReplicaSets. Every
 * case of PLAN_ROLLOUT_GOLDEN (test/fixtures/plan-golden.ts) is applied old,
 * then new, in a namespace of its own, and what the controllers do must be
 * what `UpdatePlan.compare` said:
 *
 * - a release the plan says the Rollout runs: step by step, the Rollout stops
 *   at each step the plan says waits (approval, or a pause it then leaves by
 *   itself), the pods on the new and the old revision there are the plan's
 *   (a StatefulSet's ordinals too, the canary Ingress's weight and header
 *   when the step routes traffic); manual steps are approved as
 *   `kubectl-kruise rollout approve` does; at the end every pod is on the
 *   new revision; in place keeps every moved pod's UID, recreate gives it a
 *   new one;
 * - a release the plan says stops for good at a step (a blue-green CloneSet
 *   step beyond what the CloneSet surges): the pods there are the plan's, and
 *   30 s later the same pods run and the Rollout has not paused or moved on;
 * - a release the controller refuses (blue-green on an in-place CloneSet) or
 *   a paused Rollout: no pod moves;
 * - a Rollout that does not take the change: the workload's own update,
 *   with the plan's counts, and no release in progress.
 *
 * Then the live-state rules: mid-release, the plan of the live objects
 * against new manifests flags a Rollout change the webhook refuses (it is
 * refused) and a re-applied partition that releases pods outside the steps
 * (they move at once).
 */
import { App, Chart } from 'cdk8s';
import * as lib from '../../../src';
import { GoldenCase, PLAN_ROLLOUT_GOLDEN } from '../../fixtures/plan-golden';
import { Kube, Manifest, applyAll, describeObject } from '../kube';
import {
  Managers, defaultsSynth, fakeNodes, runControlPlane, testNamespace,
} from '../manager';
import { rejections } from '../prove';
import { RolloutManagers, rolloutManagerSpec } from '../rollout-manager';
import { Synth, synthApp } from '../sources';

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

const NODE_LABEL = 'cdk8s-kruise.test/rollout-plan';
const NODES = ['rollout-plan-1', 'rollout-plan-2', 'rollout-plan-3'].map(name => ({ name, labels: { [NODE_LABEL]: 'true' } }));

let kube: Kube;
let kruise: Managers | undefined;
let rollouts: RolloutManagers | undefined;

function rolloutSynth(): Synth {
  return synthApp('KruiseRolloutControlPlane (defaults)', (app: App) => {
    new lib.KruiseRolloutControlPlane(new Chart(app, 'kruise-rollout'), 'rollout');
    return app;
  });
}
const controlPlane = rolloutSynth();

/** Every webhook and conversion webhook of the Kruise Rollouts control plane whose live caBundle is empty. */
async function withoutCa(): Promise<string[]> {
  const out: string[] = [];
  for (const m of controlPlane.objects.filter(o => o.kind.endsWith('WebhookConfiguration') || o.spec?.conversion?.strategy === 'Webhook')) {
    const live = (await kube.get(m)).body;
    const cas = m.kind === 'CustomResourceDefinition' ? [live.spec?.conversion?.webhook?.clientConfig?.caBundle] : (live.webhooks ?? []).map((w: any) => w.clientConfig?.caBundle);
    if (cas.length === 0 || cas.some((c: unknown) => !c)) out.push(describeObject(m));
  }
  return out;
}

beforeAll(async () => {
  kube = new Kube();
  ({ managers: kruise } = await runControlPlane(kube, defaultsSynth()));
  await fakeNodes(kube, NODES);
  const installed = await applyAll(kube, controlPlane.objects);
  if (rejections(installed).length > 0) throw new Error(`cluster tier: KruiseRolloutControlPlane refused:\n${rejections(installed).join('\n')}`);
  rollouts = new RolloutManagers(kube, rolloutManagerSpec(controlPlane));
  const p = await rollouts.start();
  await rollouts.waitReady(p);
  await rollouts.waitLeader();
  const deadline = Date.now() + 60_000;
  while ((await withoutCa()).length > 0) {
    if (Date.now() > deadline) throw new Error(`cluster tier: kruise-rollout-manager wrote no CA into ${(await withoutCa()).join(', ')}`);
    await sleep(1000);
  }
}, 400_000);

afterAll(async () => {
  if (rollouts) await rollouts.stopAll();
  // nothing answers these webhooks (failure policy Fail) once the manager is gone
  for (const m of controlPlane.objects.filter(o => o.kind.endsWith('WebhookConfiguration'))) await kube.delete(m);
  if (kruise) await kruise.stopAll();
  kube.close();
});

/** The case's objects in namespace `ns`. */
const inNamespace = (objects: Manifest[], ns: string): Manifest[] => objects.map(o => {
  const m = JSON.parse(JSON.stringify(o));
  m.metadata.namespace = ns;
  return m;
});

const WORKLOAD_KINDS = ['CloneSet', 'StatefulSet', 'DaemonSet', 'Deployment'];

/** A pod as the judge needs it. */
interface PodState {
  readonly name: string;
  readonly uid: string;
  readonly containers: string;
  readonly ready: boolean;
}

const containersOf = (cs: any[]): string => JSON.stringify(cs.map(c => [c.name, c.image, c.env ?? []]).sort());
const isReady = (p: Manifest) => p.status?.phase === 'Running' && (p.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True');

async function podStates(ns: string): Promise<PodState[]> {
  const res = await kube.request('GET', `/api/v1/namespaces/${ns}/pods`);
  return (res.body.items as Manifest[]).filter(p => !p.metadata.deletionTimestamp).map(p => ({
    name: p.metadata.name,
    uid: p.metadata.uid,
    containers: containersOf(p.spec.containers),
    ready: isReady(p) && !p.metadata.annotations?.['apps.kruise.io/inplace-update-grace'],
  })).sort((a, b) => a.name.localeCompare(b.name));
}

/** Everything the cluster says about a case, for a failure message. */
async function diagnose(ns: string): Promise<string> {
  const get = async (p: string) => (await kube.request('GET', p)).body?.items ?? [];
  const lines: string[] = [];
  for (const p of await get(`/api/v1/namespaces/${ns}/pods`)) {
    lines.push(`pod ${p.metadata.name} uid=${String(p.metadata.uid).slice(0, 8)} ${p.status?.phase} ready=${isReady(p)} ${containersOf(p.spec.containers)}${p.metadata.deletionTimestamp ? ' (terminating)' : ''}`);
  }
  for (const path of ['/apis/rollouts.kruise.io/v1beta1/namespaces/NS/rollouts', '/apis/rollouts.kruise.io/v1beta1/namespaces/NS/batchreleases',
    '/apis/apps.kruise.io/v1alpha1/namespaces/NS/clonesets', '/apis/apps.kruise.io/v1beta1/namespaces/NS/statefulsets',
    '/apis/apps.kruise.io/v1alpha1/namespaces/NS/daemonsets', '/apis/apps/v1/namespaces/NS/deployments']) {
    for (const o of await get(path.replace('NS', ns))) {
      lines.push(`${o.kind} ${o.metadata.name}: spec ${JSON.stringify(o.spec?.updateStrategy ?? o.spec?.strategy ?? o.spec?.releasePlan ?? {})} `
        + `annotations ${JSON.stringify(o.metadata.annotations ?? {})} status ${JSON.stringify(o.status ?? {})}`.slice(0, 1500));
    }
  }
  for (const e of (await get(`/api/v1/namespaces/${ns}/events`)).slice(-12)) lines.push(`event ${e.involvedObject?.kind}/${e.involvedObject?.name} ${e.reason}: ${e.message}`);
  for (const p of rollouts?.running() ?? []) lines.push(p.tail(20));
  return lines.join('\n');
}

/** Poll `read` until `ok` holds; the last value, or a failure naming `what` with what the cluster says. */
async function until<T>(ns: string, what: string, read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 150_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last = await read();
  while (!ok(last)) {
    if (Date.now() > end) throw new Error(`cluster tier: ${what} not reached within ${timeoutMs / 1000} s; last: ${JSON.stringify(last).slice(0, 2000)}\n${await diagnose(ns)}`);
    await sleep(1000);
    last = await read();
  }
  return last;
}

/** The pods once they are settled: all ready, and the same pods and containers for 3 polls in a row. */
async function settle(ns: string, what: string, count?: number): Promise<PodState[]> {
  let last = '';
  let same = 0;
  return until(ns, `${what}: pods settled`, async () => {
    const pods = await podStates(ns);
    const signature = JSON.stringify(pods.map(p => [p.uid, p.containers]));
    const ok = pods.every(p => p.ready) && (count === undefined || pods.length === count);
    same = ok && signature === last ? same + 1 : 0;
    last = signature;
    return pods;
  }, () => same >= 3);
}

const rolloutPath = (ns: string, name: string) => `/apis/rollouts.kruise.io/v1beta1/namespaces/${ns}/rollouts/${name}`;
const readRollout = async (ns: string, name: string) => (await kube.request('GET', rolloutPath(ns, name))).body;

/** Approve the step the Rollout waits at, as `kubectl-kruise rollout approve` does (a status patch). */
async function approve(ns: string, name: string, blueGreen: boolean): Promise<void> {
  const status = blueGreen ? { blueGreenStatus: { currentStepState: 'StepReady' } } : { canaryStatus: { currentStepState: 'StepReady' } };
  const res = await kube.request('PATCH', `${rolloutPath(ns, name)}/status`, { status }, 'application/merge-patch+json');
  if (res.status !== 200) throw new Error(`cluster tier: approving Rollout ${ns}/${name}: HTTP ${res.status} ${res.body?.message}`);
}

/** Pods on the new and the old revision (told apart by their containers: the cases change an image or an env value). */
function revisions(pods: PodState[], oldTemplate: Manifest, newTemplate: Manifest): { fresh: PodState[]; stale: PodState[]; other: PodState[] } {
  const n = containersOf(newTemplate.spec.containers);
  const o = containersOf(oldTemplate.spec.containers);
  return {
    fresh: pods.filter(p => p.containers === n),
    stale: pods.filter(p => p.containers === o),
    other: pods.filter(p => p.containers !== n && p.containers !== o),
  };
}

const ordinalsOf = (pods: PodState[]) => pods.map(p => Number(p.name.slice(p.name.lastIndexOf('-') + 1))).sort((a, b) => b - a);

/** Wait for the workloads of `objects` to run their pods, and for each Rollout to have reconciled (phase, workload label). */
async function settleOld(ns: string, objects: Manifest[], what: string): Promise<PodState[]> {
  for (const r of objects.filter(m => m.kind === 'Rollout')) {
    const phase = r.spec.disabled ? 'Disabled' : 'Healthy';
    await until(ns, `${what}: Rollout ${r.metadata.name} ${phase}`, () => readRollout(ns, r.metadata.name),
      ro => ro.status?.phase === phase && ro.status?.observedGeneration === ro.metadata.generation);
    const ref = r.spec.workloadRef ?? r.spec.objectRef?.workloadRef;
    const workload = objects.find(m => m.kind === ref.kind && m.metadata.name === ref.name)!;
    await until(ns, `${what}: ${ref.kind} ${ref.name} labelled for the Kruise Rollouts webhook`, async () => (await kube.get(workload)).body,
      w => w.metadata?.labels?.[lib.WORKLOAD_TYPE_LABEL] !== undefined);
  }
  const pods = objects.filter(m => WORKLOAD_KINDS.includes(m.kind)).reduce((n, m) => n + (m.kind === 'DaemonSet' ? NODES.length : m.spec.replicas ?? 1), 0);
  return settle(ns, what, pods);
}

/** Judge one workload released by its Rollout, step by step. */
async function judgeRelease(ns: string, c: GoldenCase, w: lib.WorkloadPlan, oldW: Manifest, newW: Manifest, before: PodState[],
  report: string[]): Promise<void> {
  const release = w.rollout!;
  const blueGreen = release.style === lib.RolloutReleaseStyle.BLUE_GREEN;
  const beforeUids = new Set(before.map(p => p.uid));
  const label = `${c.id} ${w.kind}/${w.name}`;
  const checkMoves = (fresh: PodState[], at: string) => {
    // in place keeps the moved pods' UIDs, recreate (and new pods of a canary or blue-green release) gives new ones
    const kept = fresh.filter(p => beforeUids.has(p.uid)).length;
    if (w.updateType === lib.UpdateType.IN_PLACE) expect({ label, at, newUids: fresh.length - kept }).toEqual({ label, at, newUids: 0 });
    if (w.updateType === lib.UpdateType.RECREATE) expect({ label, at, keptUids: kept }).toEqual({ label, at, keptUids: 0 });
    return kept;
  };
  for (const s of release.steps) {
    if (s.stalls) {
      // the release stops here for good: the step's pods are where the plan says, and nothing moves on
      await until(ns, `${label}: Rollout at step ${s.step}`, () => readRollout(ns, release.rollout), ro => ro.status?.currentStepIndex === s.step, 240_000);
      const pods = await settle(ns, `${label} step ${s.step}`, (s.podsOnNewRevision ?? 0) + (s.podsOnOldRevision ?? 0));
      await sleep(30_000);
      const still = await settle(ns, `${label} step ${s.step}, 30 s later`, (s.podsOnNewRevision ?? 0) + (s.podsOnOldRevision ?? 0));
      const ro = await readRollout(ns, release.rollout);
      const { fresh, stale, other } = revisions(still, oldW.spec.template, newW.spec.template);
      const kept = checkMoves(fresh, `step ${s.step}`);
      report.push(`${label} step ${s.step}: plan stalls at ${s.podsOnNewRevision} new / ${s.podsOnOldRevision} old; observed ${fresh.length} new (UIDs kept ${kept}) / ${stale.length} old `
        + `for 30 s, Rollout ${ro.status?.phase} at step ${ro.status?.currentStepIndex} ${ro.status?.currentStepState} (${ro.status?.message})`);
      const samePods = JSON.stringify(still.map(p => p.uid).sort()) === JSON.stringify(pods.map(p => p.uid).sort());
      expect({ label, step: s.step, fresh: fresh.length, stale: stale.length, other: other.length, samePods })
        .toEqual({ label, step: s.step, fresh: s.podsOnNewRevision, stale: s.podsOnOldRevision, other: 0, samePods: true });
      expect({ label, phase: ro.status?.phase, index: ro.status?.currentStepIndex, paused: ro.status?.currentStepState === 'StepPaused' })
        .toEqual({ label, phase: 'Progressing', index: s.step, paused: false });
      return;
    }
    const waits = s.manualApproval || (s.pauseSeconds ?? 0) > 0;
    if (!waits) {
      report.push(`${label} step ${s.step}: no pause, plan ${s.podsOnNewRevision} new / ${s.podsOnOldRevision} old (the release completes)`);
      continue;
    }
    const seenAt = Date.now();
    await until(ns, `${label}: Rollout at step ${s.step} paused`, () => readRollout(ns, release.rollout),
      ro => ro.status?.currentStepIndex === s.step && ro.status?.currentStepState === 'StepPaused', 240_000);
    const pods = await settle(ns, `${label} step ${s.step}`, (s.podsOnNewRevision ?? 0) + (s.podsOnOldRevision ?? 0));
    const { fresh, stale, other } = revisions(pods, oldW.spec.template, newW.spec.template);
    const kept = checkMoves(fresh, `step ${s.step}`);
    report.push(`${label} step ${s.step}: plan ${s.podsOnNewRevision} new / ${s.podsOnOldRevision} old; observed ${fresh.length} new (UIDs kept ${kept}) / ${stale.length} old`
      + `${s.ordinals ? `, ordinals ${ordinalsOf(fresh).join(',')}` : ''}; waits ${s.manualApproval ? 'for approval' : `${s.pauseSeconds} s`}`);
    expect({ label, step: s.step, fresh: fresh.length, stale: stale.length, other: other.length })
      .toEqual({ label, step: s.step, fresh: s.podsOnNewRevision, stale: s.podsOnOldRevision, other: 0 });
    if (s.ordinals) expect({ label, step: s.step, ordinals: ordinalsOf(fresh) }).toEqual({ label, step: s.step, ordinals: s.ordinals });
    if (s.traffic !== undefined || s.matches.length > 0) {
      const ingress = (await kube.request('GET', `/apis/networking.k8s.io/v1/namespaces/${ns}/ingresses/web-canary`)).body;
      const a = ingress.metadata?.annotations ?? {};
      expect({ label, step: s.step, weight: a['nginx.ingress.kubernetes.io/canary-weight'] }).toEqual({ label, step: s.step, weight: s.traffic?.replace('%', '') });
      if (s.matches.length > 0) {
        expect({ label, header: `header ${a['nginx.ingress.kubernetes.io/canary-by-header']}=${a['nginx.ingress.kubernetes.io/canary-by-header-value']}` })
          .toEqual({ label, header: s.matches[0] });
      }
    }
    if (s.manualApproval) {
      // it waits: nothing moves on by itself
      await sleep(5000);
      const still = await readRollout(ns, release.rollout);
      expect({ label, step: s.step, index: still.status?.currentStepIndex, state: still.status?.currentStepState }).toEqual({ label, step: s.step, index: s.step, state: 'StepPaused' });
      await approve(ns, release.rollout, blueGreen);
    } else {
      // a timed pause goes on by itself
      const next = await until(ns, `${label}: step ${s.step} left after ${s.pauseSeconds} s`, () => readRollout(ns, release.rollout),
        ro => ro.status?.currentStepIndex > s.step || ro.status?.phase === 'Healthy', (s.pauseSeconds! + 60) * 1000);
      report.push(`${label} step ${s.step}: left by itself after ${Math.round((Date.now() - seenAt) / 1000)} s (now ${next.status?.currentStepIndex} ${next.status?.currentStepState})`);
    }
  }
  // the completion: every pod on the new revision
  await until(ns, `${label}: Rollout completed`, () => readRollout(ns, release.rollout),
    ro => ro.status?.phase === 'Healthy' && (ro.status?.canaryStatus ?? ro.status?.blueGreenStatus)?.currentStepState === 'Completed', 240_000);
  const pods = await settle(ns, `${label} completed`, w.replicas);
  const { fresh, stale } = revisions(pods, oldW.spec.template, newW.spec.template);
  const kept = checkMoves(fresh, 'completed');
  report.push(`${label} completed: plan ${w.podsUpdated} updated / ${w.podsOnOldRevision} old; observed ${fresh.length} new (UIDs kept ${kept}) / ${stale.length} old`);
  expect({ label, fresh: fresh.length, stale: stale.length }).toEqual({ label, fresh: w.podsUpdated, stale: w.podsOnOldRevision });
}

/**
 * A change whose plan says it races kruise-rollout-manager (`racesController`: a new Rollout and an unlabelled
 * workload in one apply) is judged by the side the race fell on, which the webhook wrote at the update: the
 * workload marked in progress is released step by step, exactly as the plan of the same manifests with the
 * workload labelled says; unmarked, it is the workload's own update, as the plan says. Both sides are judged
 * in full, and the report says which one ran.
 */
async function raceOutcome(w: lib.WorkloadPlan, newW: Manifest, oldObjects: Manifest[], newObjects: Manifest[], c: GoldenCase,
  report: string[]): Promise<lib.WorkloadPlan> {
  if (!w.rollout?.racesController) return w;
  const live = (await kube.get(newW)).body;
  const taken = live.metadata?.annotations?.['rollouts.kruise.io/in-progressing'] !== undefined;
  report.push(`${c.id} ${w.kind}/${w.name}: the plan says the release races the controller; it ${taken
    ? `labelled the ${w.kind} first (${lib.WORKLOAD_TYPE_LABEL}: ${live.metadata?.labels?.[lib.WORKLOAD_TYPE_LABEL]}), so the Rollout releases it`
    : `reached the Rollout after the update, so the ${w.kind} updates itself`}`);
  if (!taken) return w;
  const typeLabel = { [lib.WORKLOAD_TYPE_LABEL]: live.metadata.labels[lib.WORKLOAD_TYPE_LABEL] };
  const labelled = newObjects.map(m => (m === newW ? { ...m, metadata: { ...m.metadata, labels: { ...m.metadata.labels, ...typeLabel } } } : m));
  const alt = lib.UpdatePlan.compare(oldObjects, labelled, { daemonSetNodes: c.daemonSetNodes }).workloads
    .find(x => x.kind === w.kind && x.name === w.name)!;
  if (!alt.rollout?.inEffect) throw new Error(`cluster tier: ${c.id}: the plan of the labelled ${w.kind} does not release it (${alt.rollout?.reason}), so the taken side cannot be judged`);
  return alt;
}

describe('the update plan of changes under a Rollout, judged by kruise-manager and kruise-rollout-manager', () => {
  for (const c of PLAN_ROLLOUT_GOLDEN) {
    test(`${c.id}: ${c.description}`, async () => {
      const ns = `rp-${c.id.replace(/^rollout-/, '')}`;
      await testNamespace(kube, ns);
      const oldObjects = inNamespace(c.old, ns);
      const newObjects = inNamespace(c.new, ns);
      const plan = lib.UpdatePlan.compare(oldObjects, newObjects, { daemonSetNodes: c.daemonSetNodes });
      const report: string[] = [];

      expect(rejections(await applyAll(kube, oldObjects))).toEqual([]);
      const before = await settleOld(ns, oldObjects, `${c.id} (old)`);
      const second = await applyAll(kube, newObjects);
      expect(rejections(second)).toEqual([]);

      for (const planned of plan.workloads) {
        const oldW = oldObjects.find(m => m.kind === planned.kind && m.metadata.name === planned.name);
        const newW = newObjects.find(m => m.kind === planned.kind && m.metadata.name === planned.name)!;
        const label = `${c.id} ${planned.kind}/${planned.name}`;
        const w = await raceOutcome(planned, newW, oldObjects, newObjects, c, report);
        if (w.rollout?.inEffect && w.updateType !== lib.UpdateType.REJECTED && (w.podsUpdated ?? 0) > 0) {
          await judgeRelease(ns, c, w, oldW!, newW, before, report);
          continue;
        }
        if (w.rollout?.inEffect) {
          // taken by the Rollout, but no pod moves: the controller refuses the release, or the Rollout is paused
          const ro = await until(ns, `${label}: Rollout Progressing`, () => readRollout(ns, w.rollout!.rollout), r => r.status?.phase === 'Progressing');
          await sleep(25_000);
          const pods = await settle(ns, `${label} held`, w.replicas);
          const { fresh, stale } = revisions(pods, oldW!.spec.template, newW.spec.template);
          report.push(`${label}: plan ${w.updateType} updated=${w.podsUpdated} old=${w.podsOnOldRevision}; observed ${fresh.length} new / ${stale.length} old after 25 s, Rollout ${ro.status?.phase}`);
          expect({ label, fresh: fresh.length, stale: stale.length }).toEqual({ label, fresh: w.podsUpdated, stale: w.podsOnOldRevision });
          if (w.updateType === lib.UpdateType.REJECTED) {
            const br = (await kube.request('GET', `/apis/rollouts.kruise.io/v1beta1/namespaces/${ns}/batchreleases/${w.rollout.rollout}`)).body;
            report.push(`${label}: BatchRelease says: ${br.status?.message}`);
            expect(br.status?.message ?? '').toContain('is not ReCreate');
          } else {
            const cond = (await readRollout(ns, w.rollout.rollout)).status?.conditions?.find((x: any) => x.type === 'Progressing');
            expect(cond?.reason).toBe('Paused');
          }
          continue;
        }
        // not taken by a Rollout: the workload's own update, and no release in progress
        const pods = await settle(ns, `${label} (new)`, w.replicas);
        const live = (await kube.get(newW)).body;
        expect({ label, inProgress: live.metadata?.annotations?.['rollouts.kruise.io/in-progressing'] }).toEqual({ label, inProgress: undefined });
        if (w.rollout) {
          const ro = await readRollout(ns, w.rollout.rollout);
          expect({ label, phase: ro.status?.phase }).toEqual({ label, phase: newObjects.find(m => m.kind === 'Rollout')?.spec.disabled ? 'Disabled' : 'Healthy' });
        }
        if (!oldW) {
          report.push(`${label}: plan ${w.updateType} ${w.podsUpdated} pods; observed ${pods.length} pods`);
          expect({ label, pods: pods.length }).toEqual({ label, pods: w.podsUpdated });
          continue;
        }
        const { fresh, stale } = revisions(pods, oldW.spec.template, newW.spec.template);
        const kept = fresh.filter(p => before.some(b => b.uid === p.uid)).length;
        report.push(`${label}: plan ${w.updateType} updated=${w.podsUpdated} old=${w.podsOnOldRevision} (${w.rollout?.reason ?? 'no Rollout'}); observed ${fresh.length} new (UIDs kept ${kept}) / ${stale.length} old`);
        expect({ label, fresh: fresh.length, stale: stale.length }).toEqual({ label, fresh: w.podsUpdated, stale: w.podsOnOldRevision });
        if (w.updateType === lib.UpdateType.IN_PLACE) expect({ label, newUids: fresh.length - kept }).toEqual({ label, newUids: 0 });
      }
      console.log(`${c.id}:\n  ${report.join('\n  ')}`);

      for (const m of [...newObjects].reverse()) await kube.request('DELETE', `${await kube.pathOf(m, m.metadata.name)}?propagationPolicy=Background`);
    }, 600_000);
  }
});

describe('a release in progress: the plan of the live objects', () => {
  const c = PLAN_ROLLOUT_GOLDEN.find(x => x.id === 'rollout-cloneset-in-place')!;
  const ns = 'rp-in-progress';
  const oldObjects = inNamespace(c.old, ns);
  const newObjects = inNamespace(c.new, ns);
  const rollout = newObjects.find(m => m.kind === 'Rollout')!;
  const cloneSet = newObjects.find(m => m.kind === 'CloneSet')!;
  const live = async () => [(await kube.get(rollout)).body, (await kube.get(cloneSet)).body];

  test('mid-release, a Rollout change the webhook refuses is flagged from the live objects, and refused', async () => {
    await testNamespace(kube, ns);
    expect(rejections(await applyAll(kube, oldObjects))).toEqual([]);
    await settleOld(ns, oldObjects, 'in-progress (old)');
    expect(rejections(await applyAll(kube, newObjects))).toEqual([]);
    await until(ns, 'Rollout at step 1 paused', () => readRollout(ns, 'web'), ro => ro.status?.currentStepIndex === 1 && ro.status?.currentStepState === 'StepPaused');

    const fewerSteps = JSON.parse(JSON.stringify(rollout));
    fewerSteps.spec.strategy.canary.steps = fewerSteps.spec.strategy.canary.steps.slice(0, 2);
    const fromManifests = lib.UpdatePlan.compare([rollout, cloneSet], [fewerSteps, cloneSet]);
    expect(fromManifests.rejected).toBe(false);
    expect(fromManifests.rollouts[0].notes.join(' ')).toContain('refused by the Rollout webhook if a release is in progress');
    const fromLive = lib.UpdatePlan.compare(await live(), [fewerSteps, cloneSet], { oldIsLive: true });
    expect([fromLive.rejected, fromLive.rollouts[0].change, fromLive.rollouts[0].rejectedField, fromLive.rollouts[0].livePhase])
      .toEqual([true, lib.RolloutChange.REJECTED, 'spec.strategy.canary.steps', 'Progressing']);
    const res = await kube.apply(fewerSteps);
    console.log(`in-progress: plan: ${fromLive.rollouts[0].rejection}\n  webhook: HTTP ${res.status} ${res.body?.message}`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.body?.message).toContain('Amount of Rollout steps are immutable');
  });

  test('mid-release, a re-applied partition is flagged as releasing 3 pods at once outside the steps, and they move', async () => {
    const withPartition = JSON.parse(JSON.stringify(cloneSet));
    withPartition.spec.updateStrategy.partition = 0;
    const plan = lib.UpdatePlan.compare(await live(), [rollout, withPartition], { oldIsLive: true });
    expect(plan.releaseConflict).toBe(true);
    const w = plan.workloads[0];
    expect([w.podsUpdated, w.podsOnOldRevision, w.releaseConflicts.length]).toEqual([3, 0, 1]);
    console.log(`in-progress: plan: ${w.releaseConflicts[0]}`);
    expect(rejections(await applyAll(kube, [withPartition]))).toEqual([]);
    const pods = await settle(ns, 'in-progress partition 0', 4);
    const { fresh } = revisions(pods, oldObjects.find(m => m.kind === 'CloneSet')!.spec.template, cloneSet.spec.template);
    const ro = await readRollout(ns, 'web');
    console.log(`in-progress: observed ${fresh.length} of 4 pods on the new revision while the Rollout is at step ${ro.status?.currentStepIndex} (${ro.status?.currentStepState})`);
    expect(fresh.length).toBe(4);
    expect(ro.status?.currentStepIndex).toBe(1);
    for (const m of [...newObjects].reverse()) await kube.request('DELETE', `${await kube.pathOf(m, m.metadata.name)}?propagationPolicy=Background`);
  });
});
