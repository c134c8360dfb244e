import { ApiObject, App, Chart, Duration, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { k8s } from 'cdk8s-plus-28';
import { find, synth } from './_chart';
import {
  CertManagerIssuerKind, DeletionProtection, KruiseControlPlane, KruiseFeatureGate, LogFormat, WebhookCertificates, Warnings,
} from '../../src';

const deployment = (all: any[]) => find(all, 'Deployment', 'kruise-controller-manager');
const managerPod = (all: any[]) => deployment(all).spec.template.spec;
const manager = (all: any[]) => managerPod(all).containers[0];
const daemonPod = (all: any[]) => find(all, 'DaemonSet', 'kruise-daemon').spec.template.spec;
const daemon = (all: any[]) => daemonPod(all).containers[0];
const mutating = (all: any[]) => find(all, 'MutatingWebhookConfiguration', 'kruise-mutating-webhook-configuration');
const validating = (all: any[]) => find(all, 'ValidatingWebhookConfiguration', 'kruise-validating-webhook-configuration');

describe('namespace', () => {
  const all = synth({ namespace: 'openkruise' });

  test('is created with the control-plane label and used by every reference', () => {
    expect(find(all, 'Namespace', 'openkruise').metadata.labels).toEqual({
      'control-plane': 'openkruise', 'policy.kruise.io/delete-protection': 'Cascading',
    });
    expect(all.some(m => m.metadata.name === 'kruise-system' || m.metadata.namespace === 'kruise-system')).toBe(false);
    for (const m of all.filter(o => ['ServiceAccount', 'Secret', 'Service', 'Deployment', 'DaemonSet', 'PodDisruptionBudget'].includes(o.kind))) {
      expect(m.metadata.namespace).toBe('openkruise');
    }
    for (const m of all.filter(o => o.kind === 'RoleBinding' || o.kind === 'ClusterRoleBinding')) {
      expect(m.subjects[0].namespace).toBe('openkruise');
    }
    expect(find(all, 'Role', 'kruise-leader-election-role').metadata.namespace).toBe('openkruise');
    expect(manager(all).args).toContain('--leader-election-namespace=openkruise');
    for (const w of [...mutating(all).webhooks, ...validating(all).webhooks]) expect(w.clientConfig.service.namespace).toBe('openkruise');
    for (const name of ['daemonsets.apps.kruise.io', 'sidecarsets.apps.kruise.io', 'statefulsets.apps.kruise.io']) {
      expect(find(all, 'CustomResourceDefinition', name).spec.conversion.webhook.clientConfig.service.namespace).toBe('openkruise');
    }
    // the daemon config namespace is fixed in kruise-manager
    expect(find(all, 'Role', 'kruise-daemon-secret-role').metadata.namespace).toBe('kruise-daemon-config');
  });

  test('createNamespace: false with existingNamespaceLabelled leaves the namespace out', () => {
    const out = synth({ namespace: 'platform', createNamespace: false, existingNamespaceLabelled: true });
    expect(out.filter(m => m.kind === 'Namespace').map(m => m.metadata.name)).toEqual(['kruise-daemon-config']);
    // no namespace protection without a namespace of ours, so only the CRD protection gates remain
    expect(manager(out).args).toContain('--feature-gates=DeletionProtectionForCRDCascadingGate=true,ImagePullJobGate=true,ResourcesDeletionProtection=true');
  });

  test('an existing namespace of the same app with the label satisfies the check', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'c');
    new k8s.KubeNamespace(chart, 'ns', { metadata: { name: 'platform', labels: { 'control-plane': 'openkruise' } } });
    new KruiseControlPlane(chart, 'cp', { namespace: 'platform', createNamespace: false });
    expect(Testing.synth(chart).filter(m => m.kind === 'Namespace')).toHaveLength(2);
  });

  test('kube-system needs no label (the pod webhook skips it by name)', () => {
    expect(() => synth({ namespace: 'kube-system', createNamespace: false })).not.toThrow();
  });

  test('no label is needed when the pod webhook is off', () => {
    expect(() => synth({ namespace: 'platform', createNamespace: false, featureGates: { PodWebhook: false } })).not.toThrow();
  });

  test('fails when the namespace is not created here and nothing ensures the label', () => {
    expect(() => synth({ namespace: 'platform', createNamespace: false }))
      .toThrow('[kruise/ControlPlane] KruiseControlPlane createNamespace: false leaves namespace "platform" to something else, and nothing here ensures it carries the label control-plane: openkruise '
        + 'that the pod webhook skips (without it no kruise-manager Pod can start once all are gone); run `kubectl label namespace platform control-plane=openkruise` and set existingNamespaceLabelled: true, '
        + 'or let this construct create the namespace');
  });

  test('fails when a Namespace of the same app lacks the label', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'c');
    new k8s.KubeNamespace(chart, 'ns', { metadata: { name: 'platform' } });
    new KruiseControlPlane(chart, 'cp', { namespace: 'platform', createNamespace: false });
    expect(() => Testing.synth(chart)).toThrow(/namespace: "platform" is created by 'c\/ns' without the label control-plane: openkruise/);
  });

  test('fails when the namespace is created twice', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'c');
    new k8s.KubeNamespace(chart, 'ns', { metadata: { name: 'kruise-system' } });
    new KruiseControlPlane(chart, 'cp');
    expect(() => Testing.synth(chart)).toThrow(/createNamespace: true creates namespace "kruise-system", which 'c\/ns' creates too/);
  });

  test('fails on an invalid namespace name', () => {
    expect(() => synth({ namespace: 'Kruise_System' })).toThrow(/namespace: "Kruise_System"/);
  });
});

test('createDaemonConfigNamespace: false leaves kruise-daemon-config out', () => {
  const all = synth({ createDaemonConfigNamespace: false });
  expect(all.filter(m => m.kind === 'Namespace').map(m => m.metadata.name)).toEqual(['kruise-system']);
});

test('installCrds: false leaves the CRDs out and their protection gate off', () => {
  const all = synth({ installCrds: false });
  expect(all.filter(m => m.kind === 'CustomResourceDefinition')).toEqual([]);
  expect(manager(all).args).toContain('--feature-gates=ImagePullJobGate=true,ResourcesDeletionProtection=true');
});

