/**
 * A canary release of a CloneSet through an nginx Ingress: every new version
 * first runs on one pod that gets 20% of the traffic until someone approves,
 * then on half of the pods with half of the traffic for ten minutes, then on
 * all of them. The CloneSet keeps no partition of its own: the Rollout's
 * steps decide how many pods are updated (in place).
 *
 * Kruise Rollouts and OpenKruise are installed separately here (see the
 * docs/control-planes.md, KruiseRolloutControlPlane, to install both from the same app).
 */
import { App, Chart, ChartProps, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { CloneSet, CloneSetUpdateStrategy, RolloutPause, RolloutStrategy, RolloutTrafficRouting } from 'cdk8s-kruise';

export class CanaryChart extends Chart {
  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, { namespace: 'storefront', ...props });

    const web = new CloneSet(this, 'web', {
      metadata: { name: 'web' },
      replicas: 4,
      podMetadata: { labels: { app: 'web' } },
      containers: [{
        name: 'nginx',
        image: 'nginxinc/nginx-unprivileged:1.27',
        portNumber: 8080,
        resources: {
          cpu: { request: kplus.Cpu.millis(100), limit: kplus.Cpu.millis(500) },
          memory: { request: Size.mebibytes(64), limit: Size.mebibytes(256) },
        },
        securityContext: { readOnlyRootFilesystem: false },
      }],
      // Pods are updated in place; how many at a time is the Rollout's business.
      updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible({ gracePeriod: Duration.seconds(10) }),
    });
    const service = web.exposeViaService({ name: 'web', ports: [{ port: 80, targetPort: 8080 }] });

    const ingress = new kplus.Ingress(this, 'ingress', {
      metadata: { name: 'web', annotations: { 'kubernetes.io/ingress.class': 'nginx' } },
    });
    ingress.addHostRule('web.example.com', '/', kplus.IngressBackend.fromService(service));

    web.rollout({
      strategy: RolloutStrategy.canary({
        steps: [
          { replicas: kplus.PercentOrAbsolute.absolute(1), traffic: 20, pause: RolloutPause.manual() },
          { replicas: kplus.PercentOrAbsolute.percent(50), traffic: 50, pause: RolloutPause.after(Duration.minutes(10)) },
          { replicas: kplus.PercentOrAbsolute.percent(100) },
        ],
        trafficRouting: RolloutTrafficRouting.ingress({ ingress }),
      }),
    });
  }
}

/** Build the example app; `npx projen examples` synthesizes it. */
export function build(app: App = new App()): App {
  new CanaryChart(app, 'canary-rollout');
  return app;
}

// `cdk8s synth` runs this file (cdk8s.yaml); the tests and `npx projen examples` call build().
if (require.main === module) build().synth();
