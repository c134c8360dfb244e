/**
 * `KruiseRolloutControlPlane`: a Kruise Rollouts release (0.5 or 0.6) installed from a cdk8s app.
 */
import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { k8s } from 'cdk8s-plus-28';
import { Construct, IConstruct } from 'constructs';
import { _installedRelease } from './_release-image';
import { KruiseControlPlane } from './control-plane';
import { _needsOpenKruise, _orderDeploy } from './deploy-order';
import {
  ROLLOUT_MANAGER_RESOURCES, addRolloutCrds, addRolloutManager, addRolloutRbac, addRolloutWebhooks,
} from './rollout-parts';
import { workloadRefOf } from '../admission/rollout';
import { groupOf, ownerOf } from '../fleet/objects';
import { gateDefaults, parseRelease, Release } from '../releases/registry';
import { _declareRelease } from '../releases/target';
import { dns1123LabelProblems, dns1123SubdomainProblems, labelValueProblems, qualifiedNameProblems } from '../validation/names';
import { KruiseValidation } from '../validation/register';
import { _renderForChecks } from '../validation/render';
import { _constructLine, fieldError } from '../validation/report';
import { DEFAULT_PARTITION_PERCENT_LIMIT, _registerRolloutManager } from '../validation/rollout-settings';

/**
 * The names of the Kruise Rollouts v0.6.2 feature gates, for the
 * `featureGates` map of `KruiseRolloutControlPlane`.
 */
export class KruiseRolloutFeatureGate {
  /**
   * Release Deployments in batches in place (no extra canary Deployment). Alpha,
   * off in the manager, on in the chart (and here).
   */
  public static readonly ADVANCED_DEPLOYMENT = 'AdvancedDeployment';
  /** Record a RolloutHistory object per release. Alpha, default off. */
  public static readonly ROLLOUT_HISTORY = 'RolloutHistory';
  /** The canary Service also selects the `patchPodTemplateMetadata` labels. Alpha, default off. */
  public static readonly APPEND_POD_SELECTOR = 'AppendPodSelector';

  private constructor() {}
}

/** Properties of `KruiseRolloutControlPlane`. */
export interface KruiseRolloutControlPlaneProps {
  /**
   * The Kruise Rollouts release to install: a line (`"0.5"`, its newest
   * release) or a release of it (`"0.5.3"`, `"v0.5.3"`). The control plane
   * declares it as the app's target: every check, L2 and command of the app
   * follows it, and another declaration of a different release fails synth
   * naming both.
   *
   * @default "0.6" (v0.6.2)
   */
  readonly release?: string;

  /**
   * Namespace of kruise-rollout-manager (`installation.namespace`). The
   * webhook and conversion references, RBAC subjects and the lease follow.
   *
   * @default "kruise-rollout"
   */
  readonly namespace?: string;

  /**
   * Create the namespace (`installation.createNamespace`).
   *
   * @default true
   */
  readonly createNamespace?: boolean;

  /**
   * Install the four CRDs (Rollout, BatchRelease, TrafficRouting, RolloutHistory).
   *
   * @default true
   */
  readonly installCrds?: boolean;

  /**
   * Name of the manager Deployment, of its ServiceAccount and the value of
   * its `control-plane` label (`rollout.fullname`). Unlike in the chart, the
   * ServiceAccount and the RBAC subjects follow it.
   *
   * @default "kruise-rollout-controller-manager"
   */
  readonly managerName?: string;

  /**
   * Number of manager Pods (`replicaCount`): one leads the controllers, all serve the webhooks.
   *
   * @default 2
   */
  readonly replicas?: number;

  /**
   * Image repository (`image.repository`).
   *
   * @default "openkruise/kruise-rollout"
   */
  readonly imageRepository?: string;

  /**
   * Image tag (`image.tag`). A tag that reads as a version must be of the
   * release's line, and then decides the release installed; to install
   * another line, set `release`.
   *
   * @default - "v" + the release (`v0.6.2`; `v0.5.5` for release "0.5")
   */
  readonly imageTag?: string;

  /**
   * Image pull policy (`image.pullPolicy`).
   *
   * @default kplus.ImagePullPolicy.ALWAYS
   */
  readonly imagePullPolicy?: kplus.ImagePullPolicy;

