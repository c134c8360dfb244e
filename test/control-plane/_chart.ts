/**
 * Facts of the openkruise/charts `kruise` chart 1.9.1 rendered with its
 * default values (namespace kruise-system), written down by hand for the
 * parity tests: object list, RBAC rules, webhooks. The webhooks and the RBAC
 * rules are read from chart 1.9.1's own templates (chart-parity.test.ts holds
 * these lines to them); the object list from 1.9.0-alpha.3's rendering, whose
 * manager template chart 1.9.1 keeps (../shared/reference/kruise-chart-1.9.1/README.md).
 * The webhooks of the older layout (charts 1.7.5, 1.8.3, 1.9.0-alpha.3:
 * v1alpha1 paths, no EphemeralJob webhook) are kept for the 1.7 and 1.8 lines.
 */
import { Chart, Testing } from 'cdk8s';
import { KruiseControlPlane, KruiseControlPlaneProps } from '../../src';

/** Synthesize a control plane in a fresh app; returns every manifest. */
export function synth(props?: KruiseControlPlaneProps): any[] {
  const app = Testing.app();
  const chart = new Chart(app, 'kruise');
  new KruiseControlPlane(chart, 'ControlPlane', props);
  return Testing.synth(chart);
}

/** Find one manifest by kind and name. */
export function find(manifests: any[], kind: string, name: string): any {
  const hit = manifests.filter(m => m.kind === kind && m.metadata.name === name);
  if (hit.length !== 1) throw new Error(`expected one ${kind} ${name}, found ${hit.length}`);
  return hit[0];
}

/** `kind/namespace/name` of every object the chart renders with default values (the pre-delete hook left out). */
export const CHART_OBJECTS = [
  'Namespace//kruise-system',
  'Namespace//kruise-daemon-config',
  ...[
    'advancedcronjobs', 'broadcastjobs', 'clonesets', 'containerrecreaterequests', 'daemonsets', 'ephemeraljobs',
    'imagelistpulljobs', 'imagepulljobs', 'nodeimages', 'nodepodprobes', 'persistentpodstates', 'podprobemarkers',
    'resourcedistributions', 'sidecarsets', 'statefulsets', 'uniteddeployments', 'workloadspreads',
  ].map(p => `CustomResourceDefinition//${p}.apps.kruise.io`),
  'CustomResourceDefinition//podunavailablebudgets.policy.kruise.io',
  'Service/kruise-system/kruise-webhook-service',
  'Secret/kruise-system/kruise-webhook-certs',
  'Deployment/kruise-system/kruise-controller-manager',
  'ServiceAccount/kruise-system/kruise-manager',
  'ServiceAccount/kruise-system/kruise-daemon',
  'DaemonSet/kruise-system/kruise-daemon',
  'Role/kruise-system/kruise-leader-election-role',
  'ClusterRole//kruise-daemon-role',
  'ClusterRole//kruise-manager-role',
  'RoleBinding/kruise-system/kruise-leader-election-rolebinding',
  'ClusterRoleBinding//kruise-manager-rolebinding',
  'ClusterRoleBinding//kruise-daemon-rolebinding',
  'Role/kruise-system/kruise-webhook-role',
  'ClusterRole//kruise-certs-role',
  'ClusterRoleBinding//kruise-certs-rolebinding',
  'RoleBinding/kruise-system/kruise-webhook-rolebinding',
  'Role/kruise-daemon-config/kruise-daemon-secret-role',
  'RoleBinding/kruise-daemon-config/kruise-daemon-secret-rolebinding',
  'ClusterRole//aggregate-kruise-view',
  'ClusterRole//aggregate-kruise-edit',
  'ClusterRole//aggregate-kruise-admin',
  'MutatingWebhookConfiguration//kruise-mutating-webhook-configuration',
  'ValidatingWebhookConfiguration//kruise-validating-webhook-configuration',
];

const RW = 'create,delete,get,list,patch,update,watch';
const ST = 'get,patch,update';
const RO = 'get,list,watch';