test('fails: crdDeletionProtection without installCrds', () => {
  expect(() => synth({ installCrds: false, crdDeletionProtection: DeletionProtection.ALWAYS }))
    .toThrow(/crdDeletionProtection: "Always" needs the CRDs installed here/);
});

test('roleListGroups narrows the list rule of the manager role', () => {
  const all = synth({ roleListGroups: ['apps', 'apps.kruise.io'] });
  expect(find(all, 'ClusterRole', 'kruise-manager-role').rules[1]).toEqual({ apiGroups: ['apps', 'apps.kruise.io'], resources: ['*'], verbs: ['list'] });
});

test('fails: empty roleListGroups', () => {
  expect(() => synth({ roleListGroups: [] })).toThrow(/roleListGroups: \[\] is empty/);
});

test('image repository, tag, pull policy and pull secrets apply to both containers', () => {
  const all = synth({
    imageRepository: 'openkruise-registry.cn-shanghai.cr.aliyuncs.com/openkruise/kruise-manager',
    imageTag: 'v1.9.0-mirror',
    imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
    imagePullSecrets: ['mirror-creds'],
  });
  for (const c of [manager(all), daemon(all)]) {
    expect(c.image).toBe('openkruise-registry.cn-shanghai.cr.aliyuncs.com/openkruise/kruise-manager:v1.9.0-mirror');
    expect(c.imagePullPolicy).toBe('IfNotPresent');
  }
  expect(managerPod(all).imagePullSecrets).toEqual([{ name: 'mirror-creds' }]);
  expect(daemonPod(all).imagePullSecrets).toEqual([{ name: 'mirror-creds' }]);
});

test('fails: empty image tag, invalid pull secret name', () => {
  expect(() => synth({ imageTag: '' })).toThrow(/imageTag: "" is empty/);
  expect(() => synth({ imagePullSecrets: ['Bad_Name'] })).toThrow(/imagePullSecrets: "Bad_Name"/);
});

test('enableKubeCacheMutationDetector sets the env var first in both containers', () => {
  const all = synth({ enableKubeCacheMutationDetector: true });
  expect(manager(all).env[0]).toEqual({ name: 'KUBE_CACHE_MUTATION_DETECTOR', value: 'true' });
  expect(daemon(all).env[0]).toEqual({ name: 'KUBE_CACHE_MUTATION_DETECTOR', value: 'true' });
});

test('serviceAccountAnnotations go on both service accounts', () => {
  const all = synth({ serviceAccountAnnotations: { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::1:role/kruise' } });
  for (const name of ['kruise-manager', 'kruise-daemon']) {
    expect(find(all, 'ServiceAccount', name).metadata.annotations).toEqual({ 'eks.amazonaws.com/role-arn': 'arn:aws:iam::1:role/kruise' });
  }
});

test('fails: invalid service account annotation key', () => {
  expect(() => synth({ serviceAccountAnnotations: { 'bad key': 'x' } })).toThrow(/serviceAccountAnnotations.bad key: "bad key"/);
});

test('webhookTimeout sets every webhook timeout', () => {
  const all = synth({ webhookTimeout: Duration.seconds(10) });
  for (const w of [...mutating(all).webhooks, ...validating(all).webhooks]) expect(w.timeoutSeconds).toBe(10);
});

test('fails: webhookTimeout above 30 seconds', () => {
  expect(() => synth({ webhookTimeout: Duration.minutes(1) })).toThrow(/webhookTimeout: "60000ms" must be a whole number of seconds from 1 to 30/);
});

test('the EphemeralJob validating webhook is registered as chart 1.9.1 does, before the UnitedDeployment one; validateEphemeralJobs: false leaves it out', () => {
  const hooks = validating(synth()).webhooks;
  expect(hooks).toHaveLength(25);
  expect(hooks[23]).toEqual({
    admissionReviewVersions: ['v1', 'v1beta1'],
    clientConfig: { service: { name: 'kruise-webhook-service', namespace: 'kruise-system', path: '/validate-apps-kruise-io-v1alpha1-ephemeraljob' } },
    failurePolicy: 'Fail',
    name: 'vephemeraljobs.kb.io',
    rules: [{ apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], operations: ['CREATE', 'UPDATE'], resources: ['ephemeraljobs'] }],
    sideEffects: 'None',
    timeoutSeconds: 30,
  });
  expect(hooks[24].name).toBe('vuniteddeployment.kb.io');
  const without = validating(synth({ validateEphemeralJobs: false })).webhooks.map((w: any) => w.name);
  expect(without).toHaveLength(24);
  expect(without).not.toContain('vephemeraljobs.kb.io');
});

describe('manager options', () => {
  const all = synth({
    manager: {
      replicas: 3,
      logLevel: 2,
      logFormat: LogFormat.JSON,
      syncPeriod: Duration.minutes(30),
      resources: {
        cpu: { request: kplus.Cpu.millis(500), limit: kplus.Cpu.units(1) },
        memory: { request: Size.gibibytes(1), limit: Size.gibibytes(2) },
      },
      hostNetwork: true,
      nodeSelector: { 'node-role.kubernetes.io/control-plane': '' },
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'In', values: ['system'] }] }] } },
      tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }],
      priorityClassName: 'system-cluster-critical',
      webhookPort: 443,
      metricsPort: 18080,
      healthPort: 18000,
      restConfigQps: 60,
      restConfigBurst: 100,
      enablePprof: true,
      pprofAddress: 'localhost:8090',
      podDisruptionBudget: false,
    },
  });

  test('render into the deployment', () => {
    expect(deployment(all).spec.replicas).toBe(3);
    expect(manager(all).args).toEqual([
      '--enable-leader-election',
      '--metrics-addr=:18080',
      '--health-probe-addr=:18000',
      '--logtostderr=true',
      '--leader-election-namespace=kruise-system',
      '--v=2',
      '--feature-gates=DeletionProtectionForCRDCascadingGate=true,ImagePullJobGate=true,ResourcesDeletionProtection=true',
      '--sync-period=1800s',
      '--logging-format=json',
      '--rest-config-qps=60',
      '--rest-config-burst=100',
      '--enable-pprof=true',
      '--pprof-addr=localhost:8090',
    ]);
    expect(manager(all).resources).toEqual({ limits: { cpu: '1', memory: '2Gi' }, requests: { cpu: '500m', memory: '1Gi' } });
    expect(manager(all).env[1]).toEqual({ name: 'WEBHOOK_PORT', value: '443' });
    expect(manager(all).ports).toEqual([
      { containerPort: 443, name: 'webhook-server', protocol: 'TCP' },
      { containerPort: 18080, name: 'metrics', protocol: 'TCP' },
      { containerPort: 18000, name: 'health', protocol: 'TCP' },
    ]);
    expect(manager(all).readinessProbe).toEqual({ httpGet: { path: 'readyz', port: 18000 } });
    // port 443 needs the one capability Pod Security "restricted" allows
    expect(manager(all).securityContext.capabilities).toEqual({ drop: ['ALL'], add: ['NET_BIND_SERVICE'] });
    const pod = managerPod(all);
    expect(pod.hostNetwork).toBe(true);
    expect(pod.nodeSelector).toEqual({ 'node-role.kubernetes.io/control-plane': '' });
    expect(pod.affinity.nodeAffinity).toEqual({
      requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'In', values: ['system'] }] }] },
    });
    expect(pod.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight).toBe(100);
    expect(pod.tolerations).toEqual([{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }]);
    expect(pod.priorityClassName).toBe('system-cluster-critical');
    expect(find(all, 'Service', 'kruise-webhook-service').spec.ports).toEqual([{ port: 443, targetPort: 443 }]);
  });

  test('podDisruptionBudget: false leaves the PDB out', () => {
    expect(all.filter(m => m.kind === 'PodDisruptionBudget')).toEqual([]);
  });

  test('enablePprof: false renders the flag', () => {
    expect(manager(synth({ manager: { enablePprof: false } })).args).toContain('--enable-pprof=false');
  });

  test('drainDelay: the preStop sleep of the manager container, none at 0', () => {
    expect(manager(synth({ manager: { drainDelay: Duration.seconds(8) } })).lifecycle).toEqual({ preStop: { sleep: { seconds: 8 } } });
    expect(manager(synth({ manager: { drainDelay: Duration.seconds(0) } })).lifecycle).toBeUndefined();
    expect(() => synth({ manager: { drainDelay: Duration.seconds(10) } })).toThrow(
      'KruiseControlPlane manager.drainDelay: "10000ms" must be a whole number of seconds from 0 to 9 (shorter than the manager Pods\' 10 s grace period); '
      + 'use e.g. Duration.seconds(5), or Duration.seconds(0) for no delay');
    expect(() => synth({ manager: { drainDelay: Duration.millis(2500) } })).toThrow('manager.drainDelay: "2500ms" must be a whole number of seconds');
  });

  test('syncPeriod renders sub-second durations in milliseconds', () => {
    expect(manager(synth({ manager: { syncPeriod: Duration.millis(1500) } })).args).toContain('--sync-period=1500ms');
  });

  test('fails: bad numbers, clashing ports, pprof address without pprof', () => {
    expect(() => synth({ manager: { replicas: -1 } })).toThrow(/manager.replicas: -1 must be an integer from 0 to 1000/);
    expect(() => synth({ manager: { logLevel: 1.5 } })).toThrow(/manager.logLevel: 1.5 must be an integer/);
    expect(() => synth({ manager: { webhookPort: 70000 } })).toThrow(/manager.webhookPort: 70000 must be an integer from 1 to 65535/);
    expect(() => synth({ manager: { metricsPort: 8000 } })).toThrow(/manager.webhookPort\/metricsPort\/healthPort: \[9876,8000,8000\] must be three different ports/);
    expect(() => synth({ manager: { restConfigQps: 0 } })).toThrow(/manager.restConfigQps: 0 must be an integer from 1/);
    expect(() => synth({ manager: { enablePprof: false, pprofAddress: ':8090' } })).toThrow(/manager.pprofAddress: ":8090" is set while manager.enablePprof is false/);
    expect(() => synth({ manager: { priorityClassName: 'Not Valid' } })).toThrow(/manager.priorityClassName: "Not Valid"/);
    expect(() => synth({ manager: { nodeSelector: { 'bad key!': 'x' } } })).toThrow(/manager.nodeSelector.bad key!: "bad key!"/);
  });
});

