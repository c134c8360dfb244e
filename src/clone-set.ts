import { ApiObject, Duration, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { _l1 } from './_kruise-l1';
import { KruiseReplicatedWorkload, KruiseReplicatedWorkloadProps } from './kruise-workload';
import { CloneSetUpdateStrategy, _intOrString, _seconds, _withPath } from './strategies';
import type * as kruise from '../imports/kruise';

/** The scale strategy of a CloneSet. */
export interface CloneSetScaleStrategy {
  /**
   * Pods (or whole percent of replicas) that may be unavailable while
   * scaling out: new pods are created in batches of this size.
   *
   * @default - no limit
   */
  readonly maxUnavailable?: kplus.PercentOrAbsolute;

  /**
   * Delete a removed pod's PersistentVolumeClaims instead of reusing them for
   * its replacement.
   *
   * @default false
   */
  readonly disablePvcReuse?: boolean;
}

/** Props of a `CloneSet`. */
export interface CloneSetProps extends KruiseReplicatedWorkloadProps {
  /**
   * How pods of an old revision are replaced.
   *
   * @default - ReCreate with 20% maxUnavailable (the OpenKruise defaults; not written)
   */
  readonly updateStrategy?: CloneSetUpdateStrategy;

  /**
   * How pods are created and removed when scaling.
   *
   * @default - no limits
   */
  readonly scaleStrategy?: CloneSetScaleStrategy;

  /**
   * How long a new pod must be ready before it counts as available.
   *
   * @default - 0 (the Kubernetes default; not written)
   */
  readonly minReady?: Duration;

  /**
   * How long a rollout may make no progress before it is reported as failed.
   *
   * @default - no deadline
   */
  readonly progressDeadline?: Duration;

  /**
   * Pods to delete first when scaling in (`scaleStrategy.podsToDelete`). Only
   * pods this CloneSet already owns are accepted; see `deletePods()`.
   *
   * @default - none
   */
  readonly podsToDelete?: string[];
}

/**
 * An OpenKruise CloneSet (`apps.kruise.io/v1alpha1`): a Deployment with
 * in-place update, partitioned and prioritized rollout, targeted scale-in,
 * per-pod PVCs and lifecycle hooks. Every `kplus.Deployment` prop and method
 * works the same way, so switching is a change of the class name.
 *
 * Replaces a hand-written manifest such as
 *
 * ```yaml
 * apiVersion: apps.kruise.io/v1alpha1
 * kind: CloneSet
 * spec:
 *   replicas: 5
 *   selector: { matchLabels: { app: web } }
 *   template: { metadata: { labels: { app: web } }, spec: { containers: [...] } }
 *   updateStrategy: { type: InPlaceIfPossible, partition: 3, maxUnavailable: 1 }
 * ```
 */
export class CloneSet extends KruiseReplicatedWorkload {
  /** The update strategy, when set. */
  public readonly updateStrategy?: CloneSetUpdateStrategy;

  /** The scale strategy, when set. */
  public readonly scaleStrategy?: CloneSetScaleStrategy;

  /** Minimum ready time of new pods, when set. */
  public readonly minReady?: Duration;

  /** Progress deadline of a rollout, when set. */
  public readonly progressDeadline?: Duration;

  /** @see base.Resource.apiObject */
  protected readonly apiObject: ApiObject;

  public readonly resourceType = 'clonesets';

  private readonly podsToDelete: string[];

  public constructor(scope: Construct, id: string, props: CloneSetProps = {}) {
    super(scope, id, props);
    this.updateStrategy = props.updateStrategy;
    this.scaleStrategy = props.scaleStrategy;
    this.minReady = props.minReady;
    this.progressDeadline = props.progressDeadline;
    this.podsToDelete = [...(props.podsToDelete ?? [])];
    this.apiObject = new (_l1('CloneSet').KubeCloneSet)(this, 'Resource', {
      metadata: props.metadata,
      spec: Lazy.any({ produce: () => _withPath(this, () => this._toKube()) }),
    });
    this._wire({ kind: 'CloneSet', preDownloadGate: 'PreDownloadImageForInPlaceUpdate' });
  }

  /**
   * Delete these pods first at the next scale-in, or replace them now if the
   * replica count does not change (`scaleStrategy.podsToDelete`). OpenKruise
   * only accepts names of pods this CloneSet already owns, so use this on a
   * running CloneSet; to mark pods without a manifest change, see
   * `markForDeletionCommand()`.
   *
   * @param names pod names
   */
  public deletePods(...names: string[]): void {
    this.podsToDelete.push(...names);
  }

  /** @internal */
  public _toKube(): kruise.CloneSetSpec {
    const s = this.scaleStrategy;
    const scaleStrategy: kruise.CloneSetSpecScaleStrategy = {
      maxUnavailable: _intOrString(s?.maxUnavailable, _l1('CloneSet').CloneSetSpecScaleStrategyMaxUnavailable),
      disablePvcReuse: s?.disablePvcReuse,
      podsToDelete: this.podsToDelete.length > 0 ? [...this.podsToDelete] : undefined,
    };
    return {
      replicas: this._replicas(),
      selector: this._toLabelSelector(),
      template: this._podTemplate(),
      volumeClaimTemplates: this._volumeClaimTemplates(),
      updateStrategy: this.updateStrategy?._toKube(),
      scaleStrategy: Object.values(scaleStrategy).some(v => v !== undefined) ? scaleStrategy : undefined,
      minReadySeconds: _seconds(this.minReady, 'minReady'),
      progressDeadlineSeconds: _seconds(this.progressDeadline, 'progressDeadline'),
      revisionHistoryLimit: this.revisionHistoryLimit,
      lifecycle: this._renderLifecycle(),
    };
  }
}