/** One rule per line: `groups | resources | verbs [| resourceNames]`, as the chart writes them. */
export const CHART_RULES: Record<string, string[]> = {
  'Role/kruise-leader-election-role': [
    'coordination.k8s.io | leases | get,list,watch,create,update,patch,delete',
    ' | events | create',
  ],
  'ClusterRole/kruise-daemon-role': [
    'apps.kruise.io | nodeimages | get,list,patch,update,watch',
    `apps.kruise.io | nodeimages/status | ${ST}`,
    ' | events | create,update,patch',
    `apps.kruise.io | containerrecreaterequests | ${RO}`,
    `apps.kruise.io | containerrecreaterequests/status | ${ST}`,
    ' | pods | get,list,patch,update,watch',
    ` | pods/status | ${ST}`,
    `apps.kruise.io | nodepodprobes | ${RO}`,
    `apps.kruise.io | nodepodprobes/status | ${ST}`,
  ],
  'ClusterRole/kruise-manager-role': [
    ' | secrets | create,delete,get,list,update,watch',
    '* | * | list',
    `* | */scale | ${RO}`,
    `admissionregistration.k8s.io | mutatingwebhookconfigurations | ${RO}`,
    `admissionregistration.k8s.io | validatingwebhookconfigurations | ${RO}`,
    `apiextensions.k8s.io | customresourcedefinitions | ${RO}`,
    `apps | controllerrevisions | ${RW}`,
    `apps | deployments | ${RW}`,
    `apps | deployments/status | ${ST}`,
    `apps | replicasets | ${RO}`,
    'apps | replicasets/status | get',
    `apps | statefulsets | ${RW}`,
    `apps | statefulsets/status | ${ST}`,
    ...['advancedcronjobs', 'broadcastjobs', 'clonesets', 'containerrecreaterequests', 'daemonsets'].flatMap(p => [
      `apps.kruise.io | ${p} | ${RW}`, `apps.kruise.io | ${p}/finalizers | update`, `apps.kruise.io | ${p}/status | ${ST}`,
    ]),
    'apps.kruise.io | ephemeraljobs | delete,get,list,patch,update,watch',
    `apps.kruise.io | ephemeraljobs/finalizers | ${ST}`,
    `apps.kruise.io | ephemeraljobs/status | ${ST}`,
    ...['imagelistpulljobs', 'imagepulljobs', 'nodeimages', 'nodepodprobes', 'persistentpodstates', 'podprobemarkers'].flatMap(p => [
      `apps.kruise.io | ${p} | ${RW}`, `apps.kruise.io | ${p}/finalizers | update`, `apps.kruise.io | ${p}/status | ${ST}`,
    ]),
    `apps.kruise.io | resourcedistributions | ${RO}`,
    'apps.kruise.io | resourcedistributions/finalizers | update',
    `apps.kruise.io | resourcedistributions/status | ${ST}`,
    ...['sidecarsets', 'statefulsets', 'uniteddeployments'].flatMap(p => [
      `apps.kruise.io | ${p} | ${RW}`, `apps.kruise.io | ${p}/finalizers | update`, `apps.kruise.io | ${p}/status | ${ST}`,
    ]),
    'apps.kruise.io | workloadspreads | get,list,patch,update,watch',
    'apps.kruise.io | workloadspreads/finalizers | update',
    `apps.kruise.io | workloadspreads/status | ${ST}`,
    `batch | jobs | ${RW}`,
    `batch | jobs/status | ${ST}`,
    ` | configmaps | ${RW}`,
    ` | events | ${RW}`,
    ` | namespaces | ${RO}`,
    ` | nodes | ${RO}`,
    ` | persistentvolumeclaims | ${RW}`,
    ` | pods | ${RW}`,
    ` | pods/ephemeralcontainers,pods/resize | ${ST}`,
    ` | pods/status | ${ST}`,
    `policy.kruise.io | podunavailablebudgets | ${RW}`,
    'policy.kruise.io | podunavailablebudgets/finalizers | update',
    `policy.kruise.io | podunavailablebudgets/status | ${ST}`,
  ],
  'Role/kruise-webhook-role': [` | secrets | ${RW}`],
  'ClusterRole/kruise-certs-role': [
    'admissionregistration.k8s.io | mutatingwebhookconfigurations | patch,update | kruise-mutating-webhook-configuration',
    'admissionregistration.k8s.io | validatingwebhookconfigurations | patch,update | kruise-validating-webhook-configuration',
    'apiextensions.k8s.io | customresourcedefinitions | update,watch | statefulsets.apps.kruise.io,sidecarsets.apps.kruise.io,daemonsets.apps.kruise.io',
  ],
  'Role/kruise-daemon-secret-role': [` | secrets | ${RO}`],
  'ClusterRole/aggregate-kruise-view': [
    'apps.kruise.io | advancedcronjobs,advancedcronjobs/status,broadcastjobs,broadcastjobs/status,clonesets,clonesets/scale,clonesets/status,'
    + 'containerrecreaterequests,containerrecreaterequests/status,daemonsets,daemonsets/status,imagelistpulljobs,imagelistpulljobs/status,'
    + 'imagepulljobs,imagepulljobs/status,nodeimages,nodeimages/status,nodepodprobes,nodepodprobes/status,persistentpodstates,'
    + 'persistentpodstates/status,podprobemarkers,podprobemarkers/status,sidecarsets,sidecarsets/status,statefulsets,statefulsets/scale,'
    + `statefulsets/status,uniteddeployments,uniteddeployments/scale,uniteddeployments/status,workloadspreads,workloadspreads/status | ${RO}`,
  ],
  'ClusterRole/aggregate-kruise-edit': [
    'apps.kruise.io | advancedcronjobs,broadcastjobs,clonesets,clonesets/scale,containerrecreaterequests,daemonsets,imagelistpulljobs,'
    + 'imagepulljobs,nodeimages,nodepodprobes,persistentpodstates,podprobemarkers,sidecarsets,statefulsets,statefulsets/scale,'
    + 'uniteddeployments,uniteddeployments/scale,workloadspreads | create,delete,deletecollection,patch,update',
  ],
  'ClusterRole/aggregate-kruise-admin': [
    `apps.kruise.io | resourcedistributions/status | ${RO}`,
    'apps.kruise.io | resourcedistributions | get,list,watch,create,delete,deletecollection,patch,update',
  ],
};