describe('daemon options', () => {
  const all = synth({
    daemon: {
      logLevel: 3,
      port: 10300,
      enablePprof: true,
      pprofAddress: 'localhost:10400',
      socketLocation: '/run/k3s/containerd',
      socketFile: 'containerd.sock',
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      affinity: {
        nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'In', values: ['a'] }] }] } },
      },
      resources: { cpu: { limit: kplus.Cpu.millis(100) }, memory: { limit: Size.mebibytes(256) } },
      extraEnv: { HTTPS_PROXY: kplus.EnvValue.fromValue('http://proxy:3128'), NO_PROXY: kplus.EnvValue.fromValue('.svc,.cluster.local') },
      credentialProvider: { awsCredentialsDir: '/root/.aws' },
      priorityClassName: 'system-node-critical',
      restConfigQps: 10,
      restConfigBurst: 20,
    },
  });

  test('render into the DaemonSet', () => {
    expect(daemon(all).args).toEqual([
      '--logtostderr=true',
      '--v=3',
      '--addr=:10300',
      '--feature-gates=DeletionProtectionForCRDCascadingGate=true,ImagePullJobGate=true,ResourcesDeletionProtection=true',
      '--socket-file=containerd.sock',
      '--enable-pprof=true',
      '--pprof-addr=localhost:10400',
      '--plugin-config-file=/credential-provider-config/CredentialProviderPlugin.yaml',
      '--plugin-bin-dir=/credential-provider-plugin',
      '--rest-config-qps=10',
      '--rest-config-burst=20',
    ]);
    expect(daemon(all).livenessProbe.httpGet.port).toBe(10300);
    expect(daemon(all).resources).toEqual({ limits: { cpu: '100m', memory: '256Mi' } });
    expect(daemon(all).env).toEqual([
      { name: 'NODE_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } },
      { name: 'HTTPS_PROXY', value: 'http://proxy:3128' },
      { name: 'NO_PROXY', value: '.svc,.cluster.local' },
    ]);
    expect(daemon(all).volumeMounts).toEqual([
      { mountPath: '/hostvarrun', name: 'runtime-socket', readOnly: true },
      { name: 'credential-provider-plugin-config', mountPath: '/credential-provider-config', readOnly: true },
      { name: 'credential-provider-plugin', mountPath: '/credential-provider-plugin', readOnly: true },
      { name: 'aws-credentials-dir', mountPath: '/root/.aws', readOnly: true },
    ]);
    const pod = daemonPod(all);
    expect(pod.volumes).toEqual([
      { hostPath: { path: '/run/k3s/containerd', type: '' }, name: 'runtime-socket' },
      { name: 'credential-provider-plugin-config', configMap: { name: 'credential-provider-config' } },
      { hostPath: { path: 'credential-provider-plugin', type: '' }, name: 'credential-provider-plugin' },
      { hostPath: { path: '/root/.aws', type: '' }, name: 'aws-credentials-dir' },
    ]);
    expect(pod.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    // the virtual-kubelet exclusion is added to the user's term
    expect(pod.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([{
      matchExpressions: [{ key: 'pool', operator: 'In', values: ['a'] }, { key: 'type', operator: 'NotIn', values: ['virtual-kubelet'] }],
    }]);
    expect(pod.priorityClassName).toBe('system-node-critical');
  });

  test('credential provider names', () => {
    const out = synth({ daemon: { credentialProvider: { configMapName: 'ecr-provider', hostPath: '/opt/plugins' } } });
    expect(daemonPod(out).volumes.slice(1)).toEqual([
      { name: 'credential-provider-plugin-config', configMap: { name: 'ecr-provider' } },
      { hostPath: { path: '/opt/plugins', type: '' }, name: 'credential-provider-plugin' },
    ]);
  });

  test('enablePprof: false', () => {
    const args = daemon(synth({ daemon: { enablePprof: false } })).args;
    expect(args).toContain('--enable-pprof=false');
    expect(args.some((a: string) => a.startsWith('--pprof-addr'))).toBe(false);
  });

  test('skipVirtualKubeletNodes: false keeps the user affinity as is (none by default)', () => {
    expect(daemonPod(synth({ daemon: { skipVirtualKubeletNodes: false } })).affinity).toBeUndefined();
  });

  test('privileged mode (RKE2)', () => {
    expect(daemon(synth({ daemon: { privileged: true } })).securityContext).toEqual({ privileged: true });
  });

  test('a port below 1024 adds NET_BIND_SERVICE', () => {
    expect(daemon(synth({ daemon: { port: 1000 } })).securityContext.capabilities).toEqual({ drop: ['ALL'], add: ['NET_BIND_SERVICE'] });
  });

  test('fails: relative socket location, socket file with a directory, bad env name', () => {
    expect(() => synth({ daemon: { socketLocation: 'var/run' } })).toThrow(/daemon.socketLocation: "var\/run" is not an absolute host path/);
    expect(() => synth({ daemon: { socketFile: '/var/run/containerd.sock' } })).toThrow(/daemon.socketFile: "\/var\/run\/containerd.sock" must be a file name/);
    expect(() => synth({ daemon: { extraEnv: { '1PROXY': kplus.EnvValue.fromValue('x') } } })).toThrow(/daemon.extraEnv.1PROXY: "1PROXY"/);
    expect(() => synth({ daemon: { port: 0 } })).toThrow(/daemon.port: 0 must be an integer from 1 to 65535/);
  });

  test('daemon options with KruiseDaemon off are a warning', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'c');
    new KruiseControlPlane(chart, 'cp', { featureGates: { KruiseDaemon: false, ImagePullJobGate: false }, daemon: { logLevel: 2 } });
    expect(Warnings.of(chart)).toEqual([
      '[c/cp] KruiseControlPlane daemon: ["logLevel"] is set but the KruiseDaemon gate is off, so kruise-daemon is not installed and these options have no effect; remove daemon, or set featureGates.KruiseDaemon to true',
    ]);
  });
});

