/**
 * The control planes install the release they declare: its CRDs (from the
 * model of its line), its gates and their defaults, its webhook paths, RBAC
 * and flags, and the image of that release; an image tag of another line is
 * refused. What changes per release, field by field; the full comparison with
 * each line's chart is chart-parity.test.ts.
 */
import { Chart, Testing } from 'cdk8s';
import { CHART_MUTATING, CHART_RULES, CHART_VALIDATING, ruleLine } from './_chart';
import { DeletionProtection, KruiseControlPlane, KruiseControlPlaneProps, KruiseRolloutControlPlane, KruiseRolloutControlPlaneProps } from '../../src';
import { supportedText } from '../../src/releases/registry';

function synth(props?: KruiseControlPlaneProps): any[] {
  const chart = new Chart(Testing.app(), 'kruise');
  new KruiseControlPlane(chart, 'kruise', props);
  return Testing.synth(chart);
}

function synthRollout(props?: KruiseRolloutControlPlaneProps): any[] {
  const chart = new Chart(Testing.app(), 'rollout');
  new KruiseRolloutControlPlane(chart, 'rollout', props);
  return Testing.synth(chart);
}

const one = (ms: any[], kind: string, name: string) => {
  const hit = ms.filter(m => m.kind === kind && m.metadata.name === name);
  expect(hit).toHaveLength(1);
  return hit[0];
};
const crds = (ms: any[]) => ms.filter(m => m.kind === 'CustomResourceDefinition');
const versions = (crd: any) => crd.spec.versions.map((v: any) => `${v.name}${v.storage ? '*' : ''}`).join(',');
const image = (ms: any[], kind: string, name: string) => one(ms, kind, name).spec.template.spec.containers[0].image;
const args = (ms: any[], kind: string, name: string) => one(ms, kind, name).spec.template.spec.containers[0].args as string[];
const gatesFlag = (ms: any[]) => args(ms, 'Deployment', 'kruise-controller-manager').find(a => a.startsWith('--feature-gates='));
/** A webhook as `_chart.ts` writes them: `name | path | group | versions | operations | resources | failurePolicy | selectors`. */
function hookLine(w: any): string {
  const sel = w.objectSelector ? 'protect' : w.namespaceSelector ? 'pod' : '-';
  const r = w.rules[0];
  return [w.name, w.clientConfig.service.path, r.apiGroups.join(','), r.apiVersions.join(','), r.operations.join(','), r.resources.join(','), w.failurePolicy, sel].join(' | ');
}
const hooks = (ms: any[], kind: string) => one(ms, kind, kind === 'MutatingWebhookConfiguration' ? 'kruise-mutating-webhook-configuration' : 'kruise-validating-webhook-configuration').webhooks.map(hookLine);
const names = (ms: any[], kind: string) => hooks(ms, kind).map((l: string) => l.split(' | ')[0]);
const rules = (ms: any[], kind: string, name: string) => one(ms, kind, name).rules.map(ruleLine);

/** The seven kinds 1.9 gave a v1beta1. */
const SEVEN = ['advancedcronjobs', 'broadcastjobs', 'daemonsets', 'imagelistpulljobs', 'imagepulljobs', 'nodeimages', 'sidecarsets'];

