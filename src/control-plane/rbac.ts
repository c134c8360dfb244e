/**
 * ServiceAccounts, Roles, ClusterRoles and their bindings of kruise-manager
 * and kruise-daemon: the same rules as the openkruise/charts `kruise` chart
 * of the release's line, never wider, with one addition: read access to
 * StorageClasses from 1.8 (see `managerRules`).
 */
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { sortedMap } from './_util';

/** The namespace kruise-daemon reads image pull secrets from (fixed in kruise-manager). */
export const DAEMON_CONFIG_NAMESPACE = 'kruise-daemon-config';
/** Object names, fixed by kruise-manager or by the chart. */
export const NAMES = {
  managerServiceAccount: 'kruise-manager',
  daemonServiceAccount: 'kruise-daemon',
  mutatingWebhookConfiguration: 'kruise-mutating-webhook-configuration',
  validatingWebhookConfiguration: 'kruise-validating-webhook-configuration',
  webhookService: 'kruise-webhook-service',
  webhookSecret: 'kruise-webhook-certs',
};

const RW = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
const STATUS = ['get', 'patch', 'update'];
const READ = ['get', 'list', 'watch'];

function rule(apiGroups: string[], resources: string[], verbs: string[], resourceNames?: string[]): k8s.PolicyRule {
  return { apiGroups, resources, verbs, resourceNames };
}

/** One Kruise kind as the manager role grants it: the object, its finalizers and its status. */
function kruiseKind(group: string, plural: string, verbs = RW, finalizerVerbs = ['update']): k8s.PolicyRule[] {
  return [
    rule([group], [plural], verbs),
    rule([group], [`${plural}/finalizers`], finalizerVerbs),
    rule([group], [`${plural}/status`], STATUS),
  ];
}

/**
 * `rules` without the resources the release's manager does not use
 * (`group|resource`, `ControlPlaneFacts.managerRoleLacks`); a rule left with
 * no resource is dropped.
 */
export function withoutResources(rules: k8s.PolicyRule[], lacks: readonly string[]): k8s.PolicyRule[] {
  if (lacks.length === 0) return rules;
  return rules.flatMap(r => {
    const resources = (r.resources ?? []).filter(res => !(r.apiGroups ?? []).some(g => lacks.includes(`${g}|${res}`)));
    return resources.length === 0 ? [] : [{ ...r, resources }];
  });
}

/**
 * Rules of the kruise-manager-role ClusterRole of the default line (a
 * release's are these `withoutResources` its manager does not use). The 1.8
 * and 1.9 charts grant StorageClasses only with StatefulSetAutoResizePVCGate;
 * the Advanced StatefulSet controller of 1.8 and 1.9 starts a StorageClass
 * informer whatever the gate, so without the grant the manager's list/watch
 * is forbidden every few seconds. Read access is therefore always granted
 * (1.7's controller reads no StorageClasses, and 1.7 gets no grant).
 */
export function managerRules(roleListGroups: string[]): k8s.PolicyRule[] {
  const apps = 'apps.kruise.io';
  return [
    rule([''], ['secrets'], ['create', 'delete', 'get', 'list', 'update', 'watch']),
    rule([...roleListGroups], ['*'], ['list']),
    rule(['*'], ['*/scale'], READ),
    rule(['admissionregistration.k8s.io'], ['mutatingwebhookconfigurations'], READ),
    rule(['admissionregistration.k8s.io'], ['validatingwebhookconfigurations'], READ),
    rule(['apiextensions.k8s.io'], ['customresourcedefinitions'], READ),
    rule(['apps'], ['controllerrevisions'], RW),
    rule(['apps'], ['deployments'], RW),
    rule(['apps'], ['deployments/status'], STATUS),
    rule(['apps'], ['replicasets'], READ),
    rule(['apps'], ['replicasets/status'], ['get']),
    rule(['apps'], ['statefulsets'], RW),
    rule(['apps'], ['statefulsets/status'], STATUS),
    ...kruiseKind(apps, 'advancedcronjobs'),
    ...kruiseKind(apps, 'broadcastjobs'),
    ...kruiseKind(apps, 'clonesets'),
    ...kruiseKind(apps, 'containerrecreaterequests'),
    ...kruiseKind(apps, 'daemonsets'),
    ...kruiseKind(apps, 'ephemeraljobs', ['delete', 'get', 'list', 'patch', 'update', 'watch'], STATUS),
    ...kruiseKind(apps, 'imagelistpulljobs'),
    ...kruiseKind(apps, 'imagepulljobs'),
    ...kruiseKind(apps, 'nodeimages'),
    ...kruiseKind(apps, 'nodepodprobes'),
    ...kruiseKind(apps, 'persistentpodstates'),
    ...kruiseKind(apps, 'podprobemarkers'),
    ...kruiseKind(apps, 'resourcedistributions', READ),
    ...kruiseKind(apps, 'sidecarsets'),
    ...kruiseKind(apps, 'statefulsets'),
    ...kruiseKind(apps, 'uniteddeployments'),
    ...kruiseKind(apps, 'workloadspreads', ['get', 'list', 'patch', 'update', 'watch']),
    rule(['batch'], ['jobs'], RW),
    rule(['batch'], ['jobs/status'], STATUS),
    rule([''], ['configmaps'], RW),
    rule([''], ['events'], RW),
    rule([''], ['namespaces'], READ),
    rule([''], ['nodes'], READ),
    rule([''], ['persistentvolumeclaims'], RW),
    rule([''], ['pods'], RW),
    // chart 1.9.1 (and the release's config/rbac/role.yaml) grant pods/resize beside pods/ephemeralcontainers
    rule([''], ['pods/ephemeralcontainers', 'pods/resize'], STATUS),
    rule([''], ['pods/status'], STATUS),
    ...kruiseKind('policy.kruise.io', 'podunavailablebudgets'),
    rule(['storage.k8s.io'], ['storageclasses'], READ),
  ];
}