describe('certificates', () => {
  test('cert-manager: EnableExternalCerts, CA injection on the webhook configurations and the conversion CRDs, Issuer and Certificate', () => {
    const all = synth({ namespace: 'openkruise', certificates: WebhookCertificates.certManager() });
    expect(manager(all).args).toContain('--feature-gates=DeletionProtectionForCRDCascadingGate=true,EnableExternalCerts=true,ImagePullJobGate=true,ResourcesDeletionProtection=true');
    for (const c of [mutating(all), validating(all)]) {
      expect(c.metadata.annotations['cert-manager.io/inject-ca-from']).toBe('openkruise/kruise-webhook-cert');
    }
    for (const crd of all.filter(m => m.kind === 'CustomResourceDefinition')) {
      const conversion = ['daemonsets.apps.kruise.io', 'sidecarsets.apps.kruise.io', 'statefulsets.apps.kruise.io'].includes(crd.metadata.name);
      expect(crd.metadata.annotations).toEqual(conversion ? { 'cert-manager.io/inject-ca-from': 'openkruise/kruise-webhook-cert' } : undefined);
    }
    expect(find(all, 'Issuer', 'kruise-selfsigned-issuer')).toEqual({
      apiVersion: 'cert-manager.io/v1', kind: 'Issuer', metadata: { name: 'kruise-selfsigned-issuer', namespace: 'openkruise' }, spec: { selfSigned: {} },
    });
    expect(find(all, 'Certificate', 'kruise-webhook-cert')).toEqual({
      apiVersion: 'cert-manager.io/v1',
      kind: 'Certificate',
      metadata: { name: 'kruise-webhook-cert', namespace: 'openkruise' },
      spec: {
        dnsNames: ['kruise-webhook-service.openkruise.svc', 'kruise-webhook-service.openkruise.svc.cluster.local'],
        issuerRef: { kind: 'Issuer', name: 'kruise-selfsigned-issuer' },
        secretName: 'kruise-webhook-certs',
      },
    });
    // cert-manager owns the Secret; kruise-manager needs no rights to patch the configurations and CRDs
    expect(all.filter(m => m.kind === 'Secret')).toEqual([]);
    expect(all.some(m => m.metadata.name === 'kruise-certs-role' || m.metadata.name === 'kruise-certs-rolebinding')).toBe(false);
  });

  test('cert-manager with an existing ClusterIssuer and a custom certificate name', () => {
    const all = synth({ certificates: WebhookCertificates.certManager({ issuerName: 'corp-ca', issuerKind: CertManagerIssuerKind.CLUSTER_ISSUER, certificateName: 'kruise' }) });
    expect(all.filter(m => m.kind === 'Issuer')).toEqual([]);
    expect(find(all, 'Certificate', 'kruise').spec.issuerRef).toEqual({ kind: 'ClusterIssuer', name: 'corp-ca' });
    expect(mutating(all).metadata.annotations['cert-manager.io/inject-ca-from']).toBe('kruise-system/kruise');
  });

  test('cert-manager without creating the Certificate', () => {
    const all = synth({ certificates: WebhookCertificates.certManager({ createCertificate: false, issuerName: 'x' }) });
    expect(all.filter(m => m.apiVersion === 'cert-manager.io/v1')).toEqual([]);
    expect(validating(all).metadata.annotations['cert-manager.io/inject-ca-from']).toBe('kruise-system/kruise-webhook-cert');
  });

  test('external: the given annotations, no Secret, no certs role', () => {
    const all = synth({ certificates: WebhookCertificates.external({ annotations: { 'example.com/inject-ca': 'yes' } }) });
    expect(mutating(all).metadata.annotations['example.com/inject-ca']).toBe('yes');
    expect(find(all, 'CustomResourceDefinition', 'statefulsets.apps.kruise.io').metadata.annotations).toEqual({ 'example.com/inject-ca': 'yes' });
    expect(all.filter(m => m.kind === 'Secret')).toEqual([]);
    expect(manager(all).args.find((a: string) => a.startsWith('--feature-gates'))).toContain('EnableExternalCerts=true');
  });

  test('fails: issuerKind without issuerName', () => {
    expect(() => synth({ certificates: WebhookCertificates.certManager({ issuerKind: CertManagerIssuerKind.CLUSTER_ISSUER }) }))
      .toThrow(/certificates.issuerKind: "ClusterIssuer" is set without issuerName/);
  });

  test('fails: EnableExternalCerts set by hand', () => {
    expect(() => synth({ featureGates: { EnableExternalCerts: true } }))
      .toThrow(/featureGates.EnableExternalCerts: true conflicts with certificates.*set certificates: WebhookCertificates.certManager\(\)/);
    expect(() => synth({ certificates: WebhookCertificates.certManager(), featureGates: { EnableExternalCerts: false } }))
      .toThrow(/featureGates.EnableExternalCerts: false conflicts with certificates/);
  });
});

