import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, JsonPatch, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { parseAllDocuments, stringify } from 'yaml';
import {
  AdvancedStatefulSet, AdvancedStatefulSetUpdateStrategy, CloneSet, DeploymentMigration, KruiseControlPlane, KruiseHelmRelease, MigrationKind,
  MigrationPlan, PlanFormat,
  PodUnavailableBudget,
  PruneProtection, StatefulSetTakeover, UpdatePlan,
} from '../../src';
import { main } from '../../src/cli';
import { ALPHA3_RENDERING, CHART_1_9_1_TEMPLATES, chart191Objects, chartValues } from '../control-plane/_chart-template';
import { helmRecord } from '../fixtures/helm-release';
import { liveRevision, liveStatefulSet, liveStatefulSetDump } from '../fixtures/live-migration';
import { REFERENCE_DIR, describeWithReference } from '../util/reference';

const live = { oldIsLive: true };
const only = (ms: MigrationPlan[]) => {
  expect(ms.length).toBe(1);
  return ms[0];
};

function asts(build: (chart: any) => void): any[] {
  const chart = Testing.chart();
  build(chart);
  return Testing.synth(chart);
}

describe('StatefulSet -> Advanced StatefulSet', () => {
  test('the same template: a migration that adopts every pod (names, UIDs, claims), rolls none, and lists the steps; run-time objects are not removed', () => {
    const r = UpdatePlan.compare(liveStatefulSetDump(), asts(c => AdvancedStatefulSet.fromStatefulSetManifest(c, 'db', liveStatefulSet())), live);
    const m = only(r.migrations);
    expect(m).toMatchObject({
      kind: MigrationKind.STATEFUL_SET_TO_ADVANCED,
      namespace: 'shop',
      current: 'StatefulSet shop/db (apps/v1)',
      target: 'StatefulSet shop/db (apps.kruise.io/v1beta1)',
      refused: false,
      podsRoll: false,
      templateDifferences: [],
      summary: 'migration: the apps/v1 StatefulSet becomes an Advanced StatefulSet of the same name, which adopts its 3 pods (names, UIDs and PVCs kept); they do not roll',
    });
    expect(m.adoptedPods).toEqual([0, 1, 2].map(i => ({ name: `db-${i}`, uid: `pod-${i}`, claims: [`data-db-${i}`] })));
    expect(m.steps).toEqual([
      'keep GitOps from pruning the apps/v1 StatefulSet: annotate it with argocd.argoproj.io/sync-options: Prune=false (Argo CD) and kustomize.toolkit.fluxcd.io/prune: disabled (Flux) (PruneProtection.protect()), and let the engine apply the annotations before this change',
      'delete the apps/v1 StatefulSet and keep its pods: kubectl delete statefulset.apps db -n shop --cascade=orphan (pods, their PVCs and ControllerRevisions stay, without an owner)',
      'apply the new manifests: the Advanced StatefulSet adopts the ControllerRevisions, then the pods db-0, db-1, db-2',
    ]);
    expect(m.commands).toEqual(['kubectl delete statefulset.apps db -n shop --cascade=orphan']);
    expect(m.notes).toContain('prune: once the apps/v1 StatefulSet leaves the manifests a GitOps engine prunes it (Argo CD with foreground propagation by default, Flux in the background), and the garbage collector then deletes its 3 pods; the annotations stop that');
    expect(r.otherChanges).toEqual([]);
    expect(r.workloads).toEqual([]);
    expect(r.rejected).toBe(false);
  });

  test('a revision written without the template\'s creationTimestamp (kube-controller-manager on apimachinery v0.36+) differs in its bytes: the pods roll unless a partition holds them', () => {
    const dump = liveStatefulSetDump().map(o => (o.kind === 'ControllerRevision' ? liveRevision(false) : o));
    const rolls = only(UpdatePlan.compare(dump, asts(c => AdvancedStatefulSet.fromStatefulSetManifest(c, 'db', liveStatefulSet())), live).migrations);
    expect([rolls.refused, rolls.podsRoll, rolls.templateDifferences]).toEqual([false, true, []]);
    expect(rolls.steps[3]).toBe('the adopted pods then roll: recreated one at a time (podUpdatePolicy ReCreate), although the template is the same');
    expect(rolls.notes).toContain('ControllerRevision db-5c9d was written without the template\'s creationTimestamp (a kube-controller-manager on apimachinery v0.36 or later leaves it out), '
      + 'while OpenKruise v1.9.0 writes creationTimestamp: null: the bytes differ, so the Advanced StatefulSet makes a revision of its own and takes every adopted pod for an old one');
    expect(rolls.notes).toContain('to keep the adopted pods as they are, write updateStrategy rollingUpdate partition 3 (AdvancedStatefulSetUpdateStrategy.rollingUpdate({ partition: 3 })), and lower it when the pods may be recreated');
    const held = only(UpdatePlan.compare(dump, asts(c => {
      const s = new AdvancedStatefulSet(c, 'db', {
        takeOver: StatefulSetTakeover.fromManifest(liveStatefulSet()),
        updateStrategy: AdvancedStatefulSetUpdateStrategy.rollingUpdate({ partition: 3 }),
        containers: [{ name: 'main', image: 'postgres:17', portNumber: 5432 }],
      });
      s.containers[0].mount('/data', s.addVolumeClaimTemplate('data', { storage: Size.gibibytes(1) }));
    }), live).migrations);
    expect([held.podsRoll, held.steps[3]]).toEqual([false, 'the adopted pods do not roll yet: partition 3 keeps ordinals below 3 on their revision (their template differs and the revision bytes differ), until the partition is lowered']);
    const unknown = only(UpdatePlan.compare(dump.filter(o => o.kind !== 'ControllerRevision'), asts(c => AdvancedStatefulSet.fromStatefulSetManifest(c, 'db', liveStatefulSet())), live).migrations);
    expect(unknown.notes).toContain('whether the adopted pods roll also depends on the bytes of the apps/v1 StatefulSet\'s ControllerRevision, which the live objects do not hold: add controllerrevisions to the kubectl get');
  });

  test('OpenKruise\'s defaults count: a template that leaves imagePullPolicy out differs (Always where Kubernetes stored IfNotPresent), so the adopted pods roll', () => {
    const manifest = liveStatefulSet();
    delete manifest.spec.template.spec.containers[0].imagePullPolicy;
    const m = only(UpdatePlan.compare(liveStatefulSetDump(), asts(c => AdvancedStatefulSet.fromStatefulSetManifest(c, 'db', manifest)), live).migrations);
    expect(m.refused).toBe(false);
    expect(m.podsRoll).toBe(true);
    expect(m.templateDifferences).toEqual(['spec.template.spec.containers[0].imagePullPolicy: "IfNotPresent" -> "Always" (OpenKruise\'s default)']);
    expect(m.steps[3]).toBe('the adopted pods then roll: recreate: podUpdatePolicy is ReCreate, so every template change recreates the pods (changes spec.template.spec.containers[0].imagePullPolicy of container "main": "IfNotPresent" -> "Always"); 3 pods in 3 batches of 1, ordinals 2, 1, 0 (highest first)');
    expect(m.notes).toContain('OpenKruise sets a missing imagePullPolicy to Always where Kubernetes set IfNotPresent: write imagePullPolicy: IfNotPresent to keep the running revision');
  });

  test('what the API server does not store (a plain false, 0 or "" the Go encoding omits) is no difference', () => {
    const manifest = liveStatefulSet();
    manifest.spec.template.spec.hostNetwork = false;
    manifest.spec.template.spec.containers[0].stdin = false;
    manifest.spec.template.spec.containers[0].volumeMounts = [{ name: 'data', mountPath: '/data', readOnly: false }];
    const dump = liveStatefulSetDump();
    dump[0].spec.template.spec.containers[0].volumeMounts = [{ name: 'data', mountPath: '/data' }];
    const m = only(UpdatePlan.compare(dump, asts(c => AdvancedStatefulSet.fromStatefulSetManifest(c, 'db', manifest)), live).migrations);
    expect([m.podsRoll, m.templateDifferences]).toEqual([false, []]);
  });

  test('the L2 with takeOver selects the running pods; one with a selector label of its own is refused (exit 2) naming the cause', () => {
    const taken = only(UpdatePlan.compare(liveStatefulSetDump(), asts(c => {
      const s = new AdvancedStatefulSet(c, 'db', { takeOver: StatefulSetTakeover.fromManifest(liveStatefulSet()), containers: [{ name: 'main', image: 'postgres:17', portNumber: 5432 }] });
      s.containers[0].mount('/data', s.addVolumeClaimTemplate('data', { storage: Size.gibibytes(1) }));
    }), live).migrations);
    expect([taken.refused, taken.adoptedPods.length, taken.podsRoll]).toEqual([false, 3, true]);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'migration-'));
    fs.writeFileSync(path.join(dir, 'live.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: liveStatefulSetDump() }));
    fs.mkdirSync(path.join(dir, 'dist'));
    const ours = asts(c => new AdvancedStatefulSet(c, 'db', { metadata: { name: 'db', namespace: 'shop' }, replicas: 3, service: undefined, containers: [{ image: 'postgres:17', portNumber: 5432 }] }));
    fs.writeFileSync(path.join(dir, 'dist', 'app.k8s.yaml'), ours.map(o => stringify(o)).join('---\n'));
    let out = '';
    const code = main(['plan', '--old-live', path.join(dir, 'live.json'), '--new', path.join(dir, 'dist')], { out: t => { out += t; }, err: t => { out += t; } });
    expect(code).toBe(2);
    const label = ours.find(o => o.kind === 'StatefulSet').spec.selector.matchLabels['cdk8s.io/metadata.addr'];
    expect(out).toContain(`Migration StatefulSet shop/db (apps/v1) -> StatefulSet shop/db (apps.kruise.io/v1beta1):\n  - migration refused: the Advanced StatefulSet would not adopt the running pods: spec.selector {"matchLabels":{"cdk8s.io/metadata.addr":"${label}"}} does not select the running pods (db-0, db-1, db-2): `
      + 'nothing is adopted, and the controller loops on AlreadyExists creating db-0; select the running StatefulSet\'s labels {"app":"db"} (AdvancedStatefulSet takeOver: StatefulSetTakeover.fromManifest(), which adds no selector label of its own)\n');
    expect(out).toContain('Result: 1 change the cluster will refuse.');
  });

  test('a different serviceName or different claim templates are refused with the cause', () => {
    const other = liveStatefulSet();
    other.spec.serviceName = 'db-headless';
    expect(only(UpdatePlan.compare(liveStatefulSetDump(), asts(c => AdvancedStatefulSet.fromStatefulSetManifest(c, 'db', other)), live).migrations).cause)
      .toBe('spec.serviceName "db-headless" is not the running StatefulSet\'s "db": the adopted pods keep the DNS subdomain "db" (it cannot change on a running pod) while every pod the new StatefulSet creates gets "db-headless"; keep serviceName "db"');
    const claims = liveStatefulSet();
    claims.spec.volumeClaimTemplates[0].metadata.name = 'pgdata';
    expect(only(UpdatePlan.compare(liveStatefulSetDump(), asts(c => AdvancedStatefulSet.fromStatefulSetManifest(c, 'db', claims)), live).migrations).cause)
      .toBe('spec.volumeClaimTemplates ["pgdata"] are not the running StatefulSet\'s ["data"]: the adopted pods mount the claims data-db-<ordinal>, and the controller loops trying to change the volumes of running pods, which the API server refuses; declare the same claim templates');
  });

  test('a protected apps/v1 StatefulSet needs no prune step', () => {
    const dump = liveStatefulSetDump();
    dump[0].metadata.annotations = { [PruneProtection.ARGO_CD_SYNC_OPTIONS]: 'Prune=false', [PruneProtection.FLUX_PRUNE]: 'disabled' };
    const m = only(UpdatePlan.compare(dump, asts(c => AdvancedStatefulSet.fromStatefulSetManifest(c, 'db', liveStatefulSet())), live).migrations);
    expect(m.steps[0]).toMatch(/^delete the apps\/v1 StatefulSet and keep its pods/);
    expect(m.notes).toContain('the apps/v1 StatefulSet carries the prune annotations of Argo CD and Flux: leaving the manifests does not delete it');
  });
});

