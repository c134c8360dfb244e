import { Testing } from 'cdk8s';
import { KruiseControlPlane } from '../../src';

const find = (ms: any[], kind: string, name?: string) => ms.find(m => m.kind === kind && (name === undefined || m.metadata.name === name));
const synth = (values: any, props = {}) => {
  const chart = Testing.chart();
  KruiseControlPlane.fromHelmValues(chart, 'kruise', values, props);
  return Testing.synth(chart);
};
const manager = (ms: any[]) => find(ms, 'Deployment', 'kruise-controller-manager');
const daemon = (ms: any[]) => find(ms, 'DaemonSet', 'kruise-daemon');

/** Every value of the kruise chart 1.9.0-alpha.3, set to something other than its default where it can be. */
const EVERY_VALUE = {
  crds: { managed: true },
  installation: { namespace: 'openkruise', createNamespace: true, roleListGroups: ['apps', 'apps.kruise.io'] },
  featureGates: 'ImagePullJobGate=true,PodProbeMarkerGate=false',
  externalCerts: { annotations: {} },
  enableKubeCacheMutationDetector: true,
  imagePullSecrets: [{ name: 'regcred' }],
  manager: {
    log: { level: '2' },
    replicas: 3,
    image: { repository: 'mirror.example.com/openkruise/kruise-manager', tag: 'v1.9.0' },
    webhook: { port: 9443 },
    metrics: { port: 8081 },
    healthProbe: { port: 8001 },
    pprofAddr: 'localhost:8091',
    resyncPeriod: '1h30m',
    loggingFormat: 'json',
    resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '200m', memory: '512Mi' } },
    hostNetwork: true,
    nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'In', values: ['system'] }] }] } },
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    tolerations: [{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }],
  },
  webhookConfiguration: { timeoutSeconds: 20 },
  daemon: {
    log: { level: '3' },
    port: 10231,
    enablePprof: false,
    pprofAddr: 'localhost:10232',
    socketLocation: '/run/k3s/containerd',
    socketFile: 'containerd.sock',
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'NotIn', values: ['edge'] }] }] } } },
    resources: { limits: { cpu: '100m', memory: '256Mi' }, requests: { cpu: '0', memory: '0' } },
    extraEnvs: [{ name: 'HTTPS_PROXY', value: 'http://proxy:3128' }, { name: 'MY_NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
    credentialProvider: { enable: true, configmap: 'cred-config', hostPath: '/etc/cred-plugins', awsCredentialsDir: '/root/.aws' },
  },
  serviceAccount: { annotations: { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::1:role/kruise' } },
  helmHooks: { image: { repository: 'openkruise/kruise-helm-hook', tag: 'v0.1.0' } },
};

describe('KruiseControlPlane.fromHelmValues', () => {
  test('every one of the 41 values of the chart maps onto a prop, and each reaches the synthesized objects', () => {
    const mapping = KruiseControlPlane.mapHelmValues(EVERY_VALUE);
    expect(mapping.filter(m => m.refusal)).toEqual([]);
    expect(mapping.length).toBe(41);
    const ms = synth(EVERY_VALUE);
    const m = manager(ms);
    const d = daemon(ms);
    const mc = m.spec.template.spec.containers[0];
    const dc = d.spec.template.spec.containers[0];
    expect(m.metadata.namespace).toBe('openkruise');
    expect(m.spec.replicas).toBe(3);
    expect(mc.image).toBe('mirror.example.com/openkruise/kruise-manager:v1.9.1');
    expect(mc.args).toEqual(expect.arrayContaining(['--v=2', '--metrics-addr=:8081', '--health-probe-addr=:8001', '--sync-period=5400s', '--logging-format=json', '--pprof-addr=localhost:8091',
      expect.stringMatching(/^--feature-gates=.*ImagePullJobGate=true.*PodProbeMarkerGate=false/)]));
    expect(mc.env).toEqual(expect.arrayContaining([{ name: 'WEBHOOK_PORT', value: '9443' }, { name: 'KUBE_CACHE_MUTATION_DETECTOR', value: 'true' }]));
    expect(mc.resources).toEqual({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '200m', memory: '512Mi' } });
    expect(m.spec.template.spec.hostNetwork).toBe(true);
    expect(m.spec.template.spec.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    expect(m.spec.template.spec.tolerations).toEqual([{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }]);
    expect(m.spec.template.spec.affinity.nodeAffinity).toEqual(EVERY_VALUE.manager.nodeAffinity);
    expect(m.spec.template.spec.imagePullSecrets).toEqual([{ name: 'regcred' }]);
    expect(find(ms, 'ClusterRole', 'kruise-manager-role').rules.some((r: any) => JSON.stringify(r.apiGroups) === '["apps","apps.kruise.io"]' && r.verbs.includes('list'))).toBe(true);
    expect(find(ms, 'ValidatingWebhookConfiguration').webhooks.every((w: any) => w.timeoutSeconds === 20)).toBe(true);
    expect(find(ms, 'ServiceAccount', 'kruise-manager').metadata.annotations).toEqual(EVERY_VALUE.serviceAccount.annotations);
    expect(dc.args).toEqual(expect.arrayContaining(['--v=3', '--addr=:10231', '--enable-pprof=false', '--socket-file=containerd.sock',
      '--plugin-config-file=/credential-provider-config/CredentialProviderPlugin.yaml']));
    expect(dc.env).toEqual(expect.arrayContaining([{ name: 'HTTPS_PROXY', value: 'http://proxy:3128' }, { name: 'MY_NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }]));
    expect(dc.resources).toEqual({ limits: { cpu: '100m', memory: '256Mi' }, requests: { cpu: '0', memory: '0' } });
    expect(d.spec.template.spec.volumes.find((v: any) => v.name === 'runtime-socket').hostPath.path).toBe('/run/k3s/containerd');
    expect(d.spec.template.spec.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    expect(d.spec.template.spec.affinity).toEqual(EVERY_VALUE.daemon.affinity);
    expect(d.spec.template.spec.volumes.find((v: any) => v.name === 'credential-provider-plugin-config').configMap.name).toBe('cred-config');
  });

  test('what becomes of a value is listed: the prop, or the tag that is not carried over', () => {
    expect(KruiseControlPlane.mapHelmValues({ manager: { replicas: 3, image: { tag: 'v1.9.0' } } })).toEqual([
      { path: 'manager.replicas', value: 3, prop: 'manager.replicas' },
      { path: 'manager.image.tag', value: 'v1.9.0', prop: 'imageTag is not carried over: the control plane installs its own release (a newer live tag is refused as a downgrade)' },
    ]);
    expect(manager(synth({ manager: { image: { tag: 'v1.9.0-alpha3' } } })).spec.template.spec.containers[0].image).toBe('openkruise/kruise-manager:v1.9.1');
  });

  test('props on top win, key by key for manager, daemon and featureGates', () => {
    const ms = synth({ manager: { replicas: 3, log: { level: '2' } }, featureGates: 'PodProbeMarkerGate=false' },
      { manager: { replicas: 4 }, featureGates: { ResourceDistributionGate: true } });
    const mc = manager(ms).spec.template.spec.containers[0];
    expect(manager(ms).spec.replicas).toBe(4);
    expect(mc.args).toContain('--v=2');
    expect(mc.args.find((a: string) => a.startsWith('--feature-gates='))).toMatch(/PodProbeMarkerGate=false.*ResourceDistributionGate=true/);
  });

  test('external certificates: annotations with the EnableExternalCerts gate become WebhookCertificates.external()', () => {
    const ms = synth({ featureGates: 'EnableExternalCerts=true', externalCerts: { annotations: { 'cert-manager.io/inject-ca-from': 'kruise-system/kruise-webhook' } } });
    expect(find(ms, 'MutatingWebhookConfiguration').metadata.annotations['cert-manager.io/inject-ca-from']).toBe('kruise-system/kruise-webhook');
    expect(find(ms, 'Secret', 'kruise-webhook-certs')).toBeUndefined();
  });

  test('a value that cannot be carried over fails with each reason', () => {
    const chart = Testing.chart();
    expect(() => KruiseControlPlane.fromHelmValues(chart, 'kruise', {
      nameOverride: 'x',
      helmHooks: { image: { tag: 'v0.2.0' } },
      externalCerts: { annotations: { a: 'b' } },
      manager: { resources: { limits: { 'ephemeral-storage': '1Gi' } }, loggingFormat: 'yaml', resyncPeriod: 'soon' },
      daemon: { extraEnvs: [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }] },
    })).toThrow('KruiseControlPlane.fromHelmValues() at \'test/kruise\': '
      + 'nameOverride ("x") is not a value of the kruise chart of the v1.9 line (values.yaml), so nothing would read it; '
      + 'helmHooks.image.tag ("v0.2.0") the image of the chart\'s pre-delete hook, which only Helm runs; KruiseControlPlane has no hook (kruise-manager\'s delete protection keeps the CRDs of live objects instead); '
      + 'externalCerts.annotations ({"a":"b"}) annotations for an external CA injector, but featureGates does not turn EnableExternalCerts on, so kruise-manager writes its own certificate and caBundles; set both, or neither; '
      + 'manager.resources ({"limits":{"ephemeral-storage":"1Gi"}}) manager.resources.limits.ephemeral-storage: only cpu and memory are KruiseControlPlane resources; '
      + 'manager.loggingFormat ("yaml") manager.loggingFormat is "yaml", not json or text; '
      + 'manager.resyncPeriod ("soon") manager.resyncPeriod is "soon", not a Go duration such as 0, 30s or 1h; '
      + 'daemon.extraEnvs ([{"name":"TOKEN","valueFrom":{"secretKeyRef":{"name":"s","key":"k"}}}]) daemon.extraEnvs[0].valueFrom {"secretKeyRef":{"name":"s","key":"k"}}: only a value or a pod field reference is carried over; set daemon.extraEnv with a kplus.EnvValue yourself; '
      + 'leave these values out of the values passed, and set the matching props yourself where there are some');
    expect(chart.node.tryFindChild('kruise')).toBeUndefined();
  });

  test('a live image newer than the release the control plane installs is refused as a downgrade, and leaves nothing behind', () => {
    const chart = Testing.chart();
    expect(() => KruiseControlPlane.fromHelmValues(chart, 'kruise', { manager: { image: { tag: 'v1.10.1' } } }))
      .toThrow('KruiseControlPlane.fromHelmValues() at \'test/kruise\': manager.image.tag "v1.10.1" is newer than v1.9.1, the release this control plane installs: taking over would downgrade OpenKruise; this library models no release of v1.10.1 or newer (1.7 (1.7.0 to 1.7.4), 1.8 (1.8.0 to 1.8.4) or 1.9 (1.9.0 to 1.9.1)); leave that installation to its chart');
    expect(chart.node.tryFindChild('kruise')).toBeUndefined();
    expect(() => KruiseControlPlane.fromHelmValues(Testing.chart(), 'kruise', { manager: { image: { tag: 'v1.10.1' } } }, { imageTag: 'v1.10.1' })).not.toThrow();
  });

  test('values that are no map are refused', () => {
    expect(() => KruiseControlPlane.fromHelmValues(Testing.chart(), 'kruise', 'replicas: 2'))
      .toThrow('KruiseControlPlane.fromHelmValues(): the values are "replicas: 2", not a map; pass the parsed output of helm get values RELEASE -o yaml');
  });
});
