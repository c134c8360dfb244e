/**
 * BroadcastJob: a Job that runs one pod to completion on every selected node.
 *
 * Built like `kplus.Job`: containers, volumes, env, security context and
 * scheduling are the cdk8s-plus Workload API, and the pod restart policy
 * defaults to Never. Which nodes run the pod is decided by the pod's
 * scheduling (`scheduling.attract(Node.labeled(...))`, tolerations,
 * nodeSelector), as for a DaemonSet. The rules OpenKruise applies to the
 * manifest (restart policy, completion policy, parallelism, reserved pod
 * labels, the pod template) are judged at synth by the admission layer for
 * every BroadcastJob in the app; this file renders only what was set.
 */
import { ApiObject, Duration, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { _l1 } from './_kruise-l1';
import { _followTarget } from './releases/served';
import { _intOrString, _seconds, _withPath } from './strategies';
import type * as kruise from '../imports/kruise';
import { _assertOwnKplus, _pathOf } from './validation/foreign-kplus';

/** The completion policy types of a BroadcastJob. */
export enum BroadcastJobCompletionPolicyType {
  /** The job finishes once the pod ran on every node it targets. */
  ALWAYS = 'Always',
  /** The job never finishes: nodes that join later run the pod too. */
  NEVER = 'Never',
}

/** Options of `BroadcastJobCompletionPolicy.always()`. */
export interface BroadcastJobCompletionPolicyAlwaysOptions {
  /**
   * How long the job may stay active; then it is marked failed and its
   * running pods are deleted.
   *
   * @default - no deadline
   */
  readonly activeDeadline?: Duration;

  /**
   * How long a finished job (and its pods) is kept before it is deleted.
   *
   * @default - kept until deleted
   */
  readonly ttlAfterFinished?: Duration;
}

/** When a BroadcastJob counts as finished and how long it lives on. */
export class BroadcastJobCompletionPolicy {
  /**
   * Finish once the pod ran on every targeted node (the OpenKruise default).
   *
   * @param options an active deadline and a time to live after finishing
   */
  public static always(options: BroadcastJobCompletionPolicyAlwaysOptions = {}): BroadcastJobCompletionPolicy {
    return new BroadcastJobCompletionPolicy(BroadcastJobCompletionPolicyType.ALWAYS, options.activeDeadline, options.ttlAfterFinished);
  }

  /** Never finish: keep running the pod on nodes that join the cluster later. */
  public static never(): BroadcastJobCompletionPolicy {
    return new BroadcastJobCompletionPolicy(BroadcastJobCompletionPolicyType.NEVER);
  }

  private constructor(
    /** The completion policy type. */
    public readonly type: BroadcastJobCompletionPolicyType,
    /** The active deadline, when set. */
    public readonly activeDeadline?: Duration,
    /** The time to live after finishing, when set. */
    public readonly ttlAfterFinished?: Duration,
  ) {}

  /** @internal */
  public _toKube(): kruise.BroadcastJobSpecCompletionPolicy {
    return {
      type: this.type,
      activeDeadlineSeconds: _seconds(this.activeDeadline, 'completionPolicy.activeDeadline'),
      ttlSecondsAfterFinished: _seconds(this.ttlAfterFinished, 'completionPolicy.ttlAfterFinished'),
    };
  }
}

/** The failure policy types of a BroadcastJob. */
export enum BroadcastJobFailurePolicyType {
  /** Keep going on the other nodes; the job fails at the end. */
  CONTINUE = 'Continue',
  /** Stop the job as soon as one pod fails (the OpenKruise default). */
  FAIL_FAST = 'FailFast',
  /** Pause the job (no new pods) when a pod fails. */
  PAUSE = 'Pause',
}

/** Options of the `BroadcastJobFailurePolicy` factories. */
export interface BroadcastJobFailurePolicyOptions {
  /**
   * How many times a failed pod is retried before it counts as failed.
   *
   * @default - not written (OpenKruise retries none)
   */
  readonly restartLimit?: number;
}

/** What a BroadcastJob does when one of its pods fails. */
export class BroadcastJobFailurePolicy {
  /**
   * Keep running on the other nodes; the job is marked failed when done
   * (type Continue; `continue` is a reserved word in Python, Java and Go).
   *
   * @param options the restart limit
   */
  public static continueOnFailure(options: BroadcastJobFailurePolicyOptions = {}): BroadcastJobFailurePolicy {
    return new BroadcastJobFailurePolicy(BroadcastJobFailurePolicyType.CONTINUE, options.restartLimit);
  }

  /**
   * Mark the job failed at the first failed pod (the OpenKruise default).
   *
   * @param options the restart limit
   */
  public static failFast(options: BroadcastJobFailurePolicyOptions = {}): BroadcastJobFailurePolicy {
    return new BroadcastJobFailurePolicy(BroadcastJobFailurePolicyType.FAIL_FAST, options.restartLimit);
  }

  /**
   * Pause the job at the first failed pod: no new pods until it is unpaused.
   *
   * @param options the restart limit
   */
  public static pause(options: BroadcastJobFailurePolicyOptions = {}): BroadcastJobFailurePolicy {
    return new BroadcastJobFailurePolicy(BroadcastJobFailurePolicyType.PAUSE, options.restartLimit);
  }

  private constructor(
    /** The failure policy type. */
    public readonly type: BroadcastJobFailurePolicyType,
    /** The restart limit, when set. */
    public readonly restartLimit?: number,
  ) {}

  /** @internal */
  public _toKube(): kruise.BroadcastJobSpecFailurePolicy {
    return { type: this.type, restartLimit: this.restartLimit };
  }
}

/** Props of a `BroadcastJob`. */
export interface BroadcastJobProps extends kplus.WorkloadProps {
  /**
   * Pods (or percent of the targeted nodes) that may run at the same time.
   *
   * @default - no limit (OpenKruise writes 2147483647)
   */
  readonly parallelism?: kplus.PercentOrAbsolute;

  /**
   * When the job counts as finished, its deadline and time to live.
   *
   * @default - Always, with no deadline and no time to live (the OpenKruise default; not written)
   */
  readonly completionPolicy?: BroadcastJobCompletionPolicy;

  /**
   * What to do when a pod fails.
   *
   * @default - FailFast (the OpenKruise default; not written)
   */
  readonly failurePolicy?: BroadcastJobFailurePolicy;

  /**
   * Create no new pods; running pods go on.
   *
   * @default false
   */
  readonly paused?: boolean;
}

/**
 * An OpenKruise BroadcastJob (`apps.kruise.io/v1beta1`): runs a pod to
 * completion on every node its scheduling selects, like a DaemonSet whose
 * pods exit. Every `kplus.Job` workload prop (containers, volumes,
 * scheduling, security context) works the same way; the pod restart policy
 * defaults to Never.
 *
 * Replaces a hand-written manifest such as
 *
 * ```yaml
 * apiVersion: apps.kruise.io/v1beta1
 * kind: BroadcastJob
 * spec:
 *   parallelism: 10
 *   template: { spec: { restartPolicy: Never, containers: [...] } }
 *   completionPolicy: { type: Always, activeDeadlineSeconds: 3600, ttlSecondsAfterFinished: 600 }
 *   failurePolicy: { type: Continue, restartLimit: 2 }
 * ```
 */
export class BroadcastJob extends kplus.Workload {
  /** The parallelism, when set. */
  public readonly parallelism?: kplus.PercentOrAbsolute;

  /** The completion policy, when set. */
  public readonly completionPolicy?: BroadcastJobCompletionPolicy;

  /** The failure policy, when set. */
  public readonly failurePolicy?: BroadcastJobFailurePolicy;

  /** Whether the job is paused, when set. */
  public readonly paused?: boolean;

  /** @see base.Resource.apiObject */
  protected readonly apiObject: ApiObject;

  public readonly resourceType = 'broadcastjobs';

  public constructor(scope: Construct, id: string, props: BroadcastJobProps = {}) {
    super(scope, id, { restartPolicy: kplus.RestartPolicy.NEVER, select: false, ..._assertOwnKplus(`BroadcastJob at '${_pathOf(scope, id)}'`, props) });
    this.parallelism = props.parallelism;
    this.completionPolicy = props.completionPolicy;
    this.failurePolicy = props.failurePolicy;
    this.paused = props.paused;
    this.apiObject = new (_l1('BroadcastJob').KubeBroadcastJob)(this, 'Resource', {
      metadata: props.metadata,
      spec: Lazy.any({ produce: () => this._toKube() }),
    });
    // written in the API version the app's target serves (v1alpha1 on OpenKruise 1.7 and 1.8)
    _followTarget(this.apiObject);
    if (this.isolate) this.connections.isolate();
  }

  /** @internal */
  public _toKube(): kruise.BroadcastJobSpec {
    return _withPath(this, () => ({
      parallelism: _intOrString(this.parallelism, _l1('BroadcastJob').BroadcastJobSpecParallelism),
      template: {
        metadata: this.podMetadata.toJson(),
        // with no container yet, an empty list the admission rules report (instead of a bare exception)
        spec: this.containers.length === 0 ? { containers: [] } : this._toPodSpec(),
      },
      completionPolicy: this.completionPolicy?._toKube(),
      failurePolicy: this.failurePolicy?._toKube(),
      paused: this.paused,
    }));
  }
}
