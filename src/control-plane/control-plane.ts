/**
 * `KruiseControlPlane`: an OpenKruise release (1.7, 1.8 or 1.9) installed from a cdk8s app.
 */
import { ApiObject, Chart, Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { k8s } from 'cdk8s-plus-28';
import { Construct, IConstruct } from 'constructs';
import { _GateSet, _gatePrerequisites, _GateSetting } from './_gates';
import { _installedRelease } from './_release-image';
import { _compareRunning, _keepReleaseFix, _runningRelease } from './_running-release';
import { WebhookCertificates } from './certs';
import { addCrds, conversionCrds, modelCrds } from './crds';
import { addDaemon } from './daemon';
import { _orderDeploy } from './deploy-order';
import type { KruiseHelmRelease } from './helm-release';
import type * as HelmValues from './helm-values';
import { addManager, addWebhookSecret, addWebhookService, managerPorts } from './manager';
import { HelmValueMapping, KruiseDaemonOptions, KruiseManagerOptions } from './options';
import { addRbac, addServiceAccounts, DAEMON_CONFIG_NAMESPACE } from './rbac';
import { addWebhookConfigurations, CONTROL_PLANE_LABEL, DELETE_PROTECTION_LABEL } from './webhooks';
import { _imageTag } from '../_image-tags';
import { parseRelease, Release, ReleaseError } from '../releases/registry';
import { _declareRelease } from '../releases/target';
import { _assertOwnKplus } from '../validation/foreign-kplus';
import { _registerGateSource } from '../validation/gates';
import {
  dns1123LabelProblems, dns1123SubdomainProblems, envVarNameProblems, labelValueProblems, qualifiedNameProblems,
} from '../validation/names';
import { KruiseValidation } from '../validation/register';
import { _constructLine, fieldError, Warnings } from '../validation/report';

/** Values of the `policy.kruise.io/delete-protection` label kruise-manager honours. */
export enum DeletionProtection {
  /** No label: deletion is not checked. */
  NONE = 'None',
  /** Deletion is always refused while the label is there. */
  ALWAYS = 'Always',
  /**
   * Deletion is refused while the object still has live children: a
   * namespace with active Pods or bound PVCs, a CRD with custom resources.
   */
  CASCADING = 'Cascading',
}

/** Properties of `KruiseControlPlane`. */
export interface KruiseControlPlaneProps {
  /**
   * The OpenKruise release to install: a line (`"1.8"`, its newest release)
   * or a release of it (`"1.8.2"`, `"v1.8.2"`); see `docs/existing-clusters.md`
   * for the modelled releases. The control plane declares it as the app's
   * target: every check, L2 and command of the app follows it, and another
   * declaration of a different release (a `KruiseContext`, another control
   * plane) fails synth naming both.
   *
   * @default "1.9" (v1.9.1)
   */
  readonly release?: string;

  /**
   * Namespace kruise-manager and kruise-daemon run in. Every reference to it
   * (RBAC subjects, leader election, webhook and conversion service
   * references, certificate names) follows.
   *
   * @default "kruise-system"
   */
  readonly namespace?: string;

  /**
   * Create the install namespace, labelled `control-plane: openkruise` so
   * that the pod webhook skips it (kruise-manager's own Pods must never need
   * kruise-manager to start).
   *
   * @default true
   */
  readonly createNamespace?: boolean;

  /**
   * When `createNamespace` is false: confirms that the existing namespace
   * carries the label `control-plane: openkruise`. Without the label, the pod
   * webhook (failure policy Fail) intercepts kruise-manager's own Pods, so
   * once every replica is gone none can start again. Synth fails when the
   * namespace is neither created here, nor `kube-system`, nor a Namespace of
   * the same app with the label, nor confirmed by this flag.
   *
   * @default false
   */
  readonly existingNamespaceLabelled?: boolean;

  /**
   * Create the `kruise-daemon-config` namespace, where kruise-manager copies
   * the pull secrets of ImagePullJobs for kruise-daemon. It must exist; set
   * this to false when something else creates it.
   *
   * @default true
   */
  readonly createDaemonConfigNamespace?: boolean;

  /**
   * Install the OpenKruise CustomResourceDefinitions of the release: 18 for
   * 1.9, 17 for 1.7 and 1.8 (their charts install no EphemeralJob).
   *
   * @default true
   */
  readonly installCrds?: boolean;

  /**
   * API groups whose resources kruise-manager may list (the `list` rule of
   * its ClusterRole), used to find the owners of Pods and the targets of
   * WorkloadSpread / PodUnavailableBudget. Narrow it to the groups of the
   * workloads you run with OpenKruise.
   *
   * @default ["*"]
   */
  readonly roleListGroups?: string[];

  /**
   * Feature gates, by name (see `KruiseFeatureGate` for the names and
   * defaults). Unknown names and gates that kruise-manager would force to a
   * different value fail synth.
   *
   * @default - `ImagePullJobGate` on (as the chart does), plus the gates the
   * deletion protection and certificate settings need
   */
  readonly featureGates?: { [gate: string]: boolean };

  /**
   * Image repository of kruise-manager and kruise-daemon (one image holds
   * both), e.g. a mirror such as
   * `openkruise-registry.cn-shanghai.cr.aliyuncs.com/openkruise/kruise-manager`.
   *
   * @default "openkruise/kruise-manager"
   */
  readonly imageRepository?: string;

  /**
   * Image tag. A tag that reads as a version must be of the release's line
   * (the CRDs, webhooks, RBAC and gates installed are the release's), and
   * then decides the release installed (`release: '1.8'` with `imageTag:
   * 'v1.8.2'` installs 1.8.2); to install another line, set `release`. A tag
   * that is no version (a build of one's own) is taken as the release's.
   *
   * @default - the release's image tag (`v1.9.1`; `v1.8.4` for release "1.8")
   */
  readonly imageTag?: string;

  /**
   * Image pull policy of both containers.
   *
   * @default kplus.ImagePullPolicy.ALWAYS
   */
  readonly imagePullPolicy?: kplus.ImagePullPolicy;

  /**
   * Names of Secrets (in the install namespace) used to pull the image.
   *
   * @default - none
   */
  readonly imagePullSecrets?: string[];

  /**
   * Set `KUBE_CACHE_MUTATION_DETECTOR=true` in both containers (debugging).
   *
   * @default false
   */
  readonly enableKubeCacheMutationDetector?: boolean;

  /**
   * Annotations of the kruise-manager and kruise-daemon ServiceAccounts
   * (e.g. IAM roles for service accounts).
   *
   * @default - none
   */
  readonly serviceAccountAnnotations?: { [key: string]: string };

  /**
   * Timeout of every webhook call (1 to 30 seconds).
   *
   * @default Duration.seconds(30)
   */
  readonly webhookTimeout?: Duration;

  /**
   * Where the webhook serving certificate comes from.
   *
   * @default WebhookCertificates.selfManaged()
   */
  readonly certificates?: WebhookCertificates;

  /**
   * Delete protection of the CRDs, enforced by kruise-manager. The default
   * refuses to delete a CRD while custom resources of it exist (what the
   * chart's pre-delete hook checks for three kinds), and never blocks an
   * upgrade (upgrades do not delete CRDs). Turns on the
   * `ResourcesDeletionProtection` gate, and `DeletionProtectionForCRDCascadingGate`
   * for `CASCADING`.
   *
   * @default DeletionProtection.CASCADING
   */
  readonly crdDeletionProtection?: DeletionProtection;

  /**
   * Delete protection of the install namespace (only when created here). The
   * default refuses to delete it while it has active Pods (kruise-manager
   * itself) or bound PVCs. Turns on the `ResourcesDeletionProtection` gate.
   *
   * @default DeletionProtection.CASCADING
   */
  readonly namespaceDeletionProtection?: DeletionProtection;

  /**
   * Register the EphemeralJob validating webhook (`vephemeraljobs.kb.io`),
   * which kruise-manager serves and the kruise chart registers from 1.9.0 on
   * (false: EphemeralJobs are not validated). 1.9 only: the 1.7 and 1.8
   * control planes, as their charts, install no EphemeralJob CRD.
   *
   * @default - true for 1.9, false for 1.7 and 1.8
   */
  readonly validateEphemeralJobs?: boolean;

  /**
   * Write the namespaceSelector terms that AKS's Admissions Enforcer adds to
   * every webhook (`control-plane NotIn ["true"]`,
   * `kubernetes.azure.com/managedby NotIn ["aks"]`) into the webhook
   * configurations, on the webhooks where the kruise chart's
   * `webhookConfiguration.aksIntegration` puts them. On AKS the enforcer
   * then finds them there and changes nothing: kruise-manager does not
   * rewrite the webhooks back and forth, and Argo CD or Flux see no drift.
   * Set it on AKS only: elsewhere the terms skip namespaces that happen to
   * carry those labels. See docs/control-planes.md, "Managed clusters".
   *
   * @default false
   */
  readonly aksIntegration?: boolean;

  /**
   * Options of kruise-manager.
   *
   * @default - the chart's values
   */
  readonly manager?: KruiseManagerOptions;

  /**
   * Options of kruise-daemon.
   *
   * @default - the chart's values
   */
  readonly daemon?: KruiseDaemonOptions;

  /**
   * Annotate the control plane's objects with Argo CD sync waves
   * (`argocd.argoproj.io/sync-wave`): Namespaces and CRDs wave "-3",
   * everything else of the control plane wave "-2". The app's policies that
   * act when a pod is created (SidecarSet, WorkloadSpread,
   * PodUnavailableBudget, PersistentPodState) get wave "-1"
   * (`KruiseDeployOrder.argoCdSyncWaves`); every other object keeps the
   * default wave 0, so Argo CD applies it once kruise-manager is healthy and
   * the policies exist.
   *
   * @default false
   */
  readonly argoCdSyncWaves?: boolean;
}

const DEFAULT_NAMESPACE = 'kruise-system';

// the mapping of Helm values loads with the first takeover, not with the control plane
const helmValuesModule = (): typeof HelmValues => require('./helm-values') as typeof HelmValues; // eslint-disable-line @typescript-eslint/no-require-imports

/**
 * An OpenKruise release (v1.9.1 by default; `release` chooses a 1.7 or 1.8
 * one), installed as constructs: the release's CRDs, RBAC, kruise-manager
 * (controllers and webhooks), its webhook configurations and kruise-daemon,
 * each as that release has them. With no other props it produces the
 * objects the openkruise/charts `kruise` chart of the release's line renders
 * with its default values (1.9.0-alpha.3, 1.8.3, 1.7.5), plus what that
 * chart misses:
 *
 * - GitOps-safe: no caBundle, no certificate data, nothing kruise-manager
 *   writes at runtime, so applying the YAML again resets nothing;
 * - no self-deadlock: the install namespace always carries the label the pod
 *   webhook skips;
 * - uninstall safety through kruise-manager's own delete protection instead of
 *   a Helm hook;
 * - hardened containers and a PodDisruptionBudget for kruise-manager.
 *
 * Constructs of this library that need a feature gate check it against the
 * control plane of their app at synth.
 */
export class KruiseControlPlane extends Construct {
  /**
   * The control plane of the app `scope` belongs to: the one in the same
   * chart when there is one, else the only one of the app.
   *
   * @param scope any construct of the app
   * @returns the control plane, or undefined when the app has none
   */
  /**
   * The control plane that takes over OpenKruise installed by the
   * openkruise/charts `kruise` chart (1.7, 1.8 or 1.9 line), read from what
   * the cluster holds (`KruiseHelmRelease.fromRecord()`: Helm's release
   * record; or `.fromValues()`: the values and the image the live
   * kruise-manager runs). Every value that was set is carried over to a
   * prop, or refused with the reason (`mapHelmValues()` lists what becomes
   * of each). The control plane installs the release the cluster runs, so
   * the takeover changes no release; `props.release` chooses another (an
   * upgrade, which `cdk8s-kruise plan --old-live` states), and an older one
   * is refused as a downgrade, as is a running release this library does not
   * model. `props` are applied on top (`manager`, `daemon` and `featureGates`
   * merged key by key). The takeover itself (the release record, Helm's
   * field ownership, moving the webhook traffic to the new manager Pods) is
   * planned by `cdk8s-kruise plan --old-live`.
   *
   * @param scope the parent construct
   * @param id the construct id
   * @param installed the installed release of the chart
   * @param props props set on top of the mapped ones
   */
  public static fromHelmRelease(scope: Construct, id: string, installed: KruiseHelmRelease, props: KruiseControlPlaneProps = {}): KruiseControlPlane {
    const where = `KruiseControlPlane.fromHelmRelease() at '${scope.node.path ? `${scope.node.path}/` : ''}${id}'`;
    const tag = _imageTag(installed.runningImage) ?? installed.runningImage;
    return KruiseControlPlane.takeOver(scope, id, where, installed.values, { tag, from: installed.runningImageSource }, props);
  }

  /**
   * The control plane that takes over OpenKruise installed by the
   * openkruise/charts `kruise` chart, from the values alone, as `helm get
   * values RELEASE -o yaml` prints them (parsed). Those are only the values
   * that were set: unless they set `manager.image.tag` (the release that
   * runs, then), they do not say which release the cluster runs, and the
   * values are refused unless `props.release` says it. Prefer
   * `fromHelmRelease()`, which reads it from the cluster. Otherwise as
   * `fromHelmRelease()`.
   *
   * Changed: before, the image tag was not carried over and the control
   * plane installed the library's default release, so a cluster running a
   * newer release than that default without `manager.image.tag` set was
   * silently downgraded.
   *
   * @param scope the parent construct
   * @param id the construct id
   * @param values the release's values (parsed YAML)
   * @param props props set on top of the mapped ones
   */
  public static fromHelmValues(scope: Construct, id: string, values: any, props: KruiseControlPlaneProps = {}): KruiseControlPlane {
    const where = `KruiseControlPlane.fromHelmValues() at '${scope.node.path ? `${scope.node.path}/` : ''}${id}'`;
    const tag = values?.manager?.image?.tag;
    const running = tag === undefined || tag === null ? undefined : { tag: String(tag), from: `manager.image.tag "${tag}" of the values` };
    if (running === undefined && props.release === undefined && (values === undefined || values === null || typeof values === 'object')) {
      throw new Error(`${where}: the values do not say which OpenKruise release the cluster runs: helm get values prints only the values that were set, `
        + 'and without manager.image.tag the chart\'s default tag of the chart version installed runs; read it from the cluster: '
        + 'KruiseControlPlane.fromHelmRelease(scope, id, KruiseHelmRelease.fromRecord(<kubectl get secret -n NAMESPACE -l owner=helm,name=RELEASE,status=deployed -o json>)), '
        + 'or set release to the release of the image kubectl get deployment kruise-controller-manager -n kruise-system -o jsonpath=\'{.spec.template.spec.containers[0].image}\' prints');
    }
    return KruiseControlPlane.takeOver(scope, id, where, values, running, props);
  }

  /**
   * What becomes of each value of an installed kruise chart (as `helm get
   * values RELEASE -o yaml` prints them, parsed) in `fromHelmValues()`: the
   * prop it sets, or why it is refused.
   *
   * @param values the release's values (parsed YAML)
   */
  public static mapHelmValues(values: any): HelmValueMapping[] {
    return helmValuesModule()._mapHelmValues(values).values;
  }

  public static of(scope: IConstruct): KruiseControlPlane | undefined {
    const all = scope.node.root.node.findAll().filter((c): c is KruiseControlPlane => c instanceof KruiseControlPlane);
    if (all.length <= 1) return all[0];
    const chartOf = (c: IConstruct) => [...c.node.scopes].reverse().find(s => Chart.isChart(s));
    const mine = chartOf(scope);
    const same = all.filter(c => chartOf(c) === mine);
    if (same.length === 1) return same[0];
    throw new Error(`the app has ${all.length} KruiseControlPlane constructs (${all.map(c => `'${c.node.path}'`).join(', ')}); `
      + `put each in its own Chart together with the objects that use it, so that '${scope.node.path}' finds one`);
  }

  /** The takeover of an installed chart: its values mapped, the release it runs kept (or a newer one chosen), never an older one. */
  private static takeOver(scope: Construct, id: string, where: string, values: any, live: { tag: string; from: string } | undefined,
    props: KruiseControlPlaneProps): KruiseControlPlane {
    const mapped = helmValuesModule()._mapHelmValues(values);
    // the tag is the release: decided below, with the one fix every message about a change of release gives
    const refused = mapped.values.filter(v => v.refusal !== undefined && v.path !== 'manager.image.tag');
    if (refused.length > 0) {
      throw new Error(`${where}: ${refused.map(r => `${r.path} (${JSON.stringify(r.value)}) ${r.refusal}`).join('; ')}; `
        + 'leave these values out of the values passed, and set the matching props yourself where there are some');
    }
    const { release: _r, imageTag: _t, ...m } = mapped.props;
    void _r; void _t;
    const running = live === undefined ? undefined : _runningRelease(live.tag);
    const runs = running === undefined ? '' : `the cluster runs ${running.version ? `OpenKruise ${running.version}` : `the image tag ${running.tag}`} (${live!.from})`;
    if (props.release !== undefined && running !== undefined) {
      // a release this library does not model: the same fix as every other message about the release a takeover installs
      try {
        parseRelease('openkruise', props.release, 'release');
      } catch (e) {
        if (!(e instanceof ReleaseError)) throw e;
        throw new Error(`${where}: release '${props.release}' is not a release this library models; ${runs}: ${_keepReleaseFix(running)}`);
      }
    }
    const release = props.release ?? running?.release?.version;
    if (release === undefined) {
      const what = running!.trap ? running!.trap : running!.version ? 'a release this library does not model' : 'which names no release';
      throw new Error(`${where}: ${runs}, ${what}: a takeover would change the release the cluster runs; ${_keepReleaseFix(running!)}`);
    }
    const merged: KruiseControlPlaneProps = {
      ...m,
      ...props,
      release,
      imageTag: props.imageTag ?? (props.release === undefined && running?.build ? running.tag : undefined),
      featureGates: m.featureGates || props.featureGates ? { ...m.featureGates, ...props.featureGates } : undefined,
      manager: m.manager || props.manager ? { ...m.manager, ...props.manager } : undefined,
      daemon: m.daemon || props.daemon ? { ...m.daemon, ...props.daemon } : undefined,
    };
    const cp = new KruiseControlPlane(scope, id, merged);
    if (running !== undefined && _compareRunning(running, cp.release) === 1) {
      scope.node.tryRemoveChild(id);
      throw new Error(`${where}: ${runs}, newer than ${cp.release}, the release this control plane installs: taking over would downgrade OpenKruise; ${_keepReleaseFix(running)}`);
    }
    return cp;
  }

  /** The install namespace. */
  public readonly namespace: string;

  /** The value of the `--feature-gates` flag of kruise-manager and kruise-daemon. */
  public readonly featureGatesFlag: string;

  /**
   * The OpenKruise release installed, as `x.y.z`: the newest of the line when
   * `release` names a line, unless `imageTag` names a release of it.
   */
  public readonly release: string;

  /** The image kruise-manager and kruise-daemon run (`repository:tag`). */
  public readonly managerImage: string;

  private readonly releaseModel: Release;
  private readonly imageTagRefusal?: readonly [string, unknown, string, string];

  private readonly gates: _GateSet;
  private readonly props: KruiseControlPlaneProps;

  constructor(scope: Construct, id: string, props: KruiseControlPlaneProps = {}) {
    super(scope, id);
    _assertOwnKplus(`KruiseControlPlane at '${this.node.path}'`, props);
    // every OpenKruise object of an app that installs OpenKruise is judged at synth
    KruiseValidation.enable(this);
    this.props = props;
    const declared = parseRelease('openkruise', props.release ?? '1.9', `KruiseControlPlane at '${this.node.path}': release`);
    const installed = _installedRelease(declared, props.release, props.imageTag);
    this.imageTagRefusal = installed.refusal;
    this.releaseModel = installed.release;
    this.release = this.releaseModel.version;
    const facts = this.releaseModel.line.controlPlane;
    this.namespace = props.namespace ?? DEFAULT_NAMESPACE;
    const ns = this.namespace;
    const certificates = props.certificates ?? WebhookCertificates.selfManaged();
    this.gates = _GateSet.forRelease(this.gateSettings(certificates), this.releaseModel);
    this.featureGatesFlag = this.gates.flag();
    const crds = modelCrds('kruise', this.releaseModel);

    const createNamespace = props.createNamespace ?? true;
    const crdProtection = this.crdProtection;
    const nsProtection = this.namespaceProtection;
    const image = `${props.imageRepository ?? 'openkruise/kruise-manager'}:${installed.tag}`;
    this.managerImage = image;
    const imagePullPolicy = props.imagePullPolicy ?? kplus.ImagePullPolicy.ALWAYS;
    const imagePullSecrets = [...(props.imagePullSecrets ?? [])];
    const manager = props.manager ?? {};
    const cacheMutationDetector = props.enableKubeCacheMutationDetector ?? false;

    // Namespaces first, then the CRDs, then everything that uses them.
    if (createNamespace) {
      const labels: Record<string, string> = { [CONTROL_PLANE_LABEL.key]: CONTROL_PLANE_LABEL.value };
      if (nsProtection !== DeletionProtection.NONE) labels[DELETE_PROTECTION_LABEL] = nsProtection;
      new k8s.KubeNamespace(this, 'Namespace', { metadata: { labels, name: ns } });
    }
    if (props.createDaemonConfigNamespace ?? true) {
      // The label gives server-side apply a field we own: an object applied with
      // a name only is re-written by the API server on the next apply.
      new k8s.KubeNamespace(this, 'DaemonConfigNamespace', {
        metadata: { name: DAEMON_CONFIG_NAMESPACE, labels: { 'app.kubernetes.io/part-of': 'openkruise' } },
      });
    }
    if (props.installCrds ?? true) {
      addCrds(this, {
        crds,
        namespace: ns,
        labels: crdProtection === DeletionProtection.NONE ? {} : { [DELETE_PROTECTION_LABEL]: crdProtection },
        conversionAnnotations: certificates._annotations(ns),
      });
    }
    const rbac = {
      namespace: ns,
      roleListGroups: [...(props.roleListGroups ?? ['*'])],
      certsRole: !certificates.isExternal,
      serviceAccountAnnotations: props.serviceAccountAnnotations,
      conversionCrds: conversionCrds(crds),
      managerRoleLacks: facts.managerRoleLacks,
      noAggregateRoles: facts.noAggregateRoles,
    };
    addServiceAccounts(this, rbac);
    if (!certificates.isExternal) addWebhookSecret(this, ns);
    addRbac(this, rbac);
    addWebhookService(this, ns, managerPorts(manager).webhook);
    if (this.gates.isEnabled('KruiseDaemon')) {
      addDaemon(this, {
        namespace: ns,
        image,
        imagePullPolicy,
        imagePullSecrets,
        cacheMutationDetector,
        featureGates: this.featureGatesFlag,
        options: props.daemon ?? {},
      });
    }
    addManager(this, {
      namespace: ns,
      image,
      imagePullPolicy,
      imagePullSecrets,
      cacheMutationDetector,
      featureGates: this.featureGatesFlag,
      options: manager,
    });
    addWebhookConfigurations(this, {
      namespace: ns,
      timeoutSeconds: (props.webhookTimeout ?? Duration.seconds(30)).toMilliseconds({ integral: false }) / 1000,
      annotations: certificates._annotations(ns),
      conditions: {
        podWebhook: this.gates.isEnabled('PodWebhook'),
        deletionProtection: this.gates.isEnabled('ResourcesDeletionProtection'),
        ephemeralJobs: props.validateEphemeralJobs ?? !(this.releaseModel.line.chartLeavesOut ?? []).includes('EphemeralJob'),
      },
      versionedPaths: facts.versionedWebhookPaths,
      aksIntegration: props.aksIntegration ?? false,
    });
    certificates._addObjects(this, ns);

    this.node.addValidation({ validate: () => [...this.gates.problems(), ...this.problems(certificates)].map(l => _constructLine('KruiseControlPlane', l)) });
    if (props.daemon !== undefined && !this.gates.isEnabled('KruiseDaemon')) {
      Warnings.add(this, _constructLine('KruiseControlPlane', fieldError('daemon', Object.keys(props.daemon),
        'is set but the KruiseDaemon gate is off, so kruise-daemon is not installed and these options have no effect', 'remove daemon, or set featureGates.KruiseDaemon to true')));
    }

    // the app targets the release this control plane installs
    _declareRelease(this, {
      by: 'KruiseControlPlane',
      path: this.node.path,
      declared: `declared at '${this.node.path}'`,
      reportOn: this,
      prop: { openkruise: 'release' },
      releases: { openkruise: this.releaseModel },
      featureGates: { ...(props.featureGates ?? {}) },
      // the fix of a known failure of the release on the cluster's Kubernetes (src/releases/failures.ts)
      moveTo: { openkruise: v => (props.imageTag === undefined ? `set release: '${v}'` : `remove imageTag and set release: '${v}'`) },      installs: true,
    });
    const self = this;
    _registerGateSource(this, {
      path: this.node.path,
      isEnabled: (gate: string) => self.gates.isEnabled(gate),
      howToEnable: (gate: string) => self.howToEnable(gate),
    });
    _orderDeploy(this, props.argoCdSyncWaves ?? false);
  }

  /**
   * Whether a feature gate is on in this installation: the release's default,
   * the chart's setting, the gates this construct turns on and
   * `featureGates`, after kruise-manager's start-up rules (e.g. PodWebhook
   * off turns WorkloadSpread off).
   *
   * @param gate a gate name (see `KruiseFeatureGate`)
   */
  public isFeatureGateEnabled(gate: string): boolean {
    return this.gates.isEnabled(gate);
  }

  private get crdProtection(): DeletionProtection {
    if (!(this.props.installCrds ?? true)) return DeletionProtection.NONE;
    return this.props.crdDeletionProtection ?? DeletionProtection.CASCADING;
  }

  private get namespaceProtection(): DeletionProtection {
    if (!(this.props.createNamespace ?? true)) return DeletionProtection.NONE;
    return this.props.namespaceDeletionProtection ?? DeletionProtection.CASCADING;
  }

  /** The settings written into `--feature-gates`: the chart's, the derived ones, then the user's. */
  private gateSettings(certificates: WebhookCertificates): Map<string, _GateSetting> {
    const settings = new Map<string, _GateSetting>();
    settings.set('ImagePullJobGate', { value: true, origin: 'the chart default ImagePullJobGate=true', explicit: false });
    if (this.crdProtection !== DeletionProtection.NONE || this.namespaceProtection !== DeletionProtection.NONE) {
      settings.set('ResourcesDeletionProtection', { value: true, origin: 'crdDeletionProtection / namespaceDeletionProtection', explicit: false });
    }
    if (this.crdProtection === DeletionProtection.CASCADING) {
      settings.set('DeletionProtectionForCRDCascadingGate', { value: true, origin: 'crdDeletionProtection', explicit: false });
    }
    if (certificates.isExternal) {
      settings.set('EnableExternalCerts', { value: true, origin: 'certificates', explicit: false });
    }
    for (const [gate, value] of Object.entries(this.props.featureGates ?? {})) {
      settings.set(gate, { value, origin: `featureGates.${gate}`, explicit: true });
    }
    return settings;
  }

  private howToEnable(gate: string): string {
    const needed = [gate, ..._gatePrerequisites(gate)].filter(g => !this.gates.isEnabled(g));
    const entries = (needed.length > 0 ? needed : [gate]).map(g => `${g}: true`).join(', ');
    return `set featureGates: { ${entries} } on the KruiseControlPlane at '${this.node.path}'`;
  }

  private problems(certificates: WebhookCertificates): string[] {
    const p = this.props;
    const out: string[] = [];
    const add = (field: string, value: unknown, problem: string, fix: string) => out.push(fieldError(field, value, problem, fix));
    const user = p.featureGates ?? {};

    // The release: the image runs it, and its binaries take the flags written.
    if (this.imageTagRefusal) add(...this.imageTagRefusal);
    const release = `OpenKruise ${this.release}`;
    const facts = this.releaseModel.line.controlPlane;
    for (const [flag, field, value] of [
      ['kruise-daemon --rest-config-qps', 'daemon.restConfigQps', p.daemon?.restConfigQps],
      ['kruise-daemon --rest-config-burst', 'daemon.restConfigBurst', p.daemon?.restConfigBurst],
    ] as const) {
      if (value !== undefined && facts.lacksFlags?.includes(flag)) {
        add(field, value, `sets ${flag.split(' ')[1]}, a flag ${flag.split(' ')[0]} has from OpenKruise 1.9; the ${release} binary refuses to start with it`,
          `remove ${field}, or install OpenKruise 1.9 (release: '1.9')`);
      }
    }
    if (p.validateEphemeralJobs && (this.releaseModel.line.chartLeavesOut ?? []).includes('EphemeralJob')) {
      add('validateEphemeralJobs', true, `registers a webhook for EphemeralJobs, but the ${release} control plane, as the chart of its line, installs no EphemeralJob CRD`,
        'remove validateEphemeralJobs, or install OpenKruise 1.9 (release: \'1.9\')');
    }

    // Names.
    for (const problem of dns1123LabelProblems(this.namespace)) add('namespace', this.namespace, problem, 'use a DNS-1123 label such as "kruise-system"');
    for (const name of p.imagePullSecrets ?? []) {
      for (const problem of dns1123SubdomainProblems(name)) add('imagePullSecrets', name, problem, 'use the name of a Secret in the install namespace');
    }
    for (const key of Object.keys(p.serviceAccountAnnotations ?? {})) {
      for (const problem of qualifiedNameProblems(key)) add(`serviceAccountAnnotations.${key}`, key, problem, 'use a qualified name such as "eks.amazonaws.com/role-arn"');
    }
    for (const name of Object.keys(p.daemon?.extraEnv ?? {})) {
      for (const problem of envVarNameProblems(name)) add(`daemon.extraEnv.${name}`, name, problem, 'use a name such as "HTTPS_PROXY"');
    }
    for (const [field, value] of [['manager.priorityClassName', p.manager?.priorityClassName], ['daemon.priorityClassName', p.daemon?.priorityClassName]] as const) {
      if (value === undefined) continue;
      for (const problem of dns1123SubdomainProblems(value)) add(field, value, problem, 'use the name of a PriorityClass');
    }
    const cpConfigMap = p.daemon?.credentialProvider?.configMapName;
    if (cpConfigMap !== undefined) {
      for (const problem of dns1123SubdomainProblems(cpConfigMap)) add('daemon.credentialProvider.configMapName', cpConfigMap, problem, 'use the name of a ConfigMap in the install namespace');
    }
    for (const [field, sel] of [['manager.nodeSelector', p.manager?.nodeSelector], ['daemon.nodeSelector', p.daemon?.nodeSelector]] as const) {
      for (const [k, v] of Object.entries(sel ?? {})) {
        for (const problem of qualifiedNameProblems(k)) add(`${field}.${k}`, k, problem, 'use a label key such as "node-role.kubernetes.io/control-plane"');
        for (const problem of labelValueProblems(v)) add(`${field}.${k}`, v, problem, 'use a valid label value');
      }
    }
    if ((p.imageRepository !== undefined && p.imageRepository.trim() === '') || (p.imageTag !== undefined && p.imageTag.trim() === '')) {
      add(p.imageTag?.trim() === '' ? 'imageTag' : 'imageRepository', p.imageTag?.trim() === '' ? p.imageTag : p.imageRepository, 'is empty', 'set a repository and a tag, e.g. "openkruise/kruise-manager" and "v1.9.1"');
    }
    if (p.roleListGroups !== undefined && p.roleListGroups.length === 0) {
      add('roleListGroups', p.roleListGroups, 'is empty, so kruise-manager cannot list the owners of Pods', 'list at least the API groups of your workloads, or leave the default ["*"]');
    }

    // Numbers.
    const m = p.manager ?? {};
    const d = p.daemon ?? {};
    const int = (field: string, v: number | undefined, min: number, max: number, fix: string) => {
      if (v === undefined) return;
      if (!Number.isInteger(v) || v < min || v > max) add(field, v, `must be an integer from ${min} to ${max}`, fix);
    };
    int('manager.replicas', m.replicas, 0, 1000, 'use 2 or more replicas for a highly available webhook');
    int('manager.logLevel', m.logLevel, 0, 10, 'use 0 (quiet) to 10 (trace); the default is 4');
    int('daemon.logLevel', d.logLevel, 0, 10, 'use 0 (quiet) to 10 (trace); the default is 4');
    int('manager.webhookPort', m.webhookPort, 1, 65535, 'use a free port such as 9876');
    int('manager.metricsPort', m.metricsPort, 1, 65535, 'use a free port such as 8080');
    int('manager.healthPort', m.healthPort, 1, 65535, 'use a free port such as 8000');
    int('daemon.port', d.port, 1, 65535, 'use a free port on the nodes such as 10221');
    int('manager.restConfigQps', m.restConfigQps, 1, 100000, 'use a positive number such as 30');
    int('manager.restConfigBurst', m.restConfigBurst, 1, 100000, 'use a positive number such as 50');
    int('daemon.restConfigQps', d.restConfigQps, 1, 100000, 'use a positive number');
    int('daemon.restConfigBurst', d.restConfigBurst, 1, 100000, 'use a positive number');
    const ports = managerPorts(m);
    if (new Set([ports.webhook, ports.metrics, ports.health]).size < 3) {
      add('manager.webhookPort/metricsPort/healthPort', [ports.webhook, ports.metrics, ports.health], 'must be three different ports', 'give each endpoint its own port');
    }
    if (p.webhookTimeout !== undefined) {
      const ms = p.webhookTimeout.toMilliseconds({ integral: false });
      const s = ms / 1000;
      if (!Number.isInteger(s) || s < 1 || s > 30) add('webhookTimeout', `${ms}ms`, 'must be a whole number of seconds from 1 to 30 (the API server limit)', 'use e.g. Duration.seconds(10)');
    }
    if (m.drainDelay !== undefined) {
      const ms = m.drainDelay.toMilliseconds({ integral: false });
      if (!Number.isInteger(ms / 1000) || ms < 0 || ms >= 10_000) {
        add('manager.drainDelay', `${ms}ms`, 'must be a whole number of seconds from 0 to 9 (shorter than the manager Pods\' 10 s grace period)', 'use e.g. Duration.seconds(5), or Duration.seconds(0) for no delay');
      }
    }
    const sync = m.syncPeriod?.toMilliseconds({ integral: false });
    if (sync !== undefined && !Number.isFinite(sync)) {
      add('manager.syncPeriod', `${sync}ms`, 'is not a finite duration', 'use e.g. Duration.minutes(30), or leave it unset');
    }
    if ((m.enablePprof === false) && m.pprofAddress !== undefined) {
      add('manager.pprofAddress', m.pprofAddress, 'is set while manager.enablePprof is false', 'drop one of them');
    }
    if ((d.enablePprof === false) && d.pprofAddress !== undefined) {
      add('daemon.pprofAddress', d.pprofAddress, 'is set while daemon.enablePprof is false', 'drop one of them');
    }
    if (d.socketLocation !== undefined && !d.socketLocation.startsWith('/')) {
      add('daemon.socketLocation', d.socketLocation, 'is not an absolute host path', 'use e.g. "/var/run" or "/run/k3s/containerd"');
    }
    if (d.socketFile !== undefined && d.socketFile.includes('/')) {
      add('daemon.socketFile', d.socketFile, 'must be a file name inside socketLocation, not a path', 'put the directory into daemon.socketLocation and the file name here');
    }

    // Gates this construct sets, against what the user wrote.
    const conflict = (gate: string, needed: boolean, why: string, fix: string) => {
      if (user[gate] !== undefined && user[gate] !== needed) add(`featureGates.${gate}`, user[gate], `conflicts with ${why}`, fix);
    };
    if (this.crdProtection !== DeletionProtection.NONE || this.namespaceProtection !== DeletionProtection.NONE) {
      conflict('ResourcesDeletionProtection', true,
        `crdDeletionProtection ${this.crdProtection} / namespaceDeletionProtection ${this.namespaceProtection}, which kruise-manager enforces only with this gate on`,
        'remove the gate, or set crdDeletionProtection and namespaceDeletionProtection to DeletionProtection.NONE');
    }
    if (this.crdProtection === DeletionProtection.CASCADING) {
      conflict('DeletionProtectionForCRDCascadingGate', true,
        'crdDeletionProtection CASCADING: without this gate kruise-manager refuses every deletion of a CRD labelled Cascading',
        'remove the gate, or use crdDeletionProtection DeletionProtection.ALWAYS');
    }
    conflict('EnableExternalCerts', certificates.isExternal,
      certificates.isExternal ? 'certificates (certificates from outside kruise-manager need this gate on)' : 'certificates (kruise-manager writes its own certificates unless certificates is WebhookCertificates.certManager() or .external())',
      certificates.isExternal ? 'remove the gate' : 'remove the gate and set certificates: WebhookCertificates.certManager() (or .external())');
    for (const [field, value, problem, fix] of certificates._problems()) add(field, value, problem, fix);
    if (p.namespaceDeletionProtection !== undefined && p.namespaceDeletionProtection !== DeletionProtection.NONE && !(p.createNamespace ?? true)) {
      add('namespaceDeletionProtection', p.namespaceDeletionProtection, 'needs a namespace created here (createNamespace is false)',
        `label the namespace yourself (${DELETE_PROTECTION_LABEL}=${p.namespaceDeletionProtection}), or set createNamespace: true`);
    }
    if (p.crdDeletionProtection !== undefined && p.crdDeletionProtection !== DeletionProtection.NONE && !(p.installCrds ?? true)) {
      add('crdDeletionProtection', p.crdDeletionProtection, 'needs the CRDs installed here (installCrds is false)', 'drop crdDeletionProtection, or set installCrds: true');
    }

    // The install namespace must carry the label the pod webhook skips.
    out.push(...this.namespaceLabelProblems());
    return out;
  }

  private namespaceLabelProblems(): string[] {
    const p = this.props;
    const ns = this.namespace;
    const sameName = this.node.root.node.findAll()
      .filter((c): c is ApiObject => c instanceof ApiObject && c.kind === 'Namespace' && c.apiVersion === 'v1' && c.name === ns);
    const ours = sameName.filter(c => c.node.scope === this);
    const others = sameName.filter(c => c.node.scope !== this);
    if (ours.length > 0 && others.length > 0) {
      return [fieldError('createNamespace', true, `creates namespace "${ns}", which '${others[0].node.path}' creates too`,
        'set createNamespace: false and keep the label control-plane: openkruise on the other Namespace')];
    }
    if (ours.length > 0 || ns === 'kube-system' || !this.gates.isEnabled('PodWebhook')) return [];
    if (others.length > 0) {
      const label = others[0].metadata.getLabel(CONTROL_PLANE_LABEL.key);
      if (label === CONTROL_PLANE_LABEL.value) return [];
      return [fieldError('namespace', ns, `is created by '${others[0].node.path}' without the label ${CONTROL_PLANE_LABEL.key}: ${CONTROL_PLANE_LABEL.value}, so the pod webhook would intercept kruise-manager's own Pods (no replica could start once all are gone)`,
        `add the label to that Namespace (metadata.labels["${CONTROL_PLANE_LABEL.key}"] = "${CONTROL_PLANE_LABEL.value}")`)];
    }
    if (p.existingNamespaceLabelled) return [];
    return [fieldError('createNamespace', false, `leaves namespace "${ns}" to something else, and nothing here ensures it carries the label ${CONTROL_PLANE_LABEL.key}: ${CONTROL_PLANE_LABEL.value} that the pod webhook skips (without it no kruise-manager Pod can start once all are gone)`,
      `run \`kubectl label namespace ${ns} ${CONTROL_PLANE_LABEL.key}=${CONTROL_PLANE_LABEL.value}\` and set existingNamespaceLabelled: true, or let this construct create the namespace`)];
  }
}
