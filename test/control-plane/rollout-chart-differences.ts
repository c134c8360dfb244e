/**
 * Every way our default Kruise Rollouts control plane
 * (`new KruiseRolloutControlPlane(chart, 'rollout')`) differs from the
 * `kruise-rollout` chart 0.6.2 rendered with its default values, declared
 * once: the table "Where we differ from the kruise-rollout chart" of docs/control-planes.md is rendered from
 * this list, and rollout-parity.test.ts fails on a difference no entry
 * declares, or on an entry that no longer occurs.
 *
 * A site names the object (`Kind namespace/name`, `*` any characters) and the
 * field path of the structural diff: lists of objects with a `name` are keyed
 * by it (`containers[kruise-rollout]`), flags by the flag, other lists by index.
 */
import { KruiseRolloutControlPlaneProps } from '../../src';

export interface RolloutDifferenceSite {
  readonly objects: string;
  readonly path: string;
  /** Our value (`undefined`: we leave the field out). */
  readonly ours?: unknown;
  /** The chart's value (`undefined`: the chart leaves it out). */
  readonly chart?: unknown;
  /** Instead of exact values. */
  readonly accepts?: (ours: unknown, chart: unknown) => boolean;
}

export interface RolloutOptionSite {
  readonly props: KruiseRolloutControlPlaneProps;
  readonly objects: string;
  readonly path: string;
  readonly ours: unknown;
}

export interface RolloutChartDifference {
  readonly title: string;
  readonly chart: string;
  readonly ours: string;
  readonly why: string;
  readonly sites?: readonly RolloutDifferenceSite[];
  readonly optionSites?: readonly RolloutOptionSite[];
}

const MANAGER = 'Deployment kruise-rollout/kruise-rollout-controller-manager';
const CONTAINER = 'spec.template.spec.containers[kruise-rollout]';
const WEBHOOKS = '*WebhookConfiguration kruise-rollout-*-webhook-configuration';
const API_DEFAULTS: Record<string, unknown> = {
  matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, reinvocationPolicy: 'Never', timeoutSeconds: 10, port: 443, scope: '*',
};

