/**
 * Parity with the openkruise/charts `kruise` chart 1.9.1 rendered with
 * default values (where a 1.9.1 template could not be had, 1.9.0-alpha.3's:
 * _chart.ts): every object and every field, written down from the chart.
 * Where we differ on purpose, the test says what the chart has and why.
 */
import {
  CHART_1_9_1_MUTATING, CHART_1_9_1_VALIDATING, CHART_BINDINGS, CHART_OBJECTS, CHART_RULES, find, ruleLine, synth, webhookLine,
} from './_chart';
import { KINDS, renderCrd } from '../../src/api';

const all = synth();
const key = (m: any) => `${m.kind}/${m.metadata.namespace ?? ''}/${m.metadata.name}`;

test('defaults render every object of the chart, plus only the manager PodDisruptionBudget', () => {
  const ours = all.map(key);
  expect([...ours].sort()).toEqual([...CHART_OBJECTS, 'PodDisruptionBudget/kruise-system/kruise-controller-manager'].sort());
  // the pre-delete hook (ClusterRole/ClusterRoleBinding/ServiceAccount kruise-helm-hook, Job) is replaced by delete protection
  expect(ours.some(k => k.includes('helm-hook') || k.includes('finalizer'))).toBe(false);
});

test('namespaces come first, then the CRDs, then what uses them; webhook configurations come last', () => {
  const kinds = all.map(m => m.kind);
  expect(kinds.slice(0, 2)).toEqual(['Namespace', 'Namespace']);
  expect(kinds.slice(2, 20)).toEqual(Array(18).fill('CustomResourceDefinition'));
  expect(kinds.slice(-2)).toEqual(['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']);
  expect(kinds.indexOf('Deployment')).toBeGreaterThan(kinds.lastIndexOf('ClusterRoleBinding'));
});

test('namespaces', () => {
  const ns = find(all, 'Namespace', 'kruise-system');
  expect(ns.apiVersion).toBe('v1');
  // chart: labels { control-plane: openkruise }; we add the delete-protection label (uninstall safety, see docs/control-planes.md)
  expect(ns.metadata).toEqual({
    name: 'kruise-system',
    labels: { 'control-plane': 'openkruise', 'policy.kruise.io/delete-protection': 'Cascading' },
  });
  // chart: name only; a label of ours keeps server-side re-applies a no-op (test/cluster proves it)
  expect(find(all, 'Namespace', 'kruise-daemon-config').metadata).toEqual({ name: 'kruise-daemon-config', labels: { 'app.kubernetes.io/part-of': 'openkruise' } });
});

test('CRDs come from the API model; the three conversion CRDs point at the webhook service of the install namespace', () => {
  for (const kind of KINDS) {
    const expected = renderCrd(kind);
    const crd = find(all, 'CustomResourceDefinition', expected.metadata.name);
    // chart: no labels; we label for delete protection
    expect(crd.metadata.labels).toEqual({ 'policy.kruise.io/delete-protection': 'Cascading' });
    const { conversion, ...spec } = crd.spec;
    expect(spec).toEqual(expected.spec);
    if (['daemonsets', 'sidecarsets', 'statefulsets'].includes(kind.plural)) {
      // chart: daemonsets and sidecarsets point at "webhook-service" in namespace "system" (fixed by the manager at runtime)
      expect(conversion).toEqual({
        strategy: 'Webhook',
        webhook: {
          clientConfig: { service: { name: 'kruise-webhook-service', namespace: 'kruise-system', path: '/convert', port: 443 } },
          conversionReviewVersions: ['v1', 'v1beta1'],
        },
      });
    } else {
      expect(conversion).toBeUndefined();
    }
  }
});

test('service accounts', () => {
  for (const name of ['kruise-manager', 'kruise-daemon']) {
    expect(find(all, 'ServiceAccount', name)).toEqual({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: 'kruise-system' } });
  }
});

