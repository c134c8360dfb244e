/**
 * Every way our default control plane (`new KruiseControlPlane(chart, 'kruise')`)
 * differs from the openkruise/charts `kruise` chart 1.9.1 rendered with its
 * default values (as far as its files could be had: chart-parity.test.ts), declared once. This list is the source of truth for the
 * table "Where we differ from the kruise chart, on purpose" of docs/control-planes.md: chart-parity.test.ts
 * renders the table from it and compares, and fails on a difference of the
 * output that no entry declares, or on a declared one that no longer occurs.
 *
 * Notation of a site:
 * - `objects`: `Kind namespace/name` (or `Kind name` when cluster-scoped); `*` matches any characters.
 * - `path`: the field path the structural diff reports, e.g.
 *   `spec.template.spec.containers[manager].image`. Lists of objects with a `name` are keyed by it
 *   (`[manager]`), command-line flags by the flag (`args[--feature-gates]`), other lists by index; a list of
 *   scalars is one value. In a pattern `*` matches within one segment, `[*]` any key, `**` any run of
 *   characters. `''` is the whole object (present on one side only).
 */
import { KruiseControlPlaneProps, DeletionProtection } from '../../src';

/** One place where the outputs differ. */
export interface DifferenceSite {
  readonly objects: string | readonly string[];
  readonly path: string;
  /** Our value, when it is the point of the entry (`undefined`: we leave the field out). */
  readonly ours?: unknown;
  /** The chart's value, likewise. */
  readonly chart?: unknown;
  /** Instead of exact values: whether a difference at this site is the declared one. */
  readonly accepts?: (ours: unknown, chart: unknown, ourObject: any) => boolean;
  /** How many differences must match this site (default: at least one). */
  readonly count?: number;
}

/**
 * A difference that the default output does not show because it depends on a value: checked on our
 * output synthesized with `props` (the chart side is its documented behaviour).
 */
export interface OptionSite {
  readonly props: KruiseControlPlaneProps;
  readonly objects: string;
  readonly path: string;
  /** Our value at `path` with `props` (`undefined`: absent). */
  readonly ours: unknown;
}

export interface ChartDifference {
  /** Short title: the first cell of the docs table row. */
  readonly title: string;
  /** What the chart renders (docs wording). */
  readonly chart: string;
  /** What we render (docs wording). */
  readonly ours: string;
  /** Why, for users. */
  readonly why: string;
  /** Where the default outputs differ; at least one site or one option site. */
  readonly sites?: readonly DifferenceSite[];
  readonly optionSites?: readonly OptionSite[];
}

const MANAGER = 'Deployment kruise-system/kruise-controller-manager';
const DAEMON = 'DaemonSet kruise-system/kruise-daemon';
const WEBHOOK_CONFIGS = ['MutatingWebhookConfiguration kruise-mutating-webhook-configuration', 'ValidatingWebhookConfiguration kruise-validating-webhook-configuration'];
const CRDS = [
  'advancedcronjobs', 'broadcastjobs', 'clonesets', 'containerrecreaterequests', 'daemonsets', 'ephemeraljobs', 'imagelistpulljobs',
  'imagepulljobs', 'nodeimages', 'nodepodprobes', 'persistentpodstates', 'podprobemarkers', 'resourcedistributions', 'sidecarsets',
  'statefulsets', 'uniteddeployments', 'workloadspreads',
].map(p => `CustomResourceDefinition ${p}.apps.kruise.io`).concat('CustomResourceDefinition podunavailablebudgets.policy.kruise.io');
const PROTECTION = { 'policy.kruise.io/delete-protection': 'Cascading' };
const isText = (v: unknown) => v === undefined || typeof v === 'string';

