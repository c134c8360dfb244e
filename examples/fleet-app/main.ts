/**
 * An app repository of a fleet: the payments team's workloads, checked
 * against the platform's policies without owning them. The platform's synth
 * output (examples/fleet-platform) is read into a KruiseContext: its
 * SidecarSets and budget take part in every
 * check of this app's synth, and none of them is written to this app's
 * output. `PLATFORM_DIST` says where the platform's output is (in CI, a
 * checkout or an artifact of the platform repository); by default the
 * fleet-platform folder next to this one, synthesized first.
 */
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { CloneSet, KruiseContext, PodUnavailableBudget } from 'cdk8s-kruise';

/** Where the platform repository's synth output is. */
export function platformDist(): string {
  return process.env.PLATFORM_DIST ?? path.join(__dirname, '..', 'fleet-platform', 'dist');
}

/** The payments namespace (in the mesh), its API and its ledger worker. */
export class PaymentsChart extends Chart {
  constructor(scope: Construct, id: string) {
    super(scope, id, { namespace: 'payments' });
    new kplus.Namespace(this, 'namespace', { metadata: { name: 'payments', labels: { 'platform.io/mesh': 'enabled' } } });
    const api = new CloneSet(this, 'api', {
      metadata: { name: 'payments-api' },
      replicas: 3,
      podMetadata: { labels: { 'platform.io/logging': 'enabled', 'platform.io/mesh': 'enabled', 'platform.io/tier': 'critical' } },
      containers: [{ name: 'api', image: 'payments-api:4.2', portNumber: 8080, securityContext: { ensureNonRoot: false } }],
    });
    api.spreadOver({
      metadata: { name: 'payments-api' },
      subsets: [
        { name: 'zone-a', requiredNodeLabels: [kplus.NodeLabelQuery.is('topology.kubernetes.io/zone', 'zone-a')], maxReplicas: kplus.PercentOrAbsolute.absolute(2) },
        { name: 'zone-b', requiredNodeLabels: [kplus.NodeLabelQuery.is('topology.kubernetes.io/zone', 'zone-b')] },
      ],
    });
    new CloneSet(this, 'ledger', {
      metadata: { name: 'ledger-worker' },
      replicas: 2,
      podMetadata: { labels: { 'platform.io/logging': 'enabled', 'app.io/role': 'worker' } },
      containers: [{ name: 'worker', image: 'ledger-worker:1.7', securityContext: { ensureNonRoot: false } }],
    });
    // the team's own budget, on keys the platform's budget does not use
    new PodUnavailableBudget(this, 'workers', {
      metadata: { name: 'ledger-workers' },
      selector: kplus.LabelSelector.of({ labels: { 'app.io/role': 'worker' } }),
      maxUnavailable: kplus.PercentOrAbsolute.percent(50),
    });
  }
}

/** Build the example app; `npx projen examples` synthesizes it. */
export function build(app: App = new App()): App {
  new KruiseContext(app, 'platform', { manifests: [platformDist()] });
  new PaymentsChart(app, 'payments');
  return app;
}

// `cdk8s synth` runs this file (cdk8s.yaml); the tests and `npx projen examples` call build().
if (require.main === module) build().synth();