test('every Role and ClusterRole has exactly the chart rules, in order', () => {
  for (const [ref, rules] of Object.entries(CHART_RULES)) {
    const [kind, name] = ref.split('/');
    const role = find(all, kind, name);
    expect(role.apiVersion).toBe('rbac.authorization.k8s.io/v1');
    // Ours, not the chart's: the manager always reads StorageClasses (docs/control-planes.md, "Where we differ from the kruise chart").
    const ours = ref === 'ClusterRole/kruise-manager-role' ? [...rules, 'storage.k8s.io | storageclasses | get,list,watch'] : rules;
    expect(role.rules.map(ruleLine)).toEqual(ours);
  }
  expect(find(all, 'ClusterRole', 'aggregate-kruise-view').metadata.labels).toEqual({ 'rbac.authorization.k8s.io/aggregate-to-view': 'true' });
  expect(find(all, 'ClusterRole', 'aggregate-kruise-edit').metadata.labels).toEqual({ 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' });
  expect(find(all, 'ClusterRole', 'aggregate-kruise-admin').metadata.labels).toEqual({ 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' });
  expect(find(all, 'Role', 'kruise-leader-election-role').metadata.namespace).toBe('kruise-system');
  expect(find(all, 'Role', 'kruise-webhook-role').metadata.namespace).toBe('kruise-system');
  expect(find(all, 'Role', 'kruise-daemon-secret-role').metadata.namespace).toBe('kruise-daemon-config');
});

test('every binding binds the chart role to the chart service account of the install namespace', () => {
  const bindings = all.filter(m => m.kind === 'RoleBinding' || m.kind === 'ClusterRoleBinding');
  expect(bindings.map(b => `${b.kind}/${b.metadata.name} -> ${b.roleRef.kind}/${b.roleRef.name} -> ${b.subjects.map((s: any) => s.name).join(',')}`).sort())
    .toEqual([...CHART_BINDINGS].sort());
  for (const b of bindings) {
    expect(b.roleRef.apiGroup).toBe('rbac.authorization.k8s.io');
    expect(b.subjects).toEqual([{ kind: 'ServiceAccount', name: b.subjects[0].name, namespace: 'kruise-system' }]);
  }
});

test('webhook service and certificate secret', () => {
  expect(find(all, 'Service', 'kruise-webhook-service')).toEqual({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'kruise-webhook-service', namespace: 'kruise-system' },
    spec: { ports: [{ port: 443, targetPort: 9876 }], selector: { 'control-plane': 'controller-manager' } },
  });
  // the chart copies the live data back through a Helm lookup; we write none (kruise-manager owns it)
  // `type: Opaque` (the default) is ours: it keeps server-side re-applies a no-op
  // so is Flux's IfNotPresent annotation: Flux creates the Secret and leaves kruise-manager's rewrites of it alone
  expect(find(all, 'Secret', 'kruise-webhook-certs')).toEqual({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'kruise-webhook-certs', namespace: 'kruise-system', annotations: { 'kustomize.toolkit.fluxcd.io/ssa': 'IfNotPresent' } },
    type: 'Opaque',
  });
});

test('manager deployment, field by field', () => {
  const d = find(all, 'Deployment', 'kruise-controller-manager');
  expect(d.apiVersion).toBe('apps/v1');
  expect(d.metadata).toEqual({ labels: { 'control-plane': 'controller-manager' }, name: 'kruise-controller-manager', namespace: 'kruise-system' });
  const { template, ...spec } = d.spec;
  expect(spec).toEqual({
    replicas: 2,
    selector: { matchLabels: { 'control-plane': 'controller-manager' } },
    minReadySeconds: 3,
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '100%' } },
  });
  expect(template.metadata).toEqual({ labels: { 'control-plane': 'controller-manager' } });
  const { containers, ...pod } = template.spec;
  expect(pod).toEqual({
    hostNetwork: false,
    terminationGracePeriodSeconds: 10,
    serviceAccountName: 'kruise-manager',
    affinity: {
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [{
          podAffinityTerm: {
            labelSelector: { matchExpressions: [{ key: 'control-plane', operator: 'In', values: ['controller-manager'] }] },
            topologyKey: 'kubernetes.io/hostname',
          },
          weight: 100,
        }],
      },
    },
    topologySpreadConstraints: [{
      labelSelector: { matchLabels: { 'control-plane': 'controller-manager' } },
      matchLabelKeys: ['pod-template-hash'],
      maxSkew: 1,
      topologyKey: 'topology.kubernetes.io/zone',
      whenUnsatisfiable: 'ScheduleAnyway',
    }],
  });
  expect(containers).toHaveLength(1);
  const { securityContext, args, ...c } = containers[0];
  expect(c).toEqual({
    command: ['/manager'],
    image: 'openkruise/kruise-manager:v1.9.1', // chart 1.9.0-alpha.3: tag v1.9.0-alpha3
    imagePullPolicy: 'Always',
    name: 'manager',
    env: [
      { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      { name: 'WEBHOOK_PORT', value: '9876' },
    ],
    ports: [
      { containerPort: 9876, name: 'webhook-server', protocol: 'TCP' },
      { containerPort: 8080, name: 'metrics', protocol: 'TCP' },
      { containerPort: 8000, name: 'health', protocol: 'TCP' },
    ],
    readinessProbe: { httpGet: { path: 'readyz', port: 8000 } },
    resources: { limits: { cpu: '200m', memory: '512Mi' }, requests: { cpu: '100m', memory: '256Mi' } },
    // chart: no hook; a stopping Pod keeps serving webhooks until kube-proxy has taken it out of the Service
    lifecycle: { preStop: { sleep: { seconds: 5 } } },
  });
  expect(args).toEqual([
    '--enable-leader-election',
    '--metrics-addr=:8080',
    '--health-probe-addr=:8000',
    '--logtostderr=true',
    '--leader-election-namespace=kruise-system',
    '--v=4',
    // chart: ImagePullJobGate=true only; the two delete-protection gates back the CRD and namespace protection labels
    '--feature-gates=DeletionProtectionForCRDCascadingGate=true,ImagePullJobGate=true,ResourcesDeletionProtection=true',
    '--sync-period=0',
  ]);
  // chart: drop [all], add [NET_BIND_SERVICE], allowPrivilegeEscalation false, runAsNonRoot, runAsUser 65534.
  // Stricter here: ALL in the case Pod Security "restricted" checks, no capability added (every port is above 1024), seccomp.
  expect(securityContext).toEqual({
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'] },
    runAsNonRoot: true,
    runAsUser: 65534,
    seccompProfile: { type: 'RuntimeDefault' },
  });
});

