/**
 * Batch work on every node: a nightly AdvancedCronJob that runs a
 * BroadcastJob pruning old application logs on each node (control-plane
 * nodes included, ten nodes at a time), and a one-off BroadcastJob that
 * checks every node can reach the image registry, running on all nodes even
 * when some fail, cleaned up an hour after it finishes.
 */
import { App, Chart, ChartProps, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import {
  AdvancedCronJob, AdvancedCronJobConcurrencyPolicy, AdvancedCronJobTemplate, BroadcastJob, BroadcastJobCompletionPolicy, BroadcastJobFailurePolicy,
} from 'cdk8s-kruise';

const resources = {
  cpu: { request: kplus.Cpu.millis(50), limit: kplus.Cpu.millis(200) },
  memory: { request: Size.mebibytes(32), limit: Size.mebibytes(64) },
};

export class BatchJobsChart extends Chart {
  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, props);

    const logs = kplus.Volume.fromHostPath(this, 'app-logs', 'app-logs', { path: '/var/log/app', type: kplus.HostPathVolumeType.DIRECTORY_OR_CREATE });
    const prune = new AdvancedCronJob(this, 'log-prune', {
      metadata: { name: 'log-prune' },
      schedule: '0 3 * * *',
      timeZone: 'Europe/Berlin',
      concurrencyPolicy: AdvancedCronJobConcurrencyPolicy.FORBID,
      startingDeadline: Duration.minutes(30),
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 3,
      template: AdvancedCronJobTemplate.broadcastJob({
        podMetadata: { labels: { app: 'log-prune' } },
        parallelism: kplus.PercentOrAbsolute.absolute(10),
        completionPolicy: BroadcastJobCompletionPolicy.always({ activeDeadline: Duration.hours(1), ttlAfterFinished: Duration.hours(6) }),
        failurePolicy: BroadcastJobFailurePolicy.continueOnFailure({ restartLimit: 2 }),
        securityContext: { ensureNonRoot: false },
        containers: [{
          name: 'prune',
          image: 'busybox:1.36',
          command: ['sh', '-c', 'find /host/var/log/app -type f -name "*.log*" -mtime +7 -print -delete'],
          resources,
          // the logs belong to root on the node
          securityContext: { ensureNonRoot: false, user: 0, group: 0 },
          volumeMounts: [{ path: '/host/var/log/app', volume: logs }],
        }],
      }),
    });
    prune.workload!.scheduling.tolerate(kplus.Node.tainted(kplus.NodeTaintQuery.exists('node-role.kubernetes.io/control-plane')));

    new BroadcastJob(this, 'registry-check', {
      metadata: { name: 'registry-check' },
      podMetadata: { labels: { app: 'registry-check' } },
      completionPolicy: BroadcastJobCompletionPolicy.always({ activeDeadline: Duration.minutes(10), ttlAfterFinished: Duration.hours(1) }),
      failurePolicy: BroadcastJobFailurePolicy.continueOnFailure(),
      containers: [{
        name: 'check',
        image: 'curlimages/curl:8.10.1',
        command: ['curl', '--fail', '--silent', '--show-error', '--max-time', '10', '--output', '/dev/null', 'https://registry.example.com/v2/'],
        resources,
        // the image's curl_user, by number so the kubelet can check it is not root
        securityContext: { user: 100, group: 101 },
      }],
    });
  }
}

/** Build the example app; `npx projen examples` synthesizes it. */
export function build(app: App = new App()): App {
  new BatchJobsChart(app, 'batch-jobs');
  return app;
}

// `cdk8s synth` runs this file (cdk8s.yaml); the tests and `npx projen examples` call build().
if (require.main === module) build().synth();