describe('delete protection', () => {
  test('NONE everywhere: no labels, no protection gates, the Service/Ingress webhooks (served only with the gate) left out', () => {
    const all = synth({ crdDeletionProtection: DeletionProtection.NONE, namespaceDeletionProtection: DeletionProtection.NONE });
    expect(find(all, 'Namespace', 'kruise-system').metadata.labels).toEqual({ 'control-plane': 'openkruise' });
    for (const crd of all.filter(m => m.kind === 'CustomResourceDefinition')) expect(crd.metadata.labels).toBeUndefined();
    expect(manager(all).args).toContain('--feature-gates=ImagePullJobGate=true');
    const names = validating(all).webhooks.map((w: any) => w.name);
    expect(names).toHaveLength(23);
    expect(names).not.toContain('vservice.kb.io');
    expect(names).not.toContain('vingress.kb.io');
  });

  test('ALWAYS on the CRDs needs no cascading gate', () => {
    const all = synth({ crdDeletionProtection: DeletionProtection.ALWAYS, namespaceDeletionProtection: DeletionProtection.ALWAYS });
    expect(find(all, 'CustomResourceDefinition', 'clonesets.apps.kruise.io').metadata.labels).toEqual({ 'policy.kruise.io/delete-protection': 'Always' });
    expect(find(all, 'Namespace', 'kruise-system').metadata.labels['policy.kruise.io/delete-protection']).toBe('Always');
    expect(manager(all).args).toContain('--feature-gates=ImagePullJobGate=true,ResourcesDeletionProtection=true');
  });

  test('fails: protection with the gates turned off by hand', () => {
    expect(() => synth({ featureGates: { ResourcesDeletionProtection: false } }))
      .toThrow(/featureGates.ResourcesDeletionProtection: false conflicts with crdDeletionProtection Cascading/);
    expect(() => synth({ featureGates: { DeletionProtectionForCRDCascadingGate: false } }))
      .toThrow(/featureGates.DeletionProtectionForCRDCascadingGate: false conflicts with crdDeletionProtection CASCADING: without this gate kruise-manager refuses every deletion/);
  });

  test('fails: namespace protection on a namespace not created here', () => {
    expect(() => synth({ createNamespace: false, existingNamespaceLabelled: true, namespaceDeletionProtection: DeletionProtection.CASCADING }))
      .toThrow(/namespaceDeletionProtection: "Cascading" needs a namespace created here/);
  });
});

describe('GitOps safety', () => {
  const all = synth();

  test('no caBundle, no certificate data, no conversion caBundle anywhere', () => {
    const text = JSON.stringify(all);
    expect(text).not.toMatch(/caBundle/);
    expect(find(all, 'Secret', 'kruise-webhook-certs').data).toBeUndefined();
    expect(find(all, 'Secret', 'kruise-webhook-certs').stringData).toBeUndefined();
  });

  test('the Secret carries no labels and only Flux\'s IfNotPresent annotation (kruise-manager replaces its metadata)', () => {
    expect(find(all, 'Secret', 'kruise-webhook-certs').metadata).toEqual({
      name: 'kruise-webhook-certs', namespace: 'kruise-system', annotations: { 'kustomize.toolkit.fluxcd.io/ssa': 'IfNotPresent' },
    });
  });

  test('two synths are byte-identical', () => {
    const yaml = () => {
      const app = new App({ outdir: '/tmp/unused' });
      const chart = new Chart(app, 'kruise');
      new KruiseControlPlane(chart, 'ControlPlane', { certificates: WebhookCertificates.certManager(), manager: { tolerations: [{ operator: 'Exists' }] } });
      return app.synthYaml();
    };
    expect(yaml()).toEqual(yaml());
  });
});