test('manager PodDisruptionBudget (not in the chart)', () => {
  expect(find(all, 'PodDisruptionBudget', 'kruise-controller-manager')).toEqual({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { labels: { 'control-plane': 'controller-manager' }, name: 'kruise-controller-manager', namespace: 'kruise-system' },
    spec: { maxUnavailable: 1, selector: { matchLabels: { 'control-plane': 'controller-manager' } } },
  });
});

test('daemon DaemonSet, field by field', () => {
  const ds = find(all, 'DaemonSet', 'kruise-daemon');
  expect(ds.apiVersion).toBe('apps/v1');
  expect(ds.metadata).toEqual({ labels: { 'control-plane': 'daemon' }, name: 'kruise-daemon', namespace: 'kruise-system' });
  const { template, ...spec } = ds.spec;
  expect(spec).toEqual({
    selector: { matchLabels: { 'control-plane': 'daemon' } },
    minReadySeconds: 3,
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%' } },
  });
  expect(template.metadata).toEqual({ labels: { 'control-plane': 'daemon' } });
  const { containers, ...pod } = template.spec;
  expect(pod).toEqual({
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'type', operator: 'NotIn', values: ['virtual-kubelet'] }] }],
        },
      },
    },
    tolerations: [{ operator: 'Exists' }],
    hostNetwork: true,
    dnsPolicy: 'ClusterFirstWithHostNet',
    terminationGracePeriodSeconds: 10,
    serviceAccountName: 'kruise-daemon',
    volumes: [{ hostPath: { path: '/var/run', type: '' }, name: 'runtime-socket' }],
  });
  const { securityContext, ...c } = containers[0];
  expect(c).toEqual({
    command: ['/kruise-daemon'],
    args: [
      '--logtostderr=true',
      '--v=4',
      '--addr=:10221',
      '--feature-gates=DeletionProtectionForCRDCascadingGate=true,ImagePullJobGate=true,ResourcesDeletionProtection=true',
      '--socket-file=',
      '--enable-pprof=true',
      '--pprof-addr=localhost:10222',
    ],
    image: 'openkruise/kruise-manager:v1.9.1',
    imagePullPolicy: 'Always',
    name: 'daemon',
    env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } }],
    livenessProbe: {
      failureThreshold: 3,
      httpGet: { path: '/healthz', port: 10221, scheme: 'HTTP' },
      initialDelaySeconds: 60,
      periodSeconds: 10,
      successThreshold: 1,
      timeoutSeconds: 1,
    },
    resources: { limits: { cpu: '50m', memory: '128Mi' }, requests: { cpu: '0', memory: '0' } },
    volumeMounts: [{ mountPath: '/hostvarrun', name: 'runtime-socket', readOnly: true }],
  });
  // chart: drop [all], add [NET_BIND_SERVICE], allowPrivilegeEscalation false (root: it talks to the runtime socket)
  expect(securityContext).toEqual({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } });
});

