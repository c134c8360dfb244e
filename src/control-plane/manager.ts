/**
 * kruise-manager: the controller Deployment, its webhook Service, the
 * certificate Secret and its PodDisruptionBudget.
 */
import { ApiObject, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { ComponentRender, goDuration, renderResources } from './_util';
import { KruiseManagerOptions } from './options';
import { NAMES } from './rbac';

/** The labels of the manager Pods. */
export const MANAGER_LABELS = { 'control-plane': 'controller-manager' };

/** Resolved options for rendering. */
export interface ManagerRender extends ComponentRender {
  readonly options: KruiseManagerOptions;
}

/** Resolved port numbers of the manager. */
export function managerPorts(o: KruiseManagerOptions) {
  return { webhook: o.webhookPort ?? 9876, metrics: o.metricsPort ?? 8080, health: o.healthPort ?? 8000 };
}

/** The default manager resources (the chart's). */
export const MANAGER_RESOURCES: kplus.ContainerResources = {
  cpu: { request: kplus.Cpu.millis(100), limit: kplus.Cpu.millis(200) },
  memory: { request: Size.mebibytes(256), limit: Size.mebibytes(512) },
};

/** Container securityContext: non-root, nothing added unless a port needs binding below 1024. */
export function hardenedSecurityContext(lowPorts: boolean, nonRoot: boolean): k8s.SecurityContext {
  return {
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'], add: lowPorts ? ['NET_BIND_SERVICE'] : undefined },
    runAsNonRoot: nonRoot ? true : undefined,
    runAsUser: nonRoot ? 65534 : undefined,
    seccompProfile: { type: 'RuntimeDefault' },
  };
}

/** Create the manager Deployment, the webhook Service and (optionally) the PDB under `scope`. */
export function addManager(scope: Construct, r: ManagerRender): ApiObject[] {
  const o = r.options;
  const ports = managerPorts(o);
  const args = [
    '--enable-leader-election',
    `--metrics-addr=:${ports.metrics}`,
    `--health-probe-addr=:${ports.health}`,
    '--logtostderr=true',
    `--leader-election-namespace=${r.namespace}`,
    `--v=${o.logLevel ?? 4}`,
    `--feature-gates=${r.featureGates}`,
    `--sync-period=${goDuration(o.syncPeriod ?? Duration.seconds(0))}`,
  ];
  if (o.logFormat) args.push(`--logging-format=${o.logFormat}`);
  if (o.restConfigQps !== undefined) args.push(`--rest-config-qps=${o.restConfigQps}`);
  if (o.restConfigBurst !== undefined) args.push(`--rest-config-burst=${o.restConfigBurst}`);
  if (o.enablePprof !== undefined) args.push(`--enable-pprof=${o.enablePprof}`);
  if (o.pprofAddress !== undefined) args.push(`--pprof-addr=${o.pprofAddress}`);

  const env: k8s.EnvVar[] = [];
  if (r.cacheMutationDetector) env.push({ name: 'KUBE_CACHE_MUTATION_DETECTOR', value: 'true' });
  env.push({ name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } });
  env.push({ name: 'WEBHOOK_PORT', value: `${ports.webhook}` });

  const lowPorts = [ports.webhook, ports.metrics, ports.health].some(p => p < 1024);
  const antiAffinity: k8s.PodAntiAffinity = {
    preferredDuringSchedulingIgnoredDuringExecution: [{
      podAffinityTerm: {
        labelSelector: { matchExpressions: [{ key: 'control-plane', operator: 'In', values: ['controller-manager'] }] },
        topologyKey: 'kubernetes.io/hostname',
      },
      weight: 100,
    }],
  };

  // a Pod being deleted keeps serving webhooks until kube-proxy has stopped sending it new connections
  const drain = Math.round((o.drainDelay ?? Duration.seconds(5)).toMilliseconds({ integral: false }) / 1000);
  const deployment = new ManagerDeployment(scope, 'ManagerDeployment', drain > 0 && drain < 10 ? drain : 0, {
    metadata: { labels: { ...MANAGER_LABELS }, name: 'kruise-controller-manager', namespace: r.namespace },
    spec: {
      replicas: o.replicas ?? 2,
      selector: { matchLabels: { ...MANAGER_LABELS } },
      minReadySeconds: 3,
      strategy: {
        type: 'RollingUpdate',
        rollingUpdate: { maxUnavailable: k8s.IntOrString.fromNumber(0), maxSurge: k8s.IntOrString.fromString('100%') },
      },
      template: {
        metadata: { labels: { ...MANAGER_LABELS } },
        spec: {
          imagePullSecrets: r.imagePullSecrets.length > 0 ? r.imagePullSecrets.map(name => ({ name })) : undefined,
          containers: [{
            args,
            command: ['/manager'],
            image: r.image,
            imagePullPolicy: r.imagePullPolicy,
            securityContext: hardenedSecurityContext(lowPorts, true),
            name: 'manager',
            env,
            ports: [
              { containerPort: ports.webhook, name: 'webhook-server', protocol: 'TCP' },
              { containerPort: ports.metrics, name: 'metrics', protocol: 'TCP' },
              { containerPort: ports.health, name: 'health', protocol: 'TCP' },
            ],
            readinessProbe: { httpGet: { path: 'readyz', port: k8s.IntOrString.fromNumber(ports.health) } },
            resources: renderResources(o.resources ?? MANAGER_RESOURCES),
          }],
          hostNetwork: o.hostNetwork ?? false,
          terminationGracePeriodSeconds: 10,
          serviceAccountName: NAMES.managerServiceAccount,
          priorityClassName: o.priorityClassName,
          affinity: { podAntiAffinity: antiAffinity, nodeAffinity: o.nodeAffinity },
          topologySpreadConstraints: [{
            labelSelector: { matchLabels: { ...MANAGER_LABELS } },
            matchLabelKeys: ['pod-template-hash'],
            maxSkew: 1,
            topologyKey: 'topology.kubernetes.io/zone',
            whenUnsatisfiable: 'ScheduleAnyway',
          }],
          nodeSelector: o.nodeSelector && Object.keys(o.nodeSelector).length > 0 ? { ...o.nodeSelector } : undefined,
          tolerations: o.tolerations && o.tolerations.length > 0 ? [...o.tolerations] : undefined,
        },
      },
    },
  });
  const out: ApiObject[] = [deployment];
  if (o.podDisruptionBudget ?? true) {
    out.push(new k8s.KubePodDisruptionBudget(scope, 'ManagerPodDisruptionBudget', {
      metadata: { labels: { ...MANAGER_LABELS }, name: 'kruise-controller-manager', namespace: r.namespace },
      spec: { maxUnavailable: k8s.IntOrString.fromNumber(1), selector: { matchLabels: { ...MANAGER_LABELS } } },
    }));
  }
  return out;
}

