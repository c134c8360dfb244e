/**
 * An app that targets OpenKruise 1.8, with its control plane rendered for
 * 1.8, deploys on an empty cluster and its workloads run: the control
 * plane's objects are accepted and its CRDs Established (1.8's: v1alpha1
 * SidecarSet, no v1beta1 of the seven kinds 1.9 gave one), the released
 * kruise-manager v1.8.4 runs from the rendered Deployment against them and
 * keeps every webhook of the rendered configuration, and the app's CloneSet
 * and SidecarSet (v1alpha1, as the L2 writes it for 1.8) are created through
 * the webhooks: the controller makes the CloneSet's pods, kwok runs them,
 * and the pod webhook injects the SidecarSet's sidecar into each.
 *
 * On a cluster of its own, empty (only the API server, kube-scheduler,
 * kube-controller-manager and kwok), beside the judge suites.
 */
import { App, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { parseAllDocuments } from 'yaml';
import { OwnCluster, ownCluster } from './cluster';
import { asRelease, managerBinary, runKruiseRelease, sameObjects } from './release';
import { CloneSet, KruiseContext, KruiseControlPlane, SidecarSet } from '../../../src';
import { Kube, applyAll, describeObject } from '../kube';
import { Managers, ManagerProcess, fakeNodes } from '../manager';
import { rejections } from '../prove';
import { Synth, synthApp } from '../sources';

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));
const NS = 'shop';
const NODES = ['release-node-1', 'release-node-2'];

/** The app: a cluster declared as 1.8, its 1.8 control plane in chart `kruise`, a CloneSet and a SidecarSet in chart `shop`; each chart's objects. */
function appSynth(): { controlPlane: Synth; workloads: Synth } {
  const all = synthApp('an app targeting OpenKruise 1.8', (app: App) => {
    new KruiseContext(app, 'cluster', { openKruise: '1.8' });
    new KruiseControlPlane(new Chart(app, 'kruise'), 'kruise', { release: '1.8' });
    const shop = new Chart(app, 'shop', { namespace: NS });
    new kplus.Namespace(shop, 'ns', { metadata: { name: NS } });
    new CloneSet(shop, 'web', {
      replicas: 2,
      podMetadata: { labels: { app: 'web' } },
      containers: [{ name: 'web', image: 'nginx:1.27', portNumber: 8080, securityContext: { ensureNonRoot: false } }],
    });
    new SidecarSet(shop, 'logging', {
      selector: kplus.LabelSelector.of({ labels: { app: 'web' } }),
      containers: [{ name: 'log-agent', image: 'fluent/fluent-bit:3.0' }],
    });
    return app;
  });
  const chart = (id: string): Synth => {
    const files = Object.fromEntries(Object.entries(all.files).filter(([f]) => f.endsWith(`-${id}.k8s.yaml`)));
    if (Object.keys(files).length !== 1) throw new Error(`cluster tier: the app wrote ${Object.keys(all.files).join(', ')}, not one file of chart ${id}`);
    const objects = Object.values(files).flatMap(text => parseAllDocuments(text).map(d => d.toJSON()).filter(x => x));
    return { name: `${all.name}: chart ${id}`, files, objects };
  };
  return { controlPlane: chart('kruise'), workloads: chart('shop') };
}

const { controlPlane, workloads } = appSynth();
let cluster: OwnCluster | undefined;
let kube: Kube;
let managers: Managers | undefined;
let leader: ManagerProcess;

beforeAll(async () => {
  // built here on a cold machine (minutes), so the test that starts it is timed on the start alone
  managerBinary('openkruise-1.8.4');
  cluster = await ownCluster('app-on-1.8', { controllerManager: true });
  kube = new Kube();
}, 60 * 60_000);

// the cluster goes with everything in it
afterAll(async () => {
  if (managers) await managers.stopAll();
  kube?.close();
  await cluster?.stop();
}, 300_000);

