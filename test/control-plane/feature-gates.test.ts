import { ApiObject, Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { find, synth } from './_chart';
import { DeletionProtection, DistributedResource, KruiseControlPlane, KruiseFeatureGate, PodUnavailableBudget, ResourceDistribution, WorkloadSpread } from '../../src';

const flag = (all: any[]) => find(all, 'Deployment', 'kruise-controller-manager').spec.template.spec.containers[0].args
  .find((a: string) => a.startsWith('--feature-gates='));

test('the v1.9.0 gate list, with defaults', () => {
  expect(KruiseFeatureGate.all()).toHaveLength(34);
  expect(KruiseFeatureGate.all()).toContain('ForceDeleteTimeoutExpectationGate');
  expect(KruiseFeatureGate.all()).toContain('EnhancedLivenessProbe');
  expect(KruiseFeatureGate.defaultOf(KruiseFeatureGate.POD_WEBHOOK)).toBe(true);
  expect(KruiseFeatureGate.defaultOf(KruiseFeatureGate.KRUISE_DAEMON)).toBe(true);
  expect(KruiseFeatureGate.defaultOf(KruiseFeatureGate.WORKLOAD_SPREAD)).toBe(true);
  expect(KruiseFeatureGate.defaultOf(KruiseFeatureGate.POD_UNAVAILABLE_BUDGET_DELETE_GATE)).toBe(true);
  expect(KruiseFeatureGate.defaultOf(KruiseFeatureGate.POD_UNAVAILABLE_BUDGET_UPDATE_GATE)).toBe(false);
  expect(KruiseFeatureGate.defaultOf(KruiseFeatureGate.IMAGE_PULL_JOB_GATE)).toBe(false);
  expect(KruiseFeatureGate.defaultOf(KruiseFeatureGate.RESOURCES_DELETION_PROTECTION)).toBe(false);
  expect(KruiseFeatureGate.defaultOf(KruiseFeatureGate.POD_INDEX_LABEL)).toBe(true);
  expect(() => KruiseFeatureGate.defaultOf('Nope')).toThrow(/unknown OpenKruise v1.9.0 feature gate 'Nope'/);
});

test('every static constant is a gate name', () => {
  const names = Object.entries(KruiseFeatureGate).filter(([k]) => /^[A-Z_]+$/.test(k)).map(([, v]) => v as string);
  expect(names.sort()).toEqual(KruiseFeatureGate.all());
});

test('user gates are merged into the flag, sorted; the chart default can be overridden', () => {
  expect(flag(synth({ featureGates: { ImagePullJobGate: false, SidecarTerminator: true } })))
    .toBe('--feature-gates=DeletionProtectionForCRDCascadingGate=true,ImagePullJobGate=false,ResourcesDeletionProtection=true,SidecarTerminator=true');
});

test('PodWebhook=false leaves out the pod webhooks, as the chart does', () => {
  const all = synth({ featureGates: { PodWebhook: false } });
  const m = find(all, 'MutatingWebhookConfiguration', 'kruise-mutating-webhook-configuration').webhooks.map((w: any) => w.name);
  const v = find(all, 'ValidatingWebhookConfiguration', 'kruise-validating-webhook-configuration').webhooks.map((w: any) => w.name);
  expect(m).toHaveLength(11);
  expect(m).not.toContain('mpod.kb.io');
  expect(v).toHaveLength(23);
  expect(v).not.toContain('vpod.kb.io');
  expect(v).not.toContain('vpodeviction.kb.io');
});

test('KruiseDaemon=false leaves out the DaemonSet, as the chart does (its ServiceAccount and RBAC stay)', () => {
  const all = synth({ featureGates: { KruiseDaemon: false } });
  expect(all.filter(m => m.kind === 'DaemonSet')).toEqual([]);
  expect(find(all, 'ServiceAccount', 'kruise-daemon')).toBeDefined();
  expect(find(all, 'ClusterRole', 'kruise-daemon-role')).toBeDefined();
});

test('the storageclasses rule is there with or without StatefulSetAutoResizePVCGate (the chart adds it only with the gate)', () => {
  for (const featureGates of [{ StatefulSetAutoResizePVCGate: true }, {}]) {
    const rules = find(synth({ featureGates }), 'ClusterRole', 'kruise-manager-role').rules;
    expect(rules[rules.length - 1]).toEqual({ apiGroups: ['storage.k8s.io'], resources: ['storageclasses'], verbs: ['get', 'list', 'watch'] });
  }
});

test('effective gates follow kruise-manager start-up rules', () => {
  const app = Testing.app();
  const noPodWebhook = new KruiseControlPlane(new Chart(app, 'a'), 'cp', { featureGates: { PodWebhook: false } });
  expect(noPodWebhook.isFeatureGateEnabled('WorkloadSpread')).toBe(false);
  expect(noPodWebhook.isFeatureGateEnabled('PodUnavailableBudgetDeleteGate')).toBe(false);
  const noDaemon = new KruiseControlPlane(new Chart(app, 'b'), 'cp', { featureGates: { KruiseDaemon: false } });
  expect(noDaemon.isFeatureGateEnabled('ImagePullJobGate')).toBe(false);
  expect(noDaemon.isFeatureGateEnabled('PodProbeMarkerGate')).toBe(false);
  const preDownload = new KruiseControlPlane(new Chart(app, 'c'), 'cp', { featureGates: { PreDownloadImageForInPlaceUpdate: true } });
  expect(preDownload.isFeatureGateEnabled('ImagePullJobGate')).toBe(true);
  expect(() => preDownload.isFeatureGateEnabled('Bogus')).toThrow(/unknown OpenKruise v1.9.1 feature gate 'Bogus'/);
});

test('fails: unknown gate, with a suggestion', () => {
  expect(() => synth({ featureGates: { workloadspread: true } }))
    .toThrow(/\[kruise\/ControlPlane\] KruiseControlPlane featureGates.workloadspread: true is not an OpenKruise v1.9.1 feature gate \(did you mean 'WorkloadSpread'\?\); use one of the names in KruiseFeatureGate/);
  expect(() => synth({ featureGates: { ResourceDistribution: true } })).toThrow(/did you mean 'ResourceDistributionGate'/);
  expect(() => synth({ featureGates: { AllAlpha: true } })).toThrow(/featureGates.AllAlpha: true is not an OpenKruise v1.9.1 feature gate;/);
});

test('fails: a gate the manager would force off', () => {
  expect(() => synth({ featureGates: { PodWebhook: false, WorkloadSpread: true } }))
    .toThrow(/featureGates.WorkloadSpread: true has no effect: kruise-manager turns it off when PodWebhook is off; remove it, or set featureGates.PodWebhook to true/);
  expect(() => synth({ featureGates: { KruiseDaemon: false, PodProbeMarkerGate: true } }))
    .toThrow(/featureGates.PodProbeMarkerGate: true has no effect: kruise-manager turns it off when KruiseDaemon is off/);
  expect(() => synth({ featureGates: { PreDownloadImageForDaemonSetUpdate: true, ImagePullJobGate: false } }))
    .toThrow(/featureGates.ImagePullJobGate: false has no effect: kruise-manager turns it on because PreDownloadImageForDaemonSetUpdate is on/);
});

test('the chart default ImagePullJobGate=true is no error with KruiseDaemon off (the manager just turns it off)', () => {
  expect(() => synth({ featureGates: { KruiseDaemon: false } })).not.toThrow();
});

describe('cross-checks with the constructs of the app', () => {
  function appWith(featureGates: Record<string, boolean>) {
    const app = Testing.app();
    new KruiseControlPlane(new Chart(app, 'infra'), 'kruise', { featureGates });
    const chart = new Chart(app, 'apps');
    // valid objects: the admission layer judges them too, so only the gates are under test here
    new ApiObject(chart, 'spread', {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'WorkloadSpread',
      metadata: { name: 's' },
      spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, subsets: [{ name: 'a' }] },
    });
    new ApiObject(chart, 'rd', {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'ResourceDistribution',
      metadata: { name: 'r' },
      spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } }, targets: { allNamespaces: true } },
    });
    return chart;
  }

  test('a gate that is off fails synth with the exact prop to set', () => {
    const chart = appWith({});
    expect(() => Testing.synth(chart)).toThrow(
      "[apps/rd] ResourceDistribution \"r\" (apps.kruise.io/v1alpha1) kind: \"ResourceDistribution\" needs the OpenKruise feature gate ResourceDistributionGate, which is off in the control plane at 'infra/kruise' "
      + "(the webhook refuses every ResourceDistribution then); set featureGates: { ResourceDistributionGate: true } on the KruiseControlPlane at 'infra/kruise'");
  });

  test('a gate forced off through its prerequisite names both gates', () => {
    const chart = appWith({ PodWebhook: false, ResourceDistributionGate: true });
    expect(() => Testing.synth(chart)).toThrow(
      "[apps/spread] WorkloadSpread \"s\" (apps.kruise.io/v1alpha1) kind: \"WorkloadSpread\" needs the OpenKruise feature gate WorkloadSpread, which is off in the control plane at 'infra/kruise' "
      + "(the webhook refuses every WorkloadSpread then); set featureGates: { WorkloadSpread: true, PodWebhook: true } on the KruiseControlPlane at 'infra/kruise'");
  });

  test('passes when the gates are on', () => {
    expect(() => Testing.synth(appWith({ ResourceDistributionGate: true }))).not.toThrow();
  });
});

