/**
 * PodProbeMarker: custom probes that kruise-daemon runs in the containers of
 * selected pods, whose results become pod conditions, labels or annotations
 * (e.g. mark the primary of a database, lower the deletion cost of a pod
 * whose cache is cold, gate readiness on a warm-up).
 *
 * Probes are written as cdk8s-plus probes (`kplus.Probe.fromCommand`,
 * `fromHttpGet`, `fromTcpSocket`); their result is recorded as a pod
 * condition (`podConditionType`) and/or marks (`whenSucceeded`,
 * `whenFailed`: labels and annotations). The pods are picked by a selector,
 * or are the pods of a workload of the app (`target`, or
 * `workload.addProbeMarker()`), in which case the probed containers must be
 * containers of that workload. The manifest rules are judged at synth by the
 * admission layer; the construct declares the PodProbeMarkerGate and
 * KruiseDaemon feature gates, checked against a KruiseControlPlane of the app.
 */
import { ApiObject, ApiObjectMetadata, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { _l1 } from './_kruise-l1';
import { _withPath } from './strategies';
import type * as kruise from '../imports/kruise';
import { _objectLine } from './admission/engine';
import { fieldError } from './validation/report';

/** Labels and annotations set on a pod for one probe result. */
export interface ProbeMarks {
  /**
   * Pod labels to set.
   *
   * @default - none
   */
  readonly labels?: { [key: string]: string };

  /**
   * Pod annotations to set (e.g. `controller.kubernetes.io/pod-deletion-cost`).
   *
   * @default - none
   */
  readonly annotations?: { [key: string]: string };
}

/** One custom probe of a PodProbeMarker. */
export interface PodProbeMarkerProbe {
  /** The probe name, unique in the pod (not a condition type Kubernetes or OpenKruise owns, such as Ready). */
  readonly name: string;

  /** The container the probe runs in (exec) or targets (httpGet, tcpSocket). */
  readonly containerName: string;

  /**
   * The probe: `kplus.Probe.fromCommand()`, `fromHttpGet()` or
   * `fromTcpSocket()`. Unset timings are kruise-daemon's: every second, a
   * timeout of 1 second, one result to succeed or fail (unlike a kubelet
   * probe, which checks every 10 seconds). The port of an HTTP or TCP probe
   * defaults to the container's `portNumber` (a workload target) or 80.
   */
  readonly probe: kplus.Probe;

  /**
   * The pod condition type the result is written to (True on success), e.g.
   * `example.com/cache-warm`; add it to the pods' readiness gates to hold
   * traffic until it succeeds.
   *
   * @default - no condition (then `whenSucceeded` or `whenFailed` is needed)
   */
  readonly podConditionType?: string;

  /**
   * Labels and annotations set while the probe succeeds.
   *
   * @default - none
   */
  readonly whenSucceeded?: ProbeMarks;

  /**
   * Labels and annotations set while the probe fails.
   *
   * @default - none
   */
  readonly whenFailed?: ProbeMarks;
}

/** Props of a `PodProbeMarker`. */
export interface PodProbeMarkerProps extends kplus.ResourceProps {
  /**
   * The pods to probe, by label.
   *
   * @default - use target
   */
  readonly selector?: kplus.LabelSelector;

  /**
   * A workload of the app whose pods are probed (its pod selector, read at
   * synth); its namespace is the default one of the PodProbeMarker.
   *
   * @default - use selector
   */
  readonly target?: kplus.Workload;

  /**
   * The probes; more with `addProbe()`.
   *
   * @default - none
   */
  readonly probes?: PodProbeMarkerProbe[];
}

/**
 * An OpenKruise PodProbeMarker (`apps.kruise.io/v1alpha1`): kruise-daemon
 * runs custom probes in the containers of the selected pods and records each
 * result as a pod condition, labels or annotations. Needs the
 * PodProbeMarkerGate and KruiseDaemon feature gates.
 *
 * Replaces a hand-written manifest such as
 *
 * ```yaml
 * apiVersion: apps.kruise.io/v1alpha1
 * kind: PodProbeMarker
 * spec:
 *   selector: { matchLabels: { app: db } }
 *   probes:
 *   - name: primary
 *     containerName: db
 *     probe: { exec: { command: [/check-primary.sh] }, periodSeconds: 10 }
 *     markerPolicy:
 *     - { state: Succeeded, labels: { role: primary }, annotations: { controller.kubernetes.io/pod-deletion-cost: "100" } }
 *     - { state: Failed, labels: { role: replica } }
 * ```
 */
export class PodProbeMarker extends kplus.Resource {
  /** The workload whose pods are probed, when given. */
  public readonly target?: kplus.Workload;

  /** @see base.Resource.apiObject */
  protected readonly apiObject: ApiObject;

  public readonly resourceType = 'podprobemarkers';

  private readonly selector?: kplus.LabelSelector;
  private readonly _probes: PodProbeMarkerProbe[] = [];

  public constructor(scope: Construct, id: string, props: PodProbeMarkerProps) {
    super(scope, id);
    if (!props.selector === !props.target) {
      throw new Error(`PodProbeMarker at '${this.node.path}': set exactly one of 'selector' or 'target'`);
    }
    this.selector = props.selector;
    this.target = props.target;
    const namespace = props.metadata?.namespace ?? (props.target && ApiObject.of(props.target).metadata.namespace);
    const metadata: ApiObjectMetadata = { ...props.metadata, namespace };
    this.apiObject = new (_l1('PodProbeMarker').KubePodProbeMarker)(this, 'Resource', {
      metadata,
      spec: Lazy.any({ produce: () => this._toKube() }),
    });
    for (const p of props.probes ?? []) this.addProbe(p);
    this.node.addValidation({ validate: () => this.validateProbes().map(l => _objectLine(this.apiObject, l)) });
  }

  /** The probes (a copy; add with `addProbe()`). */
  public get probes(): PodProbeMarkerProbe[] {
    return [...this._probes];
  }

  /**
   * Add a probe.
   *
   * @param probe name, container, probe, condition and marks
   */
  public addProbe(probe: PodProbeMarkerProbe): void {
    this._probes.push(probe);
  }

  private containerOf(name: string): kplus.Container | undefined {
    return this.target && [...this.target.containers, ...this.target.initContainers].find(c => c.name === name);
  }

  private validateProbes(): string[] {
    // no probe at all: the admission layer reports it
    if (this._probes.length === 0 || !this.target) return [];
    const names = [...this.target.containers, ...this.target.initContainers].map(c => c.name);
    const out: string[] = [];
    this._probes.forEach((p, i) => {
      if (this.containerOf(p.containerName)) return;
      out.push(fieldError(`spec.probes[${i}].containerName`, p.containerName, `(probe "${p.name}") is not a container of the pods of '${this.target!.node.path}'`, `use one of ${JSON.stringify(names)}`));
    });
    return out;
  }

  /** @internal */
  public _toKube(): kruise.PodProbeMarkerSpec {
    return _withPath(this, () => ({
      selector: (this.target ? this.target._toLabelSelector() : this.selector!._toKube()) as kruise.PodProbeMarkerSpecSelector,
      probes: this._probes.map(p => {
        // a kplus probe renders against a container: the workload's, for its default port
        const container = this.containerOf(p.containerName) ?? new kplus.Container({ image: 'unused' });
        const marks = (state: string, m?: ProbeMarks) => (m && (m.labels || m.annotations)
          ? [{ state, labels: m.labels && { ...m.labels }, annotations: m.annotations && { ...m.annotations } }] : []);
        const policies = [...marks('Succeeded', p.whenSucceeded), ...marks('Failed', p.whenFailed)];
        return {
          name: p.name,
          containerName: p.containerName,
          probe: p.probe._toKube(container) as unknown as kruise.PodProbeMarkerSpecProbesProbe,
          podConditionType: p.podConditionType,
          markerPolicy: policies.length > 0 ? policies as kruise.PodProbeMarkerSpecProbesMarkerPolicy[] : undefined,
        };
      }),
    }));
  }
}
