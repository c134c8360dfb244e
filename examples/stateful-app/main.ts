/**
 * A stateful app on an Advanced StatefulSet: pods are created in parallel,
 * image changes are applied in place (two pods at a time), each pod gets a
 * 20Gi volume from a claim template, and a governing headless Service.
 */
import { App, Chart, ChartProps, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { AdvancedStatefulSet, AdvancedStatefulSetUpdateStrategy, PodUpdatePolicy, PvcRetentionPolicy } from 'cdk8s-kruise';

export class StatefulAppChart extends Chart {
  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, props);

    const db = new AdvancedStatefulSet(this, 'db', {
      metadata: { name: 'db' },
      replicas: 3,
      podMetadata: { labels: { app: 'db' } },
      podManagementPolicy: kplus.PodManagementPolicy.PARALLEL,
      updateStrategy: AdvancedStatefulSetUpdateStrategy.rollingUpdate({
        podUpdatePolicy: PodUpdatePolicy.IN_PLACE_IF_POSSIBLE,
        maxUnavailable: kplus.PercentOrAbsolute.absolute(2),
      }),
      pvcRetention: { whenScaled: PvcRetentionPolicy.DELETE },
      securityContext: { user: 999, group: 999 },
    });
    const data = db.addVolumeClaimTemplate('data', { storage: Size.gibibytes(20) });
    db.addContainer({
      name: 'postgres',
      image: 'postgres:17',
      portNumber: 5432,
      envVariables: { PGDATA: kplus.EnvValue.fromValue('/var/lib/postgresql/data/pgdata') },
      volumeMounts: [{ path: '/var/lib/postgresql/data', volume: data }],
      securityContext: { readOnlyRootFilesystem: false },
    });
  }
}

/** Build the example app; `npx projen examples` synthesizes it. */
export function build(app: App = new App()): App {
  new StatefulAppChart(app, 'stateful-app');
  return app;
}

// `cdk8s synth` runs this file (cdk8s.yaml); the tests and `npx projen examples` call build().
if (require.main === module) build().synth();