test('mutating webhooks: the chart names, paths, order, rules, failure policies and selectors', () => {
  const m = find(all, 'MutatingWebhookConfiguration', 'kruise-mutating-webhook-configuration');
  expect(m.apiVersion).toBe('admissionregistration.k8s.io/v1');
  expect(m.webhooks).toHaveLength(12);
  expect(m.webhooks.map(webhookLine)).toEqual(CHART_1_9_1_MUTATING);
  for (const w of m.webhooks) {
    expect(w.admissionReviewVersions).toEqual(['v1', 'v1beta1']);
    expect(w.clientConfig).toEqual({ service: { name: 'kruise-webhook-service', namespace: 'kruise-system', path: w.clientConfig.service.path } });
    expect(w.sideEffects).toBe('None');
    expect(w.timeoutSeconds).toBe(30);
  }
});

test('validating webhooks: the chart names, paths, order, rules, failure policies and selectors', () => {
  const v = find(all, 'ValidatingWebhookConfiguration', 'kruise-validating-webhook-configuration');
  expect(v.apiVersion).toBe('admissionregistration.k8s.io/v1');
  expect(v.webhooks).toHaveLength(25);
  expect(v.webhooks.map(webhookLine)).toEqual(CHART_1_9_1_VALIDATING);
  for (const w of v.webhooks) {
    expect(w.admissionReviewVersions).toEqual(['v1', 'v1beta1']);
    expect(Object.keys(w.clientConfig)).toEqual(['service']);
    expect(w.clientConfig.service.namespace).toBe('kruise-system');
    expect(w.sideEffects).toBe('None');
    // the chart leaves timeoutSeconds out of vephemeraljobs.kb.io alone (the API server's 10 s); ours is webhookTimeout on every webhook
    expect(w.timeoutSeconds).toBe(30);
  }
});

test('webhook configurations carry the webhook list as their template annotation (the chart writes an empty one)', () => {
  for (const [kind, name] of [['MutatingWebhookConfiguration', 'kruise-mutating-webhook-configuration'], ['ValidatingWebhookConfiguration', 'kruise-validating-webhook-configuration']]) {
    const c = find(all, kind, name);
    expect(Object.keys(c.metadata.annotations)).toEqual(['template']);
    expect(JSON.parse(c.metadata.annotations.template)).toEqual(c.webhooks);
  }
});