describe('KruiseControlPlane.of', () => {
  test('finds the control plane of the app from any construct', () => {
    const app = Testing.app();
    const infra = new Chart(app, 'infra');
    const cp = new KruiseControlPlane(infra, 'cp');
    const apps = new Chart(app, 'apps');
    const obj = new ApiObject(apps, 'x', { apiVersion: 'v1', kind: 'ConfigMap' });
    expect(KruiseControlPlane.of(obj)).toBe(cp);
    expect(KruiseControlPlane.of(Testing.chart())).toBeUndefined();
  });

  test('prefers the control plane of the same chart when there are several', () => {
    const app = Testing.app();
    const a = new Chart(app, 'a');
    const b = new Chart(app, 'b');
    const cpa = new KruiseControlPlane(a, 'cp');
    const cpb = new KruiseControlPlane(b, 'cp');
    expect(KruiseControlPlane.of(new ApiObject(a, 'x', { apiVersion: 'v1', kind: 'ConfigMap' }))).toBe(cpa);
    expect(KruiseControlPlane.of(new ApiObject(b, 'x', { apiVersion: 'v1', kind: 'ConfigMap' }))).toBe(cpb);
  });

  test('fails when several control planes leave it ambiguous', () => {
    const app = Testing.app();
    const a = new Chart(app, 'a');
    new KruiseControlPlane(a, 'one');
    new KruiseControlPlane(a, 'two', { namespace: 'other' });
    expect(() => KruiseControlPlane.of(a)).toThrow(/the app has 2 KruiseControlPlane constructs \('a\/one', 'a\/two'\)/);
  });
});

test('isFeatureGateEnabled and the gate names', () => {
  const app = Testing.app();
  const cp = new KruiseControlPlane(new Chart(app, 'c'), 'cp', { featureGates: { [KruiseFeatureGate.RESOURCE_DISTRIBUTION_GATE]: true } });
  expect(cp.isFeatureGateEnabled(KruiseFeatureGate.RESOURCE_DISTRIBUTION_GATE)).toBe(true);
  expect(cp.isFeatureGateEnabled(KruiseFeatureGate.IMAGE_PULL_JOB_GATE)).toBe(true);
  expect(cp.isFeatureGateEnabled(KruiseFeatureGate.WORKLOAD_SPREAD)).toBe(true);
  expect(cp.isFeatureGateEnabled(KruiseFeatureGate.CLONE_SET_SHORT_HASH)).toBe(false);
  expect(cp.namespace).toBe('kruise-system');
  expect(cp.featureGatesFlag).toBe('DeletionProtectionForCRDCascadingGate=true,ImagePullJobGate=true,ResourceDistributionGate=true,ResourcesDeletionProtection=true');
});

test('docs/control-planes.md gives the Argo CD and Flux settings for the fields kruise-manager owns', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const page: string = require('fs').readFileSync(require('path').join(__dirname, '..', '..', 'docs', 'control-planes.md'), 'utf8');
  const section = page.slice(page.indexOf('## OpenKruise: `KruiseControlPlane`'));
  expect(section).toContain("jqPathExpressions: ['.webhooks[]?.clientConfig.caBundle']");
  expect(section).toContain("jqPathExpressions: ['.spec.conversion.webhook?.clientConfig?.caBundle']");
  expect(section).toContain("jsonPointers: ['/data']");
  expect(section).toContain('RespectIgnoreDifferences=true');
  expect(section).toMatch(/Flux's kustomize-controller applies server-side/);
});

/** Whether a label selector's matchExpressions select an object with these labels. */
function selects(selector: any, labels: Record<string, string>): boolean {
  if (!selector) return true;
  const matchLabels: Record<string, string> = selector.matchLabels ?? {};
  if (Object.entries(matchLabels).some(([k, v]) => labels[k] !== v)) return false;
  return (selector.matchExpressions ?? []).every((e: any) => {
    switch (e.operator) {
      case 'In': return e.key in labels && e.values.includes(labels[e.key]);
      case 'NotIn': return !(e.key in labels) || !e.values.includes(labels[e.key]);
      case 'Exists': return e.key in labels;
      case 'DoesNotExist': return !(e.key in labels);
      default: throw new Error(`unknown operator ${e.operator}`);
    }
  });
}

describe('install namespace propagation', () => {
  test('a custom namespace leaves no reference to kruise-system anywhere, in any certificate mode', () => {
    for (const certificates of [undefined, WebhookCertificates.certManager(), WebhookCertificates.external()]) {
      const all = synth({ namespace: 'openkruise', certificates });
      expect(JSON.stringify(all)).not.toContain('kruise-system');
      // the template annotation kruise-manager rebuilds the webhooks from points at the install namespace too
      for (const c of [mutating(all), validating(all)]) {
        for (const w of JSON.parse(c.metadata.annotations.template)) expect(w.clientConfig.service.namespace).toBe('openkruise');
      }
    }
  });

  test('the manager finds its namespace through the downward API', () => {
    expect(manager(synth({ namespace: 'openkruise' })).env).toContainEqual({ name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } });
  });
});

describe('no self-deadlock', () => {
  const podHooks = (all: any[]) => [...mutating(all).webhooks, ...validating(all).webhooks].filter((w: any) => w.rules[0].resources.some((r: string) => r.startsWith('pods')));

  test('the pod webhooks never select the install namespace they run in', () => {
    for (const namespace of ['kruise-system', 'openkruise']) {
      const all = synth({ namespace });
      const ns = find(all, 'Namespace', namespace);
      const labels = { ...ns.metadata.labels, 'kubernetes.io/metadata.name': namespace };
      const hooks = podHooks(all);
      expect(hooks.map((w: any) => w.name)).toEqual(['mpod.kb.io', 'vpod.kb.io', 'vpodeviction.kb.io']);
      for (const w of hooks) {
        expect(w.failurePolicy).toBe('Fail');
        expect(selects(w.namespaceSelector, labels)).toBe(false);
        // ... while an ordinary namespace is selected
        expect(selects(w.namespaceSelector, { 'kubernetes.io/metadata.name': 'default' })).toBe(true);
      }
    }
  });

  test('the pod webhooks skip kube-system too, so installing there needs no label', () => {
    const all = synth({ namespace: 'kube-system', createNamespace: false });
    for (const w of podHooks(all)) expect(selects(w.namespaceSelector, { 'kubernetes.io/metadata.name': 'kube-system' })).toBe(false);
  });
});

test('LogFormat.TEXT renders --logging-format=text; no flag by default', () => {
  expect(manager(synth({ manager: { logFormat: LogFormat.TEXT } })).args).toContain('--logging-format=text');
  expect(manager(synth()).args.some((a: string) => a.startsWith('--logging-format'))).toBe(false);
});

