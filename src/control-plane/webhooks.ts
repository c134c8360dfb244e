/**
 * The MutatingWebhookConfiguration and ValidatingWebhookConfiguration of
 * kruise-manager.
 *
 * Names, order, rules, failure policies and selectors follow the
 * openkruise/charts `kruise` chart of the release's line (1.9.1 for 1.9),
 * and the names and paths are the ones the release's manager registers
 * (its `+kubebuilder:webhook` markers): 1.9 serves the seven kinds that
 * gained a v1beta1 at paths without the version and names the pull jobs'
 * webhooks `-v1beta1`, 1.7 and 1.8 serve them at v1alpha1 paths under the
 * older names. No caBundle is written: kruise-manager (or cert-manager's CA
 * injector) owns it at runtime.
 */
import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { NAMES } from './rbac';
import { sortKeys } from '../api/crd';

/** The label the pod webhooks exclude: every namespace carrying it is skipped. */
export const CONTROL_PLANE_LABEL = { key: 'control-plane', value: 'openkruise' };
/** The label kruise-manager reads for delete protection. */
export const DELETE_PROTECTION_LABEL = 'policy.kruise.io/delete-protection';

/**
 * The namespaceSelector terms AKS's Admissions Enforcer puts on every webhook
 * that lacks the `admissions.enforcer/disabled` annotation (openkruise/charts
 * issue #155): namespaces labelled `control-plane: "true"` and those AKS
 * manages are skipped. Written by us (`aksIntegration`), the enforcer finds
 * them there and changes nothing.
 */
export const AKS_EXCLUDED = {
  controlPlane: 'true',
  managedBy: { key: 'kubernetes.azure.com/managedby', operator: 'NotIn', values: ['aks'] } as k8s.LabelSelectorRequirement,
};

/** Which selectors a webhook carries. */
enum Selectors {
  /** None (Kruise kinds). */
  NONE,
  /** Pod webhooks: skip the control-plane namespace and kube-system. */
  POD,
  /** Delete-protection webhooks: only objects with the label, never in kube-system. */
  PROTECTION,
}

/** One webhook of a configuration. */
interface WebhookSpec {
  readonly name: string;
  readonly path: string;
  readonly group: string;
  readonly versions: string[];
  readonly operations: string[];
  readonly resources: string[];
  readonly failurePolicy: 'Fail' | 'Ignore';
  readonly selectors: Selectors;
  /** The kind (lower case) of a Kruise kind's webhook. */
  readonly kind?: string;
  /** Emitted only when this returns true. */
  readonly when?: (c: WebhookConditions) => boolean;
}

/** What decides which webhooks are emitted. */
export interface WebhookConditions {
  /** PodWebhook is on: the manager serves /mutate-pod and /validate-pod. */
  readonly podWebhook: boolean;
  /** ResourcesDeletionProtection is on: the manager serves /validate-service and /validate-ingress. */
  readonly deletionProtection: boolean;
  /** Add the EphemeralJob validating webhook (charts 1.9.0 and later do; the 1.7 and 1.8 lines install no EphemeralJob CRD). */
  readonly ephemeralJobs: boolean;
}

const CU = ['CREATE', 'UPDATE'];
const CUD = ['CREATE', 'UPDATE', 'DELETE'];
const A1 = ['v1alpha1'];
const A1B1 = ['v1alpha1', 'v1beta1'];
const APPS = 'apps.kruise.io';

function kruise(prefix: 'm' | 'v', kind: string, path: string, versions: string[], operations = CU, name = `${prefix}${kind}.kb.io`): WebhookSpec {
  const verb = prefix === 'm' ? 'mutate' : 'validate';
  return {
    name,
    path: `/${verb}-${path}`,
    group: APPS,
    versions,
    operations,
    resources: [`${kind}s`],
    failurePolicy: 'Fail',
    selectors: Selectors.NONE,
    kind,
  };
}

const podWebhook = (c: WebhookConditions) => c.podWebhook;