describe('cross-checks with the library constructs themselves', () => {
  /** A control plane in one chart, a WorkloadSpread, a PodUnavailableBudget and a ResourceDistribution in another. */
  function fleet(featureGates: Record<string, boolean>): Chart {
    const app = Testing.app();
    new KruiseControlPlane(new Chart(app, 'infra'), 'kruise', { featureGates });
    const chart = new Chart(app, 'apps');
    new WorkloadSpread(chart, 'spread', {
      targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      subsets: [{ name: 'a', maxReplicas: kplus.PercentOrAbsolute.percent(50) }, { name: 'b' }],
    });
    new PodUnavailableBudget(chart, 'pub', {
      selector: kplus.LabelSelector.of({ labels: { app: 'web' } }), maxUnavailable: kplus.PercentOrAbsolute.absolute(1),
    });
    const cm = new kplus.ConfigMap(chart, 'cm', { metadata: { name: 'settings' }, data: { a: 'b' } });
    new ResourceDistribution(chart, 'rd', { metadata: { name: 'settings' }, resource: DistributedResource.fromConfigMap(cm), allNamespaces: true });
    return chart;
  }

  test('fails: PodWebhook off turns off what WorkloadSpread and PodUnavailableBudget need', () => {
    const synthIt = () => Testing.synth(fleet({ PodWebhook: false, ResourceDistributionGate: true }));
    expect(synthIt).toThrow([
      'Validation failed with the following errors:',
      "  [apps/spread] WorkloadSpread \"apps-spread-c8af06d6\" (apps.kruise.io/v1alpha1) kind: \"WorkloadSpread\" needs the OpenKruise feature gate WorkloadSpread, which is off in the control plane at 'infra/kruise' "
      + "(the webhook refuses every WorkloadSpread then); set featureGates: { WorkloadSpread: true, PodWebhook: true } on the KruiseControlPlane at 'infra/kruise'",
      '  [apps/pub] PodUnavailableBudget "apps-pub-c80f2a4d" (policy.kruise.io/v1alpha1) kind: "PodUnavailableBudget" needs one of the OpenKruise feature gates PodUnavailableBudgetDeleteGate or PodUnavailableBudgetUpdateGate, '
      + "all off in the control plane at 'infra/kruise'; set featureGates: { PodUnavailableBudgetDeleteGate: true, PodWebhook: true } on the KruiseControlPlane at 'infra/kruise'",
    ].join('\n'));
  });

  test('fails: ResourceDistribution with its gate at the default (off)', () => {
    expect(() => Testing.synth(fleet({}))).toThrow(
      "[apps/rd] ResourceDistribution \"settings\" (apps.kruise.io/v1alpha1) kind: \"ResourceDistribution\" needs the OpenKruise feature gate ResourceDistributionGate, which is off in the control plane at 'infra/kruise' "
      + "(the webhook refuses every ResourceDistribution then); set featureGates: { ResourceDistributionGate: true } on the KruiseControlPlane at 'infra/kruise'");
  });

  test('passes with the gates on', () => {
    expect(() => Testing.synth(fleet({ ResourceDistributionGate: true }))).not.toThrow();
  });
});

test('fails: DeletionProtectionForCRDCascadingGate on without ResourcesDeletionProtection', () => {
  expect(() => synth({
    crdDeletionProtection: DeletionProtection.NONE,
    namespaceDeletionProtection: DeletionProtection.NONE,
    featureGates: { DeletionProtectionForCRDCascadingGate: true },
  })).toThrow(/featureGates.DeletionProtectionForCRDCascadingGate: true has no effect: kruise-manager turns it off when ResourcesDeletionProtection is off; set featureGates.ResourcesDeletionProtection to true as well/);
  expect(() => synth({
    crdDeletionProtection: DeletionProtection.NONE,
    namespaceDeletionProtection: DeletionProtection.NONE,
    featureGates: { DeletionProtectionForCRDCascadingGate: true, ResourcesDeletionProtection: true },
  })).not.toThrow();
});