describe('Deployment -> CloneSet', () => {
  const liveDeployment = (replicas: number, ready = replicas) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop' },
    spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'web:1' }] } } },
    status: { replicas, readyReplicas: ready },
  });
  const liveService = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'shop' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } };
  const step = (deployment: number | undefined, cloneSet: number, labels: Record<string, string> = { app: 'web' }) => asts(c => {
    if (deployment !== undefined) {
      new kplus.Deployment(c, 'web', { metadata: { name: 'web', namespace: 'shop' }, replicas: deployment, select: false, podMetadata: { labels: { app: 'web' } }, containers: [{ image: 'web:1', portNumber: 80 }] })
        .select(kplus.LabelSelector.of({ labels: { app: 'web' } }));
    }
    new CloneSet(c, 'web-cs', { metadata: { name: 'web-cs', namespace: 'shop' }, replicas: cloneSet, podMetadata: { labels }, containers: [{ image: 'web:1', portNumber: 80 }] });
    new PodUnavailableBudget(c, 'budget', { metadata: { name: 'web', namespace: 'shop' }, selector: kplus.LabelSelector.of({ labels: { app: 'web' } }), minAvailable: kplus.PercentOrAbsolute.absolute(3) });
    ApiObject.of(new kplus.Service(c, 'svc', { metadata: { name: 'web', namespace: 'shop' }, ports: [{ port: 80 }] })).addJsonPatch(JsonPatch.add('/spec/selector', { app: 'web' }));
  });

  test('the first step: the CloneSet scales up while the Deployment scales down, within the budget, and the order of every step', () => {
    const m = only(UpdatePlan.compare([liveDeployment(4), liveService], step(3, 1), live).migrations);
    expect(m).toMatchObject({
      kind: MigrationKind.DEPLOYMENT_TO_CLONE_SET,
      refused: false,
      current: 'Deployment shop/web (apps/v1)',
      target: 'CloneSet shop/web-cs (apps.kruise.io/v1alpha1)',
      summary: 'migration step: the CloneSet scales to 1 while the Deployment scales to 3, never below 3 ready pods',
      adoptedPods: [],
    });
    expect(m.steps).toEqual([
      'this change: CloneSet 0 -> 1 pods, Deployment 4 -> 3; at most 5 pods run, at least 3 stay ready',
      'the order (DeploymentMigration({ replicas: 4, maxUnavailable: 1 })): 1: CloneSet 1, Deployment 3; 2: CloneSet 2, Deployment 2; 3: CloneSet 3, Deployment 1; 4: CloneSet 4, Deployment 0; 5: delete the Deployment; commit each step once the previous one is ready',
    ]);
    expect(m.notes).toEqual([
      'Service shop/web selects the pods of both workloads',
      'a CloneSet never adopts pods it does not own: the pods move by scaling the two workloads, never by adoption',
    ]);
    const helper = new DeploymentMigration({ replicas: 4, maxUnavailable: 1 });
    expect(helper.step(1)).toMatchObject({ cloneSetReplicas: 1, deploymentReplicas: 3 });
  });

  test('a step that scales the Deployment below the budget before the CloneSet is ready is refused (exit 2) with the cause', () => {
    const r = UpdatePlan.compare([liveDeployment(4), liveService], step(1, 3), live);
    expect(r.rejected).toBe(true);
    expect(only(r.migrations).cause).toBe('the Deployment scales down (4 -> 1) before the CloneSet\'s new pods are ready: ready pods drop to 1, below 3 (PodUnavailableBudget shop/web minAvailable 3); '
      + 'scale the Deployment down in the next step, once the CloneSet\'s pods are ready (DeploymentMigration gives the steps)');
  });

  test('a Service that would not select the CloneSet\'s pods, and a Deployment pruned with pods, are refused', () => {
    expect(only(UpdatePlan.compare([liveDeployment(4), liveService], step(3, 1, { role: 'web' }), live).migrations).cause)
      .toBe('Service shop/web selects the Deployment\'s pods ({"app":"web"}) but not the CloneSet\'s (template labels {"cdk8s.io/metadata.addr":"test-web-cs-c85d6649","role":"web"}): the CloneSet\'s pods get no requests, and once the Deployment is at 0 nothing answers; give the CloneSet\'s pods the labels {"app":"web"}');
    expect(only(UpdatePlan.compare([liveDeployment(2), liveService], step(undefined, 4), live).migrations).cause)
      .toBe('the Deployment leaves the manifests while it runs 2 pods: pruning it deletes them at once; scale it to 0 first (the last step of DeploymentMigration removes it at 0 pods)');
    const cs = step(undefined, 4).find(o => o.kind === 'CloneSet');
    const liveCloneSet = { ...cs, status: { replicas: 4, readyReplicas: 4 } };
    const last = only(UpdatePlan.compare([liveDeployment(0), liveCloneSet, liveService], step(undefined, 4), live).migrations);
    expect([last.refused, last.summary]).toEqual([false, 'migration step: the CloneSet scales to 4 while the Deployment is deleted, never below 3 ready pods']);
    expect(last.steps[1]).toBe('the Deployment has no pods left: pruning (or kubectl delete deployment) deletes no pod');
  });
});

