/**
 * The openkruise/charts `kruise-rollout` chart 0.6.2 rendered with its
 * default values, written down by hand from the reference pack's inventory
 * (../shared/reference/kruise-rollout-v0.6.2/chart.md §1-§6), object by
 * object and field by field; the four CRDs are the pack's copies with the
 * namespace placeholder filled in. The parity test compares our default
 * output with it.
 */
import { KRUISE_ROLLOUTS } from '../api/upstream';

const NS = 'kruise-rollout';
const FULLNAME = 'kruise-rollout-controller-manager';
const SA = 'kruise-rollout-controller-manager';
const LABELS = { 'control-plane': FULLNAME };
const RW = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
const ST = ['get', 'patch', 'update'];
const W = ['get', 'list', 'patch', 'update', 'watch'];
const r = (apiGroups: string[], resources: string[], verbs: string[]) => ({ apiGroups, resources, verbs });
const subjects = [{ kind: 'ServiceAccount', name: SA, namespace: NS }];

/** chart.md §4.3, row by row. */
export const CHART_CLUSTER_ROLE_RULES = [
  r(['*'], ['events'], ['create', 'patch', 'update']),
  r(['admissionregistration.k8s.io'], ['mutatingwebhookconfigurations'], W),
  r(['admissionregistration.k8s.io'], ['validatingwebhookconfigurations'], W),
  r(['apiextensions.k8s.io'], ['customresourcedefinitions'], W),
  r(['apps'], ['deployments'], RW),
  r(['apps'], ['deployments/status'], ST),
  r(['apps'], ['replicasets'], RW),
  r(['apps'], ['replicasets/status'], ST),
  r(['apps'], ['statefulsets'], RW),
  r(['apps'], ['statefulsets/status'], ST),
  r(['apps.kruise.io'], ['clonesets'], RW),
  r(['apps.kruise.io'], ['clonesets/status'], ST),
  r(['apps.kruise.io'], ['daemonsets'], W),
  r(['apps.kruise.io'], ['daemonsets/status'], ST),
  r(['apps.kruise.io'], ['statefulsets'], RW),
  r(['apps.kruise.io'], ['statefulsets/status'], ST),
  r(['autoscaling'], ['horizontalpodautoscalers'], W),
  r([''], ['configmaps'], ['get', 'list', 'watch']),
  r([''], ['pods'], RW),
  r([''], ['pods/finalizers'], ['update']),
  r([''], ['pods/status'], ST),
  r([''], ['services'], RW),
  r([''], ['services/status'], ST),
  r(['gateway.networking.k8s.io'], ['httproutes'], RW),
  r(['gateway.networking.k8s.io'], ['httproutes/status'], ST),
  r(['networking.istio.io'], ['destinationrules', 'virtualservices'], W),
  r(['networking.k8s.io'], ['ingresses'], RW),
  r(['networking.k8s.io'], ['ingresses/status'], ST),
  r(['rollouts.kruise.io'], ['batchreleases'], RW),
  r(['rollouts.kruise.io'], ['batchreleases/status'], ST),
  r(['rollouts.kruise.io'], ['rollouthistories'], RW),
  r(['rollouts.kruise.io'], ['rollouthistories/finalizers'], ['update']),
  r(['rollouts.kruise.io'], ['rollouthistories/status'], ST),
  r(['rollouts.kruise.io'], ['rollouts'], RW),
  r(['rollouts.kruise.io'], ['rollouts/finalizers'], ['update']),
  r(['rollouts.kruise.io'], ['rollouts/status'], ST),
  r(['rollouts.kruise.io'], ['trafficroutings'], ['create', 'get', 'list', 'patch', 'update', 'watch']),
  r(['rollouts.kruise.io'], ['trafficroutings/finalizers'], ['update']),
  r(['rollouts.kruise.io'], ['trafficroutings/status'], ST),
];

const EXISTS = { key: 'rollouts.kruise.io/workload-type', operator: 'Exists' };

/** chart.md §5: one webhook as rendered (service without port or caBundle; no selectors, timeout, matchPolicy). */
function hook(name: string, path: string, rule: Record<string, unknown>, expressions?: unknown[]) {
  return {
    admissionReviewVersions: ['v1', 'v1beta1'],
    clientConfig: { service: { name: 'kruise-rollout-webhook-service', namespace: NS, path } },
    failurePolicy: 'Fail',
    name,
    ...(expressions ? { objectSelector: { matchExpressions: expressions } } : {}),
    rules: [rule],
    sideEffects: 'None',
  };
}

