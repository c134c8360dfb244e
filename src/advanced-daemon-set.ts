import { ApiObject, Duration, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { _l1 } from './_kruise-l1';
import { KruiseWorkload, KruiseWorkloadProps } from './kruise-workload';
import { _followTarget } from './releases/served';
import { AdvancedDaemonSetUpdateStrategy, _intOrString, _seconds, _withPath } from './strategies';
import type * as kruise from '../imports/kruise';

/** Props of an `AdvancedDaemonSet`. */
export interface AdvancedDaemonSetProps extends KruiseWorkloadProps {
  /**
   * How pods of an old revision are replaced.
   *
   * @default - a standard rolling update, one node at a time (the OpenKruise default; not written)
   */
  readonly updateStrategy?: AdvancedDaemonSetUpdateStrategy;

  /**
   * How long a new pod must be ready before it counts as available.
   *
   * @default - 0 (the Kubernetes default; not written)
   */
  readonly minReady?: Duration;

  /**
   * The most pods (or whole percent of nodes) created at once in one
   * reconcile.
   *
   * @default - 250 (the OpenKruise default; not written)
   */
  readonly burstReplicas?: kplus.PercentOrAbsolute;

  /**
   * Only create pods on new nodes up to the partition of the update strategy
   * (`scaleStrategy.partitionedScaling`).
   *
   * @default false
   */
  readonly partitionedScaling?: boolean;
}

/**
 * An OpenKruise Advanced DaemonSet (`apps.kruise.io/v1beta1` DaemonSet): a
 * DaemonSet with surging and in-place rolling updates, partitions, a node
 * selector for the rollout, pause, burst creation and lifecycle hooks.
 *
 * Replaces a hand-written manifest such as
 *
 * ```yaml
 * apiVersion: apps.kruise.io/v1beta1
 * kind: DaemonSet
 * spec:
 *   selector: { matchLabels: { app: agent } }
 *   template: { metadata: { labels: { app: agent } }, spec: { containers: [...] } }
 *   updateStrategy:
 *     type: RollingUpdate
 *     rollingUpdate: { rollingUpdateType: Standard, maxSurge: 1, partition: 2 }
 * ```
 */
export class AdvancedDaemonSet extends KruiseWorkload {
  /** The update strategy, when set. */
  public readonly updateStrategy?: AdvancedDaemonSetUpdateStrategy;

  /** Minimum ready time of new pods, when set. */
  public readonly minReady?: Duration;

  /** @see base.Resource.apiObject */
  protected readonly apiObject: ApiObject;

  public readonly resourceType = 'daemonsets';

  private readonly burstReplicas?: kplus.PercentOrAbsolute;
  private readonly partitionedScaling?: boolean;

  public constructor(scope: Construct, id: string, props: AdvancedDaemonSetProps = {}) {
    super(scope, id, props);
    this.updateStrategy = props.updateStrategy;
    this.minReady = props.minReady;
    this.burstReplicas = props.burstReplicas;
    this.partitionedScaling = props.partitionedScaling;
    this.apiObject = new (_l1('DaemonSet').KubeDaemonSet)(this, 'Resource', {
      metadata: props.metadata,
      spec: Lazy.any({ produce: () => _withPath(this, () => this._toKube()) }),
    });
    // written in the API version the app's target serves (v1alpha1 on OpenKruise 1.7 and 1.8)
    _followTarget(this.apiObject);
    this._wire({
      kind: 'Advanced DaemonSet',
      preDownloadGate: 'PreDownloadImageForDaemonSetUpdate',
    });
  }

  /** @internal */
  public _toKube(): kruise.DaemonSetSpec {
    return {
      selector: this._toLabelSelector(),
      template: this._podTemplate(),
      updateStrategy: this.updateStrategy?._toKube(),
      minReadySeconds: _seconds(this.minReady, 'minReady'),
      burstReplicas: _intOrString(this.burstReplicas, _l1('DaemonSet').DaemonSetSpecBurstReplicas),
      scaleStrategy: this.partitionedScaling !== undefined ? { partitionedScaling: this.partitionedScaling } : undefined,
      revisionHistoryLimit: this.revisionHistoryLimit,
      lifecycle: this._renderLifecycle(),
    };
  }
}
