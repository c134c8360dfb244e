/**
 * A node agent on an Advanced DaemonSet: a log shipper on every node, rolled
 * out first to the canary node pool, 10% of the nodes at a time, with image
 * changes applied in place.
 */
import { App, Chart, ChartProps, Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { AdvancedDaemonSet, AdvancedDaemonSetUpdateStrategy } from 'cdk8s-kruise';

export class NodeAgentChart extends Chart {
  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, props);

    const logs = kplus.Volume.fromHostPath(this, 'varlog', 'varlog', { path: '/var/log' });
    const agent = new AdvancedDaemonSet(this, 'agent', {
      metadata: { name: 'log-agent' },
      podMetadata: { labels: { app: 'log-agent' } },
      containers: [{
        name: 'fluent-bit',
        image: 'fluent/fluent-bit:3.1',
        volumeMounts: [{ path: '/var/log', volume: logs, readOnly: true }],
        securityContext: { ensureNonRoot: false },
      }],
      updateStrategy: AdvancedDaemonSetUpdateStrategy.inPlaceIfPossible({
        maxUnavailable: kplus.PercentOrAbsolute.percent(10),
        nodeSelector: kplus.LabelSelector.of({ labels: { 'node-pool': 'canary' } }),
      }),
      minReady: Duration.seconds(10),
      burstReplicas: kplus.PercentOrAbsolute.absolute(50),
    });
    agent.scheduling.tolerate(kplus.Node.tainted(kplus.NodeTaintQuery.exists('node-role.kubernetes.io/control-plane')));
  }
}

/** Build the example app; `npx projen examples` synthesizes it. */
export function build(app: App = new App()): App {
  new NodeAgentChart(app, 'node-agent');
  return app;
}

// `cdk8s synth` runs this file (cdk8s.yaml); the tests and `npx projen examples` call build().
if (require.main === module) build().synth();
