/**
 * A running Deployment's pods move to a CloneSet on the real node, step by
 * step as a GitOps user commits them: `DeploymentMigration` gives both
 * replica counts of each step, `cdk8s-kruise plan --old-live` checks each
 * step against the live counts and the budget (a PodUnavailableBudget with
 * minAvailable 3 of 4), and the step to commit next is read from the cluster
 * each time (nothing is kept between steps). The Service selects the pods of
 * both workloads; an HTTP client asks it every 100 ms and a pod is created
 * and deleted every second. No request fails, the ready pods never drop
 * below the budget, and at the end only the CloneSet's pods run.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as kplus from 'cdk8s-plus-28';
import { stringify } from 'yaml';
import * as lib from '../../../src';
import { main } from '../../../src/cli';
import { Kube, Manifest } from '../kube';
import { applyAccepted, httpGet, isReady, nodeObjects, openOnRealNode, podsOf, serverContainer, sleep, until } from '../node';
import { Traffic } from '../traffic';

const NS = 'aboard-deploy';
const APP = 'aboard-dep';
const N = 4;
const FLOOR = 3;
let kube: Kube;

beforeAll(async () => {
  kube = await openOnRealNode(NS);
}, 400_000);

afterAll(() => kube?.close());

function container(): kplus.ContainerProps {
  return { ...serverContainer('server:v1'), lifecycle: { preStop: kplus.Handler.fromCommand(['/server', 'run-for', '5s']) } };
}

/** The app at a step: the Deployment (until the last step), the CloneSet (from step 1), the Service and the budget. */
function app(step: lib.DeploymentMigrationStep): Manifest[] {
  return nodeObjects(`migration step ${step.step}`, NS, chart => {
    if (!step.deleteDeployment) {
      new kplus.Deployment(chart, 'web', { metadata: { name: 'web' }, replicas: step.deploymentReplicas, podMetadata: { labels: { app: APP } }, containers: [container()] });
    }
    if (step.cloneSetReplicas > 0) {
      new lib.CloneSet(chart, 'web-cs', { metadata: { name: 'web-cs' }, replicas: step.cloneSetReplicas, podMetadata: { labels: { app: APP } }, containers: [container()] });
    }
    new kplus.Service(chart, 'svc', { metadata: { name: 'web' }, selector: kplus.Pods.select(chart, 'pods', { labels: { app: APP } }), ports: [{ port: 8080 }] });
    new lib.PodUnavailableBudget(chart, 'budget', {
      metadata: { name: 'web' },
      selector: kplus.LabelSelector.of({ labels: { app: APP } }),
      minAvailable: kplus.PercentOrAbsolute.absolute(FLOOR),
    });
  });
}

async function liveDump(): Promise<Manifest[]> {
  const list = async (p: string, apiVersion: string, kind: string) => ((await kube.request('GET', p)).body.items as Manifest[]).map(o => ({ apiVersion, kind, ...o }));
  return [
    ...await list(`/apis/apps/v1/namespaces/${NS}/deployments`, 'apps/v1', 'Deployment'),
    ...await list(`/apis/apps.kruise.io/v1alpha1/namespaces/${NS}/clonesets`, 'apps.kruise.io/v1alpha1', 'CloneSet'),
    ...await list(`/apis/policy.kruise.io/v1alpha1/namespaces/${NS}/podunavailablebudgets`, 'policy.kruise.io/v1alpha1', 'PodUnavailableBudget'),
    ...await list(`/api/v1/namespaces/${NS}/services`, 'v1', 'Service'),
    ...await list(`/api/v1/namespaces/${NS}/pods`, 'v1', 'Pod'),
  ];
}

