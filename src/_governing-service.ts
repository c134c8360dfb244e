/**
 * The headless Service a stateful workload (an Advanced StatefulSet, or the
 * StatefulSet template of a UnitedDeployment) creates for itself. Not part
 * of the public API.
 */
import * as kplus from 'cdk8s-plus-28';
import { k8s } from 'cdk8s-plus-28';

/**
 * The headless Service an Advanced StatefulSet creates for itself. With
 * ports it renders as a `kplus.Service`; without any (no container has a
 * port) it renders the port-less headless Service Kubernetes accepts
 * (`clusterIP: None`, the pod selector), which `kplus.Service` refuses to
 * render. A headless Service needs no port: it only gives the pods their DNS
 * names.
 */
export class GoverningService extends kplus.Service {
  private readonly selectedLabels: Record<string, string> = {};

  public select(selector: kplus.IPodSelector): void {
    super.select(selector);
    Object.assign(this.selectedLabels, selector.toPodSelectorConfig().labelSelector._toKube().matchLabels ?? {});
  }

  public selectLabel(key: string, value: string): void {
    super.selectLabel(key, value);
    this.selectedLabels[key] = value;
  }

  /** @internal */
  public _toKube(): k8s.ServiceSpec {
    if (this.ports.length > 0) return super._toKube();
    return { clusterIp: this.clusterIP, type: this.type, selector: { ...this.selectedLabels } };
  }
}