const CHART_SOURCES = [ALPHA3_RENDERING, ...CHART_1_9_1_TEMPLATES];

describeWithReference('Helm takeover (chart 1.9.1 rendered as the live objects, its release record)', CHART_SOURCES, () => {
  /** The chart's objects as a live install holds them (Helm's labels, annotations, field manager; CRD status), and its release record. */
  function chartLive(config: any = {}, objects = chart191Objects(config).objects): any[] {
    const objs = JSON.parse(JSON.stringify(objects)).filter((o: any) => !o.metadata?.annotations?.['helm.sh/hook']);
    const record = helmRecord({ chartVersion: '1.9.1', chartValues: chartValues(), config, manifest: objs });
    for (const o of objs) {
      o.metadata.labels = { ...o.metadata.labels, 'app.kubernetes.io/managed-by': 'Helm' };
      o.metadata.annotations = { ...o.metadata.annotations, 'meta.helm.sh/release-name': 'kruise', 'meta.helm.sh/release-namespace': 'default' };
      o.metadata.managedFields = [{ manager: 'helm', operation: 'Update', apiVersion: o.apiVersion, fieldsType: 'FieldsV1', fieldsV1: {} }];
      if (o.kind === 'CustomResourceDefinition') o.status = { storedVersions: o.spec.versions.filter((v: any) => v.storage).map((v: any) => v.name) };
    }
    return [...objs, record];
  }
  const recordOf = (objs: any[]) => objs.find(o => o.type === 'helm.sh/release.v1');
  const ours = (objs: any[], props = {}) => asts(c => KruiseControlPlane.fromHelmRelease(c, 'kruise', KruiseHelmRelease.fromRecord(recordOf(objs)), props));

  test('chart 1.9.1 with its defaults is taken over with no change of release: every object kept, the webhook calls moved to handover pods before the chart\'s manager pods stop, the commands in order', () => {
    const liveObjs = chartLive();
    const r = UpdatePlan.compare(liveObjs, ours(liveObjs), { ...live, newManifestsDir: 'dist/kruise' });
    const m = only(r.migrations);
    expect(m.kind).toBe(MigrationKind.HELM_TAKEOVER);
    expect([m.refused, m.cause]).toEqual([false, undefined]);
    expect(m.summary).toBe('takeover: the manifests take over the 43 objects of Helm release default/kruise (18 CRDs and 37 webhooks kept, the certificate kept); '
      + 'the pods of 2 workloads roll once, the webhook calls moved to 2 handover pods of the new manager first');
    expect(m.templateDifferences.filter(d => d.includes('.image:'))).toEqual([]);
    const patches = m.commands.filter(c => c.startsWith('kubectl patch') && c.includes('managedFields'));
    expect(patches).toHaveLength(43);
    const [handover, ...rest] = m.commands.slice(1 + patches.length);
    expect(m.commands[0]).toBe('kubectl delete secret -n default -l owner=helm,name=kruise');
    const deployment = JSON.parse(handover.split('\n')[1]);
    const manager = ours(liveObjs).find(o => o.kind === 'Deployment');
    expect(handover.split('\n')[0]).toBe('kubectl apply --server-side --field-manager=cdk8s-kruise-handover -f - <<\'EOF\'');
    expect(deployment.metadata).toEqual({ name: 'kruise-controller-manager-handover', namespace: 'kruise-system', labels: { 'cdk8s-kruise/handover': 'true' } });
    expect(deployment.spec.selector).toEqual({ matchLabels: { 'control-plane': 'controller-manager', 'cdk8s-kruise/handover': 'true' } });
    expect(deployment.spec.template.spec).toEqual(manager.spec.template.spec);
    expect(deployment.spec.template.metadata.labels).toEqual({ ...manager.spec.template.metadata.labels, 'cdk8s-kruise/handover': 'true' });
    const endpoints = 'kubectl get endpointslices -n kruise-system -l kubernetes.io/service-name=kruise-webhook-service -o json';
    expect(rest).toEqual([
      'kubectl rollout status deployment/kruise-controller-manager-handover -n kruise-system --timeout=300s',
      'kubectl patch service kruise-webhook-service -n kruise-system --type=merge -p \'{"spec":{"selector":{"cdk8s-kruise/handover":"true"}}}\'',
      `timeout 300 sh -c 'until ${endpoints} | jq -e "[.items[].endpoints[]?] | length > 0 and all(.conditions.ready and (.targetRef.name | startswith(\\"kruise-controller-manager-handover-\\")))" >/dev/null; do sleep 1; done' && sleep 5`,
      'kubectl scale deployment kruise-controller-manager -n kruise-system --replicas=0',
      'kubectl wait --for=delete pod -n kruise-system -l \'control-plane=controller-manager,!cdk8s-kruise/handover\' --timeout=300s',
      'kubectl apply --server-side --field-manager=cdk8s-kruise --force-conflicts -f dist/kruise',
      'kubectl rollout status daemonset/kruise-daemon -n kruise-system --timeout=600s',
      'kubectl rollout status deployment/kruise-controller-manager -n kruise-system --timeout=600s',
      `timeout 300 sh -c 'until ${endpoints} | jq -e "[.items[].endpoints[]? | select(.conditions.ready and (.targetRef.name | startswith(\\"kruise-controller-manager-handover-\\") | not))] | length > 0" >/dev/null; do sleep 1; done'`,
      'kubectl delete deployment kruise-controller-manager-handover -n kruise-system',
      'kubectl wait --for=delete pod -n kruise-system -l cdk8s-kruise/handover=true --timeout=300s',
    ]);
    expect(m.steps.map(x => x.split(':')[0])).toEqual([
      'delete the release record (sh.helm.release.v1.kruise.v1)', 'hand Helm\'s fields to the field manager cdk8s-kruise (43 objects), so that the apply below removes what only the chart wrote, Helm\'s labels and annotations included',
      'start the handover pods', 'move the webhook calls to them', 'stop the chart\'s manager pods (Deployment kruise-system/kruise-controller-manager to 0)', 'apply the new manifests',
      'wait for the pods that roll', 'end the handover',
    ]);
    expect(r.otherChanges).toEqual(['PodDisruptionBudget kruise-system/kruise-controller-manager: added']);
    expect(UpdatePlan.render(r, PlanFormat.MARKDOWN)).toContain('```sh\nkubectl delete secret -n default -l owner=helm,name=kruise\n');
  });

  test('a release record without manager.image.tag set still says the release: the takeover keeps 1.9.1, where the values alone would not know it', () => {
    const liveObjs = chartLive();
    expect(KruiseHelmRelease.fromRecord(recordOf(liveObjs)).runningImage).toBe('openkruise/kruise-manager:v1.9.1');
    expect(KruiseHelmRelease.fromRecord({ apiVersion: 'v1', kind: 'List', items: [recordOf(liveObjs)] }).runningImageSource)
      .toBe('the release record of default/kruise (revision 1, chart kruise 1.9.1, deployed) runs openkruise/kruise-manager:v1.9.1');
    expect(ours(liveObjs).find(o => o.kind === 'Deployment').spec.template.spec.containers[0].image).toBe('openkruise/kruise-manager:v1.9.1');
  });

  test('a takeover to an older release is refused, in fromHelmRelease and in the plan, with the same fix; a newer one is an upgrade the plan states', () => {
    const liveObjs = chartLive();
    const fix = 'set release: \'1.9.1\' on the control plane';
    expect(() => ours(liveObjs, { release: '1.9.0' })).toThrow('KruiseControlPlane.fromHelmRelease() at \'test/kruise\': the cluster runs OpenKruise 1.9.1 (the release record of default/kruise '
      + `(revision 1, chart kruise 1.9.1, deployed) runs openkruise/kruise-manager:v1.9.1), newer than 1.9.0, the release this control plane installs: taking over would downgrade OpenKruise; ${fix}`);
    const older = asts(c => new KruiseControlPlane(c, 'kruise', { release: '1.9.0' }));
    expect(only(UpdatePlan.compare(liveObjs, older, live).migrations).cause).toBe('Deployment kruise-system/kruise-controller-manager: container manager runs openkruise/kruise-manager:v1.9.1, '
      + `newer than openkruise/kruise-manager:v1.9.0 of the new manifests: taking over would downgrade OpenKruise; ${fix}`);
    // the same fix, taken, works: the control plane of release 1.9.1 is the takeover of the plan above
    const fixed = asts(c => new KruiseControlPlane(c, 'kruise', { release: '1.9.1' }));
    expect(only(UpdatePlan.compare(liveObjs, fixed, live).migrations).refused).toBe(false);
    // chart 1.9.1 with manager.image.tag v1.9.0 set runs 1.9.0: taken over as is, or upgraded when release says so
    const at190 = chartLive({ manager: { image: { tag: 'v1.9.0' } } });
    expect(ours(at190).find(o => o.kind === 'Deployment').spec.template.spec.containers[0].image).toBe('openkruise/kruise-manager:v1.9.0');
    const up = only(UpdatePlan.compare(at190, ours(at190, { release: '1.9.1' }), live).migrations);
    expect(up.refused).toBe(false);
    expect(up.summary).toContain('the release changes: OpenKruise 1.9.0 -> 1.9.1; ');
  });

  test('a CRD or a webhook that would go is refused; a webhook renamed by the chart is kept under its new name', () => {
    const liveObjs = chartLive();
    const noCrds = ours(liveObjs).filter(o => !(o.kind === 'CustomResourceDefinition' && o.metadata.name === 'clonesets.apps.kruise.io'));
    expect(only(UpdatePlan.compare(liveObjs, noCrds, live).migrations).cause)
      .toBe('CustomResourceDefinition clonesets.apps.kruise.io of the release is not in the new manifests: nothing would manage it, and deleting the release record leaves it behind; install the CRDs with the control plane (installCrds)');
    const fewer = ours(liveObjs).map(o => (o.kind === 'ValidatingWebhookConfiguration' ? { ...o, webhooks: o.webhooks.filter((w: any) => w.name !== 'vpod.kb.io') } : o));
    expect(only(UpdatePlan.compare(liveObjs, fewer, live).migrations).cause)
      .toBe('ValidatingWebhookConfiguration kruise-validating-webhook-configuration: webhook vpod.kb.io is live but not in the new manifests: taking the configuration over removes it, and vpod.kb.io stops judging ["pods"]; keep it (check the control plane\'s feature gates)');
    // a live install of chart 1.9.0-alpha.3 names the pull jobs' webhooks without -v1beta1
    const alpha3 = parseAllDocuments(fs.readFileSync(ALPHA3_RENDERING, 'utf-8')).map(d => d.toJS()).filter(o => o && o.kind);
    const fromAlpha3 = only(UpdatePlan.compare(chartLive({ manager: { image: { tag: 'v1.9.0' } } }, alpha3.map(o => JSON.parse(JSON.stringify(o).split('v1.9.0-alpha3').join('v1.9.0')))),
      asts(c => new KruiseControlPlane(c, 'kruise', { release: '1.9.0' })), live).migrations);
    expect(fromAlpha3.refused).toBe(false);
    expect(fromAlpha3.notes).toContain('MutatingWebhookConfiguration kruise-mutating-webhook-configuration: webhook mimagepulljob.kb.io is mimagepulljob-v1beta1.kb.io in the new manifests (the same resources and operations)');
  });
});