describe('KruiseControlPlane per release', () => {
  const v19 = synth();
  const v18 = synth({ release: '1.8' });
  const v17 = synth({ release: '1.7' });

  test('the release property and the image: the newest release of the line, or the release given', () => {
    const at = (props: KruiseControlPlaneProps) => new KruiseControlPlane(new Chart(Testing.app(), 'c'), 'k', props);
    expect(at({}).release).toBe('1.9.1');
    expect(at({}).managerImage).toBe('openkruise/kruise-manager:v1.9.1');
    expect(image(v19, 'Deployment', 'kruise-controller-manager')).toBe('openkruise/kruise-manager:v1.9.1');
    expect(image(v19, 'DaemonSet', 'kruise-daemon')).toBe('openkruise/kruise-manager:v1.9.1');
    expect(at({ release: '1.9.0' }).managerImage).toBe('openkruise/kruise-manager:v1.9.0');
    expect(at({ release: '1.9.1' }).managerImage).toBe('openkruise/kruise-manager:v1.9.1');
    expect(at({ release: '1.8' }).release).toBe('1.8.4');
    expect(at({ release: '1.8' }).managerImage).toBe('openkruise/kruise-manager:v1.8.4');
    expect(at({ release: '1.7' }).managerImage).toBe('openkruise/kruise-manager:v1.7.4');
    expect(at({ release: 'v1.8.2' }).managerImage).toBe('openkruise/kruise-manager:v1.8.2');
    expect(image(v18, 'Deployment', 'kruise-controller-manager')).toBe('openkruise/kruise-manager:v1.8.4');
    expect(image(v18, 'DaemonSet', 'kruise-daemon')).toBe('openkruise/kruise-manager:v1.8.4');
    expect(image(v17, 'DaemonSet', 'kruise-daemon')).toBe('openkruise/kruise-manager:v1.7.4');
  });

  test('an image tag of the line decides the release installed', () => {
    const cp = new KruiseControlPlane(new Chart(Testing.app(), 'c'), 'k', { release: '1.8', imageTag: 'v1.8.2' });
    expect(cp.release).toBe('1.8.2');
    expect(cp.managerImage).toBe('openkruise/kruise-manager:v1.8.2');
    const own = new KruiseControlPlane(new Chart(Testing.app(), 'c'), 'k', { release: '1.8', imageTag: 'v1.8.4-hotfix.1' });
    expect(own.release).toBe('1.8.4');
    expect(own.managerImage).toBe('openkruise/kruise-manager:v1.8.4-hotfix.1');
    expect(new KruiseControlPlane(new Chart(Testing.app(), 'c'), 'k', { imageTag: 'build-42' }).release).toBe('1.9.1');
  });

  test('CRDs: 1.9 serves v1beta1 of seven kinds and stores it; 1.7 and 1.8 serve only v1alpha1 of them and install no EphemeralJob', () => {
    expect(crds(v19)).toHaveLength(18);
    expect(crds(v18)).toHaveLength(17);
    expect(crds(v17)).toHaveLength(17);
    for (const p of SEVEN) {
      expect(versions(one(v19, 'CustomResourceDefinition', `${p}.apps.kruise.io`))).toBe('v1alpha1,v1beta1*');
      expect(versions(one(v18, 'CustomResourceDefinition', `${p}.apps.kruise.io`))).toBe('v1alpha1*');
      expect(versions(one(v17, 'CustomResourceDefinition', `${p}.apps.kruise.io`))).toBe('v1alpha1*');
    }
    for (const ms of [v19, v18, v17]) expect(versions(one(ms, 'CustomResourceDefinition', 'statefulsets.apps.kruise.io'))).toBe('v1alpha1,v1beta1*');
    expect(crds(v19).map(c => c.metadata.name)).toContain('ephemeraljobs.apps.kruise.io');
    expect(crds(v18).map(c => c.metadata.name)).not.toContain('ephemeraljobs.apps.kruise.io');
    expect(crds(v17).map(c => c.metadata.name)).not.toContain('ephemeraljobs.apps.kruise.io');
  });

  test('CRDs: fields of each line\'s model (CloneSet progressDeadlineSeconds from 1.9, WorkloadSpread targetFilter from 1.8)', () => {
    const spec = (ms: any[], crd: string) => one(ms, 'CustomResourceDefinition', crd).spec.versions[0].schema.openAPIV3Schema.properties.spec.properties;
    expect(spec(v19, 'clonesets.apps.kruise.io').progressDeadlineSeconds).toBeDefined();
    expect(spec(v18, 'clonesets.apps.kruise.io').progressDeadlineSeconds).toBeUndefined();
    expect(spec(v18, 'workloadspreads.apps.kruise.io').targetFilter).toBeDefined();
    expect(spec(v17, 'workloadspreads.apps.kruise.io').targetFilter).toBeUndefined();
  });

  test('conversion webhook: statefulsets in every release, daemonsets and sidecarsets from 1.9 (the CRDs with two versions)', () => {
    const converted = (ms: any[]) => crds(ms).filter(c => c.spec.conversion).map(c => c.metadata.name).sort();
    expect(converted(v19)).toEqual(['daemonsets.apps.kruise.io', 'sidecarsets.apps.kruise.io', 'statefulsets.apps.kruise.io']);
    expect(converted(v18)).toEqual(['statefulsets.apps.kruise.io']);
    expect(converted(v17)).toEqual(['statefulsets.apps.kruise.io']);
    expect(one(v18, 'CustomResourceDefinition', 'statefulsets.apps.kruise.io').spec.conversion.webhook.clientConfig.service)
      .toEqual({ name: 'kruise-webhook-service', namespace: 'kruise-system', path: '/convert', port: 443 });
    expect(rules(v18, 'ClusterRole', 'kruise-certs-role')[2])
      .toBe('apiextensions.k8s.io | customresourcedefinitions | update,watch | statefulsets.apps.kruise.io');
    expect(rules(v19, 'ClusterRole', 'kruise-certs-role')[2])
      .toBe('apiextensions.k8s.io | customresourcedefinitions | update,watch | statefulsets.apps.kruise.io,sidecarsets.apps.kruise.io,daemonsets.apps.kruise.io');
  });

  test('webhooks: 1.7 and 1.8 are exactly the chart\'s (v1alpha1 paths); 1.9 serves the seven kinds without the version', () => {
    expect(hooks(v18, 'MutatingWebhookConfiguration')).toEqual(CHART_MUTATING);
    expect(hooks(v18, 'ValidatingWebhookConfiguration')).toEqual(CHART_VALIDATING);
    expect(hooks(v17, 'MutatingWebhookConfiguration')).toEqual(CHART_MUTATING);
    expect(hooks(v17, 'ValidatingWebhookConfiguration')).toEqual(CHART_VALIDATING);
    const path = (ms: any[], kind: string, name: string) => hooks(ms, kind).find((l: string) => l.startsWith(`${name} |`))!.split(' | ').slice(1, 4).join(' | ');
    expect(path(v19, 'MutatingWebhookConfiguration', 'msidecarset.kb.io')).toBe('/mutate-apps-kruise-io-sidecarset | apps.kruise.io | v1alpha1,v1beta1');
    expect(path(v18, 'MutatingWebhookConfiguration', 'msidecarset.kb.io')).toBe('/mutate-apps-kruise-io-v1alpha1-sidecarset | apps.kruise.io | v1alpha1');
    expect(path(v19, 'ValidatingWebhookConfiguration', 'vdaemonset.kb.io')).toBe('/validate-apps-kruise-io-daemonset | apps.kruise.io | v1alpha1,v1beta1');
    expect(path(v17, 'ValidatingWebhookConfiguration', 'vdaemonset.kb.io')).toBe('/validate-apps-kruise-io-v1alpha1-daemonset | apps.kruise.io | v1alpha1');
    // the template annotation the manager reads follows
    const template = JSON.parse(one(v18, 'MutatingWebhookConfiguration', 'kruise-mutating-webhook-configuration').metadata.annotations.template);
    expect(template.find((w: any) => w.name === 'msidecarset.kb.io').clientConfig.service.path).toBe('/mutate-apps-kruise-io-v1alpha1-sidecarset');
  });

  test('gates: the release\'s defaults; ResourcesDeletionProtection is on by default in 1.7 and off from 1.8, and off unregisters the Service and Ingress webhooks', () => {
    const none = { crdDeletionProtection: DeletionProtection.NONE, namespaceDeletionProtection: DeletionProtection.NONE };
    const at = (props: KruiseControlPlaneProps) => new KruiseControlPlane(new Chart(Testing.app(), 'c'), 'k', props);
    expect(at({ release: '1.7', ...none }).isFeatureGateEnabled('ResourcesDeletionProtection')).toBe(true);
    expect(at({ release: '1.8', ...none }).isFeatureGateEnabled('ResourcesDeletionProtection')).toBe(false);
    expect(at({ ...none }).isFeatureGateEnabled('ResourcesDeletionProtection')).toBe(false);
    const protectionHooks = (ms: any[]) => names(ms, 'ValidatingWebhookConfiguration').filter((n: string) => n === 'vservice.kb.io' || n === 'vingress.kb.io');
    expect(protectionHooks(synth({ release: '1.7', ...none }))).toEqual(['vingress.kb.io', 'vservice.kb.io']);
    expect(protectionHooks(synth({ release: '1.8', ...none }))).toEqual([]);
    expect(protectionHooks(synth({ release: '1.7', ...none, featureGates: { ResourcesDeletionProtection: false } }))).toEqual([]);
    expect(gatesFlag(synth({ release: '1.7', ...none }))).toBe('--feature-gates=ImagePullJobGate=true');
    // the default protection writes the same flag in every release
    for (const ms of [v19, v18, v17]) {
      expect(gatesFlag(ms)).toBe('--feature-gates=DeletionProtectionForCRDCascadingGate=true,ImagePullJobGate=true,ResourcesDeletionProtection=true');
    }
  });

  test('gates: a gate of a later release is refused, naming the release', () => {
    expect(() => synth({ release: '1.8', featureGates: { InPlacePodVerticalScaling: true } })).toThrow(
      '[kruise/kruise] KruiseControlPlane featureGates.InPlacePodVerticalScaling: true is not an OpenKruise v1.8.4 feature gate '
      + '(a gate of 1.9, which kruise-manager v1.8.4 refuses to start with); use one of the names in KruiseFeatureGate that v1.8.4 has (');
    expect(() => synth({ release: '1.7', featureGates: { StatefulSetAutoResizePVCGate: true } })).toThrow(
      'featureGates.StatefulSetAutoResizePVCGate: true is not an OpenKruise v1.7.4 feature gate (a gate of 1.9, which kruise-manager v1.7.4 refuses to start with)');
    expect(() => synth({ release: '1.8', featureGates: { StatefulSetAutoResizePVCGate: true } })).not.toThrow();
  });

  test('RBAC: pods/resize from 1.9; StorageClasses from 1.8; 1.7\'s chart has no aggregated roles', () => {
    const manager = (ms: any[]) => rules(ms, 'ClusterRole', 'kruise-manager-role');
    expect(manager(v19)).toContain(' | pods/ephemeralcontainers,pods/resize | get,patch,update');
    expect(manager(v18)).toContain(' | pods/ephemeralcontainers | get,patch,update');
    expect(manager(v17)).toContain(' | pods/ephemeralcontainers | get,patch,update');
    expect(manager(v18)).toContain('storage.k8s.io | storageclasses | get,list,watch');
    expect(manager(v17).filter((r: string) => r.includes('storageclasses'))).toEqual([]);
    // otherwise the chart's rules, in order
    const chart18 = CHART_RULES['ClusterRole/kruise-manager-role'].map(r => r.replace('pods/ephemeralcontainers,pods/resize', 'pods/ephemeralcontainers'));
    expect(manager(v18)).toEqual([...chart18, 'storage.k8s.io | storageclasses | get,list,watch']);
    expect(manager(v17)).toEqual(chart18);
    const aggregates = (ms: any[]) => ms.filter(m => m.kind === 'ClusterRole' && m.metadata.name.startsWith('aggregate-kruise-')).map(m => m.metadata.name);
    expect(aggregates(v18)).toEqual(['aggregate-kruise-view', 'aggregate-kruise-edit', 'aggregate-kruise-admin']);
    expect(aggregates(v17)).toEqual([]);
  });

  test('an image tag of another line is refused, naming the release to set instead', () => {
    expect(() => synth({ imageTag: 'v1.8.2' })).toThrow(
      '[kruise/kruise] KruiseControlPlane imageTag: "v1.8.2" runs OpenKruise 1.8, but this control plane installs OpenKruise 1.9 (release (unset: 1.9)): '
      + 'its CRDs, webhook configuration, RBAC and feature gates would not be the ones that manager expects; '
      + "remove imageTag and set release: '1.8.2' on the control plane, which installs OpenKruise 1.8.2 whole");
    expect(() => synth({ release: '1.8', imageTag: 'v1.9.0' })).toThrow(
      'KruiseControlPlane imageTag: "v1.9.0" runs OpenKruise 1.9, but this control plane installs OpenKruise 1.8 (release "1.8"): '
      + 'its CRDs, webhook configuration, RBAC and feature gates would not be the ones that manager expects; '
      + "remove imageTag and set release: '1.9.0' on the control plane, which installs OpenKruise 1.9.0 whole");
    expect(() => synth({ imageTag: 'v1.6.0' })).toThrow(
      'KruiseControlPlane imageTag: "v1.6.0" runs OpenKruise 1.6, but this control plane installs OpenKruise 1.9 (release (unset: 1.9)): '
      + 'its CRDs, webhook configuration, RBAC and feature gates would not be the ones that manager expects; '
      + `remove imageTag and set release on the control plane to one of ${supportedText('openkruise')} (this cdk8s-kruise does not model OpenKruise 1.6.0)`);
  });

  test('an image tag of the line that is no release of it, or another release than the one named, is refused', () => {
    expect(() => synth({ release: '1.7', imageTag: 'v1.7.5' })).toThrow(
      'KruiseControlPlane imageTag: "v1.7.5" is not 1.7 code: its tag is the commit of 1.8.3 (the 1.7 line ends at 1.7.4), so give 1.8.3 for a manager built from it; '
      + 'remove imageTag and set release on the control plane to that release');
    expect(() => synth({ release: '1.8', imageTag: 'v1.8.9' })).toThrow(
      'KruiseControlPlane imageTag: "v1.8.9" is not a release of OpenKruise 1.8, whose releases are 1.8.0, 1.8.1, 1.8.2, 1.8.3, 1.8.4; '
      + `remove imageTag and upgrade cdk8s-kruise to a version that models OpenKruise 1.8.9 (this one models ${supportedText('openkruise')}); until then, leave what runs 1.8.9 to what installed it`);
    expect(() => synth({ release: '1.8.2', imageTag: 'v1.8.4' })).toThrow(
      'KruiseControlPlane imageTag: "v1.8.4" names OpenKruise 1.8.4, but release "1.8.2" names 1.8.2; '
      + "remove imageTag and set release: '1.8.4' on the control plane, which installs OpenKruise 1.8.4 whole");
  });

  test('1.7 and 1.8 refuse what their binaries and charts lack: the daemon\'s REST flags, the EphemeralJob webhook', () => {
    expect(() => synth({ release: '1.8', daemon: { restConfigQps: 20 } })).toThrow(
      'KruiseControlPlane daemon.restConfigQps: 20 sets --rest-config-qps, a flag kruise-daemon has from OpenKruise 1.9; the OpenKruise 1.8.4 binary refuses to start with it; '
      + "remove daemon.restConfigQps, or install OpenKruise 1.9 (release: '1.9')");
    expect(() => synth({ release: '1.7', validateEphemeralJobs: true })).toThrow(
      'KruiseControlPlane validateEphemeralJobs: true registers a webhook for EphemeralJobs, but the OpenKruise 1.7.4 control plane, as the chart of its line, '
      + "installs no EphemeralJob CRD; remove validateEphemeralJobs, or install OpenKruise 1.9 (release: '1.9')");
    expect(() => synth({ daemon: { restConfigQps: 20 }, validateEphemeralJobs: true })).not.toThrow();
  });

  test('a Helm takeover keeps the live release; release chooses a newer one, and an older one is refused naming the release to set', () => {
    expect(KruiseControlPlane.fromHelmValues(Testing.chart(), 'kruise', { manager: { image: { tag: 'v1.8.3' } } }).managerImage).toBe('openkruise/kruise-manager:v1.8.3');
    const cp = KruiseControlPlane.fromHelmValues(Testing.chart(), 'kruise', { manager: { image: { tag: 'v1.8.3' } } }, { release: '1.8' });
    expect(cp.managerImage).toBe('openkruise/kruise-manager:v1.8.4');
    expect(() => KruiseControlPlane.fromHelmValues(Testing.chart(), 'kruise', { manager: { image: { tag: 'v1.8.3' } } }, { release: '1.7' })).toThrow(
      "KruiseControlPlane.fromHelmValues() at 'test/kruise': the cluster runs OpenKruise 1.8.3 (manager.image.tag \"v1.8.3\" of the values), newer than 1.7.4, "
      + "the release this control plane installs: taking over would downgrade OpenKruise; set release: '1.8.3' on the control plane");
    // the fix, taken, works
    expect(KruiseControlPlane.fromHelmValues(Testing.chart(), 'kruise', { manager: { image: { tag: 'v1.8.3' } } }, { release: '1.8.3' }).release).toBe('1.8.3');
  });
});

