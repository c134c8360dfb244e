/**
 * The properties of `KruiseControlPlane` (./control-plane.ts), apart from the
 * construct, so that what maps Helm values to them (./helm-values.ts) needs
 * only these and the construct loads that mapping when asked.
 */
import { Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import type { WebhookCertificates } from './certs';
import { KruiseDaemonOptions, KruiseManagerOptions } from './options';

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