/** Rules of the kruise-daemon-role ClusterRole. */
export function daemonRules(): k8s.PolicyRule[] {
  const apps = 'apps.kruise.io';
  return [
    rule([apps], ['nodeimages'], ['get', 'list', 'patch', 'update', 'watch']),
    rule([apps], ['nodeimages/status'], STATUS),
    rule([''], ['events'], ['create', 'update', 'patch']),
    rule([apps], ['containerrecreaterequests'], READ),
    rule([apps], ['containerrecreaterequests/status'], STATUS),
    rule([''], ['pods'], ['get', 'list', 'patch', 'update', 'watch']),
    rule([''], ['pods/status'], STATUS),
    rule([apps], ['nodepodprobes'], READ),
    rule([apps], ['nodepodprobes/status'], STATUS),
  ];
}

/**
 * Rules of the kruise-certs-role ClusterRole (only when kruise-manager writes
 * its own certificates): the webhook configurations, and the CRDs it writes
 * the conversion webhook's CA into, in the chart's order.
 *
 * @param conversionCrds the release's CRDs served through the conversion webhook
 */
export function certsRules(conversionCrds: readonly string[]): k8s.PolicyRule[] {
  const order = ['statefulsets.apps.kruise.io', 'sidecarsets.apps.kruise.io', 'daemonsets.apps.kruise.io'];
  return [
    rule(['admissionregistration.k8s.io'], ['mutatingwebhookconfigurations'], ['patch', 'update'], [NAMES.mutatingWebhookConfiguration]),
    rule(['admissionregistration.k8s.io'], ['validatingwebhookconfigurations'], ['patch', 'update'], [NAMES.validatingWebhookConfiguration]),
    rule(['apiextensions.k8s.io'], ['customresourcedefinitions'], ['update', 'watch'], order.filter(n => conversionCrds.includes(n))),
  ];
}

const VIEW_RESOURCES = [
  'advancedcronjobs', 'advancedcronjobs/status', 'broadcastjobs', 'broadcastjobs/status',
  'clonesets', 'clonesets/scale', 'clonesets/status', 'containerrecreaterequests', 'containerrecreaterequests/status',
  'daemonsets', 'daemonsets/status', 'imagelistpulljobs', 'imagelistpulljobs/status', 'imagepulljobs', 'imagepulljobs/status',
  'nodeimages', 'nodeimages/status', 'nodepodprobes', 'nodepodprobes/status', 'persistentpodstates', 'persistentpodstates/status',
  'podprobemarkers', 'podprobemarkers/status', 'sidecarsets', 'sidecarsets/status',
  'statefulsets', 'statefulsets/scale', 'statefulsets/status', 'uniteddeployments', 'uniteddeployments/scale', 'uniteddeployments/status',
  'workloadspreads', 'workloadspreads/status',
];
const EDIT_RESOURCES = [
  'advancedcronjobs', 'broadcastjobs', 'clonesets', 'clonesets/scale', 'containerrecreaterequests', 'daemonsets',
  'imagelistpulljobs', 'imagepulljobs', 'nodeimages', 'nodepodprobes', 'persistentpodstates', 'podprobemarkers',
  'sidecarsets', 'statefulsets', 'statefulsets/scale', 'uniteddeployments', 'uniteddeployments/scale', 'workloadspreads',
];

/** Options of the RBAC part. */
export interface RbacOptions {
  readonly namespace: string;
  readonly roleListGroups: string[];
  readonly certsRole: boolean;
  readonly serviceAccountAnnotations?: Record<string, string>;
  /** The release's CRDs served through the conversion webhook (`conversionCrds`). */
  readonly conversionCrds: readonly string[];
  /** Resources of the manager role the release's manager does not use (`ControlPlaneFacts.managerRoleLacks`). */
  readonly managerRoleLacks?: readonly string[];
  /** Leave out the aggregated ClusterRoles (the release's chart has none). */
  readonly noAggregateRoles?: boolean;
}

function subject(name: string, namespace: string): k8s.Subject {
  return { kind: 'ServiceAccount', name, namespace };
}

