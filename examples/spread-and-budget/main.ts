/**
 * A CloneSet spread over two zones with an elastic (spot) overflow subset,
 * protected by a PodUnavailableBudget.
 */
import { App, Chart, Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { CloneSet, PodUnavailableBudgetOperation, WorkloadSpreadScheduleStrategy } from 'cdk8s-kruise';

const zone = (z: string) => [kplus.NodeLabelQuery.is('topology.kubernetes.io/zone', z)];

export class SpreadChart extends Chart {
  constructor(scope: Construct, id: string) {
    super(scope, id, { namespace: 'checkout' });
    new kplus.Namespace(this, 'namespace', { metadata: { name: 'checkout' } });
    const web = new CloneSet(this, 'web', {
      metadata: { name: 'checkout' },
      replicas: 10,
      containers: [{ name: 'checkout', image: 'checkout:3.2', portNumber: 8080 }],
    });
    web.spreadOver({
      metadata: { name: 'checkout' },
      subsets: [
        { name: 'zone-a', requiredNodeLabels: zone('eu-west-1a'), maxReplicas: kplus.PercentOrAbsolute.absolute(4), patch: { metadata: { labels: { 'checkout.io/subset': 'zone-a' } } } },
        { name: 'zone-b', requiredNodeLabels: zone('eu-west-1b'), maxReplicas: kplus.PercentOrAbsolute.absolute(4), patch: { metadata: { labels: { 'checkout.io/subset': 'zone-b' } } } },
        {
          name: 'elastic',
          requiredNodeLabels: [kplus.NodeLabelQuery.is('node.io/capacity', 'spot')],
          tolerations: [kplus.NodeTaintQuery.is('node.io/capacity', 'spot', { effect: kplus.TaintEffect.NO_SCHEDULE })],
          patch: { metadata: { labels: { 'checkout.io/subset': 'elastic' } } },
        },
      ],
      scheduleStrategy: WorkloadSpreadScheduleStrategy.adaptive({ rescheduleCritical: Duration.seconds(30) }),
    });
    web.protect({
      metadata: { name: 'checkout' },
      maxUnavailable: kplus.PercentOrAbsolute.percent(20),
      protectOperations: [PodUnavailableBudgetOperation.DELETE, PodUnavailableBudgetOperation.EVICT, PodUnavailableBudgetOperation.UPDATE],
    });
  }
}

/** Build the example app; `npx projen examples` synthesizes it. */
export function build(app: App = new App()): App {
  new SpreadChart(app, 'spread-and-budget');
  return app;
}

// `cdk8s synth` runs this file (cdk8s.yaml); the tests and `npx projen examples` call build().
if (require.main === module) build().synth();
