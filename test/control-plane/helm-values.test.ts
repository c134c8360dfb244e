import * as fs from 'fs';
import * as path from 'path';
import { Testing } from 'cdk8s';
import { parse } from 'yaml';
import { CHART_1_9_1, CHART_1_9_1_VALUES } from './_chart-template';
import { KruiseControlPlane, KruiseHelmRelease } from '../../src';
import { supportedText } from '../../src/releases/registry';
import { describeWithReference } from '../util/reference';

const find = (ms: any[], kind: string, name?: string) => ms.find(m => m.kind === kind && (name === undefined || m.metadata.name === name));
/** The takeover of a release whose live kruise-manager runs v1.9.1. */
const synth = (values: any, props = {}) => {
  const chart = Testing.chart();
  KruiseControlPlane.fromHelmRelease(chart, 'kruise', KruiseHelmRelease.fromValues(values, 'openkruise/kruise-manager:v1.9.1'), props);
  return Testing.synth(chart);
};
const manager = (ms: any[]) => find(ms, 'Deployment', 'kruise-controller-manager');
const daemon = (ms: any[]) => find(ms, 'DaemonSet', 'kruise-daemon');

/** Every value of the kruise charts 1.9.0-alpha.3, 1.9.0 and 1.9.1, set to something other than its default where it can be. */
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
    image: { repository: 'mirror.example.com/openkruise/kruise-manager', tag: 'v1.9.1' },
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
  webhookConfiguration: { timeoutSeconds: 20, aksIntegration: true },
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
  test('every one of the 42 values of the charts maps onto a prop, and each reaches the synthesized objects', () => {
    const mapping = KruiseControlPlane.mapHelmValues(EVERY_VALUE);
    expect(mapping.filter(m => m.refusal)).toEqual([]);
    expect(mapping.length).toBe(42);
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
    expect(find(ms, 'MutatingWebhookConfiguration').webhooks.every((w: any) => JSON.stringify(w.namespaceSelector).includes('kubernetes.azure.com/managedby'))).toBe(true);
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

  test('what becomes of a value is listed: the prop; the image tag is the release the cluster runs', () => {
    expect(KruiseControlPlane.mapHelmValues({ manager: { replicas: 3, image: { tag: 'v1.9.0' } } })).toEqual([
      { path: 'manager.replicas', value: 3, prop: 'manager.replicas' },
      { path: 'manager.image.tag', value: 'v1.9.0', prop: 'release \'1.9.0\' (the release the cluster runs, installed whole)' },
    ]);
    expect(KruiseControlPlane.mapHelmValues({ manager: { image: { tag: 'v1.8.4-hotfix.1' } } })).toEqual([
      { path: 'manager.image.tag', value: 'v1.8.4-hotfix.1', prop: 'release \'1.8.4\' and imageTag \'v1.8.4-hotfix.1\' (a build of the release the cluster runs)' },
    ]);
    const hotfix = (values: any) => manager(Testing.synth((() => {
      const chart = Testing.chart();
      KruiseControlPlane.fromHelmValues(chart, 'kruise', values);
      return chart;
    })())).spec.template.spec.containers[0].image;
    expect(hotfix({ manager: { image: { tag: 'v1.8.4-hotfix.1' } } })).toBe('openkruise/kruise-manager:v1.8.4-hotfix.1');
    expect(hotfix({ manager: { image: { tag: 'v1.9.0' } } })).toBe('openkruise/kruise-manager:v1.9.0');
  });

  test('values that do not set manager.image.tag do not say which release runs: refused, unless the release is read from the cluster or given', () => {
    expect(() => KruiseControlPlane.fromHelmValues(Testing.chart(), 'kruise', { manager: { replicas: 3 } })).toThrow(
      'KruiseControlPlane.fromHelmValues() at \'test/kruise\': the values do not say which OpenKruise release the cluster runs: helm get values prints only the values that were set, '
      + 'and without manager.image.tag the chart\'s default tag of the chart version installed runs; read it from the cluster: '
      + 'KruiseControlPlane.fromHelmRelease(scope, id, KruiseHelmRelease.fromRecord(<kubectl get secret -n NAMESPACE -l owner=helm,name=RELEASE,status=deployed -o json>)), '
      + 'or set release to the release of the image kubectl get deployment kruise-controller-manager -n kruise-system -o jsonpath=\'{.spec.template.spec.containers[0].image}\' prints');
    expect(KruiseControlPlane.fromHelmValues(Testing.chart(), 'kruise', { manager: { replicas: 3 } }, { release: '1.8.2' }).managerImage).toBe('openkruise/kruise-manager:v1.8.2');
    expect(() => KruiseHelmRelease.fromValues({}, ' ')).toThrow('KruiseHelmRelease.fromValues(): runningImage is " "; pass the image the live kruise-manager runs, e.g. openkruise/kruise-manager:v1.9.1');
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
    }, { release: '1.9' })).toThrow('KruiseControlPlane.fromHelmValues() at \'test/kruise\': '
      + 'nameOverride ("x") is not a value of the kruise chart (values.yaml of charts 1.7.5 to 1.9.1), so nothing would read it; '
      + 'helmHooks.image.tag ("v0.2.0") the image of the chart\'s pre-delete hook, which only Helm runs; KruiseControlPlane has no hook (kruise-manager\'s delete protection keeps the CRDs of live objects instead); '
      + 'externalCerts.annotations ({"a":"b"}) annotations for an external CA injector, but featureGates does not turn EnableExternalCerts on, so kruise-manager writes its own certificate and caBundles; set both, or neither; '
      + 'manager.resources ({"limits":{"ephemeral-storage":"1Gi"}}) manager.resources.limits.ephemeral-storage: only cpu and memory are KruiseControlPlane resources; '
      + 'manager.loggingFormat ("yaml") manager.loggingFormat is "yaml", not json or text; '
      + 'manager.resyncPeriod ("soon") manager.resyncPeriod is "soon", not a Go duration such as 0, 30s or 1h; '
      + 'daemon.extraEnvs ([{"name":"TOKEN","valueFrom":{"secretKeyRef":{"name":"s","key":"k"}}}]) daemon.extraEnvs[0].valueFrom {"secretKeyRef":{"name":"s","key":"k"}}: only a value or a pod field reference is carried over; set daemon.extraEnv with a kplus.EnvValue yourself; '
      + 'leave these values out of the values passed, and set the matching props yourself where there are some');
    expect(chart.node.tryFindChild('kruise')).toBeUndefined();
  });

  test('a live release this library does not model, or newer than the release set, is refused with the fix, and leaves nothing behind', () => {
    const chart = Testing.chart();
    expect(() => KruiseControlPlane.fromHelmValues(chart, 'kruise', { manager: { image: { tag: 'v1.10.1' } } }))
      .toThrow('KruiseControlPlane.fromHelmValues() at \'test/kruise\': the cluster runs OpenKruise 1.10.1 (manager.image.tag "v1.10.1" of the values), a release this library does not model: '
        + `a takeover would change the release the cluster runs; upgrade cdk8s-kruise to a version that models OpenKruise 1.10.1 (this one models ${supportedText('openkruise')}); `
        + 'until then, leave what runs 1.10.1 to what installed it');
    expect(chart.node.tryFindChild('kruise')).toBeUndefined();
    expect(() => KruiseControlPlane.fromHelmValues(chart, 'kruise', { manager: { image: { tag: 'v1.10.1' } } }, { release: '1.9' }))
      .toThrow('KruiseControlPlane.fromHelmValues() at \'test/kruise\': the cluster runs OpenKruise 1.10.1 (manager.image.tag "v1.10.1" of the values), newer than ');
    expect(chart.node.tryFindChild('kruise')).toBeUndefined();
    // a release given that this library does not model names the same fix
    expect(() => KruiseControlPlane.fromHelmValues(chart, 'kruise', { manager: { image: { tag: 'v1.9.1' } } }, { release: '1.9.7' })).toThrow(
      'KruiseControlPlane.fromHelmValues() at \'test/kruise\': release \'1.9.7\' is not a release this library models; '
      + 'the cluster runs OpenKruise 1.9.1 (manager.image.tag "v1.9.1" of the values): set release: \'1.9.1\' on the control plane');
    expect(() => KruiseControlPlane.fromHelmRelease(chart, 'kruise', KruiseHelmRelease.fromValues({}, 'registry.example.com/kruise-manager@sha256:0123'))).toThrow(
      'KruiseControlPlane.fromHelmRelease() at \'test/kruise\': the cluster runs the image tag registry.example.com/kruise-manager@sha256:0123 '
      + '(the live kruise-manager runs registry.example.com/kruise-manager@sha256:0123), which names no release: a takeover would change the release the cluster runs; '
      + 'set release on the control plane to the OpenKruise release the image tag registry.example.com/kruise-manager@sha256:0123 is of, '
      + 'and imageTag: \'registry.example.com/kruise-manager@sha256:0123\' to keep it');
  });

  test('values that are no map are refused', () => {
    expect(() => KruiseControlPlane.fromHelmValues(Testing.chart(), 'kruise', 'replicas: 2', { release: '1.9' }))
      .toThrow('KruiseControlPlane.fromHelmValues(): the values are "replicas: 2", not a map; pass the parsed output of helm get values RELEASE -o yaml');
    expect(() => KruiseControlPlane.fromHelmValues(Testing.chart(), 'kruise', 'replicas: 2'))
      .toThrow('KruiseControlPlane.fromHelmValues(): the values are "replicas: 2", not a map; pass the parsed output of helm get values RELEASE -o yaml');
  });
});