function planOf(liveObjs: Manifest[], objs: Manifest[]): { code: number; report: lib.PlanReport } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aboard-deploy-'));
  fs.writeFileSync(path.join(dir, 'live.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: liveObjs }));
  fs.mkdirSync(path.join(dir, 'dist'));
  fs.writeFileSync(path.join(dir, 'dist', 'app.k8s.yaml'), objs.map(o => stringify(o)).join('---\n'));
  let out = '';
  const code = main(['plan', '--old-live', path.join(dir, 'live.json'), '--new', path.join(dir, 'dist'), '--format', 'json'], { out: t => { out += t; }, err: t => { out += t; } });
  return { code, report: JSON.parse(out) };
}

const get = async (p: string) => { const r = await kube.request('GET', p); return r.status === 200 ? r.body : undefined; };

describe('a Deployment\'s pods moved to a CloneSet step by step on the real node', () => {
  const migration = new lib.DeploymentMigration({ replicas: N, maxUnavailable: N - FLOOR });

  test('the Deployment runs 4 pods behind the Service, with the budget', async () => {
    await applyAccepted(kube, app(migration.step(0)));
    await until('the Deployment\'s 4 pods ready', 180_000, async () => (await podsOf(kube, NS, `app=${APP}`)).filter(isReady).length === N);
    // the migration is measured from a Service that serves: kube-proxy writes a new Service's rules a moment after its pods are ready
    const svc = (await kube.request('GET', `/api/v1/namespaces/${NS}/services/web`)).body;
    await until('the Service answers through kube-proxy', 60_000, async () => (await httpGet(`http://${svc.spec.clusterIP}:8080/`, 1000)).status === 200);
  }, 300_000);

  test('the plan refuses a step that drops below the budget, naming the cause', async () => {
    const { code, report } = planOf(await liveDump(), app(migration.step(3)));
    const m = report.migrations.find(x => x.kind === lib.MigrationKind.DEPLOYMENT_TO_CLONE_SET)!;
    expect(code).toBe(2);
    expect(m.cause).toBe(`the Deployment scales down (4 -> ${migration.step(3).deploymentReplicas}) before the CloneSet's new pods are ready: ready pods drop to ${migration.step(3).deploymentReplicas}, below 3`
      + ` (PodUnavailableBudget ${NS}/web minAvailable 3); scale the Deployment down in the next step, once the CloneSet's pods are ready (DeploymentMigration gives the steps)`);
  }, 60_000);

  test('every step, read from the cluster and checked by the plan: no request fails, ready pods never below the budget, only the CloneSet at the end', async () => {
    const svc = (await kube.request('GET', `/api/v1/namespaces/${NS}/services/web`)).body;
    const traffic = await Traffic.start(kube, { url: `http://${svc.spec.clusterIP}:8080/`, podNamespace: NS });
    let watching = true;
    let minReady = Number.MAX_SAFE_INTEGER;
    const watcher = (async () => {
      while (watching) {
        const ps = await podsOf(kube, NS, `app=${APP}`);
        minReady = Math.min(minReady, ps.filter(p => isReady(p) && !p.metadata.deletionTimestamp).length);
        await sleep(200);
      }
    })();
    const steps: string[] = [];
    try {
      for (let guard = 0; guard <= migration.lastStep; guard++) {
        // where the cluster is: the state lives there and in what is committed, not in this loop
        const dep = await get(`/apis/apps/v1/namespaces/${NS}/deployments/web`);
        const cs = await get(`/apis/apps.kruise.io/v1alpha1/namespaces/${NS}/clonesets/web-cs`);
        const at = migration.stepOf(cs?.spec?.replicas ?? 0, dep?.spec?.replicas);
        if (at === undefined) throw new Error(`cluster tier: the cluster is at no step: CloneSet ${cs?.spec?.replicas}, Deployment ${dep?.spec?.replicas}`);
        if (at === migration.lastStep) break;
        const step = migration.step(at + 1);
        const objs = app(step);
        const { code, report } = planOf(await liveDump(), objs);
        const m = report.migrations.find(x => x.kind === lib.MigrationKind.DEPLOYMENT_TO_CLONE_SET);
        steps.push(`step ${step.step}: CloneSet ${step.cloneSetReplicas}, Deployment ${step.deleteDeployment ? 'deleted' : step.deploymentReplicas} (plan: ${m?.summary})`);
        expect([code, m?.refused]).toEqual([0, false]);
        await applyAccepted(kube, objs);
        // the prune a GitOps engine makes: the Deployment at 0 pods leaves the manifests
        if (step.deleteDeployment) expect((await kube.request('DELETE', `/apis/apps/v1/namespaces/${NS}/deployments/web`)).status).toBe(200);
        await until(`step ${step.step}: ${step.waitFor}`, 180_000, async () => {
          const c = await get(`/apis/apps.kruise.io/v1alpha1/namespaces/${NS}/clonesets/web-cs`);
          const d = await get(`/apis/apps/v1/namespaces/${NS}/deployments/web`);
          const csOk = (c?.status?.readyReplicas ?? 0) === step.cloneSetReplicas
            && (c?.status?.observedGeneration ?? 0) >= (c?.metadata?.generation ?? 0);
          const depOk = step.deleteDeployment ? d === undefined
            : (d?.status?.readyReplicas ?? 0) === step.deploymentReplicas && (d?.status?.replicas ?? 0) === step.deploymentReplicas;
          return csOk && depOk;
        });
      }
      await sleep(3000);
    } finally {
      watching = false;
      await watcher;
      const report = await traffic.stop();
      console.log(`Deployment -> CloneSet: ${steps.length} steps\n  ${steps.join('\n  ')}\n  ${report.requests} requests (${report.failedRequests} failed), `
        + `${report.podsCreated} pods created (${report.failedPodCreations} failed); fewest ready pods: ${minReady}`);
      expect(report.failures).toEqual([]);
    }
    expect(minReady).toBeGreaterThanOrEqual(FLOOR);
    expect(steps.length).toBe(migration.lastStep);
    const pods = await podsOf(kube, NS, `app=${APP}`);
    expect(pods.length).toBe(N);
    expect(pods.every(p => p.metadata.ownerReferences?.[0]?.kind === 'CloneSet')).toBe(true);
    expect(((await kube.request('GET', `/apis/apps/v1/namespaces/${NS}/replicasets`)).body.items ?? []).length).toBe(0);
  }, 1_200_000);
});
