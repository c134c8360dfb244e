/**
 * Options of kruise-manager and kruise-daemon.
 */
import { Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { k8s } from 'cdk8s-plus-28';

/** Output format of the control-plane logs. */
export enum LogFormat {
  /** Plain text (klog). */
  TEXT = 'text',
  /** Structured JSON. */
  JSON = 'json',
}

/** Options of kruise-manager (the controller and webhook Deployment). */
export interface KruiseManagerOptions {
  /**
   * Number of kruise-manager Pods (one leads, the others stand by and serve webhooks).
   *
   * @default 2
   */
  readonly replicas?: number;

  /**
   * klog verbosity (`--v`).
   *
   * @default 4
   */
  readonly logLevel?: number;

  /**
   * Log format (`--logging-format`).
   *
   * @default - the manager's default, text
   */
  readonly logFormat?: LogFormat;

  /**
   * Minimum interval at which every watched object is reconciled again (`--sync-period`).
   *
   * @default Duration.seconds(0) - no periodic resync
   */
  readonly syncPeriod?: Duration;

  /**
   * Requests and limits of the manager container.
   *
   * @default - requests cpu 100m / memory 256Mi, limits cpu 200m / memory 512Mi
   */
  readonly resources?: kplus.ContainerResources;

  /**
   * Run the manager in the host network namespace (needed when the API server
   * cannot reach Pod IPs, e.g. EKS with Calico as CNI).
   *
   * @default false
   */
  readonly hostNetwork?: boolean;

  /**
   * How long a stopping manager Pod keeps serving before kruise-manager is
   * told to stop (a `preStop` sleep). A Pod that is being deleted leaves the
   * webhook Service's endpoints at once, but kube-proxy needs a moment to stop
   * sending new connections to it; without the delay a webhook call the API
   * server opens in that moment (a Pod created while the manager Pods roll,
   * in an upgrade or a takeover) meets a Pod that has already exited and waits
   * out the webhook timeout. The sleep action needs Kubernetes 1.30 or newer;
   * `Duration.seconds(0)` leaves the hook out. A whole number of seconds
   * shorter than the Pods' 10 s grace period.
   *
   * @default Duration.seconds(5)
   */
  readonly drainDelay?: Duration;

  /**
   * Node labels the manager Pods must match.
   *
   * @default - none
   */
  readonly nodeSelector?: { [key: string]: string };

  /**
   * Node affinity of the manager Pods (the Pod anti-affinity that spreads the
   * replicas over nodes is always there).
   *
   * @default - none
   */
  readonly nodeAffinity?: k8s.NodeAffinity;

  /**
   * Tolerations of the manager Pods.
   *
   * @default - none
   */
  readonly tolerations?: k8s.Toleration[];

  /**
   * PriorityClass of the manager Pods.
   *
   * @default - none
   */
  readonly priorityClassName?: string;

  /**
   * Port the webhook server listens on (`WEBHOOK_PORT`); the Service maps 443 to it.
   *
   * @default 9876
   */
  readonly webhookPort?: number;

  /**
   * Port of the metrics endpoint (`--metrics-addr`).
   *
   * @default 8080
   */
  readonly metricsPort?: number;

  /**
   * Port of the health endpoints (`--health-probe-addr`).
   *
   * @default 8000
   */
  readonly healthPort?: number;

  /**
   * QPS of the manager's API client (`--rest-config-qps`).
   *
   * @default - the manager's default, 30
   */
  readonly restConfigQps?: number;

  /**
   * Burst of the manager's API client (`--rest-config-burst`).
   *
   * @default - the manager's default, 50
   */
  readonly restConfigBurst?: number;

  /**
   * Serve pprof (`--enable-pprof`).
   *
   * @default - the manager's default, on
   */
  readonly enablePprof?: boolean;

  /**
   * Address pprof listens on (`--pprof-addr`), e.g. `localhost:8090` to keep it off the Pod network.
   *
   * @default - the manager's default, ":8090"
   */
  readonly pprofAddress?: string;

  /**
   * Create a PodDisruptionBudget (`maxUnavailable: 1`) for the manager Pods,
   * so that node drains never take every replica down at once.
   *
   * @default true
   */
  readonly podDisruptionBudget?: boolean;
}

/** Options of the kubelet credential provider plugins kruise-daemon uses to pull images. */
export interface KruiseDaemonCredentialProvider {
  /**
   * ConfigMap (in the install namespace) holding `CredentialProviderPlugin.yaml`.
   *
   * @default "credential-provider-config"
   */
  readonly configMapName?: string;

  /**
   * Host directory holding the plugin binaries.
   *
   * @default "credential-provider-plugin"
   */
  readonly hostPath?: string;

  /**
   * Host directory with AWS credentials, mounted at `/root/.aws`.
   *
   * @default - not mounted
   */
  readonly awsCredentialsDir?: string;
}

/** Options of kruise-daemon. */
export interface KruiseDaemonOptions {
  /**
   * klog verbosity (`--v`).
   *
   * @default 4
   */
  readonly logLevel?: number;

  /**
   * Port of the health and metrics endpoint (`--addr`), on the node's network.
   *
   * @default 10221
   */
  readonly port?: number;

  /**
   * Serve pprof (`--enable-pprof`).
   *
   * @default true
   */
  readonly enablePprof?: boolean;

  /**
   * Address pprof listens on (`--pprof-addr`).
   *
   * @default "localhost:10222"
   */
  readonly pprofAddress?: string;

  /**
   * Host directory holding the container runtime socket, mounted read-only at `/hostvarrun`.
   *
   * @default "/var/run"
   */
  readonly socketLocation?: string;

  /**
   * Socket file name inside `socketLocation` (`--socket-file`); empty lets
   * kruise-daemon probe the usual containerd / CRI-O / docker sockets.
   *
   * @default ""
   */
  readonly socketFile?: string;

  /**
   * Node labels the daemon Pods must match.
   *
   * @default - none
   */
  readonly nodeSelector?: { [key: string]: string };

  /**
   * Affinity of the daemon Pods.
   *
   * @default - none besides the virtual-kubelet exclusion (see `skipVirtualKubeletNodes`)
   */
  readonly affinity?: k8s.Affinity;

  /**
   * Keep the daemon off virtual-kubelet nodes (nodes labelled `type=virtual-kubelet`),
   * where it cannot run. The requirement is added to every required node
   * selector term of `affinity`.
   *
   * @default true
   */
  readonly skipVirtualKubeletNodes?: boolean;

  /**
   * Requests and limits of the daemon container.
   *
   * @default - requests cpu 0 / memory 0, limits cpu 50m / memory 128Mi
   */
  readonly resources?: kplus.ContainerResources;

  /**
   * Extra environment variables of the daemon, e.g. `HTTP_PROXY`, `HTTPS_PROXY`, `NO_PROXY`
   * when images are pulled through a proxy. Rendered in the order given.
   *
   * @default - none
   */
  readonly extraEnv?: { [name: string]: kplus.EnvValue };

  /**
   * Use kubelet credential provider plugins to pull images.
   *
   * @default - not used
   */
  readonly credentialProvider?: KruiseDaemonCredentialProvider;

  /**
   * Run the daemon container privileged, for distributions whose runtime
   * socket is not reachable otherwise (e.g. RKE2 with SELinux).
   *
   * @default false
   */
  readonly privileged?: boolean;

  /**
   * PriorityClass of the daemon Pods.
   *
   * @default - none
   */
  readonly priorityClassName?: string;

  /**
   * QPS of the daemon's API client (`--rest-config-qps`).
   *
   * @default - client-go's default
   */
  readonly restConfigQps?: number;

  /**
   * Burst of the daemon's API client (`--rest-config-burst`).
   *
   * @default - client-go's default
   */
  readonly restConfigBurst?: number;
}

/** What became of one value of the chart. */
export interface HelmValueMapping {
  /** The value's path in the chart's values (`manager.image.repository`). */
  readonly path: string;
  /** The value as given. */
  readonly value: any;
  /**
   * The prop it sets (`imageRepository`), when it is carried over.
   *
   * @default - not carried over (see `refusal`)
   */
  readonly prop?: string;
  /**
   * Why it is not carried over, when it is not.
   *
   * @default - carried over
   */
  readonly refusal?: string;
}
