/**
 * ContainerRecreateRequest: restart containers of a running pod in place
 * (kruise-daemon stops them, running their preStop hooks, and the kubelet
 * starts them again; the pod, its IP and its volumes stay).
 *
 * Pods are runtime objects, and a restart is a day-2 operation. The
 * construct exists for GitOps: a restart reviewed and merged like any other
 * change, applied by Argo CD or Flux, with no `kubectl` access to the
 * cluster. The request is judged at synth by the admission layer; the
 * construct adds the KruiseDaemon feature gate of the app's control plane
 * and, when made from a workload (`recreateContainers()`), checks that the
 * containers are containers of that workload. For a one-off restart from a
 * terminal, `KruiseWorkload.recreateContainersCommand()` prints the
 * `kubectl` command instead.
 */
import { ApiObject, ApiObjectMetadata, Duration, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { _l1 } from './_kruise-l1';
import { _seconds, _withPath } from './strategies';
import type * as kruise from '../imports/kruise';
import { _objectLine } from './admission/engine';
import { Warnings, fieldError } from './validation/report';

/** What a ContainerRecreateRequest does when one container fails to restart. */
export enum ContainerRecreateFailurePolicy {
  /** Stop: the request fails (the OpenKruise default). */
  FAIL = 'Fail',
  /** Go on with the next container. */
  IGNORE = 'Ignore',
}

/** How the containers are restarted. */
export interface ContainerRecreateStrategy {
  /**
   * What happens when one container fails to restart.
   *
   * @default ContainerRecreateFailurePolicy.FAIL (the OpenKruise default; not written)
   */
  readonly failurePolicy?: ContainerRecreateFailurePolicy;

  /**
   * Restart the next container only once the previous one is running again.
   *
   * @default false
   */
  readonly orderedRecreate?: boolean;

  /**
   * Kill a container even while it is still starting.
   *
   * @default false
   */
  readonly forceRecreate?: boolean;

  /**
   * How long a container may take to stop gracefully.
   *
   * @default - the pod's terminationGracePeriodSeconds
   */
  readonly terminationGracePeriod?: Duration;

  /**
   * How long the pod is marked not ready (so Services stop sending traffic)
   * before the preStop hooks run and the containers stop.
   *
   * @default - the pod is not marked not ready first
   */
  readonly unreadyGracePeriod?: Duration;

  /**
   * How long a restarted container must run without crashing before the
   * restart counts as succeeded.
   *
   * @default - succeeded as soon as it runs and is ready
   */
  readonly minStarted?: Duration;
}

/** The restart settings, shared by the construct and `recreateContainers()`. */
export interface ContainerRecreateRequestOptions {
  /**
   * How the containers are restarted.
   *
   * @default - one after the other without waiting, failing at the first failure
   */
  readonly strategy?: ContainerRecreateStrategy;

  /**
   * How long the request may take before it is marked failed (3 seconds or more).
   *
   * @default - no deadline
   */
  readonly activeDeadline?: Duration;

  /**
   * How long a finished request is kept before OpenKruise deletes it. A
   * GitOps tool that syncs the request then creates it again, which restarts
   * the containers again; so synth warns when it is set.
   *
   * @default - kept until deleted
   */
  readonly ttlAfterFinished?: Duration;

  /**
   * Name, namespace, labels and annotations of the request.
   *
   * @default - a generated name, in the chart's namespace (the pod's namespace)
   */
  readonly metadata?: ApiObjectMetadata;
}

/** Props of a `ContainerRecreateRequest`. */
export interface ContainerRecreateRequestProps extends ContainerRecreateRequestOptions {
  /** The pod whose containers are restarted (in the request's namespace). */
  readonly podName: string;

  /** The names of the containers to restart, in order. */
  readonly containers: string[];
}

/**
 * An OpenKruise ContainerRecreateRequest (`apps.kruise.io/v1alpha1`):
 * kruise-daemon restarts the named containers of a running pod in place.
 * Needs the KruiseDaemon feature gate; with a KruiseControlPlane in the app,
 * synth fails when it is off.
 *
 * Replaces a hand-written manifest such as
 *
 * ```yaml
 * apiVersion: apps.kruise.io/v1alpha1
 * kind: ContainerRecreateRequest
 * spec:
 *   podName: web-7xk2p
 *   containers: [{ name: web }, { name: proxy }]
 *   strategy: { failurePolicy: Ignore, orderedRecreate: true, unreadyGracePeriodSeconds: 10, minStartedSeconds: 5 }
 *   activeDeadlineSeconds: 300
 * ```
 */
export class ContainerRecreateRequest extends kplus.Resource {
  /** The pod whose containers are restarted. */
  public readonly podName: string;

  /** How the containers are restarted, when set. */
  public readonly strategy?: ContainerRecreateStrategy;

  /** @see base.Resource.apiObject */
  protected readonly apiObject: ApiObject;

  public readonly resourceType = 'containerrecreaterequests';

  private readonly props: ContainerRecreateRequestProps;
  private readonly _containers: string[];

  public constructor(scope: Construct, id: string, props: ContainerRecreateRequestProps) {
    super(scope, id);
    this.props = props;
    this.podName = props.podName;
    this.strategy = props.strategy;
    this._containers = [...props.containers];
    this.apiObject = new (_l1('ContainerRecreateRequest').KubeContainerRecreateRequest)(this, 'Resource', {
      metadata: props.metadata,
      spec: Lazy.any({ produce: () => this._toKube() }),
    });
    if (props.ttlAfterFinished !== undefined) {
      Warnings._addProducer(this, () => [_objectLine(this.apiObject, fieldError('ttlAfterFinished', `${props.ttlAfterFinished!.toMilliseconds({ integral: false }) / 1000} seconds`,
        'makes OpenKruise delete the finished request, and a GitOps tool that syncs this manifest then creates it again, which restarts the containers again',
        'leave ttlAfterFinished unset and remove the request from the source once it finished'))]);
    }
  }

  /** The names of the containers restarted (a copy). */
  public get containers(): string[] {
    return [...this._containers];
  }

  /** @internal */
  public _toKube(): kruise.ContainerRecreateRequestSpec {
    return _withPath(this, () => _containerRecreateSpec({ ...this.props, containers: this._containers }));
  }
}

/**
 * The spec of a ContainerRecreateRequest.
 * @internal
 */
export function _containerRecreateSpec(p: ContainerRecreateRequestProps): kruise.ContainerRecreateRequestSpec {
  const s = p.strategy ?? {};
  const strategy = {
    failurePolicy: s.failurePolicy,
    orderedRecreate: s.orderedRecreate,
    forceRecreate: s.forceRecreate,
    terminationGracePeriodSeconds: _seconds(s.terminationGracePeriod, 'strategy.terminationGracePeriod'),
    unreadyGracePeriodSeconds: _seconds(s.unreadyGracePeriod, 'strategy.unreadyGracePeriod'),
    minStartedSeconds: _seconds(s.minStarted, 'strategy.minStarted'),
  };
  return {
    podName: p.podName,
    containers: p.containers.map(name => ({ name })),
    strategy: Object.values(strategy).some(v => v !== undefined) ? strategy : undefined,
    activeDeadlineSeconds: _seconds(p.activeDeadline, 'activeDeadline'),
    ttlSecondsAfterFinished: _seconds(p.ttlAfterFinished, 'ttlAfterFinished'),
  };
}