/** Create the ServiceAccounts and every Role/ClusterRole/binding of the chart under `scope`. */
export function addServiceAccounts(scope: Construct, o: RbacOptions): void {
  const annotations = sortedMap(o.serviceAccountAnnotations);
  new k8s.KubeServiceAccount(scope, 'ManagerServiceAccount', {
    metadata: { name: NAMES.managerServiceAccount, namespace: o.namespace, annotations },
  });
  new k8s.KubeServiceAccount(scope, 'DaemonServiceAccount', {
    metadata: { name: NAMES.daemonServiceAccount, namespace: o.namespace, annotations },
  });
}

/** Create every Role/ClusterRole/binding of the chart under `scope`. */
export function addRbac(scope: Construct, o: RbacOptions): void {
  const manager = subject(NAMES.managerServiceAccount, o.namespace);
  const daemon = subject(NAMES.daemonServiceAccount, o.namespace);
  const roleRef = (kind: string, name: string): k8s.RoleRef => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name });

  new k8s.KubeRole(scope, 'LeaderElectionRole', {
    metadata: { name: 'kruise-leader-election-role', namespace: o.namespace },
    rules: [
      rule(['coordination.k8s.io'], ['leases'], ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']),
      rule([''], ['events'], ['create']),
    ],
  });
  new k8s.KubeClusterRole(scope, 'DaemonRole', { metadata: { name: 'kruise-daemon-role' }, rules: daemonRules() });
  new k8s.KubeClusterRole(scope, 'ManagerRole', {
    metadata: { name: 'kruise-manager-role' },
    rules: withoutResources(managerRules(o.roleListGroups), o.managerRoleLacks ?? []),
  });
  new k8s.KubeRoleBinding(scope, 'LeaderElectionRoleBinding', {
    metadata: { name: 'kruise-leader-election-rolebinding', namespace: o.namespace },
    roleRef: roleRef('Role', 'kruise-leader-election-role'),
    subjects: [manager],
  });
  new k8s.KubeClusterRoleBinding(scope, 'ManagerRoleBinding', {
    metadata: { name: 'kruise-manager-rolebinding' },
    roleRef: roleRef('ClusterRole', 'kruise-manager-role'),
    subjects: [manager],
  });
  new k8s.KubeClusterRoleBinding(scope, 'DaemonRoleBinding', {
    metadata: { name: 'kruise-daemon-rolebinding' },
    roleRef: roleRef('ClusterRole', 'kruise-daemon-role'),
    subjects: [daemon],
  });
  new k8s.KubeRole(scope, 'WebhookRole', {
    metadata: { name: 'kruise-webhook-role', namespace: o.namespace },
    rules: [rule([''], ['secrets'], RW)],
  });
  if (o.certsRole) {
    new k8s.KubeClusterRole(scope, 'CertsRole', { metadata: { name: 'kruise-certs-role' }, rules: certsRules(o.conversionCrds) });
    new k8s.KubeClusterRoleBinding(scope, 'CertsRoleBinding', {
      metadata: { name: 'kruise-certs-rolebinding' },
      roleRef: roleRef('ClusterRole', 'kruise-certs-role'),
      subjects: [manager],
    });
  }
  new k8s.KubeRoleBinding(scope, 'WebhookRoleBinding', {
    metadata: { name: 'kruise-webhook-rolebinding', namespace: o.namespace },
    roleRef: roleRef('Role', 'kruise-webhook-role'),
    subjects: [manager],
  });
  new k8s.KubeRole(scope, 'DaemonSecretRole', {
    metadata: { name: 'kruise-daemon-secret-role', namespace: DAEMON_CONFIG_NAMESPACE },
    rules: [rule([''], ['secrets'], READ)],
  });
  new k8s.KubeRoleBinding(scope, 'DaemonSecretRoleBinding', {
    metadata: { name: 'kruise-daemon-secret-rolebinding', namespace: DAEMON_CONFIG_NAMESPACE },
    roleRef: roleRef('Role', 'kruise-daemon-secret-role'),
    subjects: [daemon],
  });
  if (o.noAggregateRoles) return;
  new k8s.KubeClusterRole(scope, 'AggregateView', {
    metadata: { name: 'aggregate-kruise-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
    rules: [rule(['apps.kruise.io'], VIEW_RESOURCES, READ)],
  });
  new k8s.KubeClusterRole(scope, 'AggregateEdit', {
    metadata: { name: 'aggregate-kruise-edit', labels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' } },
    rules: [rule(['apps.kruise.io'], EDIT_RESOURCES, ['create', 'delete', 'deletecollection', 'patch', 'update'])],
  });
  new k8s.KubeClusterRole(scope, 'AggregateAdmin', {
    metadata: { name: 'aggregate-kruise-admin', labels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } },
    rules: [
      rule(['apps.kruise.io'], ['resourcedistributions/status'], READ),
      rule(['apps.kruise.io'], ['resourcedistributions'], ['get', 'list', 'watch', 'create', 'delete', 'deletecollection', 'patch', 'update']),
    ],
  });
}