/** A rule of a synthesized Role/ClusterRole in the `CHART_RULES` notation. */
export function ruleLine(r: any): string {
  const parts = [r.apiGroups.join(','), r.resources.join(','), r.verbs.join(',')];
  if (r.resourceNames) parts.push(r.resourceNames.join(','));
  return parts.join(' | ');
}

/** Bindings of the chart: `kind/name -> roleRef kind/name -> subject SA`. */
export const CHART_BINDINGS = [
  'RoleBinding/kruise-leader-election-rolebinding -> Role/kruise-leader-election-role -> kruise-manager',
  'ClusterRoleBinding/kruise-manager-rolebinding -> ClusterRole/kruise-manager-role -> kruise-manager',
  'ClusterRoleBinding/kruise-daemon-rolebinding -> ClusterRole/kruise-daemon-role -> kruise-daemon',
  'ClusterRoleBinding/kruise-certs-rolebinding -> ClusterRole/kruise-certs-role -> kruise-manager',
  'RoleBinding/kruise-webhook-rolebinding -> Role/kruise-webhook-role -> kruise-manager',
  'RoleBinding/kruise-daemon-secret-rolebinding -> Role/kruise-daemon-secret-role -> kruise-daemon',
];

/**
 * The webhooks of charts 1.7.5, 1.8.3 and 1.9.0-alpha.3, in order: `name | path | group | versions | operations | resources | failurePolicy | selectors`
 * (selectors: - none, pod = control-plane NotIn openkruise + not kube-system, protect = label Exists + not kube-system).
 */
