/**
 * The update plan judged by the real controllers: every case of the golden
 * set (test/fixtures/plan-golden.ts) is applied old, then new, to the cluster
 * with the released kruise-manager v1.9.0 (with the case's feature gates),
 * and what the controllers do must be what `UpdatePlan.compare` said:
 *
 * - a change the plan says the webhook refuses is refused on apply;
 * - otherwise, once the pods settle, the number of pods the change moved and
 *   the number left on the old revision are the plan's, per workload (per
 *   subset of a UnitedDeployment); in place keeps every moved pod's UID,
 *   recreate gives every moved pod a new one; for an Advanced StatefulSet the
 *   moved and kept ordinals are the plan's;
 * - for a SidecarSet, the running pods whose sidecar changed are the plan's.
 *
 * Each case has a namespace of its own (its SidecarSet is limited to it).
 * This file runs in the cluster of full/ (kube-controller-manager binds the
 * claims of the volumeClaimTemplates case and collects deleted workloads'
 * pods).
 */
import { App, Chart } from 'cdk8s';
import * as lib from '../../../src';
import { PLAN_GOLDEN } from '../../fixtures/plan-golden';
import { Kube, Manifest, applyAll, describeObject } from '../kube';
import { Managers, fakeNodes, provisionClaims, runControlPlane, testNamespace } from '../manager';
import { Observed, casesByGates, inNamespace, observe, ordinals } from '../plan-judge';
import { synthApp } from '../sources';

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

const NODES = ['plan-1', 'plan-2', 'plan-3'].map(name => ({ name }));

let kube: Kube;

beforeAll(async () => {
  kube = new Kube();
  await fakeNodes(kube, NODES);
});

afterAll(() => kube.close());

/**
 * Cases kwok cannot judge, and why; test/cluster/nodes/6-plan judges them on
 * a real node.
 */
const NOT_JUDGED: Record<string, string> = {
  'env-from-metadata': 'the container restart that re-reads env from metadata is done by kruise-daemon '
    + '(Kruise waits for its runtime-container-meta annotation), which needs a container runtime: judged on the real node (nodes/6-plan)',
};

/** A pod as the comparison needs it. */
interface PodState {
  readonly name: string;
  readonly uid: string;
  readonly revision: string;
  readonly owner: string;
  readonly subset?: string;
  readonly containers: Record<string, { image: string; env: string }>;
  readonly ready: boolean;
}

