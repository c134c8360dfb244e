/**
 * The reference app of the language smoke tests. test/python/, test/java/ and
 * test/go/ build the same app through the packages jsii-pacmak makes, and
 * their YAML must be byte-identical to what this TypeScript version writes.
 * Change all four together.
 */
import { App, Chart, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  CloneSet,
  CloneSetUpdateStrategy,
  KruiseControlPlane,
  PodUnavailableBudget,
  SidecarInjectPolicy,
  SidecarSet,
  SidecarSetUpdateStrategy,
} from '../../src';

export function buildReferenceApp(app: App): App {
  const chart = new Chart(app, 'smoke');

  new KruiseControlPlane(chart, 'kruise');

  const web = new CloneSet(chart, 'web', {
    metadata: { name: 'web' },
    podMetadata: { labels: { app: 'web' } },
    replicas: 4,
    containers: [{
      name: 'web',
      image: 'nginxinc/nginx-unprivileged:1.27',
      portNumber: 8080,
      resources: {
        cpu: { request: kplus.Cpu.millis(100), limit: kplus.Cpu.millis(500) },
        memory: { request: Size.mebibytes(128), limit: Size.mebibytes(256) },
      },
      securityContext: { readOnlyRootFilesystem: false },
    }],
    updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible({
      partition: kplus.PercentOrAbsolute.percent(50),
      maxUnavailable: kplus.PercentOrAbsolute.absolute(1),
      gracePeriod: Duration.seconds(10),
    }),
  });

  new SidecarSet(chart, 'log-agent', {
    metadata: { name: 'log-agent' },
    selector: kplus.LabelSelector.of({ labels: { app: 'web' } }),
    containers: [{
      name: 'log-agent',
      image: 'fluent/fluent-bit:3.1',
      injectPolicy: SidecarInjectPolicy.AFTER_APP_CONTAINER,
    }],
    updateStrategy: SidecarSetUpdateStrategy.rollingUpdate({ maxUnavailable: kplus.PercentOrAbsolute.absolute(1) }),
  });

  new PodUnavailableBudget(chart, 'web-budget', {
    metadata: { name: 'web-budget' },
    target: web,
    maxUnavailable: kplus.PercentOrAbsolute.percent(25),
  });

  return app;
}
