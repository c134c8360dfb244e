/**
 * A running apps/v1 StatefulSet becomes an Advanced StatefulSet on the real
 * node, as `cdk8s-kruise plan --old-live` says: its 3 pods (data written to
 * their PersistentVolumes) are adopted by `AdvancedStatefulSet` with
 * `takeOver: StatefulSetTakeover.fromManifest(live)` once the apps/v1 object
 * is deleted with orphan propagation; every pod keeps its name, UID and IP,
 * the data stays, and an HTTP client asking every 100 ms (with a pod created
 * and deleted every second beside it) sees no failure. Then the Advanced
 * StatefulSet takes over the updates: the switch to in-place updates adds the
 * InPlaceUpdateReady readiness gate, which recreates each pod once (as the
 * plan says), and an image change after that is done in place.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { stringify } from 'yaml';
import * as lib from '../../../src';
import { main } from '../../../src/cli';
import { Kube, Manifest } from '../kube';
import { provisionClaims } from '../manager';
import {
  applyAccepted, containerStatus, live, nodeObjects, openOnRealNode, podsOf, requireRealNode, serverContainer, sleep, until, waitWorkloadSettled,
} from '../node';
import { Traffic } from '../traffic';

const NS = 'aboard-sts';
let kube: Kube;

beforeAll(async () => {
  kube = await openOnRealNode(NS);
}, 400_000);

afterAll(() => kube?.close());

/** The server, with a preStop pause so that a stopping pod leaves the Service's endpoints before it stops answering. */
function container(image: string): kplus.ContainerProps {
  return { ...serverContainer(image), lifecycle: { preStop: kplus.Handler.fromCommand(['/server', 'run-for', '5s']) } };
}

/** The app as it was: a cdk8s-plus StatefulSet (apps/v1) with a claim template, and a Service for clients. */
function before(): Manifest[] {
  const objs = nodeObjects('apps/v1 StatefulSet', NS, chart => {
    const sts = new kplus.StatefulSet(chart, 'db', { metadata: { name: 'db' }, replicas: 3, containers: [container('server:v1')] });
    new kplus.Service(chart, 'http', { metadata: { name: 'db-http' }, selector: sts, ports: [{ port: 8080 }] });
  });
  // cdk8s-plus has no claim templates: the manifest gets them as a user's YAML has them
  const sts = objs.find(m => m.kind === 'StatefulSet')!;
  sts.spec.volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }];
  sts.spec.template.spec.containers[0].volumeMounts = [{ mountPath: '/data', name: 'data' }];
  return objs;
}

/** The app after: an Advanced StatefulSet taking the running one over. */
function after(liveSts: Manifest, image: string, inPlace: boolean): Manifest[] {
  return nodeObjects('Advanced StatefulSet', NS, chart => {
    const db = new lib.AdvancedStatefulSet(chart, 'db', {
      takeOver: lib.StatefulSetTakeover.fromManifest(liveSts),
      containers: [container(image)],
      // at the takeover the partition holds the adopted pods: on this cluster their revision's bytes differ from
      // the ones OpenKruise v1.9.0 writes (the plan says so); the in-place switch lowers it
      updateStrategy: inPlace ? lib.AdvancedStatefulSetUpdateStrategy.rollingUpdate({
        podUpdatePolicy: lib.PodUpdatePolicy.IN_PLACE_IF_POSSIBLE, gracePeriod: Duration.seconds(5),
      }) : lib.AdvancedStatefulSetUpdateStrategy.rollingUpdate({ partition: 3 }),
    });
    db.containers[0].mount('/data', db.addVolumeClaimTemplate('data', { storage: Size.gibibytes(1) }));
    new kplus.Service(chart, 'http', { metadata: { name: 'db-http' }, selector: db, ports: [{ port: 8080 }] });
  });
}

const pvBase = () => path.join(requireRealNode().clusterDir, 'pv');
const dataFile = (claim: string) => path.join(pvBase(), `pv-${NS}-${claim}`, 'data.txt');
const facts = (ps: Manifest[]) => ps.map(p => ({ name: p.metadata.name, uid: p.metadata.uid, ip: p.status.podIP }))
  .sort((a, b) => a.name.localeCompare(b.name));