const isReady = (p: Manifest) => p.status?.phase === 'Running' && (p.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True');

async function podStates(ns: string): Promise<PodState[]> {
  const res = await kube.request('GET', `/api/v1/namespaces/${ns}/pods`);
  return (res.body.items as Manifest[]).filter(p => !p.metadata.deletionTimestamp).map(p => ({
    name: p.metadata.name,
    uid: p.metadata.uid,
    revision: p.metadata.labels?.['controller-revision-hash'] ?? '',
    owner: p.metadata.ownerReferences?.[0]?.name ?? '',
    subset: p.metadata.labels?.['apps.kruise.io/subset-name'],
    containers: Object.fromEntries(p.spec.containers.map((c: any) => [c.name, { image: c.image, env: JSON.stringify(c.env ?? []) }])),
    ready: isReady(p) && !p.metadata.annotations?.['apps.kruise.io/inplace-update-grace'],
  })).sort((a, b) => a.name.localeCompare(b.name));
}

/** The replicas the case's workloads run in all (the pods to wait for). */
function expectedPods(objects: Manifest[]): number {
  return objects.filter(m => ['CloneSet', 'StatefulSet', 'UnitedDeployment'].includes(m.kind)).reduce((n, m) => n + (m.spec.replicas ?? 1), 0);
}

/** The live objects of the case's workloads (and the workloads a UnitedDeployment made). */
async function liveWorkloads(ns: string): Promise<Manifest[]> {
  const out: Manifest[] = [];
  for (const list of ['v1alpha1/namespaces/NS/clonesets', 'v1alpha1/namespaces/NS/uniteddeployments', 'v1beta1/namespaces/NS/statefulsets']) {
    const path = `/apis/apps.kruise.io/${list.replace('NS', ns)}`;
    const res = await kube.request('GET', path);
    if (res.status !== 200) throw new Error(`cluster tier: GET ${path}: HTTP ${res.status} ${res.body?.message ?? JSON.stringify(res.body)}`);
    out.push(...res.body.items);
  }
  return out;
}

/**
 * Wait until the case's pods are settled: the expected number, all ready, no
 * in-place update in flight, every workload's latest spec observed, and the
 * same pods, revisions and containers for `stable` polls in a row (a second
 * apart). A SidecarSet moves to its next pod about 5 s after the last one, so
 * cases with one wait longer.
 */
async function settle(ns: string, objects: Manifest[], what: string, minWaitMs = 3000): Promise<PodState[]> {
  const stable = objects.some(m => m.kind === 'SidecarSet') ? 8 : 3;
  const started = Date.now();
  const until = started + 150_000;
  let last = '';
  let same = 0;
  let pods: PodState[] = [];
  let lastError = '';
  for (;;) {
    await provisionClaims(kube);
    pods = await podStates(ns);
    let live: Manifest[] = [];
    try {
      live = await liveWorkloads(ns);
      lastError = '';
    } catch (e: any) {
      lastError = e.message; // the lists are retried until the time is up
    }
    const observed = lastError === '' && live.every(w => (w.status?.observedGeneration ?? 0) >= w.metadata.generation);
    const ok = pods.length === expectedPods(objects) && pods.every(p => p.ready) && observed;
    const signature = JSON.stringify(pods.map(p => [p.uid, p.revision, p.containers]));
    same = ok && signature === last ? same + 1 : 0;
    last = signature;
    if (same >= stable && Date.now() - started >= minWaitMs) return pods;
    if (Date.now() > until) {
      throw new Error(`cluster tier: ${what}: the pods of namespace ${ns} did not settle within 150 s\n  `
        + `${pods.map(p => `${p.name} uid=${p.uid.slice(0, 8)} rev=${p.revision} ready=${p.ready} ${JSON.stringify(p.containers)}`).join('\n  ')}\n  `
        + live.map(w => `${describeObject(w)} status ${JSON.stringify(w.status)}`).join('\n  ') + (lastError ? `\n  ${lastError}` : ''));
    }
    await sleep(1000);
  }
}

for (const [key, cases] of casesByGates(PLAN_GOLDEN)) {
  const gates: Record<string, boolean> = JSON.parse(key);

  describe(`kruise-manager with feature gates ${key}`, () => {
    let managers: Managers;

    beforeAll(async () => {
      const s = synthApp(`control plane ${key}`, (app: App) => {
        new lib.KruiseControlPlane(new Chart(app, 'kruise'), 'kruise', { featureGates: gates });
        return app;
      });
      ({ managers } = await runControlPlane(kube, s));
    });

    afterAll(async () => {
      await managers?.stopAll();
    });

    for (const c of cases) {
      if (NOT_JUDGED[c.id]) {
        test.skip(`${c.id}: not judged here: ${NOT_JUDGED[c.id]}`, () => undefined);
        continue;
      }
      test(`${c.id}: ${c.description}`, async () => {
        const ns = `plan-${c.id}`;
        await testNamespace(kube, ns);
        const oldObjects = inNamespace(c.old, ns);
        const newObjects = inNamespace(c.new, ns);
        const plan = lib.UpdatePlan.compare(oldObjects, newObjects, { featureGates: gates });

        const first = await applyAll(kube, oldObjects);
        expect(first.filter(a => a.response.status >= 300).map(a => `${describeObject(a.object)}: ${a.response.body?.message}`)).toEqual([]);
        const before = await settle(ns, oldObjects, `${c.id} (old)`);

        const second = await applyAll(kube, newObjects);
        const refused = second.filter(a => a.response.status >= 300);
        const webhookRejected = plan.workloads.filter(w => w.updateType === lib.UpdateType.REJECTED && w.rejectedBy === lib.RejectedBy.WEBHOOK);
        expect(refused.map(a => `${a.object.kind}/${a.object.metadata.name}`)).toEqual(webhookRejected.map(w => `${w.kind}/${w.name}`));
        for (const a of refused) {
          console.log(`${c.id}: refused as planned: ${describeObject(a.object)}: HTTP ${a.response.status} ${a.response.body?.message}`);
          expect(a.response.body?.message).toMatch(/admission webhook "v[a-z]+\.kb\.io" denied the request/);
        }
        // a change the controller ignores shows only if it has time to act
        const after = await settle(ns, refused.length > 0 ? oldObjects : newObjects, `${c.id} (new)`, 6000);

        const live = await liveWorkloads(ns);
        const updateRevision = (p: PodState) => live.find(w => w.kind !== 'UnitedDeployment' && w.metadata.name === p.owner)?.status?.updateRevision ?? '';
        const report: string[] = [];
        // a refused change never reaches the cluster: every pod stays as it was, on the revision before the change
        const asRefused = (o: Observed, pods: number): Observed => ({ ...o, podsOnOldRevision: pods - o.podsUpdated });
        const check = (label: string, o: Observed, w: lib.WorkloadPlan) => {
          report.push(`${label}: plan ${w.updateType} updated=${w.podsUpdated} old=${w.podsOnOldRevision}; `
            + `observed updated=${o.podsUpdated} (kept UID ${o.kept}, new UID ${o.recreated}) old=${o.podsOnOldRevision}`);
          expect({ label, podsUpdated: o.podsUpdated, podsOnOldRevision: o.podsOnOldRevision })
            .toEqual({ label, podsUpdated: w.podsUpdated ?? 0, podsOnOldRevision: w.podsOnOldRevision ?? 0 });
          if (w.updateType === lib.UpdateType.IN_PLACE) expect({ label, recreated: o.recreated }).toEqual({ label, recreated: 0 });
          if (w.updateType === lib.UpdateType.RECREATE) expect({ label, kept: o.kept }).toEqual({ label, kept: 0 });
          if (w.updatedOrdinals) expect({ label, updated: ordinals(o.updatedNames) }).toEqual({ label, updated: w.updatedOrdinals });
          if (w.keptOrdinals) expect({ label, kept: ordinals(o.keptNames).reverse() }).toEqual({ label, kept: w.keptOrdinals });
        };

        // every workload of the case: the plan's entry, or "nothing moves" for one the plan found unchanged for its pods
        for (const m of newObjects.filter(x => ['CloneSet', 'StatefulSet', 'UnitedDeployment'].includes(x.kind))) {
          const entries = plan.workloads.filter(w => w.kind === m.kind && w.name === m.metadata.name);
          if (m.kind === 'UnitedDeployment') {
            for (const w of entries) {
              const mine = (ps: PodState[]) => ps.filter(p => p.subset === w.subset);
              check(`${m.kind}/${m.metadata.name} subset ${w.subset}`, observe(mine(before), mine(after), updateRevision), w);
            }
            continue;
          }
          const mine = (ps: PodState[]) => ps.filter(p => p.owner === m.metadata.name);
          const seen = observe(mine(before), mine(after), updateRevision);
          const wasRefused = refused.some(a => a.object.kind === m.kind && a.object.metadata.name === m.metadata.name);
          const o = wasRefused ? asRefused(seen, mine(after).length) : seen;
          if (entries.length === 0) {
            report.push(`${m.kind}/${m.metadata.name}: plan unchanged; observed updated=${o.podsUpdated}`);
            expect({ workload: m.metadata.name, podsUpdated: o.podsUpdated }).toEqual({ workload: m.metadata.name, podsUpdated: 0 });
          } else {
            check(`${m.kind}/${m.metadata.name}`, o, entries[0]);
          }
        }

        // SidecarSets: the running pods whose sidecar changed
        for (const sp of plan.sidecarSets) {
          const ss = newObjects.find(x => x.kind === 'SidecarSet' && x.metadata.name === sp.name)!;
          const names = (ss.spec.containers as any[]).map(x => x.name);
          const byUid = new Map(before.map(p => [p.uid, p]));
          const selected = after.filter(p => names.some(n => p.containers[n]));
          const sidecarChanged = (p: PodState) =>
            names.some(n => JSON.stringify(p.containers[n]) !== JSON.stringify(byUid.get(p.uid)!.containers[n]));
          const changed = selected.filter(p => byUid.has(p.uid) && sidecarChanged(p));
          const recreated = selected.filter(p => !byUid.has(p.uid));
          report.push(`SidecarSet/${sp.name}: plan ${sp.updateType} updated=${sp.podsUpdated} old=${sp.podsOnOldRevision}; `
            + `observed sidecar changed in place on ${changed.length}, recreated ${recreated.length}, of ${selected.length}`);
          const unchanged = selected.length - changed.length - recreated.length;
          expect({ sidecarSet: sp.name, changed: changed.length, recreated: recreated.length, unchanged })
            .toEqual({ sidecarSet: sp.name, changed: sp.podsUpdated ?? 0, recreated: 0, unchanged: sp.podsOnOldRevision ?? 0 });
        }
        console.log(`${c.id}:\n  ${report.join('\n  ')}`);

        // leave no pods behind for the next cases (kube-controller-manager collects the workloads' pods)
        for (const m of [...newObjects].reverse()) await kube.request('DELETE', `${await kube.pathOf(m, m.metadata.name)}?propagationPolicy=Background`);
      });
    }

    test('after the cases: no request of the manager was refused by our RBAC', () => {
      expect(managers.all.flatMap(p => p.lines(/forbidden: User "system:serviceaccount:/i))).toEqual([]);
    });
  });
}
