/**
 * The update plan judged by real containers: every case of the golden set
 * (test/fixtures/plan-golden.ts) is applied old, then new, on the real node
 * with kruise-manager and kruise-daemon running as pods with the case's
 * feature gates, and what happened must be what `UpdatePlan.compare` said
 * (pods moved and kept per workload and subset, UIDs kept in place and new on recreate, Advanced StatefulSet
 * ordinals, refusals by the webhook) and, container by container:
 *
 * - a pod updated in place restarts exactly the containers whose image
 *   changes or whose env reads a changed label (`imageChanges`,
 *   `envFromMetadataRestarts`: a new container ID each), and no other; a pod
 *   left alone restarts nothing; a resized container keeps running with the
 *   new resources;
 * - a SidecarSet's in-place image change restarts the sidecar of each pod it
 *   reaches and nothing else.
 *
 * The cases run a few at a time (each in a namespace of its own); the images
 * they name (registry.k8s.io/pause, busybox) are served by the local
 * registry under those names (test/cluster/images/images.json).
 */
import * as lib from '../../../src';
import { GoldenCase, PLAN_GOLDEN } from '../../fixtures/plan-golden';
import { Kube, Manifest, applyAll, describeObject } from '../kube';
import { provisionClaims, testNamespace } from '../manager';
import {
  ensureKruise, isReady, nodeControlPlaneProps, nodeControlPlaneSynth, podsOf, requireRealNode, sleep,
} from '../node';
import { JudgedPod, Observed, casesByGates, inNamespace, observe, ordinals } from '../plan-judge';

/** How many cases run at once. */
const PARALLEL = 6;

let kube: Kube;

beforeAll(() => {
  kube = new Kube();
  requireRealNode();
});

afterAll(() => kube?.close());

/** A pod as the comparison needs it: identity, revision, owner, and each container's ID and restarts. */
interface NodePod extends JudgedPod {
  readonly owner: string;
  readonly subset?: string;
  readonly ready: boolean;
  readonly containers: Record<string, { id: string; restarts: number; image: string; requests?: Record<string, string> }>;
  readonly spec: Record<string, { image: string; env: string }>;
}

async function nodePods(ns: string): Promise<NodePod[]> {
  return (await podsOf(kube, ns)).map(p => ({
    name: p.metadata.name,
    uid: p.metadata.uid,
    revision: p.metadata.labels?.['controller-revision-hash'] ?? '',
    owner: p.metadata.ownerReferences?.[0]?.name ?? '',
    subset: p.metadata.labels?.['apps.kruise.io/subset-name'],
    ready: isReady(p) && !p.metadata.annotations?.['apps.kruise.io/inplace-update-grace']
      && !(p.status?.conditions ?? []).some((c: any) => c.type === 'InPlaceUpdateReady' && c.status !== 'True'),
    containers: Object.fromEntries((p.status?.containerStatuses ?? []).map((c: any) => [c.name,
      { id: c.containerID ?? '', restarts: c.restartCount ?? 0, image: c.image, requests: c.resources?.requests }])),
    spec: Object.fromEntries(p.spec.containers.map((c: any) => [c.name, { image: c.image, env: JSON.stringify(c.env ?? []) }])),
  }));
}

function expectedPods(objects: Manifest[]): number {
  return objects.filter(m => ['CloneSet', 'StatefulSet', 'UnitedDeployment'].includes(m.kind)).reduce((n, m) => n + (m.spec.replicas ?? 1), 0);
}

async function liveWorkloads(ns: string): Promise<Manifest[]> {
  const out: Manifest[] = [];
  for (const list of ['v1alpha1/namespaces/NS/clonesets', 'v1alpha1/namespaces/NS/uniteddeployments', 'v1beta1/namespaces/NS/statefulsets']) {
    const res = await kube.request('GET', `/apis/apps.kruise.io/${list.replace('NS', ns)}`);
    if (res.status !== 200) throw new Error(`cluster tier: GET ${list} in ${ns}: HTTP ${res.status} ${res.body?.message}`);
    out.push(...res.body.items);
  }
  return out;
}

/**
 * The SidecarSets of a case are done: their latest spec observed, and every
 * pod they select updated, or no pod updated for 20 s (a change that reaches
 * new pods only never updates one). A SidecarSet moves to its next pod a few
 * seconds after the last one, longer on a busy node.
 */
