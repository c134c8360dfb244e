/**
 * A registry pull Secret distributed by OpenKruise to every namespace
 * labelled `registry.io/pull: enabled` (except one).
 */
import { App, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { DistributedResource, ResourceDistribution } from 'cdk8s-kruise';

export class DistributeChart extends Chart {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    const creds = new kplus.Secret(this, 'creds', {
      metadata: { name: 'registry-creds' },
      type: 'kubernetes.io/dockerconfigjson',
      stringData: { '.dockerconfigjson': '{"auths":{"registry.example.com":{"auth":"dXNlcjpwYXNz"}}}' },
    });
    new ResourceDistribution(this, 'distribute', {
      metadata: { name: 'registry-creds' },
      resource: DistributedResource.fromSecret(creds),
      namespaceLabelSelector: kplus.LabelSelector.of({ labels: { 'registry.io/pull': 'enabled' } }),
      excludedNamespaces: ['sandbox'],
    });
  }
}

/** Build the example app; `npx projen examples` synthesizes it. */
export function build(app: App = new App()): App {
  new DistributeChart(app, 'distribute-secret');
  return app;
}

// `cdk8s synth` runs this file (cdk8s.yaml); the tests and `npx projen examples` call build().
if (require.main === module) build().synth();
