/**
 * The platform repository of a fleet: the policies every app team's pods get
 * by a label (policies.ts), for clusters that run OpenKruise (installed as in
 * examples/control-plane). App repositories read
 * this app's synth output as context (examples/fleet-app); `cdk8s-kruise
 * fleet` checks a change of it against every app and cluster
 * (docs/fleet-policies.md).
 *
 * `LOG_AGENT_IMAGE` overrides the log shipper's image: the platform's pull
 * request of an image bump is this app synthesized twice.
 */
import { App, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { CriticalPaymentsBudget, LOG_AGENT_IMAGE, LoggingAgent, MESH_PROXY_IMAGE, MeshProxy } from './policies';

/** The policies: cluster-wide SidecarSets and the payments team's budget. */
export class PoliciesChart extends Chart {
  constructor(scope: Construct, id: string, logAgentImage: string, meshProxyImage: string = MESH_PROXY_IMAGE) {
    super(scope, id);
    new LoggingAgent(this, 'logging', logAgentImage);
    new MeshProxy(this, 'mesh', meshProxyImage);
    new CriticalPaymentsBudget(this, 'critical-payments');
  }
}

/** Build the example app; `npx projen examples` synthesizes it. */
export function build(app: App = new App()): App {
  new PoliciesChart(app, 'policies', process.env.LOG_AGENT_IMAGE ?? LOG_AGENT_IMAGE);
  return app;
}

// `cdk8s synth` runs this file (cdk8s.yaml); the tests and `npx projen examples` call build().
if (require.main === module) build().synth();