/** The mutating webhooks, in the chart's order. */
export const MUTATING_WEBHOOKS: WebhookSpec[] = [
  {
    name: 'mpod.kb.io',
    path: '/mutate-pod',
    group: '',
    versions: ['v1'],
    operations: ['CREATE'],
    resources: ['pods'],
    failurePolicy: 'Fail',
    selectors: Selectors.POD,
    when: podWebhook,
  },
  kruise('m', 'advancedcronjob', 'apps-kruise-io-advancedcronjob', A1B1),
  kruise('m', 'broadcastjob', 'apps-kruise-io-broadcastjob', A1B1),
  kruise('m', 'cloneset', 'apps-kruise-io-v1alpha1-cloneset', A1),
  kruise('m', 'containerrecreaterequest', 'apps-kruise-io-v1alpha1-containerrecreaterequest', A1),
  kruise('m', 'daemonset', 'apps-kruise-io-daemonset', A1B1),
  kruise('m', 'imagelistpulljob', 'apps-kruise-io-imagelistpulljob', A1B1, CU, 'mimagelistpulljob-v1beta1.kb.io'),
  kruise('m', 'imagepulljob', 'apps-kruise-io-imagepulljob', A1B1, CU, 'mimagepulljob-v1beta1.kb.io'),
  kruise('m', 'nodeimage', 'apps-kruise-io-nodeimage', A1B1),
  kruise('m', 'sidecarset', 'apps-kruise-io-sidecarset', A1B1),
  kruise('m', 'statefulset', 'apps-kruise-io-statefulset', A1B1),
  kruise('m', 'uniteddeployment', 'apps-kruise-io-v1alpha1-uniteddeployment', A1),
];

function protection(
  name: string, path: string, group: string, versions: string[], resource: string, when?: (c: WebhookConditions) => boolean,
): WebhookSpec {
  return {
    name,
    path,
    group,
    versions,
    operations: ['DELETE'],
    resources: [resource],
    failurePolicy: 'Ignore',
    selectors: Selectors.PROTECTION,
    when,
  };
}

const protectionGate = (c: WebhookConditions) => c.deletionProtection;