export const CHART_MUTATING = [
  'mpod.kb.io | /mutate-pod |  | v1 | CREATE | pods | Fail | pod',
  'madvancedcronjob.kb.io | /mutate-apps-kruise-io-v1alpha1-advancedcronjob | apps.kruise.io | v1alpha1 | CREATE,UPDATE | advancedcronjobs | Fail | -',
  'mbroadcastjob.kb.io | /mutate-apps-kruise-io-v1alpha1-broadcastjob | apps.kruise.io | v1alpha1 | CREATE,UPDATE | broadcastjobs | Fail | -',
  'mcloneset.kb.io | /mutate-apps-kruise-io-v1alpha1-cloneset | apps.kruise.io | v1alpha1 | CREATE,UPDATE | clonesets | Fail | -',
  'mcontainerrecreaterequest.kb.io | /mutate-apps-kruise-io-v1alpha1-containerrecreaterequest | apps.kruise.io | v1alpha1 | CREATE,UPDATE | containerrecreaterequests | Fail | -',
  'mdaemonset.kb.io | /mutate-apps-kruise-io-v1alpha1-daemonset | apps.kruise.io | v1alpha1 | CREATE,UPDATE | daemonsets | Fail | -',
  'mimagelistpulljob.kb.io | /mutate-apps-kruise-io-v1alpha1-imagelistpulljob | apps.kruise.io | v1alpha1 | CREATE,UPDATE | imagelistpulljobs | Fail | -',
  'mimagepulljob.kb.io | /mutate-apps-kruise-io-v1alpha1-imagepulljob | apps.kruise.io | v1alpha1 | CREATE,UPDATE | imagepulljobs | Fail | -',
  'mnodeimage.kb.io | /mutate-apps-kruise-io-v1alpha1-nodeimage | apps.kruise.io | v1alpha1 | CREATE,UPDATE | nodeimages | Fail | -',
  'msidecarset.kb.io | /mutate-apps-kruise-io-v1alpha1-sidecarset | apps.kruise.io | v1alpha1 | CREATE,UPDATE | sidecarsets | Fail | -',
  'mstatefulset.kb.io | /mutate-apps-kruise-io-statefulset | apps.kruise.io | v1alpha1,v1beta1 | CREATE,UPDATE | statefulsets | Fail | -',
  'muniteddeployment.kb.io | /mutate-apps-kruise-io-v1alpha1-uniteddeployment | apps.kruise.io | v1alpha1 | CREATE,UPDATE | uniteddeployments | Fail | -',
];
export const CHART_VALIDATING = [
  'vbuiltindeployment.kb.io | /validate-apps-deployment | apps | v1 | DELETE | deployments | Ignore | protect',
  'vbuiltinreplicaset.kb.io | /validate-apps-replicaset | apps | v1 | DELETE | replicasets | Ignore | protect',
  'vbuiltinstatefulset.kb.io | /validate-apps-statefulset | apps | v1 | DELETE | statefulsets | Ignore | protect',
  'vcustomresourcedefinition.kb.io | /validate-customresourcedefinition | apiextensions.k8s.io | v1,v1beta1 | DELETE | customresourcedefinitions | Ignore | protect',
  'vnamespace.kb.io | /validate-namespace |  | v1 | DELETE | namespaces | Ignore | protect',
  'vingress.kb.io | /validate-ingress | networking.k8s.io | v1,v1beta1 | DELETE | ingresses | Ignore | protect',
  'vservice.kb.io | /validate-service |  | v1 | DELETE | services | Ignore | protect',
  'vpod.kb.io | /validate-pod |  | v1 | UPDATE,DELETE | pods | Fail | pod',
  'vpodeviction.kb.io | /validate-pod |  | v1 | CREATE | pods/eviction | Fail | pod',
  'vresourcedistribution.kb.io | /validate-apps-kruise-io-v1alpha1-resourcedistribution | apps.kruise.io | v1alpha1 | CREATE,UPDATE | resourcedistributions | Fail | -',
  'vworkloadspread.kb.io | /validate-apps-kruise-io-v1alpha1-workloadspread | apps.kruise.io | v1alpha1 | CREATE,UPDATE | workloadspreads | Fail | -',
  'vadvancedcronjob.kb.io | /validate-apps-kruise-io-v1alpha1-advancedcronjob | apps.kruise.io | v1alpha1 | CREATE,UPDATE | advancedcronjobs | Fail | -',
  'vbroadcastjob.kb.io | /validate-apps-kruise-io-v1alpha1-broadcastjob | apps.kruise.io | v1alpha1 | CREATE,UPDATE | broadcastjobs | Fail | -',
  'vcloneset.kb.io | /validate-apps-kruise-io-v1alpha1-cloneset | apps.kruise.io | v1alpha1 | CREATE,UPDATE,DELETE | clonesets | Fail | -',
  'vdaemonset.kb.io | /validate-apps-kruise-io-v1alpha1-daemonset | apps.kruise.io | v1alpha1 | CREATE,UPDATE | daemonsets | Fail | -',
  'vimagelistpulljob.kb.io | /validate-apps-kruise-io-v1alpha1-imagelistpulljob | apps.kruise.io | v1alpha1 | CREATE,UPDATE | imagelistpulljobs | Fail | -',
  'vimagepulljob.kb.io | /validate-apps-kruise-io-v1alpha1-imagepulljob | apps.kruise.io | v1alpha1 | CREATE,UPDATE | imagepulljobs | Fail | -',
  'vnodeimage.kb.io | /validate-apps-kruise-io-v1alpha1-nodeimage | apps.kruise.io | v1alpha1 | CREATE,UPDATE | nodeimages | Fail | -',
  'vpersistentpodstate.kb.io | /validate-apps-kruise-io-persistentpodstate | apps.kruise.io | v1alpha1 | CREATE,UPDATE | persistentpodstates | Fail | -',
  'vpodprobemarker.kb.io | /validate-apps-kruise-io-podprobemarker | apps.kruise.io | v1alpha1 | CREATE,UPDATE | podprobemarkers | Fail | -',
  'vpodunavailablebudget.kb.io | /validate-policy-kruise-io-podunavailablebudget | policy.kruise.io | v1alpha1 | CREATE,UPDATE | podunavailablebudgets | Fail | -',
  'vsidecarset.kb.io | /validate-apps-kruise-io-v1alpha1-sidecarset | apps.kruise.io | v1alpha1 | CREATE,UPDATE | sidecarsets | Fail | -',
  'vstatefulset.kb.io | /validate-apps-kruise-io-statefulset | apps.kruise.io | v1alpha1,v1beta1 | CREATE,UPDATE,DELETE | statefulsets | Fail | -',
  'vuniteddeployment.kb.io | /validate-apps-kruise-io-v1alpha1-uniteddeployment | apps.kruise.io | v1alpha1 | CREATE,UPDATE,DELETE | uniteddeployments | Fail | -',
];

