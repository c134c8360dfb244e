/**
 * OpenKruise v1.9.1 for a production cluster: images from the Aliyun mirror
 * registry, kruise-manager on the host network (EKS with Calico), webhook
 * certificates from cert-manager, a custom install namespace, three manager
 * replicas on the system node pool, and the daemon behind an HTTP proxy.
 */
import { App, Chart, ChartProps, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { KruiseControlPlane, KruiseFeatureGate, LogFormat, WebhookCertificates } from 'cdk8s-kruise';

export class ControlPlaneHaChart extends Chart {
  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, props);
    new KruiseControlPlane(this, 'kruise', {
      namespace: 'openkruise',
      imageRepository: 'openkruise-registry.cn-shanghai.cr.aliyuncs.com/openkruise/kruise-manager',
      imageTag: 'v1.9.1',
      imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
      certificates: WebhookCertificates.certManager(),
      webhookTimeout: Duration.seconds(10),
      featureGates: {
        [KruiseFeatureGate.RESOURCE_DISTRIBUTION_GATE]: true,
        [KruiseFeatureGate.POD_UNAVAILABLE_BUDGET_UPDATE_GATE]: true,
      },
      manager: {
        replicas: 3,
        hostNetwork: true,
        logFormat: LogFormat.JSON,
        priorityClassName: 'system-cluster-critical',
        nodeSelector: { 'node.kubernetes.io/pool': 'system' },
        tolerations: [{ key: 'CriticalAddonsOnly', operator: 'Exists' }],
        resources: {
          cpu: { request: kplus.Cpu.millis(200), limit: kplus.Cpu.millis(500) },
          memory: { request: Size.mebibytes(512), limit: Size.gibibytes(1) },
        },
        pprofAddress: 'localhost:8090',
      },
      daemon: {
        priorityClassName: 'system-node-critical',
        extraEnv: {
          HTTPS_PROXY: kplus.EnvValue.fromValue('http://proxy.internal:3128'),
          NO_PROXY: kplus.EnvValue.fromValue('localhost,127.0.0.1,10.0.0.0/8,.svc,.cluster.local'),
        },
      },
    });
  }
}

export function build(app: App = new App()): App {
  new ControlPlaneHaChart(app, 'openkruise-ha');
  return app;
}

// `cdk8s synth` runs this file (cdk8s.yaml); the tests and `npx projen examples` call build().
if (require.main === module) build().synth();