async function sidecarSetsDone(objects: Manifest[], progress: Map<string, { updated: number; since: number }>): Promise<boolean> {
  for (const m of objects.filter(x => x.kind === 'SidecarSet')) {
    const live = (await kube.get(m)).body;
    const st = live?.status ?? {};
    if ((st.observedGeneration ?? 0) < (live?.metadata?.generation ?? 1)) return false;
    const seen = progress.get(m.metadata.name);
    if (!seen || seen.updated !== st.updatedPods) progress.set(m.metadata.name, { updated: st.updatedPods, since: Date.now() });
    const quiet = Date.now() - progress.get(m.metadata.name)!.since > 20_000;
    if (!(st.updatedPods === st.matchedPods && st.updatedReadyPods === st.matchedPods) && !quiet) return false;
  }
  return true;
}

/**
 * Wait until the case's pods settled: the expected number, all ready with
 * no in-place update in flight, every workload's latest spec observed (and
 * a CloneSet's pods updated as far as it says it will take them, resizes
 * included), its SidecarSets done, and the same pods, revisions and
 * containers for `stable` polls a second apart.
 */
async function settle(ns: string, objects: Manifest[], what: string, minWaitMs = 3000): Promise<NodePod[]> {
  const volumes = `${requireRealNode().dir}/volumes`;
  const stable = objects.some(m => m.kind === 'SidecarSet') ? 8 : 3;
  const started = Date.now();
  const until = started + 240_000;
  const progress = new Map<string, { updated: number; since: number }>();
  let last = '';
  let same = 0;
  for (;;) {
    await provisionClaims(kube, volumes);
    const pods = await nodePods(ns);
    let live: Manifest[] = [];
    try { live = await liveWorkloads(ns); } catch { /* retried */ }
    // expectedUpdatedReplicas: the pods the partition lets the CloneSet take to the update revision
    const cloneSetDone = (w: Manifest) => w.kind !== 'CloneSet' || w.status?.expectedUpdatedReplicas === undefined
      || (w.status.updatedReplicas >= w.status.expectedUpdatedReplicas && w.status.updatedReadyReplicas >= w.status.expectedUpdatedReplicas);
    const observed = live.length > 0 && live.every(w => (w.status?.observedGeneration ?? 0) >= w.metadata.generation && cloneSetDone(w));
    const ok = pods.length === expectedPods(objects) && pods.every(p => p.ready) && observed && await sidecarSetsDone(objects, progress);
    const signature = JSON.stringify(pods.map(p => [p.uid, p.revision, p.containers]));
    same = ok && signature === last ? same + 1 : 0;
    last = signature;
    if (same >= stable && Date.now() - started >= minWaitMs) return pods;
    if (Date.now() > until) {
      throw new Error(`cluster tier: ${what}: the pods of ${ns} did not settle within 240 s\n  `
        + pods.map(p => `${p.name} ready=${p.ready} rev=${p.revision} ${JSON.stringify(p.containers)}`).join('\n  ')
        + `\n  ${live.map(w => `${describeObject(w)} status ${JSON.stringify(w.status)}`).join('\n  ')}`);
    }
    await sleep(1000);
  }
}

/** The containers of a pod (same UID before and after) that are new containers now. */
const restarted = (before: NodePod, after: NodePod) =>
  Object.keys(after.containers).filter(n => before.containers[n] && before.containers[n].id !== after.containers[n].id).sort();

/** The outcome of one case: one line per judged group, and every mismatch with the plan. */
interface Verdict {
  readonly report: string[];
  readonly mismatches: string[];
}