/** The chart's objects with default values (the Helm-templated CRDs filled in for namespace kruise-rollout). */
export function chartRendering(): any[] {
  const crds = KRUISE_ROLLOUTS.files().map(f => {
    const crd = KRUISE_ROLLOUTS.read(f);
    delete crd.status; // the trailing empty status stanza the API server ignores (chart.md §7)
    return crd;
  });
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS, labels: { ...LABELS } } },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'kruise-rollout-webhook-service', namespace: NS },
      spec: { ports: [{ port: 443, targetPort: 9876 }], selector: { ...LABELS } },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: FULLNAME, namespace: NS, labels: { ...LABELS } },
      spec: {
        replicas: 2,
        minReadySeconds: 3,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '100%' } },
        selector: { matchLabels: { ...LABELS } },
        template: {
          metadata: { labels: { ...LABELS } },
          spec: {
            serviceAccountName: FULLNAME,
            containers: [{
              name: 'kruise-rollout',
              command: ['/manager'],
              image: 'openkruise/kruise-rollout:v0.6.2',
              imagePullPolicy: 'Always',
              args: ['--leader-elect', '--health-probe-bind-address=:8081', '--metrics-bind-address=127.0.0.1:8080', '--v=4', '--feature-gates=AdvancedDeployment=true'],
              env: [{ name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }],
              ports: [{ containerPort: 9876, name: 'webhook-server', protocol: 'TCP' }],
              livenessProbe: { httpGet: { path: '/healthz', port: 8081 }, initialDelaySeconds: 15, periodSeconds: 20 },
              readinessProbe: { httpGet: { path: '/readyz', port: 8081 }, initialDelaySeconds: 5, periodSeconds: 10 },
              resources: { limits: { cpu: '500m', memory: '1Gi' }, requests: { cpu: '100m', memory: '256Mi' } },
            }],
            affinity: {
              podAntiAffinity: {
                preferredDuringSchedulingIgnoredDuringExecution: [{
                  weight: 100,
                  podAffinityTerm: {
                    labelSelector: { matchExpressions: [{ key: 'control-plane', operator: 'In', values: [FULLNAME] }] },
                    topologyKey: 'kubernetes.io/hostname',
                  },
                }],
              },
            },
            // rendered for a Kubernetes 1.27+ cluster (the chart adds matchLabelKeys from 1.27)
            topologySpreadConstraints: [{
              maxSkew: 1,
              topologyKey: 'topology.kubernetes.io/zone',
              whenUnsatisfiable: 'ScheduleAnyway',
              labelSelector: { matchLabels: { ...LABELS } },
              matchLabelKeys: ['pod-template-hash'],
            }],
          },
        },
      },
    },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: SA, namespace: NS } },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'kruise-rollout-manager-role', namespace: NS },
      rules: [r([''], ['secrets'], RW)],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'kruise-rollout-leader-election-role', namespace: NS },
      rules: [
        r([''], ['configmaps'], ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']),
        r(['coordination.k8s.io'], ['leases'], ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']),
        r([''], ['events'], ['create', 'patch']),
      ],
    },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'kruise-rollout-manager-role' }, rules: CHART_CLUSTER_ROLE_RULES },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'kruise-rollout-manager-rolebinding', namespace: NS },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'kruise-rollout-manager-role' },
      subjects,
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'kruise-rollout-leader-election-rolebinding', namespace: NS },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'kruise-rollout-leader-election-role' },
      subjects,
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'kruise-rollout-manager-rolebinding' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'kruise-rollout-manager-role' },
      subjects,
    },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'kruise-rollout-mutating-webhook-configuration' },
      webhooks: [
        hook('munifiedworload.kb.io', '/mutate-unified-workload', { apiGroups: ['*'], apiVersions: ['*'], operations: ['CREATE', 'UPDATE'], resources: ['*'] }, [EXISTS]),
        hook('mdeployment.kb.io', '/mutate-apps-v1-deployment', { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['deployments'] },
          [{ key: 'control-plane', operator: 'NotIn', values: [FULLNAME] }, EXISTS]),
        hook('mcloneset.kb.io', '/mutate-apps-kruise-io-v1alpha1-cloneset', { apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], operations: ['UPDATE'], resources: ['clonesets'] }, [EXISTS]),
        hook('mstatefulset.kb.io', '/mutate-apps-v1-statefulset', { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['statefulsets'] }, [EXISTS]),
        hook('madvancedstatefulset.kb.io', '/mutate-apps-kruise-io-statefulset',
          { apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1', 'v1beta1'], operations: ['CREATE', 'UPDATE'], resources: ['statefulsets'] }, [EXISTS]),
        hook('mdaemonset.kb.io', '/mutate-apps-kruise-io-v1alpha1-daemonset', { apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], operations: ['UPDATE'], resources: ['daemonsets'] }, [EXISTS]),
      ],
    },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'kruise-rollout-validating-webhook-configuration', creationTimestamp: null },
      webhooks: [
        hook('vrollout.kb.io', '/validate-rollouts-kruise-io-rollout', { apiGroups: ['rollouts.kruise.io'], apiVersions: ['v1alpha1', 'v1beta1'], operations: ['CREATE', 'UPDATE'], resources: ['rollouts'] }),
      ],
    },
    ...crds,
  ];
}

/** `Kind namespace/name` of the 16 objects of chart.md §1. */
export const CHART_OBJECTS = [
  'Namespace kruise-rollout',
  'Service kruise-rollout/kruise-rollout-webhook-service',
  'Deployment kruise-rollout/kruise-rollout-controller-manager',
  'ServiceAccount kruise-rollout/kruise-rollout-controller-manager',
  'Role kruise-rollout/kruise-rollout-manager-role',
  'Role kruise-rollout/kruise-rollout-leader-election-role',
  'ClusterRole kruise-rollout-manager-role',
  'RoleBinding kruise-rollout/kruise-rollout-manager-rolebinding',
  'RoleBinding kruise-rollout/kruise-rollout-leader-election-rolebinding',
  'ClusterRoleBinding kruise-rollout-manager-rolebinding',
  'MutatingWebhookConfiguration kruise-rollout-mutating-webhook-configuration',
  'ValidatingWebhookConfiguration kruise-rollout-validating-webhook-configuration',
  'CustomResourceDefinition batchreleases.rollouts.kruise.io',
  'CustomResourceDefinition rollouthistories.rollouts.kruise.io',
  'CustomResourceDefinition rollouts.rollouts.kruise.io',
  'CustomResourceDefinition trafficroutings.rollouts.kruise.io',
];