  /**
   * Secrets (in the install namespace) to pull the image with (`imagePullSecrets`).
   *
   * @default - none
   */
  readonly imagePullSecrets?: string[];

  /**
   * Annotations of the manager's ServiceAccount (`serviceAccount.annotations`,
   * which the chart declares but never writes).
   *
   * @default - none
   */
  readonly serviceAccountAnnotations?: { [key: string]: string };

  /**
   * Feature gates by name (see `KruiseRolloutFeatureGate`; `rollout.featureGates`).
   *
   * @default - AdvancedDeployment on, as the chart sets it
   */
  readonly featureGates?: { [gate: string]: boolean };

  /**
   * klog verbosity (`rollout.log.level`).
   *
   * @default 4
   */
  readonly logLevel?: number;

  /**
   * Port of the webhook server (`rollout.webhook.port`). Written as the
   * `WEBHOOK_PORT` the manager listens on, the container port and the
   * Service's target port (the chart sets only the last two, so any other
   * value than 9876 breaks its webhooks).
   *
   * @default 9876
   */
  readonly webhookPort?: number;

  /**
   * Port of the health endpoints (`rollout.healthBindPort`).
   *
   * @default 8081
   */
  readonly healthPort?: number;

  /**
   * Address of the metrics endpoint (`rollout.metricsBindAddr`).
   *
   * @default "127.0.0.1:8080" - reachable from inside the Pod only
   */
  readonly metricsBindAddress?: string;

  /**
   * Label requirements added to the object selector of every mutating
   * webhook (`rollout.webhook.objectSelector`), ANDed with the
   * `rollouts.kruise.io/workload-type` label.
   *
   * @default - none
   */
  readonly webhookObjectSelector?: kplus.LabelExpression[];

  /**
   * The largest percentage of replicas a partition-style step with traffic
   * or matches may update (`--partition-percent-limit`). The App's Rollouts
   * are checked against it. 0.6 only: kruise-rollout-manager 0.5 has no such
   * flag (and no such limit).
   *
   * @default 50 (the manager's default; not written)
   */
  readonly partitionPercentLimit?: number;

  /**
   * Requests and limits of the manager container (`resources`).
   *
   * @default - requests cpu 100m / memory 256Mi, limits cpu 500m / memory 1Gi
   */
  readonly resources?: kplus.ContainerResources;

  /**
   * Tolerations of the manager Pods (`tolerations`).
   *
   * @default - none
   */
  readonly tolerations?: k8s.Toleration[];

  /**
   * Node labels the manager Pods must match.
   *
   * @default - none
   */
  readonly nodeSelector?: { [key: string]: string };

  /**
   * PriorityClass of the manager Pods.
   *
   * @default - none
   */
  readonly priorityClassName?: string;

  /**
   * A PodDisruptionBudget (`maxUnavailable: 1`) for the manager Pods: every
   * webhook has failure policy Fail, so a drain that takes all replicas
   * down blocks every labelled workload and every Rollout.
   *
   * @default true
   */
  readonly podDisruptionBudget?: boolean;

  /**
   * Extra rules for the manager's ClusterRole, e.g. for the resources of a
   * custom traffic provider other than Istio.
   *
   * @default - none
   */
  readonly extraRules?: k8s.PolicyRule[];

  /**
   * OpenKruise (kruise-manager and its CRDs) is installed by other means
   * than a `KruiseControlPlane` of this app. Without it, synth fails when a
   * Rollout of the app targets an OpenKruise workload and the app has no
   * `KruiseControlPlane`: kruise-rollout-manager only watches the
   * OpenKruise kinds whose CRDs it finds when it starts.
   *
   * @default false
   */
  readonly openKruiseInstalledSeparately?: boolean;

  /**
   * Annotate the objects with Argo CD sync waves: Namespaces and CRDs wave
   * "-3", everything else "-2"; the app's OpenKruise policies get "-1"
   * (`KruiseDeployOrder.argoCdSyncWaves`), everything else keeps wave 0.
   *
   * @default false
   */
  readonly argoCdSyncWaves?: boolean;
}

const DEFAULT_NAMESPACE = 'kruise-rollout';
const DEFAULT_MANAGER = 'kruise-rollout-controller-manager';