test('fails: empty image repository', () => {
  expect(() => synth({ imageRepository: ' ' })).toThrow('[kruise/ControlPlane] KruiseControlPlane imageRepository: " " is empty; set a repository and a tag, e.g. "openkruise/kruise-manager" and "v1.9.1"');
});

test('webhookTimeout accepts 1 and 30 seconds', () => {
  for (const s of [1, 30]) {
    const all = synth({ webhookTimeout: Duration.seconds(s) });
    for (const w of [...mutating(all).webhooks, ...validating(all).webhooks]) expect(w.timeoutSeconds).toBe(s);
  }
});

test('fails: webhookTimeout of zero or a fraction of a second', () => {
  expect(() => synth({ webhookTimeout: Duration.seconds(0) })).toThrow(/webhookTimeout: "0ms" must be a whole number of seconds from 1 to 30/);
  expect(() => synth({ webhookTimeout: Duration.millis(1500) })).toThrow(/webhookTimeout: "1500ms" must be a whole number of seconds from 1 to 30/);
});

test('fails: the remaining manager numbers out of range', () => {
  expect(() => synth({ manager: { replicas: 2.5 } })).toThrow(/manager.replicas: 2.5 must be an integer from 0 to 1000/);
  expect(() => synth({ manager: { logLevel: 11 } })).toThrow(/manager.logLevel: 11 must be an integer from 0 to 10/);
  expect(() => synth({ manager: { metricsPort: 65536 } })).toThrow(/manager.metricsPort: 65536 must be an integer from 1 to 65535/);
  expect(() => synth({ manager: { healthPort: 0 } })).toThrow(/manager.healthPort: 0 must be an integer from 1 to 65535/);
  expect(() => synth({ manager: { healthPort: 9876 } })).toThrow(/manager.webhookPort\/metricsPort\/healthPort: \[9876,8080,9876\] must be three different ports/);
  expect(() => synth({ manager: { restConfigBurst: 0 } })).toThrow(/manager.restConfigBurst: 0 must be an integer from 1 to 100000; use a positive number such as 50/);
});

test('fails: bad daemon numbers, names and pprof address without pprof', () => {
  expect(() => synth({ daemon: { logLevel: -1 } })).toThrow(/daemon.logLevel: -1 must be an integer from 0 to 10/);
  expect(() => synth({ daemon: { restConfigQps: 0 } })).toThrow(/daemon.restConfigQps: 0 must be an integer from 1 to 100000/);
  expect(() => synth({ daemon: { restConfigBurst: 1.5 } })).toThrow(/daemon.restConfigBurst: 1.5 must be an integer from 1 to 100000/);
  expect(() => synth({ daemon: { enablePprof: false, pprofAddress: 'localhost:1' } })).toThrow(/daemon.pprofAddress: "localhost:1" is set while daemon.enablePprof is false; drop one of them/);
  expect(() => synth({ daemon: { priorityClassName: 'Node_Critical' } })).toThrow(/daemon.priorityClassName: "Node_Critical".*use the name of a PriorityClass/);
  expect(() => synth({ daemon: { nodeSelector: { 'kubernetes.io/os': 'not a value!' } } })).toThrow(/daemon.nodeSelector.kubernetes.io\/os: "not a value!".*use a valid label value/);
  expect(() => synth({ daemon: { credentialProvider: { configMapName: 'Provider_Config' } } }))
    .toThrow(/daemon.credentialProvider.configMapName: "Provider_Config".*use the name of a ConfigMap in the install namespace/);
});

describe('daemon affinity and the virtual-kubelet exclusion', () => {
  const vk = { key: 'type', operator: 'NotIn', values: ['virtual-kubelet'] };

  test('other affinity parts are kept; a preferred-only node affinity gets the exclusion as its required term', () => {
    const podAntiAffinity = { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { a: 'b' } }, topologyKey: 'kubernetes.io/hostname' }] };
    const preferred = [{ weight: 10, preference: { matchExpressions: [{ key: 'pool', operator: 'In', values: ['x'] }] } }];
    const affinity = { podAntiAffinity, nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: preferred } };
    const pod = daemonPod(synth({ daemon: { affinity } }));
    expect(pod.affinity).toEqual({
      podAntiAffinity,
      nodeAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: preferred,
        requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [vk] }] },
      },
    });
  });

  test('every required term gets the exclusion (terms are ORed)', () => {
    const terms = [
      { matchExpressions: [{ key: 'pool', operator: 'In', values: ['a'] }] },
      { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] },
    ];
    const affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } };
    const pod = daemonPod(synth({ daemon: { affinity } }));
    expect(pod.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
      { matchExpressions: [{ key: 'pool', operator: 'In', values: ['a'] }, vk] },
      { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }], matchExpressions: [vk] },
    ]);
  });

  test('skipVirtualKubeletNodes: false renders the user affinity unchanged', () => {
    const affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'In', values: ['a'] }] }] } } };
    expect(daemonPod(synth({ daemon: { affinity, skipVirtualKubeletNodes: false } })).affinity).toEqual(affinity);
  });
});

test('daemon extraEnv renders values from references as valueFrom', () => {
  const all = synth({
    daemon: {
      extraEnv: {
        HTTP_PROXY: kplus.EnvValue.fromValue('http://proxy:3128'),
        NODE_IP: kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.NODE_IP),
      },
    },
  });
  expect(daemon(all).env.slice(1)).toEqual([
    { name: 'HTTP_PROXY', value: 'http://proxy:3128' },
    { name: 'NODE_IP', valueFrom: { fieldRef: { fieldPath: 'status.hostIP' } } },
  ]);
});

test('hardening holds with host network and custom ports', () => {
  const all = synth({ manager: { hostNetwork: true, webhookPort: 10250, metricsPort: 10251, healthPort: 10252 } });
  expect(manager(all).securityContext).toEqual({
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'] },
    runAsNonRoot: true,
    runAsUser: 65534,
    seccompProfile: { type: 'RuntimeDefault' },
  });
  expect(find(all, 'PodDisruptionBudget', 'kruise-controller-manager').spec.maxUnavailable).toBe(1);
});

