/**
 * The L1 bindings: a CloneSet and an Advanced StatefulSet written field by
 * field against the OpenKruise 1.9 API, with typed pod and PVC templates.
 */
import { App, Chart, ChartProps } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { kruise } from 'cdk8s-kruise';

export class L1WorkloadsChart extends Chart {
  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, props);

    const web = { app: 'web' };
    new kruise.KubeCloneSet(this, 'web', {
      metadata: { name: 'web' },
      spec: {
        replicas: 4,
        selector: { matchLabels: web },
        template: {
          metadata: { labels: web },
          spec: {
            readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
            containers: [{
              name: 'nginx',
              image: 'nginx:1.27',
              ports: [{ containerPort: 80 }],
              resources: { requests: { cpu: k8s.Quantity.fromString('100m'), memory: k8s.Quantity.fromString('128Mi') } },
            }],
          },
        },
        updateStrategy: {
          type: 'InPlaceIfPossible',
          partition: kruise.CloneSetSpecUpdateStrategyPartition.fromString('50%'),
          maxUnavailable: kruise.CloneSetSpecUpdateStrategyMaxUnavailable.fromNumber(1),
          inPlaceUpdateStrategy: { gracePeriodSeconds: 10 },
        },
        // at most one pod deleted at a time when scaling in (podsToDelete, which names pods, belongs in a
        // later change: OpenKruise refuses names of pods a new CloneSet does not own yet, and synth warns)
        scaleStrategy: { maxUnavailable: kruise.CloneSetSpecScaleStrategyMaxUnavailable.fromNumber(1) },
      },
    });

    const db = { app: 'db' };
    new kruise.KubeStatefulSet(this, 'db', {
      metadata: { name: 'db' },
      spec: {
        replicas: 3,
        serviceName: 'db',
        podManagementPolicy: 'Parallel',
        selector: { matchLabels: db },
        template: {
          metadata: { labels: db },
          spec: {
            readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
            containers: [{
              name: 'postgres',
              image: 'postgres:17',
              volumeMounts: [{ name: 'data', mountPath: '/var/lib/postgresql/data' }],
            }],
          },
        },
        updateStrategy: {
          type: 'RollingUpdate',
          rollingUpdate: {
            podUpdatePolicy: 'InPlaceIfPossible',
            maxUnavailable: kruise.StatefulSetSpecUpdateStrategyRollingUpdateMaxUnavailable.fromNumber(1),
          },
        },
        reserveOrdinals: [kruise.StatefulSetSpecReserveOrdinals.fromNumber(1)],
        volumeClaimTemplates: [{
          metadata: { name: 'data' },
          spec: {
            accessModes: ['ReadWriteOnce'],
            resources: { requests: { storage: k8s.Quantity.fromString('20Gi') } },
          },
        }],
      },
    });
  }
}

/** Build the example app; `npx projen examples` synthesizes it. */
export function build(app: App = new App()): App {
  new L1WorkloadsChart(app, 'l1-workloads');
  return app;
}

// `cdk8s synth` runs this file (cdk8s.yaml); the tests and `npx projen examples` call build().
if (require.main === module) build().synth();
