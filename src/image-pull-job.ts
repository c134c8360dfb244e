/**
 * ImagePullJob: pull one image onto a set of nodes ahead of the pods that
 * need it, so a rollout or a scale-out does not wait for the registry.
 *
 * The nodes are picked with a factory of `ImagePullNodes` (every node, nodes
 * by name, nodes by label, or the nodes the pods of a selector run on), so
 * the mutually exclusive `selector` / `selector.names` / `podSelector` of the
 * manifest cannot be combined by mistake. The image reference, parallelism,
 * completion policy and pull secrets are judged at synth by the admission
 * layer for every ImagePullJob of the app; the construct declares the
 * KruiseDaemon and ImagePullJobGate feature gates, checked against a
 * KruiseControlPlane of the app. This file renders only what was set, plus
 * the `completionPolicy` the schema requires.
 *
 * The node, completion and sandbox types and the pull settings
 * (`ImagePullJobOptions`) are shared with ImageListPullJob and the
 * imageListPullJob template of an AdvancedCronJob.
 */
import { ApiObject, Duration, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { _l1 } from './_kruise-l1';
import { _followTarget } from './releases/served';
import { _seconds, _withPath } from './strategies';
import type * as kruise from '../imports/kruise';
import { _assertOwnKplus } from './validation/foreign-kplus';

/** The OpenKruise feature gates an image pull job needs. */

/**
 * The node part of an image pull job spec: `selector` (names or labels) or `podSelector`.
 * @internal
 */
export interface _PullJobNodes {
  readonly selector?: kruise.ImagePullJobSpecSelector;
  readonly podSelector?: kruise.ImagePullJobSpecPodSelector;
}

/** Which nodes an image pull job pulls on. */
export class ImagePullNodes {
  /** Every node of the cluster (no selector). */
  public static all(): ImagePullNodes {
    return new ImagePullNodes('every node', () => ({}));
  }

  /**
   * The nodes with these names (`spec.selector.names`).
   *
   * @param names node names, each listed once
   */
  public static named(...names: string[]): ImagePullNodes {
    if (names.length === 0) throw new Error('ImagePullNodes.named() needs at least one node name; use ImagePullNodes.all() for every node');
    const copy = [...names];
    return new ImagePullNodes(`the nodes ${copy.join(', ')}`, () => ({ selector: { names: copy } }));
  }

  /**
   * The nodes whose labels match the selector (`spec.selector.matchLabels` / `matchExpressions`).
   *
   * @param selector a label selector over node labels
   */
  public static labeled(selector: kplus.LabelSelector): ImagePullNodes {
    return new ImagePullNodes('the nodes of a label selector', () => ({ selector: selector._toKube() }));
  }

  /**
   * The nodes the pods matching the selector run on (`spec.podSelector`).
   * OpenKruise looks for those pods in the namespace of the job only.
   *
   * @param selector a label selector over pod labels
   */
  public static ofPods(selector: kplus.LabelSelector): ImagePullNodes {
    if (selector.isEmpty()) {
      throw new Error('ImagePullNodes.ofPods() needs a non-empty pod selector (an empty one selects every pod of the namespace); use ImagePullNodes.all() for every node');
    }
    return new ImagePullNodes('the nodes of the selected pods', () => ({ podSelector: selector._toKube() }));
  }

  /**
   * The nodes of the pods of a workload, read from its selector at synth.
   * @internal
   */
  public static _ofWorkload(workload: kplus.Workload): ImagePullNodes {
    return new ImagePullNodes(`the nodes of the pods of '${workload.node.path}'`, () => {
      const s = workload._toLabelSelector();
      if (s.matchLabels === undefined && s.matchExpressions === undefined) {
        throw new Error(`prePullImages(): the workload at '${workload.node.path}' has no pod selector, so the job would pull on the nodes of every pod of `
          + 'the namespace; keep `select` on (the default) or call select(), or pass nodes: ImagePullNodes.all()');
      }
      return { podSelector: s };
    });
  }

  private constructor(
    /** What the nodes are, in words. */
    public readonly description: string,
    private readonly render: () => _PullJobNodes,
  ) {}

  /** @internal */
  public _toKube(): _PullJobNodes {
    return this.render();
  }
}

/** The completion policy types of an image pull job. */
export enum ImagePullJobCompletionPolicyType {
  /** The job finishes once every selected node pulled (or failed to). */
  ALWAYS = 'Always',
  /** The job never finishes: nodes that join later pull too. */
  NEVER = 'Never',
}

/** Options of `ImagePullJobCompletionPolicy.always()`. */
export interface ImagePullJobCompletionPolicyAlwaysOptions {
  /**
   * How long the job may stay active before it is marked failed. OpenKruise
   * requires at least the pull timeout (600 seconds unless `pullTimeout` is set).
   *
   * @default - no deadline
   */
  readonly activeDeadline?: Duration;

  /**
   * How long a finished job is kept before it is deleted.
   *
   * @default - kept until deleted
   */
  readonly ttlAfterFinished?: Duration;
}

/** When an image pull job counts as finished and how long it lives on. */
export class ImagePullJobCompletionPolicy {
  /**
   * Finish once every selected node pulled (the OpenKruise default).
   *
   * @param options an active deadline and a time to live after finishing
   */
  public static always(options: ImagePullJobCompletionPolicyAlwaysOptions = {}): ImagePullJobCompletionPolicy {
    return new ImagePullJobCompletionPolicy(ImagePullJobCompletionPolicyType.ALWAYS, options.activeDeadline, options.ttlAfterFinished);
  }

  /** Never finish: keep the image on every selected node, including nodes that join later. */
  public static never(): ImagePullJobCompletionPolicy {
    return new ImagePullJobCompletionPolicy(ImagePullJobCompletionPolicyType.NEVER);
  }

  private constructor(
    /** The completion policy type. */
    public readonly type: ImagePullJobCompletionPolicyType,
    /** The active deadline, when set. */
    public readonly activeDeadline?: Duration,
    /** The time to live after finishing, when set. */
    public readonly ttlAfterFinished?: Duration,
  ) {}

  /** @internal */
  public _toKube(): kruise.ImagePullJobSpecCompletionPolicy {
    return {
      type: this.type,
      activeDeadlineSeconds: _seconds(this.activeDeadline, 'completionPolicy.activeDeadline'),
      ttlSecondsAfterFinished: _seconds(this.ttlAfterFinished, 'completionPolicy.ttlAfterFinished'),
    };
  }
}

/** Labels and annotations of the pod sandbox the container runtime creates for a pull (some runtimes and registries authorize by them). */
export interface ImagePullSandboxConfig {
  /**
   * Labels of the sandbox.
   *
   * @default - none
   */
  readonly labels?: { [key: string]: string };

  /**
   * Annotations of the sandbox.
   *
   * @default - none
   */
  readonly annotations?: { [key: string]: string };
}

/** The pull settings of an image pull job, also taken by `prePullImages()`. */
export interface ImagePullJobOptions {
  /**
   * Nodes that pull at the same time (an ImagePullJob takes no percentage).
   *
   * @default - 1 (the OpenKruise default; not written)
   */
  readonly parallelism?: number;

  /**
   * When an image is pulled again: ALWAYS or IF_NOT_PRESENT.
   *
   * @default - IfNotPresent (the OpenKruise default; not written)
   */
  readonly imagePullPolicy?: kplus.ImagePullPolicy;

  /**
   * How long one pull attempt on a node may take (`pullPolicy.timeoutSeconds`).
   *
   * @default - 600 seconds (the OpenKruise default; not written)
   */
  readonly pullTimeout?: Duration;

  /**
   * Retries on a node before its pull counts as failed (`pullPolicy.backoffLimit`).
   *
   * @default - 3 (the OpenKruise default; not written)
   */
  readonly backoffLimit?: number;

  /**
   * Docker-registry Secrets in the job's namespace used to pull.
   *
   * @default - none
   */
  readonly pullSecrets?: kplus.ISecret[];

  /**
   * When the job counts as finished, its deadline and time to live.
   *
   * @default - Always, with no deadline and no time to live (the OpenKruise default; written as the `completionPolicy: {}` the schema requires)
   */
  readonly completionPolicy?: ImagePullJobCompletionPolicy;

  /**
   * Labels and annotations of the pull's pod sandbox.
   *
   * @default - none
   */
  readonly sandboxConfig?: ImagePullSandboxConfig;
}

/** Props of an `ImagePullJob`. */
export interface ImagePullJobProps extends ImagePullJobOptions, kplus.ResourceProps {
  /** The image to pull, with its tag or digest (e.g. `nginx:1.25`). */
  readonly image: string;

  /**
   * The nodes to pull on.
   *
   * @default ImagePullNodes.all()
   */
  readonly nodes?: ImagePullNodes;
}

/**
 * The spec fields an ImagePullJob and an ImageListPullJob share.
 * @internal
 */
export function _pullJobSpec(o: ImagePullJobOptions, nodes: ImagePullNodes) {
  const pullPolicy = o.pullTimeout !== undefined || o.backoffLimit !== undefined
    ? { timeoutSeconds: _seconds(o.pullTimeout, 'pullTimeout'), backoffLimit: o.backoffLimit }
    : undefined;
  const sandbox = o.sandboxConfig && (o.sandboxConfig.labels || o.sandboxConfig.annotations)
    ? {
      labels: o.sandboxConfig.labels && { ...o.sandboxConfig.labels },
      annotations: o.sandboxConfig.annotations && { ...o.sandboxConfig.annotations },
    }
    : undefined;
  return {
    ...nodes._toKube(),
    parallelism: o.parallelism === undefined ? undefined : _l1('ImagePullJob').ImagePullJobSpecParallelism.fromNumber(o.parallelism),
    pullSecrets: o.pullSecrets && o.pullSecrets.length > 0 ? o.pullSecrets.map(s => s.name) : undefined,
    imagePullPolicy: o.imagePullPolicy as string | undefined,
    pullPolicy,
    completionPolicy: o.completionPolicy?._toKube() ?? {},
    sandboxConfig: sandbox,
  };
}

/**
 * Refuse at construction what the props cannot mean for a pull job (the
 * feature gates it needs are an app-wide check, src/admission/app-wide.ts).
 * `where` prefixes the prop names (e.g. `template imageListPullJob `).
 * @internal
 */
export function _checkPullJob(scope: Construct, kind: string, o: ImagePullJobOptions, where = ''): void {
  if (o.imagePullPolicy === kplus.ImagePullPolicy.NEVER) {
    throw new Error(`${kind} at '${scope.node.path}': ${where}'imagePullPolicy' (Never) would pull nothing; use ImagePullPolicy.ALWAYS or IF_NOT_PRESENT`);
  }
  if (o.parallelism !== undefined && !Number.isInteger(o.parallelism)) {
    throw new Error(`${kind} at '${scope.node.path}': ${where}'parallelism' (${o.parallelism}) must be a whole number of nodes; use e.g. ${Math.max(1, Math.round(o.parallelism))}`);
  }
}

/**
 * An OpenKruise ImagePullJob (`apps.kruise.io/v1beta1`): kruise-daemon pulls
 * one image onto the selected nodes, so pods that later start there find it
 * in the node's cache. Needs the KruiseDaemon and ImagePullJobGate feature
 * gates (the latter is off by default in kruise-manager and on in the Helm
 * chart); with a KruiseControlPlane in the app, synth fails when one is off.
 *
 * Replaces a hand-written manifest such as
 *
 * ```yaml
 * apiVersion: apps.kruise.io/v1beta1
 * kind: ImagePullJob
 * spec:
 *   image: registry.example.com/web:2.1.0
 *   podSelector: { matchLabels: { app: web } }
 *   parallelism: 10
 *   pullPolicy: { timeoutSeconds: 300, backoffLimit: 2 }
 *   pullSecrets: [registry]
 *   completionPolicy: { type: Always, activeDeadlineSeconds: 1800, ttlSecondsAfterFinished: 600 }
 * ```
 */
export class ImagePullJob extends kplus.Resource {
  /** The image pulled. */
  public readonly image: string;

  /** The nodes pulled on. */
  public readonly nodes: ImagePullNodes;

  /** Nodes pulling at the same time, when set. */
  public readonly parallelism?: number;

  /** The completion policy, when set. */
  public readonly completionPolicy?: ImagePullJobCompletionPolicy;

  /** @see base.Resource.apiObject */
  protected readonly apiObject: ApiObject;

  public readonly resourceType = 'imagepulljobs';

  private readonly options: ImagePullJobOptions;

  public constructor(scope: Construct, id: string, props: ImagePullJobProps) {
    super(scope, id);
    _assertOwnKplus(`ImagePullJob at '${this.node.path}'`, props);
    this.image = props.image;
    this.nodes = props.nodes ?? ImagePullNodes.all();
    this.parallelism = props.parallelism;
    this.completionPolicy = props.completionPolicy;
    this.options = props;
    _checkPullJob(this, 'ImagePullJob', props);
    this.apiObject = new (_l1('ImagePullJob').KubeImagePullJob)(this, 'Resource', {
      metadata: props.metadata,
      spec: Lazy.any({ produce: () => this._toKube() }),
    });
    // written in the API version the app's target serves (v1alpha1 on OpenKruise 1.7 and 1.8)
    _followTarget(this.apiObject);
  }

  /** @internal */
  public _toKube(): kruise.ImagePullJobSpec {
    return _withPath(this, () => ({
      image: this.image,
      ..._pullJobSpec(this.options, this.nodes),
    }));
  }
}