/**
 * The manager Deployment with its `preStop` sleep: the Kubernetes 1.28 types
 * of cdk8s-plus-28 know no `sleep` lifecycle handler (Kubernetes 1.30 has it)
 * and drop it from the JSON, so it is written into the rendered container.
 */
class ManagerDeployment extends k8s.KubeDeployment {
  constructor(scope: Construct, id: string, private readonly drainSeconds: number, props: k8s.KubeDeploymentProps) {
    super(scope, id, props);
  }

  public toJson(): any {
    const json = super.toJson();
    const manager = json.spec?.template?.spec?.containers?.[0];
    if (this.drainSeconds > 0 && manager) manager.lifecycle = { preStop: { sleep: { seconds: this.drainSeconds } } };
    return json;
  }
}

/** Create the webhook Service under `scope`. */
export function addWebhookService(scope: Construct, namespace: string, webhookPort: number): ApiObject {
  return new k8s.KubeService(scope, 'WebhookService', {
    metadata: { name: NAMES.webhookService, namespace },
    spec: {
      ports: [{ port: 443, targetPort: k8s.IntOrString.fromNumber(webhookPort) }],
      selector: { ...MANAGER_LABELS },
    },
  });
}

/**
 * Create the certificate Secret under `scope`: name only, no data and no
 * labels. kruise-manager fills it (and replaces the whole object when it
 * does), so anything written here besides the name would be reset at runtime.
 */
/** Flux's annotation for an object it creates and never updates (kustomize-controller's IfNotPresent selector). */
export const FLUX_IF_NOT_PRESENT = ['kustomize.toolkit.fluxcd.io/ssa', 'IfNotPresent'] as const;

export function addWebhookSecret(scope: Construct, namespace: string): ApiObject {
  // `type` (the default, Opaque) gives server-side apply a field we own; the
  // data is kruise-manager's and is never emitted. kruise-manager writes the
  // Secret by replacing it whole (name, namespace and data only), which drops
  // the labels Flux puts on every object it applies; Flux would put them back
  // on its next reconciliation after each certificate write. `ssa: IfNotPresent`
  // has Flux create the Secret and leave it alone after that.
  return new k8s.KubeSecret(scope, 'WebhookSecret', {
    metadata: { name: NAMES.webhookSecret, namespace, annotations: { [FLUX_IF_NOT_PRESENT[0]]: FLUX_IF_NOT_PRESENT[1] } },
    type: 'Opaque',
  });
}
