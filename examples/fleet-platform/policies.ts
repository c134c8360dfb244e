/**
 * The platform team's policies: what every app team's pods get by a label,
 * whatever repository and cluster they come from.
 */
import { Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { PodUnavailableBudget, SidecarInjectPolicy, SidecarSet, SidecarSetUpdateStrategy, SidecarUpgradeStrategy } from 'cdk8s-kruise';

/** The image of the log shipper: the platform's pull requests bump it. */
export const LOG_AGENT_IMAGE = 'fluent/fluent-bit:3.1.9';

/** The image of the mesh proxy, hot-upgraded when it changes. */
export const MESH_PROXY_IMAGE = 'envoyproxy/envoy:v1.31.2';

/** Pods labelled `platform.io/logging: enabled` get a log shipper, upgraded in place when its image changes. */
export class LoggingAgent extends Construct {
  constructor(scope: Construct, id: string, image: string = LOG_AGENT_IMAGE) {
    super(scope, id);
    new SidecarSet(this, 'Resource', {
      metadata: { name: 'logging-agent' },
      selector: kplus.LabelSelector.of({ labels: { 'platform.io/logging': 'enabled' } }),
      containers: [{
        name: 'log-agent',
        image,
        args: ['-i', 'tail', '-p', 'path=/var/log/app/*.log', '-o', 'stdout'],
        ports: [{ number: 2020, name: 'agent-metrics' }],
        resources: {
          cpu: { request: kplus.Cpu.millis(20), limit: kplus.Cpu.millis(200) },
          memory: { request: Size.mebibytes(32), limit: Size.mebibytes(128) },
        },
        shareVolumes: true,
        injectPolicy: SidecarInjectPolicy.BEFORE_APP_CONTAINER,
        securityContext: { ensureNonRoot: false },
      }],
      updateStrategy: SidecarSetUpdateStrategy.rollingUpdate({ maxUnavailable: kplus.PercentOrAbsolute.percent(20) }),
    });
  }
}

/** Pods labelled `platform.io/mesh: enabled`, in namespaces labelled the same, get a proxy, hot-upgraded. */
export class MeshProxy extends Construct {
  constructor(scope: Construct, id: string, image: string = MESH_PROXY_IMAGE) {
    super(scope, id);
    new SidecarSet(this, 'Resource', {
      metadata: { name: 'mesh-proxy' },
      selector: kplus.LabelSelector.of({ labels: { 'platform.io/mesh': 'enabled' } }),
      namespaceSelector: kplus.LabelSelector.of({ labels: { 'platform.io/mesh': 'enabled' } }),
      containers: [{
        name: 'mesh-proxy',
        image,
        ports: [{ number: 15001, name: 'proxy' }],
        injectPolicy: SidecarInjectPolicy.AFTER_APP_CONTAINER,
        upgradeStrategy: SidecarUpgradeStrategy.hot('openkruise/hotupgrade-sample:empty'),
        securityContext: { ensureNonRoot: false },
      }],
    });
  }
}

/** The SRE budget of the payments team's critical pods: at most one down at a time. */
export class CriticalPaymentsBudget extends Construct {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new PodUnavailableBudget(this, 'Resource', {
      metadata: { name: 'critical-payments', namespace: 'payments' },
      selector: kplus.LabelSelector.of({ labels: { 'platform.io/tier': 'critical' } }),
      maxUnavailable: kplus.PercentOrAbsolute.absolute(1),
    });
  }
}