async function judge(c: GoldenCase, gates: Record<string, boolean>): Promise<Verdict> {
  const ns = `node-plan-${c.id}`;
  await testNamespace(kube, ns);
  const oldObjects = inNamespace(c.old, ns);
  const newObjects = inNamespace(c.new, ns);
  const plan = lib.UpdatePlan.compare(oldObjects, newObjects, { featureGates: gates });
  const report: string[] = [];
  const mismatches: string[] = [];
  const differ = (label: string, what: string, planned: unknown, seen: unknown) => {
    if (JSON.stringify(planned) !== JSON.stringify(seen)) mismatches.push(`${label}: ${what}: plan ${JSON.stringify(planned)}, observed ${JSON.stringify(seen)}`);
  };

  const first = await applyAll(kube, oldObjects);
  const firstRefused = first.filter(a => a.response.status >= 300);
  if (firstRefused.length > 0) return { report, mismatches: firstRefused.map(a => `old ${describeObject(a.object)} refused: ${a.response.body?.message}`) };
  const before = await settle(ns, oldObjects, `${c.id} (old)`);
  const second = await applyAll(kube, newObjects);
  const refused = second.filter(a => a.response.status >= 300);
  const webhookRejected = plan.workloads.filter(w => w.updateType === lib.UpdateType.REJECTED && w.rejectedBy === lib.RejectedBy.WEBHOOK);
  differ(c.id, 'refused by the webhook', webhookRejected.map(w => `${w.kind}/${w.name}`), refused.map(a => `${a.object.kind}/${a.object.metadata.name}`));
  for (const a of refused) report.push(`refused as planned: ${describeObject(a.object)}: ${a.response.body?.message}`);
  const after = await settle(ns, refused.length > 0 ? oldObjects : newObjects, `${c.id} (new)`, 6000);
  const oldByUid = new Map(before.map(p => [p.uid, p]));

  const live = await liveWorkloads(ns);
  const updateRevision = (p: NodePod) => live.find(w => w.kind !== 'UnitedDeployment' && w.metadata.name === p.owner)?.status?.updateRevision ?? '';

  /** The containers a workload's template declares (injected sidecars are their SidecarSet's, judged below). */
  const podTemplate = (m: Manifest) => (m.kind === 'UnitedDeployment' ? m.spec.template.cloneSetTemplate.spec.template : m.spec.template);
  const ownContainers = (m: Manifest): Set<string> => new Set((podTemplate(m).spec.containers as any[]).map(x => x.name));
  const check = (label: string, m: Manifest, mine: (ps: NodePod[]) => NodePod[], w: lib.WorkloadPlan | undefined, wasRefused: boolean) => {
    const own = ownContainers(m);
    const seen = observe(mine(before), mine(after), updateRevision);
    const o: Observed = wasRefused ? { ...seen, podsOnOldRevision: mine(after).length - seen.podsUpdated } : seen;
    // which containers restarted in each pod that kept its UID
    const expectedRestarts = w && w.updateType === lib.UpdateType.IN_PLACE
      ? [...new Set([...w.imageChanges.map(x => x.container), ...w.envFromMetadataRestarts])].sort() : [];
    const moved = new Set(o.updatedNames);
    const restarts: string[] = [];
    for (const p of mine(after)) {
      const was = oldByUid.get(p.uid);
      if (!was) continue;
      const r = restarted(was, p).filter(n => own.has(n));
      restarts.push(`${p.name}[${r.join(',')}]`);
      differ(label, `containers restarted in ${moved.has(p.name) ? 'updated' : 'untouched'} pod ${p.name}`, moved.has(p.name) ? expectedRestarts : [], r);
      // a resized container runs with the new requests, as the kubelet reports them
      for (const name of moved.has(p.name) && w ? w.resizedContainers : []) {
        const want = (podTemplate(m).spec.containers as any[]).find(x => x.name === name)?.resources?.requests;
        differ(label, `requests of resized container ${name} in ${p.name}`, want, p.containers[name]?.requests);
      }
    }
    if (!w) {
      report.push(`${label}: plan unchanged; observed updated=${o.podsUpdated}; restarts ${restarts.join(' ')}`);
      differ(label, 'pods updated', 0, o.podsUpdated);
      return;
    }
    report.push(`${label}: plan ${w.updateType} updated=${w.podsUpdated} old=${w.podsOnOldRevision} restarts [${expectedRestarts}]; observed updated=${o.podsUpdated} `
      + `(kept UID ${o.kept}, new UID ${o.recreated}) old=${o.podsOnOldRevision}; restarts ${restarts.join(' ')}`);
    differ(label, 'pods updated', w.podsUpdated ?? 0, o.podsUpdated);
    differ(label, 'pods on the old revision', w.podsOnOldRevision ?? 0, o.podsOnOldRevision);
    if (w.updateType === lib.UpdateType.IN_PLACE) differ(label, 'pods recreated', 0, o.recreated);
    if (w.updateType === lib.UpdateType.RECREATE) differ(label, 'pods kept', 0, o.kept);
    if (w.updatedOrdinals) differ(label, 'updated ordinals', w.updatedOrdinals, ordinals(o.updatedNames));
    if (w.keptOrdinals) differ(label, 'kept ordinals', w.keptOrdinals, ordinals(o.keptNames).reverse());
  };

  for (const m of newObjects.filter(x => ['CloneSet', 'StatefulSet', 'UnitedDeployment'].includes(x.kind))) {
    const entries = plan.workloads.filter(w => w.kind === m.kind && w.name === m.metadata.name);
    if (m.kind === 'UnitedDeployment') {
      for (const w of entries) check(`${m.kind}/${m.metadata.name} subset ${w.subset}`, m, ps => ps.filter(p => p.subset === w.subset), w, false);
      continue;
    }
    const wasRefused = refused.some(a => a.object.kind === m.kind && a.object.metadata.name === m.metadata.name);
    check(`${m.kind}/${m.metadata.name}`, m, ps => ps.filter(p => p.owner === m.metadata.name), entries[0], wasRefused);
  }

  for (const sp of plan.sidecarSets) {
    const ss = newObjects.find(x => x.kind === 'SidecarSet' && x.metadata.name === sp.name)!;
    const sidecars = (ss.spec.containers as any[]).map(x => x.name);
    const selected = after.filter(p => sidecars.some(n => p.spec[n]));
    const sidecarChanged = (p: NodePod) => sidecars.some(n => JSON.stringify(p.spec[n]) !== JSON.stringify(oldByUid.get(p.uid)!.spec[n]));
    const changed = selected.filter(p => oldByUid.has(p.uid) && sidecarChanged(p));
    const recreated = selected.filter(p => !oldByUid.has(p.uid));
    const label = `SidecarSet/${sp.name}`;
    const restarts: string[] = [];
    for (const p of selected.filter(x => oldByUid.has(x.uid))) {
      const r = restarted(oldByUid.get(p.uid)!, p);
      restarts.push(`${p.name}[${r.join(',')}]`);
      const want = changed.includes(p) ? sp.inPlaceImages.map(x => x.container).sort() : [];
      differ(label, `containers restarted in ${changed.includes(p) ? 'updated' : 'untouched'} pod ${p.name}`, want, r);
    }
    report.push(`${label}: plan ${sp.updateType} updated=${sp.podsUpdated} old=${sp.podsOnOldRevision}; observed sidecar changed in place on ${changed.length}, `
      + `recreated ${recreated.length}, of ${selected.length}; restarts ${restarts.join(' ')}`);
    differ(label, 'pods whose sidecar changed in place', sp.podsUpdated ?? 0, changed.length);
    differ(label, 'pods recreated', 0, recreated.length);
    differ(label, 'pods left as they were', sp.podsOnOldRevision ?? 0, selected.length - changed.length - recreated.length);
  }

  for (const m of [...newObjects].reverse()) await kube.request('DELETE', `${await kube.pathOf(m, m.metadata.name)}?propagationPolicy=Background`);
  return { report, mismatches };
}

