/**
 * A web app on a CloneSet: a partitioned in-place rollout (half of the pods
 * take the new image, updated in place after a 10 second drain), a Service in
 * front, and, once it runs, targeted scale-in of known-bad pods.
 */
import { App, Chart, ChartProps, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { CloneSet, CloneSetUpdateStrategy } from 'cdk8s-kruise';

export interface WebChartProps extends ChartProps {
  /**
   * Pods of the running CloneSet to remove first at the next scale-in (a
   * day-2 change: OpenKruise refuses names of pods the CloneSet does not own
   * yet, so a first deploy sets none).
   */
  readonly podsToDelete?: string[];
}

export class WebChart extends Chart {
  constructor(scope: Construct, id: string, props: WebChartProps = {}) {
    super(scope, id, props);

    const web = new CloneSet(this, 'web', {
      metadata: { name: 'web' },
      replicas: 6,
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
      updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible({
        partition: kplus.PercentOrAbsolute.percent(50),
        maxUnavailable: kplus.PercentOrAbsolute.absolute(1),
        gracePeriod: Duration.seconds(10),
      }),
      scaleStrategy: { maxUnavailable: kplus.PercentOrAbsolute.absolute(2) },
      minReady: Duration.seconds(5),
    });
    // Day-2 change on the running CloneSet: remove these pods first at the next scale-in.
    if (props.podsToDelete) web.deletePods(...props.podsToDelete);
    web.exposeViaService({ name: 'web', ports: [{ port: 80, targetPort: 8080 }] });
  }
}

/** Build the example app; `npx projen examples` synthesizes it. */
export function build(app: App = new App()): App {
  new WebChart(app, 'web-cloneset');
  return app;
}

// `cdk8s synth` runs this file (cdk8s.yaml); the tests and `npx projen examples` call build().
if (require.main === module) build().synth();
