import { ApiObject, JsonPatch, Testing } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { kruise } from '../../src';

const selector = { matchLabels: { app: 'web' } };
const template: k8s.PodTemplateSpec = {
  metadata: { labels: { app: 'web' } },
  spec: {
    containers: [{
      name: 'web',
      image: 'nginx:1.27',
      resources: { limits: { cpu: k8s.Quantity.fromString('500m'), memory: k8s.Quantity.fromString('256Mi') } },
      ports: [{ containerPort: 80 }],
    }],
  },
};

function cloneSet(chart = Testing.chart(), spec: Partial<kruise.CloneSetSpec> = {}) {
  const obj = new kruise.KubeCloneSet(chart, 'web', { metadata: { name: 'web' }, spec: { selector, template, ...spec } });
  return { chart, obj };
}

test('renders apiVersion, kind, metadata and spec', () => {
  const { chart } = cloneSet(undefined, { replicas: 3 });
  const [m] = Testing.synth(chart);
  expect(m.apiVersion).toBe('apps.kruise.io/v1alpha1');
  expect(m.kind).toBe('CloneSet');
  expect(m.metadata).toEqual({ name: 'web' });
  expect(m.spec.replicas).toBe(3);
  expect(m.spec.selector).toEqual({ matchLabels: { app: 'web' } });
});

test('pod templates are typed as k8s.PodTemplateSpec and quantities render as strings', () => {
  const { chart } = cloneSet();
  const [m] = Testing.synth(chart);
  expect(m.spec.template).toEqual({
    metadata: { labels: { app: 'web' } },
    spec: {
      containers: [{
        name: 'web',
        image: 'nginx:1.27',
        resources: { limits: { cpu: '500m', memory: '256Mi' } },
        ports: [{ containerPort: 80 }],
      }],
    },
  });
});

test('PVC templates are typed as k8s PersistentVolumeClaims', () => {
  const { chart } = cloneSet(undefined, {
    volumeClaimTemplates: [{
      metadata: { name: 'data' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: k8s.Quantity.fromString('10Gi') } } },
    }],
  });
  const [m] = Testing.synth(chart);
  expect(m.spec.volumeClaimTemplates).toEqual([{
    metadata: { name: 'data' },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } },
  }]);
});

test('IntOrString fields accept both forms and survive synth', () => {
  const { chart } = cloneSet(undefined, {
    updateStrategy: {
      partition: kruise.CloneSetSpecUpdateStrategyPartition.fromString('20%'),
      maxUnavailable: kruise.CloneSetSpecUpdateStrategyMaxUnavailable.fromNumber(2),
      maxSurge: kruise.CloneSetSpecUpdateStrategyMaxSurge.fromString('10%'),
    },
    scaleStrategy: { maxUnavailable: kruise.CloneSetSpecScaleStrategyMaxUnavailable.fromNumber(1) },
  });
  const [m] = Testing.synth(chart);
  expect(m.spec.updateStrategy).toEqual({ partition: '20%', maxUnavailable: 2, maxSurge: '10%' });
  expect(m.spec.scaleStrategy).toEqual({ maxUnavailable: 1 });
});

test('camelCased struct fields are written with their wire names', () => {
  const { chart } = cloneSet(undefined, { scaleStrategy: { disablePvcReuse: true } });
  const [m] = Testing.synth(chart);
  expect(m.spec.scaleStrategy).toEqual({ disablePVCReuse: true });
});

test('escape-hatch JSON patches survive synth, including fields the schema does not declare', () => {
  const { chart, obj } = cloneSet();
  ApiObject.of(obj).addJsonPatch(
    JsonPatch.add('/spec/replicas', 7),
    JsonPatch.add('/spec/template/spec/containers/0/env', [{ name: 'MODE', value: 'blue' }]),
    JsonPatch.add('/metadata/annotations', { team: 'web' }),
  );
  const [m] = Testing.synth(chart);
  expect(m.spec.replicas).toBe(7);
  expect(m.spec.template.spec.containers[0].env).toEqual([{ name: 'MODE', value: 'blue' }]);
  expect(m.metadata.annotations).toEqual({ team: 'web' });
});