/** The plan of old (live objects) -> new, through the CLI as a user runs it. */
function planOf(liveObjs: Manifest[], objs: Manifest[]): { code: number; report: lib.PlanReport } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aboard-sts-'));
  fs.writeFileSync(path.join(dir, 'live.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: liveObjs }));
  fs.mkdirSync(path.join(dir, 'dist'));
  fs.writeFileSync(path.join(dir, 'dist', 'app.k8s.yaml'), objs.map(o => stringify(o)).join('---\n'));
  let out = '';
  const code = main(['plan', '--old-live', path.join(dir, 'live.json'), '--new', path.join(dir, 'dist'), '--format', 'json'], { out: t => { out += t; }, err: t => { out += t; } });
  return { code, report: JSON.parse(out) };
}

async function liveDump(): Promise<Manifest[]> {
  const list = async (p: string) => (await kube.request('GET', p)).body.items as Manifest[];
  return [
    ...(await list(`/apis/apps/v1/namespaces/${NS}/statefulsets`)).map(o => ({ apiVersion: 'apps/v1', kind: 'StatefulSet', ...o })),
    ...(await list(`/apis/apps.kruise.io/v1beta1/namespaces/${NS}/statefulsets`)).map(o => ({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', ...o })),
    ...(await list(`/api/v1/namespaces/${NS}/pods`)).map(o => ({ apiVersion: 'v1', kind: 'Pod', ...o })),
    ...(await list(`/api/v1/namespaces/${NS}/persistentvolumeclaims`)).map(o => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', ...o })),
    ...(await list(`/api/v1/namespaces/${NS}/services`)).map(o => ({ apiVersion: 'v1', kind: 'Service', ...o })),
    ...(await list(`/apis/apps/v1/namespaces/${NS}/controllerrevisions`)).map(o => ({ apiVersion: 'apps/v1', kind: 'ControllerRevision', ...o })),
  ];
}

describe('an apps/v1 StatefulSet taken over by an Advanced StatefulSet on the real node', () => {
  let podsBefore: Manifest[] = [];
  let liveSts: Manifest;
  let commands: string[] = [];

  test('the apps/v1 StatefulSet runs 3 pods with data on their volumes', async () => {
    await applyAccepted(kube, before());
    const selector = () => Object.entries(liveSts.spec.selector.matchLabels).map(([k, v]) => `${k}=${v}`).join(',');
    liveSts = (await kube.request('GET', `/apis/apps/v1/namespaces/${NS}/statefulsets/db`)).body;
    podsBefore = await until('the 3 pods of db ready, their claims bound', 300_000, async () => {
      await provisionClaims(kube, pvBase());
      const ps = await podsOf(kube, NS, selector());
      return ps.length === 3 && ps.every(p => p.status?.containerStatuses?.[0]?.ready) ? ps : undefined;
    });
    for (const p of podsBefore) fs.writeFileSync(dataFile(`data-${p.metadata.name}`), `${p.metadata.name} ${p.metadata.uid}\n`);
  }, 400_000);

  test('the plan: a migration that adopts the 3 pods (names, UIDs, claims) and rolls none', () => {
    return liveDump().then(dump => {
      const { code, report } = planOf(dump, after(liveSts, 'server:v1', false));
      const m = report.migrations.find(x => x.kind === lib.MigrationKind.STATEFUL_SET_TO_ADVANCED)!;
      console.log(`StatefulSet -> Advanced StatefulSet: the plan says: ${m.summary}`);
      expect(code).toBe(0);
      expect(m.refused).toBe(false);
      expect(m.podsRoll).toBe(false);
      expect(m.templateDifferences).toEqual([]);
      // Kubernetes v1.37's kube-controller-manager writes the revision without the template's creationTimestamp
      expect(m.notes.some(n => /^ControllerRevision db-\w+ was written without the template's creationTimestamp/.test(n))).toBe(true);
      expect(m.steps[m.steps.length - 1]).toBe('the adopted pods do not roll yet: partition 3 keeps ordinals below 3 on their revision (the revision bytes differ), until the partition is lowered');
      expect(m.adoptedPods).toEqual(podsBefore.map(p => ({ name: p.metadata.name, uid: p.metadata.uid, claims: [`data-${p.metadata.name}`] }))
        .sort((a, b) => a.name.localeCompare(b.name)));
      expect(m.commands).toEqual([`kubectl delete statefulset.apps db -n ${NS} --cascade=orphan`]);
      commands = m.commands;
      expect(report.otherChanges).toEqual([]);
    });
  });

  test('orphan delete, then apply: every pod keeps its name, UID and IP, the data stays, and no request fails', async () => {
    const svc = (await kube.request('GET', `/api/v1/namespaces/${NS}/services/db-http`)).body;
    const traffic = await Traffic.start(kube, { url: `http://${svc.spec.clusterIP}:8080/`, podNamespace: NS });
    let adopted: Manifest[] = [];
    try {
      await sleep(2000);
      // the plan's command: kubectl delete statefulset.apps db -n aboard-sts --cascade=orphan
      for (const c of commands) {
        const r = spawnSync('bash', ['-c', c], {
          encoding: 'utf-8', env: { ...process.env, PATH: `${path.dirname(kube.env.kubectl)}:${process.env.PATH}`, KUBECONFIG: kube.env.kubeconfig },
        });
        expect(`${c}: ${r.status} ${r.stderr}`).toBe(`${c}: 0 `);
      }
      await kube.waitGone(liveSts, 60_000);
      const objs = after(liveSts, 'server:v1', false);
      await applyAccepted(kube, objs);
      const asts = objs.find(m => m.kind === 'StatefulSet')!;
      adopted = await until('the Advanced StatefulSet to own the 3 pods', 120_000, async () => {
        const w = await live(kube, asts);
        const ps = await podsOf(kube, NS, 'cdk8s.io/metadata.addr');
        const owned = ps.filter(p => p.metadata.ownerReferences?.some((r: any) => r.uid === w.metadata.uid && r.controller));
        return owned.length === 3 && w.status?.readyReplicas === 3 ? owned : undefined;
      });
      await sleep(5000);
    } finally {
      // the revisions: the apps/v1 StatefulSet's, adopted, and the one the Advanced StatefulSet made, whose bytes differ
      const revs = (await kube.request('GET', `/apis/apps/v1/namespaces/${NS}/controllerrevisions`)).body.items as Manifest[];
      console.log(`StatefulSet -> Advanced StatefulSet, revisions: ${revs.map(r => `${r.metadata.name} (owner ${r.metadata.ownerReferences?.[0]?.apiVersion}, `
        + `template creationTimestamp ${'creationTimestamp' in (r.data?.spec?.template?.metadata ?? {}) ? 'written' : 'left out'})`).join(', ')}`);
      const report = await traffic.stop();
      console.log(`StatefulSet -> Advanced StatefulSet, adoption: ${report.requests} requests (${report.failedRequests} failed), ${report.podsCreated} pods created (${report.failedPodCreations} failed)`);
      expect(report.failures).toEqual([]);
    }
    expect(facts(adopted)).toEqual(facts(podsBefore));
    for (const p of adopted) {
      expect(fs.readFileSync(dataFile(`data-${p.metadata.name}`), 'utf-8')).toBe(`${p.metadata.name} ${p.metadata.uid}\n`);
      expect(containerStatus(p, 'server').restartCount).toBe(containerStatus(podsBefore.find(b => b.metadata.name === p.metadata.name)!, 'server').restartCount);
    }
  }, 300_000);

  test('then the Advanced StatefulSet updates: the in-place switch recreates each pod once (its readiness gate), then an image change is in place; the data stays, no request fails', async () => {
    const dump = await liveDump();
    const switchObjs = after(liveSts, 'server:v1', true);
    const { report: p1 } = planOf(dump, switchObjs);
    const w1 = p1.workloads.find(w => w.kind === 'StatefulSet')!;
    expect([w1.updateType, w1.forcedBy]).toEqual([lib.UpdateType.RECREATE, 'spec.template.spec.readinessGates']);
    const svc = (await kube.request('GET', `/api/v1/namespaces/${NS}/services/db-http`)).body;
    const traffic = await Traffic.start(kube, { url: `http://${svc.spec.clusterIP}:8080/`, podNamespace: NS });
    let recreated: Manifest[] = [];
    let inPlace: Manifest[] = [];
    try {
      await applyAccepted(kube, switchObjs);
      const asts = switchObjs.find(m => m.kind === 'StatefulSet')!;
      const sel = 'cdk8s.io/metadata.addr';
      recreated = await waitWorkloadSettled(kube, asts, sel, 3, 300_000);
      const v2 = after(liveSts, 'server:v2', true);
      const w2 = planOf(await liveDump(), v2).report.workloads.find(w => w.kind === 'StatefulSet')!;
      expect(w2.updateType).toBe(lib.UpdateType.IN_PLACE);
      await applyAccepted(kube, v2);
      inPlace = await until('the in-place update to finish', 300_000, async () => {
        const ps = await waitWorkloadSettled(kube, asts, sel, 3, 300_000);
        return ps.every(p => containerStatus(p, 'server').image.includes('server:v2')) ? ps : undefined;
      });
      await sleep(3000);
    } finally {
      const report = await traffic.stop();
      console.log(`Advanced StatefulSet updates: ${report.requests} requests (${report.failedRequests} failed), ${report.podsCreated} pods created (${report.failedPodCreations} failed)`);
      expect(report.failures).toEqual([]);
    }
    for (const p of recreated) {
      expect(podsBefore.some(b => b.metadata.uid === p.metadata.uid)).toBe(false);
      expect(p.spec.volumes.find((v: any) => v.name === 'data').persistentVolumeClaim.claimName).toBe(`data-${p.metadata.name}`);
      expect(fs.readFileSync(dataFile(`data-${p.metadata.name}`), 'utf-8')).toMatch(new RegExp(`^${p.metadata.name} `));
    }
    expect(facts(inPlace)).toEqual(facts(recreated));
    for (const p of inPlace) {
      const old = recreated.find(r => r.metadata.name === p.metadata.name)!;
      expect(containerStatus(p, 'server').restartCount).toBe(containerStatus(old, 'server').restartCount + 1);
    }
  }, 900_000);
});
