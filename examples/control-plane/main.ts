/**
 * OpenKruise v1.9.1 installed with the defaults: the objects of the
 * openkruise/charts `kruise` chart, GitOps-safe, with delete protection of
 * the CRDs and the install namespace.
 */
import { App, Chart, ChartProps } from 'cdk8s';
import { Construct } from 'constructs';
import { KruiseControlPlane } from 'cdk8s-kruise';

export class ControlPlaneChart extends Chart {
  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, props);
    new KruiseControlPlane(this, 'kruise');
  }
}

export function build(app: App = new App()): App {
  new ControlPlaneChart(app, 'openkruise');
  return app;
}

// `cdk8s synth` runs this file (cdk8s.yaml); the tests and `npx projen examples` call build().
if (require.main === module) build().synth();