describe('certificates, more', () => {
  const conversionCrds = ['daemonsets.apps.kruise.io', 'sidecarsets.apps.kruise.io', 'statefulsets.apps.kruise.io'];

  test('external: the annotations go on both configurations and exactly the three conversion CRDs; no caBundle anywhere', () => {
    const all = synth({ certificates: WebhookCertificates.external({ annotations: { 'example.com/inject-ca': 'yes' } }) });
    for (const c of [mutating(all), validating(all)]) {
      expect(Object.keys(c.metadata.annotations)).toEqual(['example.com/inject-ca', 'template']);
      expect(c.metadata.annotations['example.com/inject-ca']).toBe('yes');
    }
    for (const crd of all.filter(m => m.kind === 'CustomResourceDefinition')) {
      expect(crd.metadata.annotations).toEqual(conversionCrds.includes(crd.metadata.name) ? { 'example.com/inject-ca': 'yes' } : undefined);
    }
    expect(JSON.stringify(all)).not.toMatch(/caBundle/);
    expect(all.filter(m => m.apiVersion === 'cert-manager.io/v1')).toEqual([]);
  });

  test('external without annotations writes none', () => {
    const all = synth({ certificates: WebhookCertificates.external() });
    expect(Object.keys(mutating(all).metadata.annotations)).toEqual(['template']);
    for (const name of conversionCrds) expect(find(all, 'CustomResourceDefinition', name).metadata.annotations).toBeUndefined();
  });

  test('cert-manager: no caBundle, and the injection annotation sits next to the template', () => {
    const all = synth({ certificates: WebhookCertificates.certManager() });
    expect(JSON.stringify(all)).not.toMatch(/caBundle/);
    expect(Object.keys(validating(all).metadata.annotations)).toEqual(['cert-manager.io/inject-ca-from', 'template']);
  });

  test('cert-manager with an existing Issuer: issuerKind defaults to Issuer and none is created', () => {
    const all = synth({ certificates: WebhookCertificates.certManager({ issuerName: 'team-ca' }) });
    expect(all.filter(m => m.kind === 'Issuer')).toEqual([]);
    expect(find(all, 'Certificate', 'kruise-webhook-cert').spec.issuerRef).toEqual({ kind: 'Issuer', name: 'team-ca' });
  });

  test('isExternal tells the modes apart', () => {
    expect(WebhookCertificates.selfManaged().isExternal).toBe(false);
    expect(WebhookCertificates.certManager().isExternal).toBe(true);
    expect(WebhookCertificates.external().isExternal).toBe(true);
  });

  test('fails: invalid certificate and issuer names', () => {
    expect(() => synth({ certificates: WebhookCertificates.certManager({ certificateName: 'Kruise_Cert' }) }))
      .toThrow('[kruise/ControlPlane] KruiseControlPlane certificates.certificateName: "Kruise_Cert" must consist of lowercase letters, digits, \'-\' and \'.\', starting and ending with a letter or digit; '
        + 'use a DNS-1123 subdomain such as "kruise-webhook-cert"');
    expect(() => synth({ certificates: WebhookCertificates.certManager({ issuerName: 'Corp CA' }) }))
      .toThrow(/certificates.issuerName: "Corp CA".*use the name of a cert-manager Issuer or ClusterIssuer/);
  });

  test('fails: invalid external annotation keys, and the reserved template key', () => {
    expect(() => synth({ certificates: WebhookCertificates.external({ annotations: { 'bad key': 'x' } }) }))
      .toThrow(/certificates.annotations.bad key: "bad key".*use a qualified name/);
    expect(() => synth({ certificates: WebhookCertificates.external({ annotations: { template: 'x' } }) }))
      .toThrow(/certificates.annotations.template: "template" is the annotation kruise-manager reads the webhook list from/);
  });
});

test('every option set: two synths are byte-identical', () => {
  const yaml = () => {
    const app = new App({ outdir: '/tmp/unused' });
    const chart = new Chart(app, 'kruise');
    new KruiseControlPlane(chart, 'ControlPlane', {
      namespace: 'openkruise',
      imagePullSecrets: ['a', 'b'],
      serviceAccountAnnotations: { 'b.example.com/x': '1', 'a.example.com/y': '2' },
      featureGates: { SidecarTerminator: true, ResourceDistributionGate: true, PodUnavailableBudgetUpdateGate: true },
      certificates: WebhookCertificates.certManager({ issuerName: 'ca', issuerKind: CertManagerIssuerKind.CLUSTER_ISSUER }),
      manager: { nodeSelector: { b: '1', a: '2' }, tolerations: [{ operator: 'Exists' }], logFormat: LogFormat.JSON },
      daemon: { extraEnv: { NO_PROXY: kplus.EnvValue.fromValue('.svc'), HTTPS_PROXY: kplus.EnvValue.fromValue('http://p') }, credentialProvider: {} },
    });
    return app.synthYaml();
  };
  const first = yaml();
  expect(first).toEqual(yaml());
  expect(first).toContain('--feature-gates=DeletionProtectionForCRDCascadingGate=true,EnableExternalCerts=true,ImagePullJobGate=true,PodUnavailableBudgetUpdateGate=true,ResourceDistributionGate=true,ResourcesDeletionProtection=true,SidecarTerminator=true');
});

test('resources: ephemeral storage and sizes that are not whole mebibytes render exactly', () => {
  const all = synth({
    manager: {
      resources: {
        memory: { request: Size.kibibytes(1536), limit: Size.mebibytes(1536) },
        ephemeralStorage: { request: Size.gibibytes(1), limit: Size.gibibytes(2) },
      },
    },
    daemon: { resources: { cpu: { request: kplus.Cpu.millis(10) }, ephemeralStorage: { limit: Size.mebibytes(100) } } },
  });
  expect(manager(all).resources).toEqual({
    limits: { 'memory': '1536Mi', 'ephemeral-storage': '2Gi' },
    requests: { 'memory': '1536Ki', 'ephemeral-storage': '1Gi' },
  });
  expect(daemon(all).resources).toEqual({ limits: { 'ephemeral-storage': '100Mi' }, requests: { cpu: '10m' } });
});

test('docs/control-planes.md documents how uninstall works with delete protection instead of the Helm hook', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const page: string = require('fs').readFileSync(require('path').join(__dirname, '..', '..', 'docs', 'control-planes.md'), 'utf8');
  const section = page.slice(page.indexOf('## OpenKruise: `KruiseControlPlane`'));
  expect(section).toContain('`policy.kruise.io/delete-protection: Cascading`');
  expect(section).toMatch(/To uninstall: delete your OpenKruise\s+objects first/);
  expect(section).toMatch(/An upgrade deletes neither, so it is never blocked/);
});