/** The validating webhooks, in the chart's order. */
export const VALIDATING_WEBHOOKS: WebhookSpec[] = [
  protection('vbuiltindeployment.kb.io', '/validate-apps-deployment', 'apps', ['v1'], 'deployments'),
  protection('vbuiltinreplicaset.kb.io', '/validate-apps-replicaset', 'apps', ['v1'], 'replicasets'),
  protection('vbuiltinstatefulset.kb.io', '/validate-apps-statefulset', 'apps', ['v1'], 'statefulsets'),
  protection('vcustomresourcedefinition.kb.io', '/validate-customresourcedefinition', 'apiextensions.k8s.io', ['v1', 'v1beta1'], 'customresourcedefinitions'),
  protection('vnamespace.kb.io', '/validate-namespace', '', ['v1'], 'namespaces'),
  protection('vingress.kb.io', '/validate-ingress', 'networking.k8s.io', ['v1', 'v1beta1'], 'ingresses', protectionGate),
  protection('vservice.kb.io', '/validate-service', '', ['v1'], 'services', protectionGate),
  {
    name: 'vpod.kb.io',
    path: '/validate-pod',
    group: '',
    versions: ['v1'],
    operations: ['UPDATE', 'DELETE'],
    resources: ['pods'],
    failurePolicy: 'Fail',
    selectors: Selectors.POD,
    when: podWebhook,
  },
  {
    name: 'vpodeviction.kb.io',
    path: '/validate-pod',
    group: '',
    versions: ['v1'],
    operations: ['CREATE'],
    resources: ['pods/eviction'],
    failurePolicy: 'Fail',
    selectors: Selectors.POD,
    when: podWebhook,
  },
  kruise('v', 'resourcedistribution', 'apps-kruise-io-v1alpha1-resourcedistribution', A1),
  kruise('v', 'workloadspread', 'apps-kruise-io-v1alpha1-workloadspread', A1),
  kruise('v', 'advancedcronjob', 'apps-kruise-io-advancedcronjob', A1B1),
  kruise('v', 'broadcastjob', 'apps-kruise-io-broadcastjob', A1B1),
  kruise('v', 'cloneset', 'apps-kruise-io-v1alpha1-cloneset', A1, CUD),
  kruise('v', 'daemonset', 'apps-kruise-io-daemonset', A1B1),
  kruise('v', 'imagelistpulljob', 'apps-kruise-io-imagelistpulljob', A1B1, CU, 'vimagelistpulljob-v1beta1.kb.io'),
  kruise('v', 'imagepulljob', 'apps-kruise-io-imagepulljob', A1B1, CU, 'vimagepulljob-v1beta1.kb.io'),
  kruise('v', 'nodeimage', 'apps-kruise-io-nodeimage', A1B1),
  kruise('v', 'persistentpodstate', 'apps-kruise-io-persistentpodstate', A1),
  kruise('v', 'podprobemarker', 'apps-kruise-io-podprobemarker', A1),
  {
    ...kruise('v', 'podunavailablebudget', 'policy-kruise-io-podunavailablebudget', A1),
    group: 'policy.kruise.io',
  },
  kruise('v', 'sidecarset', 'apps-kruise-io-sidecarset', A1B1),
  kruise('v', 'statefulset', 'apps-kruise-io-statefulset', A1B1, CUD),
  {
    ...kruise('v', 'ephemeraljob', 'apps-kruise-io-v1alpha1-ephemeraljob', A1, CU, 'vephemeraljobs.kb.io'),
    when: c => c.ephemeralJobs,
  },
  kruise('v', 'uniteddeployment', 'apps-kruise-io-v1alpha1-uniteddeployment', A1, CUD),
];

const NOT_KUBE_SYSTEM: k8s.LabelSelectorRequirement = { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] };

/** The selectors of a webhook; with `aks`, AKS's terms where the chart's `aksIntegration` puts them. */
function selectors(s: Selectors, aks: boolean): { namespaceSelector?: k8s.LabelSelector; objectSelector?: k8s.LabelSelector } {
  const aksTerms: k8s.LabelSelectorRequirement[] = aks
    ? [{ key: CONTROL_PLANE_LABEL.key, operator: 'NotIn', values: [AKS_EXCLUDED.controlPlane] }, AKS_EXCLUDED.managedBy]
    : [];
  switch (s) {
    case Selectors.POD:
      // the chart adds AKS's control-plane value to the term that already excludes the install namespace
      return {
        namespaceSelector: {
          matchExpressions: [
            { key: CONTROL_PLANE_LABEL.key, operator: 'NotIn', values: aks ? [CONTROL_PLANE_LABEL.value, AKS_EXCLUDED.controlPlane] : [CONTROL_PLANE_LABEL.value] },
            ...(aks ? [AKS_EXCLUDED.managedBy] : []),
            NOT_KUBE_SYSTEM,
          ],
        },
      };
    case Selectors.PROTECTION:
      return {
        objectSelector: { matchExpressions: [{ key: DELETE_PROTECTION_LABEL, operator: 'Exists' }] },
        namespaceSelector: { matchExpressions: [NOT_KUBE_SYSTEM, ...aksTerms] },
      };
    default:
      return aks ? { namespaceSelector: { matchExpressions: aksTerms } } : {};
  }
}

/** Options of the webhook configurations. */
export interface WebhookConfigurationOptions {
  readonly namespace: string;
  readonly timeoutSeconds: number;
  readonly conditions: WebhookConditions;
  /** Annotations of both configurations (certificate injection). */
  readonly annotations?: Record<string, string>;
  /**
   * Kinds (lower case) the release's manager serves at their v1alpha1 path,
   * for v1alpha1 only (`ControlPlaneFacts.versionedWebhookPaths`).
   */
  readonly versionedPaths?: readonly string[];
  /** Write the namespaceSelector terms of AKS's Admissions Enforcer (`KruiseControlPlaneProps.aksIntegration`). */
  readonly aksIntegration?: boolean;
}

