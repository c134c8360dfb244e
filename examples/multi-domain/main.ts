/**
 * One app over three zones with UnitedDeployments:
 *
 * - `shop`: a CloneSet in each zone, 6 replicas split 2 / 2 / rest, the
 *   zone-c subset on spot nodes (toleration, and a patch that tells the app
 *   so). A rollout goes zone by zone: the partitions hold back every pod of
 *   zone-b and zone-c while zone-a takes the new revision (lower them, one
 *   zone at a time, to go on).
 * - `checkout`: Deployments placed adaptively: at least 2 pods on the
 *   on-demand nodes of zone-a (at most 4), the rest wherever there is room,
 *   pods that cannot be scheduled in a zone moving on after a minute.
 */
import { App, Chart, ChartProps, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import {
  CloneSetUpdateStrategy, UnitedDeployment, UnitedDeploymentScheduleStrategy, UnitedDeploymentTemplate,
} from 'cdk8s-kruise';

/** The zones, as the `topology.kubernetes.io/zone` label of the nodes says. */
export const ZONES = ['zone-a', 'zone-b', 'zone-c'];
const inZone = (zone: string) => [kplus.NodeLabelQuery.is('topology.kubernetes.io/zone', zone)];

const resources = {
  cpu: { request: kplus.Cpu.millis(100), limit: kplus.Cpu.millis(500) },
  memory: { request: Size.mebibytes(64), limit: Size.mebibytes(256) },
};

export class MultiDomainChart extends Chart {
  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, props);

    new UnitedDeployment(this, 'shop', {
      metadata: { name: 'shop' },
      replicas: 6,
      template: UnitedDeploymentTemplate.cloneSet({
        metadata: { labels: { app: 'shop' } },
        podMetadata: { labels: { app: 'shop' } },
        containers: [{
          name: 'shop',
          image: 'nginxinc/nginx-unprivileged:1.27',
          portNumber: 8080,
          resources,
          securityContext: { readOnlyRootFilesystem: false },
        }],
        updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible({ maxUnavailable: kplus.PercentOrAbsolute.absolute(1) }),
      }),
      subsets: [
        { name: 'zone-a', nodes: inZone('zone-a'), replicas: kplus.PercentOrAbsolute.absolute(2) },
        { name: 'zone-b', nodes: inZone('zone-b'), replicas: kplus.PercentOrAbsolute.absolute(2) },
        {
          name: 'zone-c',
          nodes: inZone('zone-c'),
          tolerations: [kplus.NodeTaintQuery.is('node.example.com/spot', 'true', { effect: kplus.TaintEffect.NO_SCHEDULE })],
          // a strategic-merge patch of the subset's pod template
          patch: { spec: { containers: [{ name: 'shop', env: [{ name: 'CAPACITY', value: 'spot' }] }] } },
        },
      ],
      // zone-a first: zone-b and zone-c keep all their pods on the old revision
      partitions: { 'zone-a': 0, 'zone-b': 2, 'zone-c': 2 },
      revisionHistoryLimit: 5,
    });

    new UnitedDeployment(this, 'checkout', {
      metadata: { name: 'checkout' },
      replicas: 5,
      template: UnitedDeploymentTemplate.deployment({
        podMetadata: { labels: { app: 'checkout' } },
        containers: [{
          name: 'checkout',
          image: 'nginxinc/nginx-unprivileged:1.27',
          portNumber: 8080,
          resources,
          securityContext: { readOnlyRootFilesystem: false },
        }],
        strategy: kplus.DeploymentStrategy.rollingUpdate({ maxUnavailable: kplus.PercentOrAbsolute.absolute(1) }),
      }),
      scheduleStrategy: UnitedDeploymentScheduleStrategy.adaptive({ rescheduleCritical: Duration.minutes(1) }),
      subsets: [
        {
          name: 'on-demand',
          nodes: [...inZone('zone-a'), kplus.NodeLabelQuery.is('node.example.com/capacity', 'on-demand')],
          minReplicas: kplus.PercentOrAbsolute.absolute(2),
          maxReplicas: kplus.PercentOrAbsolute.absolute(4),
        },
        { name: 'elsewhere', nodes: [kplus.NodeLabelQuery.in('topology.kubernetes.io/zone', ZONES)] },
      ],
    });
  }
}

/** Build the example app; `npx projen examples` synthesizes it. */
export function build(app: App = new App()): App {
  new MultiDomainChart(app, 'multi-domain');
  return app;
}

// `cdk8s synth` runs this file (cdk8s.yaml); the tests and `npx projen examples` call build().
if (require.main === module) build().synth();