test('the library renders the 1.8 control plane itself: 1.8\'s CRDs and the webhook paths the v1.8.4 manager serves', () => {
  expect(sameObjects(asRelease(controlPlane, 'openkruise', '1.8'), controlPlane)).toBe(true);
  const sidecarSets = controlPlane.objects.find(m => m.kind === 'CustomResourceDefinition' && m.metadata.name === 'sidecarsets.apps.kruise.io');
  expect(sidecarSets?.spec.versions.map((v: any) => v.name)).toEqual(['v1alpha1']);
  const deployment = controlPlane.objects.find(m => m.kind === 'Deployment' && m.metadata.name === 'kruise-controller-manager');
  expect(deployment?.spec.template.spec.containers[0].image).toBe('openkruise/kruise-manager:v1.8.4');
});

test('on an empty cluster: every object accepted, the CRDs Established; kruise-manager v1.8.4 runs from the rendered Deployment and keeps every rendered webhook', async () => {
  const crds = (await kube.request('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions')).body.items ?? [];
  expect(crds.filter((c: any) => c.spec.group.endsWith('kruise.io')).map((c: any) => c.metadata.name)).toEqual([]);
  ({ managers, leader } = await runKruiseRelease(kube, 'openkruise-1.8.4', controlPlane));
  for (const m of controlPlane.objects.filter(o => o.kind === 'CustomResourceDefinition')) {
    const live = await kube.waitEstablished(m.metadata.name, 30_000);
    expect(`${m.metadata.name} ${live.spec.versions.map((v: any) => v.name).join(',')}`).toBe(`${m.metadata.name} ${m.spec.versions.map((v: any) => v.name).join(',')}`);
  }
  expect(leader.lines(/Ignore webhook/)).toEqual([]);
  for (const m of controlPlane.objects.filter(o => o.kind.endsWith('WebhookConfiguration'))) {
    const live = (await kube.get(m)).body;
    expect((live.webhooks ?? []).map((w: any) => w.clientConfig.service.path)).toEqual(m.webhooks.map((w: any) => w.clientConfig.service.path));
  }
  console.log(`release tier: the app's 1.8 control plane installed (${controlPlane.objects.length} objects); ${leader.name} ready and leading`);
}, 300_000);

test('the app\'s 1.8 CloneSet and v1alpha1 SidecarSet are created through the webhooks; the controller makes the pods and the sidecar is injected', async () => {
  await fakeNodes(kube, NODES.map(name => ({ name })));
  const sidecarSet = workloads.objects.find(m => m.kind === 'SidecarSet')!;
  const cloneSet = workloads.objects.find(m => m.kind === 'CloneSet')!;
  expect(sidecarSet.apiVersion).toBe('apps.kruise.io/v1alpha1');
  // the SidecarSet first: the pod webhook injects into pods created after it
  const applied = await applyAll(kube, [...workloads.objects.filter(m => m.kind !== 'CloneSet'), cloneSet]);
  expect(rejections(applied)).toEqual([]);
  const until = Date.now() + 120_000;
  let pods: any[] = [];
  for (;;) {
    pods = ((await kube.request('GET', `/api/v1/namespaces/${NS}/pods`)).body.items ?? [])
      .filter((p: any) => (p.metadata.ownerReferences ?? []).some((o: any) => o.kind === 'CloneSet' && o.name === cloneSet.metadata.name));
    if (pods.length === 2 && pods.every(p => p.status?.phase === 'Running')) break;
    if (Date.now() > until) throw new Error(`cluster tier: ${describeObject(cloneSet)} has ${pods.length} pods (${pods.map(p => p.status?.phase).join(', ')}) after 120 s\n${leader.tail(30)}`);
    await sleep(1000);
  }
  expect(pods.map(p => p.spec.containers.map((c: any) => c.name).sort().join('+'))).toEqual(['log-agent+web', 'log-agent+web']);
  // the controllers write the status after the pods run: wait for it (at most 60 s; a loaded machine runs several clusters)
  const settled = Date.now() + 60_000;
  let live: any;
  let liveSidecarSet: any;
  for (;;) {
    live = (await kube.get(cloneSet)).body;
    liveSidecarSet = (await kube.get(sidecarSet)).body;
    const done = live.status?.replicas === 2 && live.status?.observedGeneration === live.metadata.generation
      && liveSidecarSet.status?.matchedPods === 2;
    if (done || Date.now() > settled) break;
    await sleep(1000);
  }
  expect([live.status?.replicas, live.status?.observedGeneration]).toEqual([2, live.metadata.generation]);
  expect(liveSidecarSet.status?.matchedPods).toBe(2);
}, 300_000);