/** What chart 1.9.1 changed in a webhook line of the older layout: the seven kinds at paths without the version, for v1alpha1 and v1beta1; the pull jobs renamed. */
function chart191(line: string): string {
  const parts = line.split(' | ');
  const m = /^\/(mutate|validate)-apps-kruise-io-v1alpha1-(advancedcronjob|broadcastjob|daemonset|imagelistpulljob|imagepulljob|nodeimage|sidecarset)$/.exec(parts[1]);
  if (!m) return line;
  parts[1] = `/${m[1]}-apps-kruise-io-${m[2]}`;
  parts[3] = 'v1alpha1,v1beta1';
  if (m[2].endsWith('pulljob')) parts[0] = parts[0].replace('.kb.io', '-v1beta1.kb.io');
  return parts.join(' | ');
}

/** The webhooks of chart 1.9.1 (12 mutating). */
export const CHART_1_9_1_MUTATING = CHART_MUTATING.map(chart191);
/** The webhooks of chart 1.9.1 (25 validating: the EphemeralJob webhook is new, before the UnitedDeployment one). */
export const CHART_1_9_1_VALIDATING = [
  ...CHART_VALIDATING.slice(0, -1).map(chart191),
  'vephemeraljobs.kb.io | /validate-apps-kruise-io-v1alpha1-ephemeraljob | apps.kruise.io | v1alpha1 | CREATE,UPDATE | ephemeraljobs | Fail | -',
  ...CHART_VALIDATING.slice(-1),
];

/** A synthesized webhook in the `CHART_MUTATING` notation. */
export function webhookLine(w: any): string {
  const r = w.rules[0];
  let sel = '-';
  const nsExprs = JSON.stringify(w.namespaceSelector?.matchExpressions ?? []);
  const notKubeSystem = JSON.stringify({ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] });
  if (w.objectSelector) {
    if (JSON.stringify(w.objectSelector) === JSON.stringify({ matchExpressions: [{ key: 'policy.kruise.io/delete-protection', operator: 'Exists' }] })
      && nsExprs === `[${notKubeSystem}]`) sel = 'protect';
    else sel = 'other';
  } else if (w.namespaceSelector) {
    sel = nsExprs === `[${JSON.stringify({ key: 'control-plane', operator: 'NotIn', values: ['openkruise'] })},${notKubeSystem}]` ? 'pod' : 'other';
  }
  return [w.name, w.clientConfig.service.path, r.apiGroups.join(','), r.apiVersions.join(','), r.operations.join(','), r.resources.join(','), w.failurePolicy, sel].join(' | ');
}