export const CHART_DIFFERENCES: readonly ChartDifference[] = [
  {
    title: 'Conversion webhook of the daemonsets, sidecarsets and statefulsets CRDs',
    chart: 'daemonsets and sidecarsets point at `webhook-service` in namespace `system` until the manager rewrites them; no port',
    ours: 'the install namespace\'s `kruise-webhook-service`, port 443',
    why: 'what kruise-manager writes (minus the CA bundle, which it adds), so applying again changes nothing; 443 is the API server\'s default',
    sites: [
      {
        objects: ['CustomResourceDefinition daemonsets.apps.kruise.io', 'CustomResourceDefinition sidecarsets.apps.kruise.io'],
        path: 'spec.conversion.webhook.clientConfig.service.name',
        ours: 'kruise-webhook-service',
        chart: 'webhook-service',
        count: 2,
      },
      {
        objects: ['CustomResourceDefinition daemonsets.apps.kruise.io', 'CustomResourceDefinition sidecarsets.apps.kruise.io'],
        path: 'spec.conversion.webhook.clientConfig.service.namespace',
        ours: 'kruise-system',
        chart: 'system',
        count: 2,
      },
      { objects: 'CustomResourceDefinition *', path: 'spec.conversion.webhook.clientConfig.service.port', ours: 443, chart: undefined, count: 3 },
    ],
  },
  {
    title: 'Webhook `template` annotation',
    chart: '`""` (reset on every upgrade, then rewritten by the manager)',
    ours: 'the JSON of the webhooks we ship',
    why: 'the manager reads it and never rewrites it, so nothing drifts and upgrades take effect',
    sites: [{
      objects: WEBHOOK_CONFIGS,
      path: 'metadata.annotations.template',
      chart: '',
      accepts: (ours, chart, obj) => chart === '' && typeof ours === 'string' && JSON.stringify(JSON.parse(ours)) === JSON.stringify(obj.webhooks),
      count: 2,
    }],
  },
  {
    title: 'Timeout of the EphemeralJob webhook',
    chart: 'none, so the API server\'s default of 10 s',
    ours: '`webhookTimeout` (30 s), as on every other webhook',
    why: 'the chart leaves `timeoutSeconds` out of this one webhook (`vephemeraljobs.kb.io`, new in chart 1.9.0); `webhookTimeout` is the timeout of every webhook',
    sites: [{ objects: WEBHOOK_CONFIGS[1], path: 'webhooks[vephemeraljobs.kb.io].timeoutSeconds', ours: 30, chart: undefined, count: 1 }],
  },
  {
    title: '`vservice`/`vingress` webhooks',
    chart: 'always',
    ours: 'only when `ResourcesDeletionProtection` is on (as it is by default)',
    why: 'the manager serves them only then, and removes them otherwise',
    optionSites: [
      {
        props: { crdDeletionProtection: DeletionProtection.NONE, namespaceDeletionProtection: DeletionProtection.NONE },
        objects: 'ValidatingWebhookConfiguration kruise-validating-webhook-configuration',
        path: 'webhooks[vservice.kb.io]',
        ours: undefined,
      },
      {
        props: { crdDeletionProtection: DeletionProtection.NONE, namespaceDeletionProtection: DeletionProtection.NONE },
        objects: 'ValidatingWebhookConfiguration kruise-validating-webhook-configuration',
        path: 'webhooks[vingress.kb.io]',
        ours: undefined,
      },
    ],
  },
  {
    title: 'Security contexts',
    chart: 'drop `all`, add `NET_BIND_SERVICE`',
    ours: 'drop `ALL`, seccomp `RuntimeDefault`, `NET_BIND_SERVICE` only for a port below 1024',
    why: 'what Pod Security "restricted" checks (it is case-sensitive); the daemon stays root because it talks to the container runtime socket',
    sites: [MANAGER, DAEMON].flatMap(o => [
      { objects: o, path: 'spec.template.spec.containers[*].securityContext.capabilities.drop', ours: ['ALL'], chart: ['all'] },
      { objects: o, path: 'spec.template.spec.containers[*].securityContext.capabilities.add', ours: undefined, chart: ['NET_BIND_SERVICE'] },
      { objects: o, path: 'spec.template.spec.containers[*].securityContext.seccompProfile', ours: { type: 'RuntimeDefault' }, chart: undefined },
    ]),
  },
  {
    title: 'Pre-delete Helm hook',
    chart: 'a Job, with its ServiceAccount, ClusterRole and ClusterRoleBinding, that blocks uninstall while CloneSets, StatefulSets or DaemonSets exist',
    ours: 'none',
    why: 'only Helm runs Helm hooks, and this output is applied without Helm; the delete-protection labels (next row) keep the same workloads '
      + 'from being deleted with their CRDs',
    sites: [
      'ServiceAccount kruise-system/kruise-helm-hook', 'ClusterRole kruise-helm-hook-role', 'ClusterRoleBinding kruise-helm-hook-rolebinding',
      'Job kruise-system/kruise-finalizer',
    ].map(o => ({ objects: o, path: '', ours: undefined })),
  },
  {
    title: 'Delete-protection label on the install namespace and the CRDs',
    chart: 'none',
    ours: '`policy.kruise.io/delete-protection: Cascading`',
    why: 'uninstall safety without Helm hooks (see below): kruise-manager refuses to delete a CRD while objects of it exist, and the namespace '
      + 'while it has running Pods; `crdDeletionProtection` / `namespaceDeletionProtection` change or remove it',
    sites: [
      { objects: 'Namespace kruise-system', path: 'metadata.labels.policy.kruise.io/delete-protection', ours: 'Cascading', chart: undefined },
      { objects: 'CustomResourceDefinition *', path: 'metadata.labels', ours: PROTECTION, chart: undefined, count: 18 },
    ],
  },
  {
    title: 'Feature gates',
    chart: '`ImagePullJobGate=true`',
    ours: '`ImagePullJobGate=true`, plus `ResourcesDeletionProtection=true` and `DeletionProtectionForCRDCascadingGate=true`',
    why: 'kruise-manager enforces the delete-protection labels only with these two gates on',
    sites: [MANAGER, DAEMON].map(o => ({
      objects: o,
      path: 'spec.template.spec.containers[*].args[--feature-gates]',
      ours: '--feature-gates=DeletionProtectionForCRDCascadingGate=true,ImagePullJobGate=true,ResourcesDeletionProtection=true',
      chart: '--feature-gates=ImagePullJobGate=true',
    })),
  },
  {
    title: 'Manager PodDisruptionBudget',
    chart: 'none',
    ours: '`kruise-controller-manager`, `maxUnavailable: 1`',
    why: 'a node drain or cluster upgrade never evicts both manager replicas at once, so the webhooks (failure policy `Fail` for pods) keep '
      + 'answering; `manager.podDisruptionBudget: false` leaves it out',
    sites: [{ objects: 'PodDisruptionBudget kruise-system/kruise-controller-manager', path: '', chart: undefined }],
  },
  {
    title: 'Manager `preStop` hook',
    chart: 'none',
    ours: 'sleep 5 s',
    why: 'a manager Pod being deleted keeps serving webhooks until kube-proxy has stopped sending it new connections, so a Pod created while '
      + 'the managers roll (an upgrade, a takeover) is not sent to one that has exited; the sleep action needs Kubernetes 1.30 or newer, '
      + '`manager.drainDelay` sets it (`Duration.seconds(0)`: none)',
    sites: [{ objects: MANAGER, path: 'spec.template.spec.containers[manager].lifecycle', ours: { preStop: { sleep: { seconds: 5 } } }, chart: undefined }],
  },
  {
    title: '`daemon.log.level`',
    chart: 'ignored (always `--v=4`)',
    ours: 'honoured (`daemon.logLevel`)',
    why: 'the chart\'s template does not read the value',
    optionSites: [{ props: { daemon: { logLevel: 2 } }, objects: DAEMON, path: 'spec.template.spec.containers[daemon].args[--v]', ours: '--v=2' }],
  },
  {
    title: 'StorageClasses in `kruise-manager-role`',
    chart: 'get/list/watch only with `StatefulSetAutoResizePVCGate`',
    ours: 'always',
    why: 'the v1.9.0 Advanced StatefulSet controller watches StorageClasses whatever the gate; without the grant the manager logs a '
      + '"forbidden" list/watch every few seconds',
    sites: [{
      objects: 'ClusterRole kruise-manager-role',
      path: 'rules[*]',
      ours: { apiGroups: ['storage.k8s.io'], resources: ['storageclasses'], verbs: ['get', 'list', 'watch'] },
      chart: undefined,
    }],
  },
  {
    title: 'Label on the `kruise-daemon-config` namespace',
    chart: 'none',
    ours: '`app.kubernetes.io/part-of: openkruise`',
    why: 'a field for server-side apply to own, so applying again is a no-op (applied with its name only, the namespace is rewritten every time)',
    sites: [{ objects: 'Namespace kruise-daemon-config', path: 'metadata.labels', ours: { 'app.kubernetes.io/part-of': 'openkruise' }, chart: undefined }],
  },
  {
    title: '`type` of the `kruise-webhook-certs` Secret',
    chart: 'left out',
    ours: '`Opaque`, the API server\'s default',
    why: 'a field for server-side apply to own, so applying again is a no-op; the certificate data stays kruise-manager\'s',
    sites: [{ objects: 'Secret kruise-system/kruise-webhook-certs', path: 'type', ours: 'Opaque', chart: undefined }],
  },
  {
    title: 'Annotation on the `kruise-webhook-certs` Secret',
    chart: 'none',
    ours: '`kustomize.toolkit.fluxcd.io/ssa: IfNotPresent`',
    why: 'kruise-manager writes the Secret by replacing it whole, which drops the labels Flux puts on every object; with this annotation Flux creates the Secret and never re-applies it, so no reconciliation fights kruise-manager over it (the cluster tier\'s `nodes/0-0-flux`)',
    sites: [{ objects: 'Secret kruise-system/kruise-webhook-certs', path: 'metadata.annotations', ours: { 'kustomize.toolkit.fluxcd.io/ssa': 'IfNotPresent' }, chart: undefined }],
  },
  {
    title: '`controller-gen.kubebuilder.io/version` annotation on the CRDs',
    chart: '`v0.17.3`',
    ours: 'none',
    why: 'our CRDs are rendered from this library\'s model of the OpenKruise API, not by controller-gen; the annotation is informational only',
    sites: [{ objects: 'CustomResourceDefinition *', path: 'metadata.annotations', ours: undefined, chart: { 'controller-gen.kubebuilder.io/version': 'v0.17.3' }, count: 18 }],
  },
  {
    title: 'Descriptions in the CRDs',
    chart: 'the Go doc comments of the OpenKruise API',
    ours: 'descriptions written for this library, on fewer fields',
    why: 'they are documentation only (`kubectl explain`, printer column help): validation is unchanged',
    // one site per CRD, so that each CRD's descriptions are declared on their own
    sites: CRDS.map(o => ({ objects: o, path: 'spec.versions[*].**.description', accepts: (ours: unknown, chart: unknown) => isText(ours) && isText(chart) })),
  },
  {
    title: 'NodeImage `spec.images{}.pullSecrets[].mode` (v1beta1)',
    chart: 'absent: the chart\'s CRD (1.9.0-alpha.3\'s; chart 1.9.1\'s could not be had) is older than the v1.9.0 release',
    ours: 'present, as in the v1.9.0 release CRD',
    why: 'our CRD schemas follow the v1.9.0 release, which the v1.9.0 manager and daemon expect; with the chart\'s CRD the API server strips the field',
    sites: [{
      objects: 'CustomResourceDefinition nodeimages.apps.kruise.io',
      path: 'spec.versions[v1beta1].schema.openAPIV3Schema.properties.spec.properties.images.additionalProperties.properties.pullSecrets.items.properties.mode',
      accepts: (ours, chart) => chart === undefined && (ours as any)?.type === 'string',
    }],
  },
];