/**
 * A Kruise Rollouts release (v0.6.2 by default; `release` chooses a 0.5 one),
 * installed as constructs: the four CRDs (from the API model of the
 * release's line), RBAC, kruise-rollout-manager (controllers and webhooks),
 * its webhook Service and webhook configurations. With no other props it
 * produces the objects of the openkruise/charts `kruise-rollout` chart of the
 * release's line (0.6.2, 0.5.2) with default values, with its breakages fixed:
 *
 * - the webhook port is the one the manager listens on;
 * - the ServiceAccount, RBAC subjects and Pod spec always name the same account;
 * - ServiceAccount annotations are written;
 * - GitOps-safe: only webhooks the manager serves, every field the API
 *   server would default written out, the `template` annotation the manager
 *   reads written by us, the CRD conversion as the manager writes it, no
 *   caBundle: applying the YAML again changes nothing;
 * - hardened Pods (non-root, read-only root filesystem, no capabilities,
 *   RuntimeDefault seccomp) and a PodDisruptionBudget.
 *
 * Charts holding Rollouts (or workloads labelled for them) are written after
 * its chart, and its chart after OpenKruise's.
 */
export class KruiseRolloutControlPlane extends Construct {
  /** The install namespace. */
  public readonly namespace: string;
  /** The manager Deployment's (and ServiceAccount's) name. */
  public readonly managerName: string;
  /** The value of `--feature-gates` ("" when no gate is set). */
  public readonly featureGatesFlag: string;

  /**
   * The Kruise Rollouts release installed, as `x.y.z`: the newest of the line
   * when `release` names a line, unless `imageTag` names a release of it.
   */
  public readonly release: string;

  private readonly releaseModel: Release;

  private readonly props: KruiseRolloutControlPlaneProps;
  private readonly gates: Record<string, boolean>;
  private readonly gateDefaults: Record<string, boolean>;
  private readonly imageTagRefusal?: readonly [string, unknown, string, string];

  constructor(scope: Construct, id: string, props: KruiseRolloutControlPlaneProps = {}) {
    super(scope, id);
    KruiseValidation.enable(this);
    this.props = props;
    const declared = parseRelease('rollouts', props.release ?? '0.6', `KruiseRolloutControlPlane at '${this.node.path}': release`);
    const installed = _installedRelease(declared, props.release, props.imageTag);
    this.imageTagRefusal = installed.refusal;
    this.releaseModel = installed.release;
    this.release = this.releaseModel.version;
    const facts = this.releaseModel.line.controlPlane;
    // the app targets the release this control plane installs
    _declareRelease(this, {
      by: 'KruiseRolloutControlPlane',
      path: this.node.path,
      declared: `declared at '${this.node.path}'`,
      reportOn: this,
      prop: { rollouts: 'release' },
      releases: { rollouts: this.releaseModel },
    });
    this.namespace = props.namespace ?? DEFAULT_NAMESPACE;
    this.managerName = props.managerName ?? DEFAULT_MANAGER;
    const settings: Record<string, boolean> = { AdvancedDeployment: true, ...(props.featureGates ?? {}) };
    this.featureGatesFlag = Object.entries(settings).map(([k, v]) => `${k}=${v}`).join(',');
    this.gateDefaults = gateDefaults(this.releaseModel);
    this.gates = { ...this.gateDefaults, ...settings };
    const ns = this.namespace;

    if (props.createNamespace ?? true) {
      new k8s.KubeNamespace(this, 'Namespace', { metadata: { name: ns, labels: { 'control-plane': this.managerName } } });
    }
    if (props.installCrds ?? true) addRolloutCrds(this, ns, {}, this.releaseModel);
    addRolloutRbac(this, {
      namespace: ns,
      serviceAccount: this.managerName,
      serviceAccountAnnotations: props.serviceAccountAnnotations,
      extraRules: [...(props.extraRules ?? [])],
      managerRoleLacks: facts.managerRoleLacks,
    });
    addRolloutManager(this, {
      namespace: ns,
      name: this.managerName,
      image: `${props.imageRepository ?? 'openkruise/kruise-rollout'}:${installed.tag}`,
      imagePullPolicy: props.imagePullPolicy ?? kplus.ImagePullPolicy.ALWAYS,
      imagePullSecrets: [...(props.imagePullSecrets ?? [])],
      featureGates: this.featureGatesFlag,
      cacheMutationDetector: false,
      replicas: props.replicas ?? 2,
      logLevel: props.logLevel ?? 4,
      webhookPort: props.webhookPort ?? 9876,
      healthPort: props.healthPort ?? 8081,
      metricsBindAddress: props.metricsBindAddress ?? '127.0.0.1:8080',
      partitionPercentLimit: props.partitionPercentLimit,
      resources: props.resources ?? ROLLOUT_MANAGER_RESOURCES,
      tolerations: [...(props.tolerations ?? [])],
      nodeSelector: props.nodeSelector,
      priorityClassName: props.priorityClassName,
      podDisruptionBudget: props.podDisruptionBudget ?? true,
    });
    addRolloutWebhooks(this, {
      namespace: ns,
      managerName: this.managerName,
      objectSelector: (props.webhookObjectSelector ?? [])
        .map(r => ({ key: r.key, operator: r.operator, values: r.values ? [...r.values] : undefined })),
      extraWebhooks: facts.extraWebhooks,
    });

    this.node.addValidation({ validate: () => [...this.problems(), ...this.openKruiseProblems()].map(l => _constructLine('KruiseRolloutControlPlane', l)) });
    const self = this;
    _registerRolloutManager(this, {
      path: this.node.path,
      partitionPercentLimit: props.partitionPercentLimit ?? DEFAULT_PARTITION_PERCENT_LIMIT,
      isEnabled: gate => self.isFeatureGateEnabled(gate),
      howToEnable: gate => `set featureGates: { ${gate}: true } on the KruiseRolloutControlPlane at '${self.node.path}'`,
    });
    _needsOpenKruise(this);
    _orderDeploy(this, props.argoCdSyncWaves ?? false, {
      kind: 'KruiseRolloutControlPlane',
      what: 'Rollouts (or workloads labelled for them)',
      needs: o => groupOf(o.apiVersion) === 'rollouts.kruise.io' || o.metadata.getLabel('rollouts.kruise.io/workload-type') !== undefined,
    });
  }

