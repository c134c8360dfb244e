/**
 * A namespace OpenKruise refuses to delete while it still holds pods or bound
 * volumes, and a Deployment that cannot be deleted before it is scaled to 0.
 */
import { App, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { DeleteProtection, DeleteProtectionMode } from 'cdk8s-kruise';

export class ProtectedChart extends Chart {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    const ns = new kplus.Namespace(this, 'payments', { metadata: { name: 'payments' } });
    DeleteProtection.of(ns, DeleteProtectionMode.CASCADING);
    const ledger = new kplus.Deployment(this, 'ledger', {
      metadata: { name: 'ledger', namespace: 'payments' },
      replicas: 2,
      containers: [{ name: 'ledger', image: 'ledger:5.0', portNumber: 8080 }],
    });
    DeleteProtection.of(ledger, DeleteProtectionMode.CASCADING);
  }
}

/** Build the example app; `npx projen examples` synthesizes it. */
export function build(app: App = new App()): App {
  new ProtectedChart(app, 'protected-namespace');
  return app;
}

// `cdk8s synth` runs this file (cdk8s.yaml); the tests and `npx projen examples` call build().
if (require.main === module) build().synth();