/**
 * A webhook as the release's manager serves it: a kind of `versionedPaths` at
 * its v1alpha1 path, for v1alpha1 only, under the name it had before the kind
 * gained a v1beta1 (`mimagepulljob.kb.io` for 1.9's `mimagepulljob-v1beta1.kb.io`).
 */
function served(w: WebhookSpec, versionedPaths: readonly string[]): WebhookSpec {
  if (w.kind === undefined || !versionedPaths.includes(w.kind)) return w;
  const path = w.path.replace(/^\/(mutate|validate)-apps-kruise-io-/, '/$1-apps-kruise-io-v1alpha1-');
  return { ...w, path, versions: ['v1alpha1'], name: w.name.replace('-v1beta1.kb.io', '.kb.io') };
}

function webhook(w: WebhookSpec, o: WebhookConfigurationOptions): k8s.ValidatingWebhook {
  return {
    admissionReviewVersions: ['v1', 'v1beta1'],
    clientConfig: { service: { name: NAMES.webhookService, namespace: o.namespace, path: w.path } },
    failurePolicy: w.failurePolicy,
    name: w.name,
    ...selectors(w.selectors, o.aksIntegration ?? false),
    rules: [{ apiGroups: [w.group], apiVersions: [...w.versions], operations: [...w.operations], resources: [...w.resources] }],
    sideEffects: 'None',
    timeoutSeconds: o.timeoutSeconds,
  };
}

/**
 * The webhooks of one configuration, as kruise-manager should serve them.
 * @internal
 */
export function _webhooks(specs: WebhookSpec[], o: WebhookConfigurationOptions): k8s.ValidatingWebhook[] {
  return specs.filter(w => !w.when || w.when(o.conditions)).map(w => webhook(served(w, o.versionedPaths ?? []), o));
}

/**
 * The `template` annotation kruise-manager reads the webhook list from.
 *
 * kruise-manager copies the webhooks into this annotation the first time it
 * sees a configuration without it, and from then on rebuilds the webhooks
 * from the annotation (adding the caBundle). Writing it ourselves, as the
 * exact JSON of the webhooks we ship, keeps it ours: the manager never
 * rewrites it, and an upgrade that changes a webhook changes the annotation
 * too, so the manager picks the new list up.
 */
function templateAnnotation(hooks: Array<Record<string, any> | undefined>): string {
  return JSON.stringify(hooks.map(h => sortKeys(h)));
}

/** Create both webhook configurations under `scope`. */
export function addWebhookConfigurations(scope: Construct, o: WebhookConfigurationOptions): ApiObject[] {
  const mutating = _webhooks(MUTATING_WEBHOOKS, o) as k8s.MutatingWebhook[];
  const validating = _webhooks(VALIDATING_WEBHOOKS, o);
  const annotations = (hooks: Array<Record<string, any> | undefined>) => {
    const out: Record<string, string> = { ...(o.annotations ?? {}) };
    out.template = templateAnnotation(hooks);
    return sortKeys(out) as Record<string, string>;
  };
  const m = new k8s.KubeMutatingWebhookConfiguration(scope, 'MutatingWebhookConfiguration', {
    metadata: { name: NAMES.mutatingWebhookConfiguration, annotations: annotations(mutating.map(k8s.toJson_MutatingWebhook)) },
    webhooks: mutating,
  });
  const v = new k8s.KubeValidatingWebhookConfiguration(scope, 'ValidatingWebhookConfiguration', {
    metadata: { name: NAMES.validatingWebhookConfiguration, annotations: annotations(validating.map(k8s.toJson_ValidatingWebhook)) },
    webhooks: validating,
  });
  return [m, v];
}