  /**
   * Whether a Kruise Rollouts feature gate is on: the manager's default, the
   * chart's `AdvancedDeployment=true`, then `featureGates`.
   *
   * @param gate a gate name (see `KruiseRolloutFeatureGate`)
   */
  public isFeatureGateEnabled(gate: string): boolean {
    return this.gates[gate] === true;
  }

  private problems(): string[] {
    const p = this.props;
    const out: string[] = [];
    const add = (field: string, value: unknown, problem: string, fix: string) => out.push(fieldError(field, value, problem, fix));
    for (const problem of dns1123LabelProblems(this.namespace)) add('namespace', this.namespace, problem, 'use a DNS-1123 label such as "kruise-rollout"');
    for (const problem of dns1123LabelProblems(this.managerName)) add('managerName', this.managerName, problem, 'use a DNS-1123 label (it is also a label value) such as "kruise-rollout-controller-manager"');
    for (const name of p.imagePullSecrets ?? []) {
      for (const problem of dns1123SubdomainProblems(name)) add('imagePullSecrets', name, problem, 'use the name of a Secret in the install namespace');
    }
    for (const key of Object.keys(p.serviceAccountAnnotations ?? {})) {
      for (const problem of qualifiedNameProblems(key)) add(`serviceAccountAnnotations.${key}`, key, problem, 'use a qualified name such as "eks.amazonaws.com/role-arn"');
    }
    for (const [k, v] of Object.entries(p.nodeSelector ?? {})) {
      for (const problem of qualifiedNameProblems(k)) add(`nodeSelector.${k}`, k, problem, 'use a label key such as "node-role.kubernetes.io/control-plane"');
      for (const problem of labelValueProblems(v)) add(`nodeSelector.${k}`, v, problem, 'use a valid label value');
    }
    if (p.priorityClassName !== undefined) {
      for (const problem of dns1123SubdomainProblems(p.priorityClassName)) add('priorityClassName', p.priorityClassName, problem, 'use the name of a PriorityClass');
    }
    if (this.imageTagRefusal) add(...this.imageTagRefusal);
    for (const gate of Object.keys(p.featureGates ?? {})) {
      if (!(gate in this.gateDefaults)) {
        add(`featureGates.${gate}`, p.featureGates![gate], `is not a feature gate of kruise-rollout-manager v${this.release}, which refuses to start with it`,
          `use one of ${Object.keys(this.gateDefaults).join(', ')}`);
      }
    }
    if (p.partitionPercentLimit !== undefined && this.releaseModel.line.controlPlane.lacksFlags?.includes('kruise-rollout-manager --partition-percent-limit')) {
      add('partitionPercentLimit', p.partitionPercentLimit,
        `sets --partition-percent-limit, a flag kruise-rollout-manager has from Kruise Rollouts 0.6; the Kruise Rollouts ${this.release} binary refuses to start with it (and has no such limit)`,
        "remove partitionPercentLimit, or install Kruise Rollouts 0.6 (release: '0.6')");
    }
    (p.webhookObjectSelector ?? []).forEach((r, i) => {
      for (const problem of qualifiedNameProblems(r.key)) add(`webhookObjectSelector[${i}].key`, r.key, problem, 'use a label key');
    });
    if ((p.imageRepository !== undefined && p.imageRepository.trim() === '') || (p.imageTag !== undefined && p.imageTag.trim() === '')) {
      add(p.imageTag?.trim() === '' ? 'imageTag' : 'imageRepository', p.imageTag?.trim() === '' ? p.imageTag : p.imageRepository, 'is empty', 'set a repository and a tag, e.g. "openkruise/kruise-rollout" and "v0.6.2"');
    }
    const int = (field: string, v: number | undefined, min: number, max: number, fix: string) => {
      if (v !== undefined && (!Number.isInteger(v) || v < min || v > max)) add(field, v, `must be an integer from ${min} to ${max}`, fix);
    };
    int('replicas', p.replicas, 0, 1000, 'use 2 or more replicas: every webhook has failure policy Fail');
    int('logLevel', p.logLevel, 0, 10, 'use 0 (quiet) to 10 (trace); the default is 4');
    int('webhookPort', p.webhookPort, 1, 65535, 'use a free port such as 9876');
    int('healthPort', p.healthPort, 1, 65535, 'use a free port such as 8081');
    int('partitionPercentLimit', p.partitionPercentLimit, 1, 100, 'use a percentage such as 50');
    const metrics = p.metricsBindAddress ?? '127.0.0.1:8080';
    const metricsPort = /^[^:]*:(\d+)$/.exec(metrics)?.[1];
    if (metricsPort === undefined || Number(metricsPort) < 1 || Number(metricsPort) > 65535) {
      add('metricsBindAddress', metrics, 'is not [host]:port', 'use e.g. "127.0.0.1:8080" or ":8080"');
    }
    const ports = [p.webhookPort ?? 9876, p.healthPort ?? 8081, ...(metricsPort ? [Number(metricsPort)] : [])];
    if (new Set(ports).size < ports.length) {
      add('webhookPort/healthPort/metricsBindAddress', ports, 'must be different ports', 'give each endpoint its own port');
    }
    return out;
  }

