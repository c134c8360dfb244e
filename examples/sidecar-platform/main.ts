/**
 * Two sidecar policies from a platform library applied to two app charts.
 * `InjectionPreview.writeAtSynth` writes the pods as they will run after
 * injection to dist/examples/sidecar-platform/injection-preview/.
 */
import { App, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { LoggingAgentPolicy, MeshProxyPolicy } from './policies';
import { InjectionPreview } from 'cdk8s-kruise';

/** The platform chart: the policies, nothing app-specific. */
export class PlatformChart extends Chart {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new LoggingAgentPolicy(this, 'logging');
    new MeshProxyPolicy(this, 'mesh');
  }
}

/** Shop: logging and mesh. */
export class ShopChart extends Chart {
  constructor(scope: Construct, id: string) {
    super(scope, id, { namespace: 'shop' });
    new kplus.Namespace(this, 'ns', { metadata: { name: 'shop', labels: { 'platform.io/mesh': 'enabled' } } });
    const data = kplus.Volume.fromEmptyDir(this, 'logs', 'app-logs');
    new kplus.Deployment(this, 'web', {
      metadata: { name: 'web' },
      replicas: 3,
      podMetadata: { labels: { 'platform.io/logging': 'enabled', 'platform.io/mesh': 'enabled', 'platform.io/main-container': 'web' } },
      containers: [{
        name: 'web',
        image: 'nginx:1.27',
        portNumber: 8080,
        envVariables: { APP_NAME: kplus.EnvValue.fromValue('shop-web') },
        volumeMounts: [{ path: '/var/log/app', volume: data }],
        securityContext: { ensureNonRoot: false, readOnlyRootFilesystem: false },
      }],
    });
  }
}

/** Billing: logging only (its namespace is not in the mesh). */
export class BillingChart extends Chart {
  constructor(scope: Construct, id: string) {
    super(scope, id, { namespace: 'billing' });
    new kplus.Namespace(this, 'ns', { metadata: { name: 'billing' } });
    new kplus.Deployment(this, 'api', {
      metadata: { name: 'api' },
      podMetadata: { labels: { 'platform.io/logging': 'enabled', 'platform.io/mesh': 'enabled', 'platform.io/main-container': 'api' } },
      containers: [{ name: 'api', image: 'billing-api:2.4', portNumber: 9090, envVariables: { APP_NAME: kplus.EnvValue.fromValue('billing-api') } }],
    });
  }
}

/** Build the example app; `npx projen examples` synthesizes it. */
export function build(app: App = new App()): App {
  new PlatformChart(app, 'platform');
  new ShopChart(app, 'shop');
  new BillingChart(app, 'billing');
  InjectionPreview.writeAtSynth(app);
  return app;
}

// `cdk8s synth` runs this file (cdk8s.yaml); the tests and `npx projen examples` call build().
if (require.main === module) build().synth();
