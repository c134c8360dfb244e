/**
 * Day-2 operations on nodes and running pods, as code reviewed and applied
 * like any other change (GitOps):
 *
 * - the images of the `web` CloneSet are pulled onto the nodes of its pods
 *   ahead of a scale-out (`prePullImages()`), and a list of base images onto
 *   every node of the web pool, including nodes that join later
 *   (ImageListPullJob);
 * - a custom probe marks the pods whose cache is warm, as a pod condition
 *   and a lower deletion cost for cold pods (PodProbeMarker);
 * - containers of a running pod are restarted in place from a list of
 *   pending restarts (ContainerRecreateRequest): add an entry, merge, and
 *   the GitOps tool applies it; remove it once it finished;
 * - a debug container is added to one running web pod (EphemeralJob);
 * - a cache on local disks keeps each pod on its node across recreation
 *   (PersistentPodState).
 */
import { App, Chart, ChartProps, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import {
  AdvancedStatefulSet, CloneSet, ContainerRecreateFailurePolicy, EphemeralJob, ImageListPullJob, ImagePullJobCompletionPolicy, ImagePullNodes,
  PodUpdatePolicy, AdvancedStatefulSetUpdateStrategy,
} from 'cdk8s-kruise';

/** Restarts to apply: the pod (from `kubectl get pods`) and the containers to restart. */
export const RESTARTS: Array<{ pod: string; containers: string[] }> = [
  { pod: 'web-7xk2p', containers: ['web'] },
];

const resources = {
  cpu: { request: kplus.Cpu.millis(100), limit: kplus.Cpu.millis(500) },
  memory: { request: Size.mebibytes(64), limit: Size.mebibytes(256) },
};

export class NodeOperationsChart extends Chart {
  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, props);

    const web = new CloneSet(this, 'web', {
      metadata: { name: 'web' },
      replicas: 4,
      podMetadata: { labels: { app: 'web' } },
      containers: [{
        name: 'web',
        image: 'nginxinc/nginx-unprivileged:1.27',
        portNumber: 8080,
        resources,
        securityContext: { readOnlyRootFilesystem: false },
      }],
    });
    web.scheduling.attract(kplus.Node.labeled(kplus.NodeLabelQuery.is('pool', 'web')));

    // warm the nodes of the web pods (two at a time), cleaned up an hour after
    web.prePullImages({ parallelism: 2, completionPolicy: ImagePullJobCompletionPolicy.always({ ttlAfterFinished: Duration.hours(1) }) });

    // base images on every node of the pool, now and when nodes join
    new ImageListPullJob(this, 'base-images', {
      metadata: { name: 'base-images' },
      images: ['busybox:1.36', 'nicolaka/netshoot:v0.13'],
      nodes: ImagePullNodes.labeled(kplus.LabelSelector.of({ labels: { pool: 'web' } })),
      parallelism: 5,
      completionPolicy: ImagePullJobCompletionPolicy.never(),
    });

    // a warm cache is a pod condition, and a cold pod is the first to go at scale-in
    web.addProbeMarker({
      name: 'cache-warm',
      containerName: 'web',
      probe: kplus.Probe.fromHttpGet('/cache/warm', { periodSeconds: Duration.seconds(10), timeoutSeconds: Duration.seconds(2) }),
      podConditionType: 'example.com/cache-warm',
      whenSucceeded: { annotations: { 'controller.kubernetes.io/pod-deletion-cost': '100' } },
      whenFailed: { annotations: { 'controller.kubernetes.io/pod-deletion-cost': '-100' } },
    });

    for (const r of RESTARTS) {
      web.recreateContainers(r.pod, {
        containers: r.containers,
        strategy: {
          failurePolicy: ContainerRecreateFailurePolicy.FAIL,
          unreadyGracePeriod: Duration.seconds(10),
          minStarted: Duration.seconds(10),
        },
        activeDeadline: Duration.minutes(5),
      });
    }

    // a shell next to the web container of one pod (remove once done)
    new EphemeralJob(this, 'debug-web', {
      metadata: { name: 'debug-web' },
      selector: kplus.LabelSelector.of({ labels: { app: 'web' } }),
      replicas: 1,
      activeDeadline: Duration.hours(1),
      containers: [{
        name: 'netshoot',
        image: 'nicolaka/netshoot:v0.13',
        targetContainerName: 'web',
        command: ['sleep', '3600'],
        stdin: true,
        tty: true,
      }],
    });

    // a cache on local disks: a recreated pod goes back to the node with its data
    const cache = new AdvancedStatefulSet(this, 'cache', {
      metadata: { name: 'cache' },
      replicas: 3,
      podManagementPolicy: kplus.PodManagementPolicy.PARALLEL,
      podMetadata: { labels: { app: 'cache' } },
      containers: [{ name: 'redis', image: 'redis:7.4', portNumber: 6379, resources }],
      updateStrategy: AdvancedStatefulSetUpdateStrategy.rollingUpdate({ podUpdatePolicy: PodUpdatePolicy.IN_PLACE_IF_POSSIBLE }),
      volumeClaimTemplates: [{ name: 'data', storage: Size.gibibytes(10), storageClassName: 'local-path' }],
    });
    cache.containers[0].mount('/data', cache.claimVolume('data'));
    cache.persistPodState({ requiredTopology: ['kubernetes.io/hostname'] });
  }
}

/** Build the example app; `npx projen examples` synthesizes it. */
export function build(app: App = new App()): App {
  new NodeOperationsChart(app, 'node-operations');
  return app;
}

// `cdk8s synth` runs this file (cdk8s.yaml); the tests and `npx projen examples` call build().
if (require.main === module) build().synth();