export const ROLLOUT_CHART_DIFFERENCES: RolloutChartDifference[] = [
  {
    title: 'Webhook port',
    chart: '`rollout.webhook.port` sets the container port and the Service target port only; the manager keeps listening on 9876',
    ours: '`webhookPort` also sets `WEBHOOK_PORT`, the port the manager listens on',
    why: 'with the chart, any other port than 9876 leaves every webhook (failure policy Fail) without an endpoint',
    sites: [{ objects: MANAGER, path: `${CONTAINER}.env[WEBHOOK_PORT]`, ours: { name: 'WEBHOOK_PORT', value: '9876' }, chart: undefined }],
    optionSites: [{ props: { webhookPort: 9443 }, objects: MANAGER, path: `${CONTAINER}.env[WEBHOOK_PORT].value`, ours: '9443' }],
  },
  {
    title: 'Manager name (`rollout.fullname`)',
    chart: 'renames the Deployment and the Pod\'s `serviceAccountName`, but not the ServiceAccount nor the RBAC subjects',
    ours: '`managerName` renames the Deployment, its label, the ServiceAccount and every RBAC subject together',
    why: 'with the chart, a renamed manager runs as a ServiceAccount that does not exist, so its Pods are never created',
    optionSites: [
      { props: { managerName: 'rollouts' }, objects: 'ServiceAccount kruise-rollout/rollouts', path: 'metadata.name', ours: 'rollouts' },
      { props: { managerName: 'rollouts' }, objects: 'ClusterRoleBinding kruise-rollout-manager-rolebinding', path: 'subjects[0].name', ours: 'rollouts' },
    ],
  },
  {
    title: 'ServiceAccount annotations',
    chart: '`serviceAccount.annotations` is declared but no template reads it',
    ours: '`serviceAccountAnnotations` is written onto the ServiceAccount',
    why: 'e.g. IAM roles for service accounts need it',
    optionSites: [{
      props: { serviceAccountAnnotations: { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::1:role/r' } },
      objects: 'ServiceAccount kruise-rollout/kruise-rollout-controller-manager',
      path: 'metadata.annotations',
      ours: { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::1:role/r' },
    }],
  },
  {
    title: 'Mutating webhooks without a handler',
    chart: '`mstatefulset.kb.io` and `madvancedstatefulset.kb.io`',
    ours: 'left out (4 mutating webhooks)',
    why: 'kruise-rollout-manager v0.6.2 serves no such path and removes both from the live object; StatefulSets go through `munifiedworload.kb.io`',
    sites: [
      { objects: 'MutatingWebhookConfiguration kruise-rollout-mutating-webhook-configuration', path: 'webhooks[mstatefulset.kb.io]', ours: undefined },
      { objects: 'MutatingWebhookConfiguration kruise-rollout-mutating-webhook-configuration', path: 'webhooks[madvancedstatefulset.kb.io]', ours: undefined },
    ],
  },
  {
    title: 'Webhook fields the API server defaults',
    chart: 'left out (`matchPolicy`, `namespaceSelector`, `objectSelector` of the Rollout webhook, `reinvocationPolicy`, rule `scope`, `timeoutSeconds`, service `port`)',
    ours: 'written with the API server\'s defaults (`Equivalent`, `{}`, `{}`, `Never`, `*`, 10, 443)',
    why: 'the manager rebuilds the webhooks from its `template` annotation and updates the object while the rebuilt list differs from the live one; with the defaults written they are equal once it has added the caBundle',
    sites: [{
      objects: WEBHOOKS,
      path: '**',
      accepts: (ours, chart) => chart === undefined && Object.entries(API_DEFAULTS).some(([, v]) => JSON.stringify(v) === JSON.stringify(ours)),
    }],
  },
  {
    title: 'Webhook `template` annotation',
    chart: 'none (the manager writes it from the live webhooks at its first start)',
    ours: 'the JSON of the webhooks we ship',
    why: 'the manager reads its webhooks from this annotation and ignores later edits of `webhooks`; written by us, an upgrade that changes a webhook changes the annotation too, and nothing drifts',
    sites: [{ objects: WEBHOOKS, path: 'metadata.annotations', accepts: (ours: any, chart) => chart === undefined && typeof ours?.template === 'string' }],
  },
  {
    title: 'CRD conversion webhook of Rollout and BatchRelease',
    chart: 'service in the install namespace, no port, `conversionReviewVersions: [v1beta1]`',
    ours: 'port 443, `conversionReviewVersions: [v1, v1beta1]`',
    why: 'what the manager writes at start (minus the caBundle it adds), so applying again changes nothing',
    sites: [
      { objects: 'CustomResourceDefinition *.rollouts.kruise.io', path: 'spec.conversion.webhook.clientConfig.service.port', ours: 443, chart: undefined },
      { objects: 'CustomResourceDefinition *.rollouts.kruise.io', path: 'spec.conversion.webhook.conversionReviewVersions', ours: ['v1', 'v1beta1'], chart: ['v1beta1'] },
    ],
  },
  {
    title: '`controller-gen.kubebuilder.io/version` annotation on the CRDs',
    chart: '`v0.11.0`',
    ours: 'none',
    why: 'our CRDs are rendered from this library\'s model of the API (the conformance test holds them to the chart\'s schemas); descriptions are our own too',
    sites: [{ objects: 'CustomResourceDefinition *.rollouts.kruise.io', path: 'metadata.annotations', ours: undefined, chart: { 'controller-gen.kubebuilder.io/version': 'v0.11.0' } }],
  },
  {
    title: 'Security contexts',
    chart: 'none (the image runs as UID 65532)',
    ours: 'non-root 65532, seccomp `RuntimeDefault`, no privilege escalation, all capabilities dropped, read-only root filesystem with an emptyDir at `/tmp` for the certificates',
    why: 'what Pod Security "restricted" checks; the manager writes its serving certificates under `/tmp/kruise-rollout-webhook-certs`',
    sites: [
      { objects: MANAGER, path: 'spec.template.spec.securityContext', ours: { runAsGroup: 65532, runAsNonRoot: true, runAsUser: 65532, seccompProfile: { type: 'RuntimeDefault' } }, chart: undefined },
      { objects: MANAGER, path: `${CONTAINER}.securityContext`, ours: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true }, chart: undefined },
      { objects: MANAGER, path: `${CONTAINER}.volumeMounts`, ours: [{ mountPath: '/tmp', name: 'tmp' }], chart: undefined },
      { objects: MANAGER, path: 'spec.template.spec.volumes', ours: [{ emptyDir: {}, name: 'tmp' }], chart: undefined },
    ],
  },
  {
    title: 'Manager PodDisruptionBudget',
    chart: 'none',
    ours: '`kruise-rollout-controller-manager`, `maxUnavailable: 1`',
    why: 'every webhook has failure policy Fail: with both replicas drained at once, no Rollout and no labelled workload can be created or updated; `podDisruptionBudget: false` leaves it out',
    sites: [{ objects: 'PodDisruptionBudget kruise-rollout/kruise-rollout-controller-manager', path: '', chart: undefined }],
  },
];

/** The docs/control-planes.md table, rendered from the declarations. */
export function rolloutDifferencesTable(): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  return [
    '| | chart 0.6.2 | here | why |',
    '| --- | --- | --- | --- |',
    ...ROLLOUT_CHART_DIFFERENCES.map(d => `| ${[d.title, d.chart, d.ours, d.why].map(cell).join(' | ')} |`),
  ].join('\n');
}