test('several kinds and versions of one API group live side by side', () => {
  const chart = Testing.chart();
  cloneSet(chart);
  // (two SidecarSets injecting one container name into the same pods are refused, L1 or not: each its own sidecar)
  new kruise.KubeSidecarSet(chart, 'sidecars', { spec: { selector, containers: [{ name: 'log', image: 'fluent/fluent-bit:3.1' }] } });
  new kruise.KubeSidecarSetV1Alpha1(chart, 'old-sidecars', { spec: { selector, containers: [{ name: 'metrics', image: 'prom/node-exporter:v1.8.2' }] } });
  new kruise.KubePodUnavailableBudget(chart, 'pub', { spec: { selector, maxUnavailable: kruise.PodUnavailableBudgetSpecMaxUnavailable.fromString('25%') } });
  const kinds = Testing.synth(chart).map(m => `${m.apiVersion}/${m.kind}`);
  // the policies before the CloneSet whose pods they select
  expect(kinds).toEqual([
    'apps.kruise.io/v1alpha1/SidecarSet',
    'apps.kruise.io/v1beta1/SidecarSet',
    'policy.kruise.io/v1alpha1/PodUnavailableBudget',
    'apps.kruise.io/v1alpha1/CloneSet',
  ]);
  expect(kruise.KubeSidecarSet.GVK).toEqual({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet' });
  expect(kruise.KubeSidecarSetV1Alpha1.GVK).toEqual({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet' });
});

test('manifest() renders a plain object in wire format', () => {
  const m = kruise.KubeCloneSet.manifest({ spec: { selector, template, scaleStrategy: { disablePvcReuse: false } } });
  expect(m.apiVersion).toBe('apps.kruise.io/v1alpha1');
  expect(m.spec.scaleStrategy).toEqual({ disablePVCReuse: false });
});

test('fails at synth when a patched field breaks the schema, naming path, field, value and expectation', () => {
  const { chart, obj } = cloneSet();
  obj.addJsonPatch(JsonPatch.replace('/spec/selector', { matchLabels: { app: 'web' } }), JsonPatch.add('/spec/replicas', 'three'));
  expect(() => Testing.synth(chart)).toThrow(
    '[test/web] CloneSet "web" (apps.kruise.io/v1alpha1) spec.replicas: "three" is not an integer; give an integer',
  );
});

test('SidecarSet containers are k8s containers plus the Kruise sidecar fields; volumes are k8s volumes', () => {
  const chart = Testing.chart();
  new kruise.KubeSidecarSet(chart, 'log', {
    spec: {
      selector,
      containers: [{
        name: 'log-agent',
        image: 'fluent-bit:3.1',
        resources: { limits: { memory: k8s.Quantity.fromString('64Mi') } },
        volumeMounts: [{ name: 'logs', mountPath: '/var/log/app' }],
        podInjectPolicy: 'AfterAppContainer',
        shareVolumePolicy: { type: 'enabled' },
        upgradeStrategy: { upgradeType: 'ColdUpgrade' },
      }],
      volumes: [{ name: 'logs', emptyDir: { sizeLimit: k8s.Quantity.fromString('1Gi') } }],
    },
  });
  const [m] = Testing.synth(chart);
  expect(m.spec.containers).toEqual([{
    name: 'log-agent',
    image: 'fluent-bit:3.1',
    resources: { limits: { memory: '64Mi' } },
    volumeMounts: [{ name: 'logs', mountPath: '/var/log/app' }],
    podInjectPolicy: 'AfterAppContainer',
    shareVolumePolicy: { type: 'enabled' },
    upgradeStrategy: { upgradeType: 'ColdUpgrade' },
  }]);
  expect(m.spec.volumes).toEqual([{ name: 'logs', emptyDir: { sizeLimit: '1Gi' } }]);
});

test('UnitedDeployment native templates are typed as k8s specs', () => {
  const chart = Testing.chart();
  new kruise.KubeUnitedDeployment(chart, 'ud', {
    spec: {
      selector,
      template: {
        deploymentTemplate: {
          metadata: { labels: { app: 'web' } },
          spec: { selector, template, minReadySeconds: 5 },
        },
      },
    },
  });
  const [m] = Testing.synth(chart);
  expect(m.spec.template.deploymentTemplate.metadata).toEqual({ labels: { app: 'web' } });
  expect(m.spec.template.deploymentTemplate.spec.minReadySeconds).toBe(5);
  // the UnitedDeployment owns the subset replicas: a template that sets them is refused at synth, as upstream does
  const c2 = Testing.chart();
  new kruise.KubeUnitedDeployment(c2, 'ud', {
    spec: { selector, template: { deploymentTemplate: { metadata: { labels: { app: 'web' } }, spec: { selector, template, replicas: 1 } } } },
  });
  expect(() => Testing.synth(c2)).toThrow('[test/ud] UnitedDeployment "test-ud-c871d148" (apps.kruise.io/v1alpha1) spec.template.deploymentTemplate.spec.replicas: 1 is not used: the UnitedDeployment sets the replicas of each subset; remove it; set spec.replicas and the subset replicas instead');
  expect(m.spec.template.deploymentTemplate.spec.template.spec.containers[0].resources).toEqual({ limits: { cpu: '500m', memory: '256Mi' } });
});