  /** A Rollout of an OpenKruise workload needs OpenKruise installed before kruise-rollout-manager starts. */
  private openKruiseProblems(): string[] {
    if (this.props.openKruiseInstalledSeparately) return [];
    const root = this.node.root;
    if (root.node.findAll().some(c => c instanceof KruiseControlPlane)) return [];
    const refOf = (c: ApiObject) => workloadRefOf(_renderForChecks(c));
    const isRollout = (c: IConstruct): c is ApiObject => c instanceof ApiObject && c.apiGroup === 'rollouts.kruise.io' && c.kind === 'Rollout';
    const rollout = root.node.findAll().find((c): c is ApiObject => isRollout(c) && groupOf(refOf(c)?.apiVersion) === 'apps.kruise.io');
    if (!rollout) return [];
    const ref = refOf(rollout)!;
    return [fieldError('openKruiseInstalledSeparately', this.props.openKruiseInstalledSeparately,
      `is not set and the app has no KruiseControlPlane, but the Rollout at '${ownerOf(rollout).node.path}' releases ${ref.kind} "${ref.name}" (${ref.apiVersion}), an OpenKruise workload: `
      + 'kruise-rollout-manager only watches the OpenKruise kinds whose CRDs exist when it starts',
      'add a KruiseControlPlane to the app (its chart is then applied first), or set openKruiseInstalledSeparately: true when OpenKruise is installed before Kruise Rollouts by other means')];
  }
}