describe('KruiseRolloutControlPlane per release', () => {
  const v06 = synthRollout();
  const v05 = synthRollout({ release: '0.5' });
  const mutating = (ms: any[]) => one(ms, 'MutatingWebhookConfiguration', 'kruise-rollout-mutating-webhook-configuration').webhooks.map((w: any) => w.name);
  const role = (ms: any[]) => one(ms, 'ClusterRole', 'kruise-rollout-manager-role').rules.map(ruleLine);

  test('the image and the release: v0.5.5 for the 0.5 line', () => {
    expect(image(v06, 'Deployment', 'kruise-rollout-controller-manager')).toBe('openkruise/kruise-rollout:v0.6.2');
    expect(image(v05, 'Deployment', 'kruise-rollout-controller-manager')).toBe('openkruise/kruise-rollout:v0.5.5');
    const cp = new KruiseRolloutControlPlane(new Chart(Testing.app(), 'r'), 'r', { release: '0.5', imageTag: 'v0.5.3' });
    expect(cp.release).toBe('0.5.3');
  });

  test('CRDs of the 0.5 model: no blue-green, the canary step in the canary status', () => {
    const strategy = (ms: any[]) => one(ms, 'CustomResourceDefinition', 'rollouts.rollouts.kruise.io').spec.versions
      .find((v: any) => v.name === 'v1beta1').schema.openAPIV3Schema.properties.spec.properties.strategy.properties;
    expect(strategy(v06).blueGreen).toBeDefined();
    expect(strategy(v05).blueGreen).toBeUndefined();
    expect(crds(v05).map(c => `${c.metadata.name} ${versions(c)}`)).toEqual([
      'batchreleases.rollouts.kruise.io v1alpha1,v1beta1*', 'rollouthistories.rollouts.kruise.io v1alpha1*',
      'rollouts.rollouts.kruise.io v1alpha1,v1beta1*', 'trafficroutings.rollouts.kruise.io v1alpha1*',
    ]);
  });

  test('webhooks: 0.5 serves the chart\'s StatefulSet webhooks, 0.6 does not', () => {
    expect(mutating(v06)).toEqual(['munifiedworload.kb.io', 'mdeployment.kb.io', 'mcloneset.kb.io', 'mdaemonset.kb.io']);
    expect(mutating(v05)).toEqual(['munifiedworload.kb.io', 'mdeployment.kb.io', 'mcloneset.kb.io', 'mstatefulset.kb.io', 'madvancedstatefulset.kb.io', 'mdaemonset.kb.io']);
    const ast = one(v05, 'MutatingWebhookConfiguration', 'kruise-rollout-mutating-webhook-configuration').webhooks.find((w: any) => w.name === 'madvancedstatefulset.kb.io');
    expect(ast.clientConfig.service.path).toBe('/mutate-apps-kruise-io-statefulset');
    expect(ast.rules[0]).toEqual({ apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1', 'v1beta1'], operations: ['CREATE', 'UPDATE'], resources: ['statefulsets'], scope: '*' });
  });

  test('RBAC: HorizontalPodAutoscalers from 0.6 only', () => {
    expect(role(v06)).toContain('autoscaling | horizontalpodautoscalers | get,list,patch,update,watch');
    expect(role(v05).filter((r: string) => r.includes('autoscaling'))).toEqual([]);
    expect(role(v05)).toHaveLength(role(v06).length - 1);
  });

  test('gates of the release: KeepWorkloadPausedOnRolloutDeletion from 0.5.4 to 0.5.5, refused elsewhere', () => {
    expect(() => synthRollout({ release: '0.5', featureGates: { KeepWorkloadPausedOnRolloutDeletion: true } })).not.toThrow();
    expect(() => synthRollout({ release: '0.5.3', featureGates: { KeepWorkloadPausedOnRolloutDeletion: true } })).toThrow(
      '[rollout/rollout] KruiseRolloutControlPlane featureGates.KeepWorkloadPausedOnRolloutDeletion: true is not a feature gate of kruise-rollout-manager v0.5.3, '
      + 'which refuses to start with it; use one of AdvancedDeployment, RolloutHistory, AppendPodSelector');
    expect(() => synthRollout({ featureGates: { KeepWorkloadPausedOnRolloutDeletion: true } })).toThrow(
      'featureGates.KeepWorkloadPausedOnRolloutDeletion: true is not a feature gate of kruise-rollout-manager v0.6.2');
  });

  test('refusals: a tag of another line, a flag 0.5 does not have', () => {
    expect(() => synthRollout({ imageTag: 'v0.5.5' })).toThrow(
      '[rollout/rollout] KruiseRolloutControlPlane imageTag: "v0.5.5" runs Kruise Rollouts 0.5, but this control plane installs Kruise Rollouts 0.6 (release (unset: 0.6)): '
      + 'its CRDs, webhook configuration, RBAC and feature gates would not be the ones that manager expects; '
      + "remove imageTag and set release: '0.5.5' on the control plane, which installs Kruise Rollouts 0.5.5 whole");
    expect(() => synthRollout({ release: '0.5', partitionPercentLimit: 60 })).toThrow(
      'KruiseRolloutControlPlane partitionPercentLimit: 60 sets --partition-percent-limit, a flag kruise-rollout-manager has from Kruise Rollouts 0.6; '
      + "the Kruise Rollouts 0.5.5 binary refuses to start with it (and has no such limit); remove partitionPercentLimit, or install Kruise Rollouts 0.6 (release: '0.6')");
    expect(args(synthRollout({ partitionPercentLimit: 60 }), 'Deployment', 'kruise-rollout-controller-manager')).toContain('--partition-percent-limit=60');
  });
});
