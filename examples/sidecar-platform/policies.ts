/**
 * A platform team's policy library: sidecars it publishes for every app team.
 * App charts never mention these; pods opt in with a label.
 */
import { Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { SidecarEnvTransfer, SidecarInjectPolicy, SidecarSet, SidecarSetUpdateStrategy, SidecarUpgradeStrategy } from 'cdk8s-kruise';

/** Pods labelled `platform.io/logging: enabled` get a log shipper reading their volumes. */
export class LoggingAgentPolicy extends Construct {
  public readonly sidecarSet: SidecarSet;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const buffer = kplus.Volume.fromEmptyDir(this, 'buffer', 'log-agent-buffer');
    this.sidecarSet = new SidecarSet(this, 'Resource', {
      metadata: { name: 'logging-agent' },
      selector: kplus.LabelSelector.of({ labels: { 'platform.io/logging': 'enabled' } }),
      containers: [{
        name: 'log-agent',
        image: 'fluent/fluent-bit:3.1.9',
        args: ['-i', 'tail', '-p', 'path=/var/log/app/*.log', '-o', 'stdout'],
        volumeMounts: [{ path: '/buffer', volume: buffer }],
        resources: {
          cpu: { request: kplus.Cpu.millis(20), limit: kplus.Cpu.millis(200) },
          memory: { request: Size.mebibytes(32), limit: Size.mebibytes(128) },
        },
        shareVolumes: true,
        transferEnv: [SidecarEnvTransfer.fromContainerInLabel('platform.io/main-container', ['APP_NAME'])],
      }],
      updateStrategy: SidecarSetUpdateStrategy.rollingUpdate({ maxUnavailable: kplus.PercentOrAbsolute.percent(20) }),
    });
  }
}

/** Pods labelled `platform.io/mesh: enabled` in namespaces labelled `platform.io/mesh: enabled` get a proxy, hot-upgraded. */
export class MeshProxyPolicy extends Construct {
  public readonly sidecarSet: SidecarSet;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.sidecarSet = new SidecarSet(this, 'Resource', {
      metadata: { name: 'mesh-proxy' },
      selector: kplus.LabelSelector.of({ labels: { 'platform.io/mesh': 'enabled' } }),
      namespaceSelector: kplus.LabelSelector.of({ labels: { 'platform.io/mesh': 'enabled' } }),
      initContainers: [{ name: 'mesh-init', image: 'envoyproxy/envoy:v1.31.2', command: ['sh', '-c', 'echo iptables setup'] }],
      containers: [{
        name: 'mesh-proxy',
        image: 'envoyproxy/envoy:v1.31.2',
        ports: [{ number: 15001, name: 'proxy' }],
        injectPolicy: SidecarInjectPolicy.AFTER_APP_CONTAINER,
        upgradeStrategy: SidecarUpgradeStrategy.hot('openkruise/hotupgrade-sample:empty'),
      }],
    });
  }
}