/** The OpenKruise lines whose control plane is compared with the chart of the line. */
export type KruiseLine = '1.7' | '1.8' | '1.9';

/** The chart each line's control plane is matched to (the line's `controlPlane.chart`). */
export const LINE_CHART: Readonly<Record<KruiseLine, string>> = { 1.9: '1.9.1', 1.8: '1.8.3', 1.7: '1.7.5' };

const byTitle = (title: string) => {
  const d = CHART_DIFFERENCES.find(x => x.title === title);
  if (!d) throw new Error(`no difference titled ${title}`);
  return d;
};

/**
 * Every way the control plane of an older line (`release: '1.8'`, `'1.7'`)
 * differs from the kruise chart of that line (1.8.3, 1.7.5) rendered with its
 * default values: the image (chart 1.9.1 pins the release we install, these
 * charts do not), then the 1.9 list, less what is 1.9's own (its EphemeralJob
 * webhook, its conversion webhooks of daemonsets and sidecarsets, its
 * NodeImage field), with the line's CRD count and annotations. The charts of
 * the lines have the same templates but for the CRDs, the image tag, RBAC and
 * 1.9's webhooks.
 */
const REWRITTEN = [
  'Timeout of the EphemeralJob webhook',
  'NodeImage `spec.images{}.pullSecrets[].mode` (v1beta1)', 'StorageClasses in `kruise-manager-role`',
  'Conversion webhook of the daemonsets, sidecarsets and statefulsets CRDs', '`vservice`/`vingress` webhooks',
  'Delete-protection label on the install namespace and the CRDs', 'Feature gates', '`controller-gen.kubebuilder.io/version` annotation on the CRDs',
  'Descriptions in the CRDs',
];