/** Run `work` over the items, at most `n` at a time; every outcome, in order. */
async function pool<T, R>(items: T[], n: number, work: (t: T) => Promise<R>): Promise<Array<{ value?: R; error?: Error }>> {
  const out: Array<{ value?: R; error?: Error }> = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      try { out[i] = { value: await work(items[i]) }; } catch (e: any) { out[i] = { error: e }; }
    }
  }));
  return out;
}

// The default gates first (the node's control plane as the other files run it), then each other group.
const groups = [...casesByGates(PLAN_GOLDEN)].sort(([a], [b]) => (a === '{}' ? -1 : b === '{}' ? 1 : a.localeCompare(b)));

for (const [key, cases] of groups) {
  const gates: Record<string, boolean> = JSON.parse(key);
  const running = nodeControlPlaneProps({ featureGates: gates }).featureGates!;

  describe(`on the real node, kruise-manager and kruise-daemon with feature gates ${JSON.stringify(running)}`, () => {
    const verdicts = new Map<string, { value?: Verdict; error?: Error }>();

    beforeAll(async () => {
      await ensureKruise(kube, nodeControlPlaneSynth({ featureGates: gates }));
      const results = await pool(cases, PARALLEL, c => judge(c, running));
      cases.forEach((c, i) => verdicts.set(c.id, results[i]));
    }, 1_200_000);

    for (const c of cases) {
      test(`${c.id}: ${c.description}`, () => {
        const v = verdicts.get(c.id)!;
        if (v.error) throw v.error;
        console.log(`${c.id}:\n  ${v.value!.report.join('\n  ')}`);
        expect(v.value!.mismatches).toEqual([]);
      });
    }
  });
}