describeWithReference('the values of charts 1.9.0 and 1.9.1', [CHART_1_9_1_VALUES, path.join(CHART_1_9_1, 'chart-1.9.0-partial', 'values.yaml')], () => {
  const leaves = (v: any, prefix = ''): string[] => (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length > 0
    && !['externalCerts.annotations', 'manager.resources', 'manager.nodeAffinity', 'manager.nodeSelector', 'daemon.nodeSelector', 'daemon.affinity', 'daemon.resources', 'serviceAccount.annotations'].includes(prefix)
    ? Object.entries(v).flatMap(([k, x]) => leaves(x, prefix ? `${prefix}.${k}` : k)) : [prefix]);

  test.each(['chart', 'chart-1.9.0-partial'])('every value of %s/values.yaml is one that is mapped or refused with its reason, and its defaults map', folder => {
    const values = parse(fs.readFileSync(path.join(CHART_1_9_1, folder, 'values.yaml'), 'utf-8'));
    expect(leaves(values).sort()).toEqual(leaves(EVERY_VALUE).sort());
    const mapping = KruiseControlPlane.mapHelmValues(values);
    expect(mapping.map(m => m.path).sort()).toEqual(leaves(values).sort());
    // the defaults (helm get values -a prints them all): every one carried over, the hook's image to nothing
    expect(mapping.filter(m => m.refusal)).toEqual([]);
    expect(mapping.find(m => m.path === 'webhookConfiguration.aksIntegration')).toEqual({ path: 'webhookConfiguration.aksIntegration', value: false, prop: 'aksIntegration' });
    expect(mapping.find(m => m.path === 'manager.image.tag')?.prop).toBe(`release '${values.manager.image.tag.slice(1)}' (the release the cluster runs, installed whole)`);
  });
});
