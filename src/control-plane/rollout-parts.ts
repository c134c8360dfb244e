/**
 * The objects of the Kruise Rollouts control plane (the kruise-rollout chart
 * of the release's line: 0.6.2, 0.5.2): CRDs, RBAC, the manager Deployment
 * and its webhook Service and PodDisruptionBudget, the two webhook
 * configurations.
 */
import { ApiObject, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { ComponentRender, renderResources, sortedMap } from './_util';
import { crdObject, modelCrds, withLabels } from './crds';
import { withoutResources } from './rbac';
import { sortKeys } from '../api/crd';
import type { Release } from '../releases/registry';

/** Names the manager looks up or defaults to (fixed in kruise-rollout-manager v0.6.2). */
export const ROLLOUT_NAMES = {
  webhookService: 'kruise-rollout-webhook-service',
  webhookSecret: 'kruise-rollout-webhook-certs',
  mutatingWebhookConfiguration: 'kruise-rollout-mutating-webhook-configuration',
  validatingWebhookConfiguration: 'kruise-rollout-validating-webhook-configuration',
  managerRole: 'kruise-rollout-manager-role',
  managerRoleBinding: 'kruise-rollout-manager-rolebinding',
  leaderElectionRole: 'kruise-rollout-leader-election-role',
  leaderElectionRoleBinding: 'kruise-rollout-leader-election-rolebinding',
};

/** The label the webhooks select workloads by. */
export const WORKLOAD_TYPE_LABEL = 'rollouts.kruise.io/workload-type';

/** Where the manager writes its serving certificates (an emptyDir, so the root filesystem stays read-only). */
export const ROLLOUT_CERT_DIR = '/tmp/kruise-rollout-webhook-certs';

/** The conversion block the manager writes into the Rollout and BatchRelease CRDs, without the caBundle it adds. */
export function rolloutConversion(namespace: string): Record<string, unknown> {
  return {
    strategy: 'Webhook',
    webhook: {
      clientConfig: { service: { name: ROLLOUT_NAMES.webhookService, namespace, path: '/convert', port: 443 } },
      conversionReviewVersions: ['v1', 'v1beta1'],
    },
  };
}

/** The four CRDs of the release, from the API model of its line, with the conversion webhook of the install namespace. */
export function addRolloutCrds(scope: Construct, namespace: string, labels: Record<string, string>, release?: Release): ApiObject[] {
  return modelCrds('rollouts', release).map(crd => {
    const manifest = withLabels(crd, labels);
    if (manifest.spec.conversion) manifest.spec = sortKeys({ ...manifest.spec, conversion: rolloutConversion(namespace) });
    return crdObject(scope, manifest);
  });
}

const RW = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
const STATUS = ['get', 'patch', 'update'];
const WATCH = ['get', 'list', 'patch', 'update', 'watch'];

const rule = (apiGroups: string[], resources: string[], verbs: string[]): k8s.PolicyRule => ({ apiGroups, resources, verbs });

/**
 * The manager's ClusterRole of the default line: the chart's (and the repo's
 * config/rbac/role.yaml) rules, in their order; a release's are these
 * `withoutResources` its manager does not use.
 */
export function rolloutManagerRules(): k8s.PolicyRule[] {
  return [
    rule(['*'], ['events'], ['create', 'patch', 'update']),
    rule(['admissionregistration.k8s.io'], ['mutatingwebhookconfigurations'], WATCH),
    rule(['admissionregistration.k8s.io'], ['validatingwebhookconfigurations'], WATCH),
    rule(['apiextensions.k8s.io'], ['customresourcedefinitions'], WATCH),
    rule(['apps'], ['deployments'], RW),
    rule(['apps'], ['deployments/status'], STATUS),
    rule(['apps'], ['replicasets'], RW),
    rule(['apps'], ['replicasets/status'], STATUS),
    rule(['apps'], ['statefulsets'], RW),
    rule(['apps'], ['statefulsets/status'], STATUS),
    rule(['apps.kruise.io'], ['clonesets'], RW),
    rule(['apps.kruise.io'], ['clonesets/status'], STATUS),
    rule(['apps.kruise.io'], ['daemonsets'], WATCH),
    rule(['apps.kruise.io'], ['daemonsets/status'], STATUS),
    rule(['apps.kruise.io'], ['statefulsets'], RW),
    rule(['apps.kruise.io'], ['statefulsets/status'], STATUS),
    rule(['autoscaling'], ['horizontalpodautoscalers'], WATCH),
    rule([''], ['configmaps'], ['get', 'list', 'watch']),
    rule([''], ['pods'], RW),
    rule([''], ['pods/finalizers'], ['update']),
    rule([''], ['pods/status'], STATUS),
    rule([''], ['services'], RW),
    rule([''], ['services/status'], STATUS),
    rule(['gateway.networking.k8s.io'], ['httproutes'], RW),
    rule(['gateway.networking.k8s.io'], ['httproutes/status'], STATUS),
    rule(['networking.istio.io'], ['destinationrules', 'virtualservices'], WATCH),
    rule(['networking.k8s.io'], ['ingresses'], RW),
    rule(['networking.k8s.io'], ['ingresses/status'], STATUS),
    rule(['rollouts.kruise.io'], ['batchreleases'], RW),
    rule(['rollouts.kruise.io'], ['batchreleases/status'], STATUS),
    rule(['rollouts.kruise.io'], ['rollouthistories'], RW),
    rule(['rollouts.kruise.io'], ['rollouthistories/finalizers'], ['update']),
    rule(['rollouts.kruise.io'], ['rollouthistories/status'], STATUS),
    rule(['rollouts.kruise.io'], ['rollouts'], RW),
    rule(['rollouts.kruise.io'], ['rollouts/finalizers'], ['update']),
    rule(['rollouts.kruise.io'], ['rollouts/status'], STATUS),
    rule(['rollouts.kruise.io'], ['trafficroutings'], ['create', 'get', 'list', 'patch', 'update', 'watch']),
    rule(['rollouts.kruise.io'], ['trafficroutings/finalizers'], ['update']),
    rule(['rollouts.kruise.io'], ['trafficroutings/status'], STATUS),
  ];
}

/** What the RBAC part needs. */
export interface RolloutRbacRender {
  readonly namespace: string;
  readonly serviceAccount: string;
  readonly serviceAccountAnnotations?: Record<string, string>;
  /** Extra ClusterRole rules (custom traffic providers). */
  readonly extraRules: k8s.PolicyRule[];
  /** Resources of the manager role the release's manager does not use (`ControlPlaneFacts.managerRoleLacks`). */
  readonly managerRoleLacks?: readonly string[];
}

/** ServiceAccount, Roles, ClusterRole and bindings, all naming the one ServiceAccount the Pods run as. */
export function addRolloutRbac(scope: Construct, r: RolloutRbacRender): void {
  const subjects = [{ kind: 'ServiceAccount', name: r.serviceAccount, namespace: r.namespace }];
  new k8s.KubeServiceAccount(scope, 'ServiceAccount', {
    metadata: { name: r.serviceAccount, namespace: r.namespace, annotations: sortedMap(r.serviceAccountAnnotations) },
  });
  new k8s.KubeRole(scope, 'ManagerRole', {
    metadata: { name: ROLLOUT_NAMES.managerRole, namespace: r.namespace },
    rules: [rule([''], ['secrets'], RW)],
  });
  new k8s.KubeRole(scope, 'LeaderElectionRole', {
    metadata: { name: ROLLOUT_NAMES.leaderElectionRole, namespace: r.namespace },
    rules: [
      rule([''], ['configmaps'], ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']),
      rule(['coordination.k8s.io'], ['leases'], ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']),
      rule([''], ['events'], ['create', 'patch']),
    ],
  });
  new k8s.KubeClusterRole(scope, 'ManagerClusterRole', {
    metadata: { name: ROLLOUT_NAMES.managerRole },
    rules: [...withoutResources(rolloutManagerRules(), r.managerRoleLacks ?? []), ...r.extraRules],
  });
  new k8s.KubeRoleBinding(scope, 'ManagerRoleBinding', {
    metadata: { name: ROLLOUT_NAMES.managerRoleBinding, namespace: r.namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: ROLLOUT_NAMES.managerRole },
    subjects,
  });
  new k8s.KubeRoleBinding(scope, 'LeaderElectionRoleBinding', {
    metadata: { name: ROLLOUT_NAMES.leaderElectionRoleBinding, namespace: r.namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: ROLLOUT_NAMES.leaderElectionRole },
    subjects,
  });
  new k8s.KubeClusterRoleBinding(scope, 'ManagerClusterRoleBinding', {
    metadata: { name: ROLLOUT_NAMES.managerRoleBinding },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: ROLLOUT_NAMES.managerRole },
    subjects,
  });
}

/** What the manager part needs. */
export interface RolloutManagerRender extends ComponentRender {
  /** The Deployment, ServiceAccount and `control-plane` label value. */
  readonly name: string;
  readonly replicas: number;
  readonly logLevel: number;
  readonly webhookPort: number;
  readonly healthPort: number;
  readonly metricsBindAddress: string;
  readonly partitionPercentLimit?: number;
  readonly resources: kplus.ContainerResources;
  readonly tolerations: k8s.Toleration[];
  readonly nodeSelector?: Record<string, string>;
  readonly priorityClassName?: string;
  readonly podDisruptionBudget: boolean;
}

/** The default manager resources (the chart's). */
export const ROLLOUT_MANAGER_RESOURCES: kplus.ContainerResources = {
  cpu: { request: kplus.Cpu.millis(100), limit: kplus.Cpu.millis(500) },
  memory: { request: Size.mebibytes(256), limit: Size.gibibytes(1) },
};

/** The manager Deployment, its webhook Service and (by default) its PodDisruptionBudget. */
export function addRolloutManager(scope: Construct, r: RolloutManagerRender): void {
  const labels = { 'control-plane': r.name };
  const args = [
    '--leader-elect',
    `--health-probe-bind-address=:${r.healthPort}`,
    `--metrics-bind-address=${r.metricsBindAddress}`,
    `--v=${r.logLevel}`,
  ];
  if (r.featureGates !== '') args.push(`--feature-gates=${r.featureGates}`);
  if (r.partitionPercentLimit !== undefined) args.push(`--partition-percent-limit=${r.partitionPercentLimit}`);
  const probe = (path: string, initialDelaySeconds: number, periodSeconds: number): k8s.Probe => ({
    httpGet: { path, port: k8s.IntOrString.fromNumber(r.healthPort) },
    initialDelaySeconds,
    periodSeconds,
  });
  new k8s.KubeService(scope, 'WebhookService', {
    metadata: { name: ROLLOUT_NAMES.webhookService, namespace: r.namespace },
    spec: {
      ports: [{ port: 443, targetPort: k8s.IntOrString.fromNumber(r.webhookPort) }],
      selector: { ...labels },
    },
  });
  new k8s.KubeDeployment(scope, 'ManagerDeployment', {
    metadata: { labels: { ...labels }, name: r.name, namespace: r.namespace },
    spec: {
      replicas: r.replicas,
      minReadySeconds: 3,
      selector: { matchLabels: { ...labels } },
      strategy: {
        type: 'RollingUpdate',
        rollingUpdate: { maxUnavailable: k8s.IntOrString.fromNumber(0), maxSurge: k8s.IntOrString.fromString('100%') },
      },
      template: {
        metadata: { labels: { ...labels } },
        spec: {
          serviceAccountName: r.name,
          imagePullSecrets: r.imagePullSecrets.length > 0 ? r.imagePullSecrets.map(name => ({ name })) : undefined,
          securityContext: {
            runAsNonRoot: true,
            runAsUser: 65532,
            runAsGroup: 65532,
            seccompProfile: { type: 'RuntimeDefault' },
          },
          containers: [{
            name: 'kruise-rollout',
            command: ['/manager'],
            image: r.image,
            imagePullPolicy: r.imagePullPolicy,
            args,
            env: [
              { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
              { name: 'WEBHOOK_PORT', value: `${r.webhookPort}` },
            ],
            ports: [{ containerPort: r.webhookPort, name: 'webhook-server', protocol: 'TCP' }],
            livenessProbe: probe('/healthz', 15, 20),
            readinessProbe: probe('/readyz', 5, 10),
            resources: renderResources(r.resources),
            securityContext: {
              allowPrivilegeEscalation: false,
              capabilities: { drop: ['ALL'] },
              readOnlyRootFilesystem: true,
            },
            volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
          }],
          volumes: [{ name: 'tmp', emptyDir: {} }],
          affinity: {
            podAntiAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [{
                podAffinityTerm: {
                  labelSelector: { matchExpressions: [{ key: 'control-plane', operator: 'In', values: [r.name] }] },
                  topologyKey: 'kubernetes.io/hostname',
                },
                weight: 100,
              }],
            },
          },
          topologySpreadConstraints: [{
            labelSelector: { matchLabels: { ...labels } },
            matchLabelKeys: ['pod-template-hash'],
            maxSkew: 1,
            topologyKey: 'topology.kubernetes.io/zone',
            whenUnsatisfiable: 'ScheduleAnyway',
          }],
          tolerations: r.tolerations.length > 0 ? [...r.tolerations] : undefined,
          nodeSelector: sortedMap(r.nodeSelector),
          priorityClassName: r.priorityClassName,
        },
      },
    },
  });
  if (r.podDisruptionBudget) {
    new k8s.KubePodDisruptionBudget(scope, 'ManagerPodDisruptionBudget', {
      metadata: { labels: { ...labels }, name: r.name, namespace: r.namespace },
      spec: { maxUnavailable: k8s.IntOrString.fromNumber(1), selector: { matchLabels: { ...labels } } },
    });
  }
}

/** One webhook of a configuration. */
interface RolloutWebhookSpec {
  readonly name: string;
  readonly path: string;
  readonly group: string;
  readonly versions: string[];
  readonly resources: string[];
  readonly operations: string[];
  /** Object selector requirements before the user's. */
  readonly selector: (managerName: string) => k8s.LabelSelectorRequirement[];
  /** Served only by the releases whose line lists it (`ControlPlaneFacts.extraWebhooks`). */
  readonly extra?: boolean;
}

const EXISTS: k8s.LabelSelectorRequirement = { key: WORKLOAD_TYPE_LABEL, operator: 'Exists' };

/**
 * The mutating webhooks of the chart, in its order. kruise-rollout-manager
 * 0.6 has no handler for `mstatefulset.kb.io` and `madvancedstatefulset.kb.io`
 * (it drops them from the live object), so they are installed only for 0.5,
 * whose manager serves them.
 */
export const ROLLOUT_MUTATING_WEBHOOKS: RolloutWebhookSpec[] = [
  { name: 'munifiedworload.kb.io', path: '/mutate-unified-workload', group: '*', versions: ['*'], resources: ['*'], operations: ['CREATE', 'UPDATE'], selector: () => [EXISTS] },
  {
    name: 'mdeployment.kb.io',
    path: '/mutate-apps-v1-deployment',
    group: 'apps',
    versions: ['v1'],
    resources: ['deployments'],
    operations: ['UPDATE'],
    selector: name => [{ key: 'control-plane', operator: 'NotIn', values: [name] }, EXISTS],
  },
  { name: 'mcloneset.kb.io', path: '/mutate-apps-kruise-io-v1alpha1-cloneset', group: 'apps.kruise.io', versions: ['v1alpha1'], resources: ['clonesets'], operations: ['UPDATE'], selector: () => [EXISTS] },
  { name: 'mstatefulset.kb.io', path: '/mutate-apps-v1-statefulset', group: 'apps', versions: ['v1'], resources: ['statefulsets'], operations: ['UPDATE'], selector: () => [EXISTS], extra: true },
  {
    name: 'madvancedstatefulset.kb.io',
    path: '/mutate-apps-kruise-io-statefulset',
    group: 'apps.kruise.io',
    versions: ['v1alpha1', 'v1beta1'],
    resources: ['statefulsets'],
    operations: ['CREATE', 'UPDATE'],
    selector: () => [EXISTS],
    extra: true,
  },
  { name: 'mdaemonset.kb.io', path: '/mutate-apps-kruise-io-v1alpha1-daemonset', group: 'apps.kruise.io', versions: ['v1alpha1'], resources: ['daemonsets'], operations: ['UPDATE'], selector: () => [EXISTS] },
];

/** The validating webhook of Rollouts. */
export const ROLLOUT_VALIDATING_WEBHOOKS: RolloutWebhookSpec[] = [
  { name: 'vrollout.kb.io', path: '/validate-rollouts-kruise-io-rollout', group: 'rollouts.kruise.io', versions: ['v1alpha1', 'v1beta1'], resources: ['rollouts'], operations: ['CREATE', 'UPDATE'], selector: () => [] },
];

/** What the webhook part needs. */
export interface RolloutWebhookRender {
  readonly namespace: string;
  readonly managerName: string;
  /** Requirements added to the object selector of every mutating webhook. */
  readonly objectSelector: k8s.LabelSelectorRequirement[];
  /** The chart's webhooks the release's manager serves beyond the default line's (`ControlPlaneFacts.extraWebhooks`). */
  readonly extraWebhooks?: readonly string[];
}

/**
 * One webhook with every field the API server would default written out
 * (matchPolicy, namespace and object selectors, scope, timeout, port,
 * reinvocation policy). kruise-rollout-manager rebuilds the webhooks from the
 * `template` annotation and updates the object whenever the rebuilt list
 * differs from the live one; with the defaults explicit the two are equal
 * once it has added the caBundle, so it writes once and never again.
 */
function webhook(w: RolloutWebhookSpec, r: RolloutWebhookRender, mutating: boolean): Record<string, unknown> {
  const expressions = [...w.selector(r.managerName), ...(mutating ? r.objectSelector : [])];
  return {
    admissionReviewVersions: ['v1', 'v1beta1'],
    clientConfig: { service: { name: ROLLOUT_NAMES.webhookService, namespace: r.namespace, path: w.path, port: 443 } },
    failurePolicy: 'Fail',
    matchPolicy: 'Equivalent',
    name: w.name,
    namespaceSelector: {},
    objectSelector: expressions.length > 0 ? { matchExpressions: expressions } : {},
    ...(mutating ? { reinvocationPolicy: 'Never' } : {}),
    rules: [{ apiGroups: [w.group], apiVersions: [...w.versions], operations: [...w.operations], resources: [...w.resources], scope: '*' }],
    sideEffects: 'None',
    timeoutSeconds: 10,
  };
}

/** Both webhook configurations, each with the `template` annotation the manager reads its webhooks from. */
export function addRolloutWebhooks(scope: Construct, r: RolloutWebhookRender): void {
  const configuration = (id: string, kind: string, name: string, hooks: Array<Record<string, unknown>>) => new ApiObject(scope, id, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind,
    metadata: { name, annotations: { template: JSON.stringify(hooks.map(h => sortKeys(h))) } },
    webhooks: hooks,
  });
  configuration('MutatingWebhookConfiguration', 'MutatingWebhookConfiguration', ROLLOUT_NAMES.mutatingWebhookConfiguration,
    ROLLOUT_MUTATING_WEBHOOKS.filter(w => served(w, r)).map(w => webhook(w, r, true)));
  configuration('ValidatingWebhookConfiguration', 'ValidatingWebhookConfiguration', ROLLOUT_NAMES.validatingWebhookConfiguration,
    ROLLOUT_VALIDATING_WEBHOOKS.filter(w => served(w, r)).map(w => webhook(w, r, false)));
}

function served(w: RolloutWebhookSpec, r: RolloutWebhookRender): boolean {
  return !w.extra || (r.extraWebhooks ?? []).includes(w.name);
}