function olderLine(line: '1.7' | '1.8'): readonly ChartDifference[] {
  const crds = CRDS.filter(c => !c.includes('ephemeraljobs'));
  const release = line === '1.8' ? '1.8.4' : '1.7.4';
  const chartTag = line === '1.8' ? 'v1.8.3' : 'v1.7.5';
  const out: ChartDifference[] = [{
    title: 'Image tag',
    chart: `\`openkruise/kruise-manager:${chartTag}\``,
    ours: `\`openkruise/kruise-manager:v${release}\``,
    why: line === '1.8'
      ? 'the newest 1.8 release, whose CRDs and webhooks the 1.8 model is read from (there is no chart 1.8.4; its CRDs are the same)'
      : 'the image tag v1.7.5 is not 1.7 code but the commit of 1.8.3 (1.8\'s gates and webhooks beside 1.7\'s CRDs); v1.7.4 is the last 1.7 release',
    sites: [MANAGER, DAEMON].map(o => ({
      objects: o,
      path: 'spec.template.spec.containers[*].image',
      ours: `openkruise/kruise-manager:v${release}`,
      chart: `openkruise/kruise-manager:${chartTag}`,
    })),
  }];
  for (const d of CHART_DIFFERENCES) {
    switch (d.title) {
      case 'Timeout of the EphemeralJob webhook':
      case 'NodeImage `spec.images{}.pullSecrets[].mode` (v1beta1)':
        break;
      case 'StorageClasses in `kruise-manager-role`':
        // 1.7's Advanced StatefulSet controller reads no StorageClasses, and its chart grants none
        if (line === '1.8') out.push({ ...d, why: d.why.replace('v1.9.0', 'v1.8.4') });
        break;
      case 'Conversion webhook of the daemonsets, sidecarsets and statefulsets CRDs':
        out.push({
          title: 'Conversion webhook of the statefulsets CRD',
          chart: 'no port',
          ours: 'port 443',
          why: 'what kruise-manager writes (minus the CA bundle, which it adds), so applying again changes nothing; 443 is the API server\'s default',
          sites: [{ objects: 'CustomResourceDefinition statefulsets.apps.kruise.io', path: 'spec.conversion.webhook.clientConfig.service.port', ours: 443, chart: undefined, count: 1 }],
        });
        break;
      case '`vservice`/`vingress` webhooks':
        if (line === '1.8') {
          out.push(d);
        } else {
          const off = {
            crdDeletionProtection: DeletionProtection.NONE,
            namespaceDeletionProtection: DeletionProtection.NONE,
            featureGates: { ResourcesDeletionProtection: false },
          };
          out.push({
            ...d,
            ours: 'only when `ResourcesDeletionProtection` is on (1.7 turns it on by default)',
            optionSites: d.optionSites!.map(o => ({ ...o, props: off })),
          });
        }
        break;
      case 'Delete-protection label on the install namespace and the CRDs':
        out.push({ ...d, sites: d.sites!.map(x => (x.count === 18 ? { ...x, count: 17 } : x)) });
        break;
      case 'Feature gates':
        out.push(line === '1.8' ? d : { ...d, why: `${d.why} (1.7 has \`ResourcesDeletionProtection\` on by default; it is written out all the same)` });
        break;
      case '`controller-gen.kubebuilder.io/version` annotation on the CRDs':
        out.push({
          ...d,
          chart: '`v0.14.0`',
          sites: [{ objects: 'CustomResourceDefinition *', path: 'metadata.annotations', ours: undefined, chart: { 'controller-gen.kubebuilder.io/version': 'v0.14.0' }, count: 17 }],
        });
        break;
      case 'Descriptions in the CRDs':
        out.push({ ...d, sites: crds.map(o => ({ objects: o, path: 'spec.versions[*].**.description', accepts: (ours: unknown, chart: unknown) => isText(ours) && isText(chart) })) });
        break;
      default:
        out.push(d);
    }
  }
  // the 1.9 entries this function rewrites must exist, or a renamed one would pass through unchanged
  for (const t of REWRITTEN) byTitle(t);
  return out;
}

/** The differences of a line's control plane from that line's chart. */
export function chartDifferences(line: KruiseLine): readonly ChartDifference[] {
  return line === '1.9' ? CHART_DIFFERENCES : olderLine(line);
}

/** The docs/control-planes.md table of a line, rendered from `chartDifferences(line)`. */
export function differencesTable(line: KruiseLine = '1.9'): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  return [
    `| | chart ${LINE_CHART[line]} | here | why |`,
    '| --- | --- | --- | --- |',
    ...chartDifferences(line).map(d => `| ${[d.title, d.chart, d.ours, d.why].map(cell).join(' | ')} |`),
  ].join('\n');
}
