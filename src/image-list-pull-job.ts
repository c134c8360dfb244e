/**
 * ImageListPullJob: pull a list of images onto a set of nodes. OpenKruise
 * runs it as one ImagePullJob per image, each with the same nodes and pull
 * settings, so the options are ImagePullJob's (`ImagePullJobOptions`) plus
 * the list: nodes by `ImagePullNodes`, parallelism, pull policy, secrets,
 * completion policy and sandbox config mean what they mean there. The same
 * options make the imageListPullJob template of an AdvancedCronJob.
 *
 * The images, the node choice and the settings are judged at synth by the
 * admission layer for every ImageListPullJob of the app; the construct
 * declares the KruiseDaemon and ImagePullJobGate feature gates, checked
 * against a KruiseControlPlane of the app. This file renders only what was
 * set, plus the `completionPolicy` the schema requires.
 */
import { ApiObject, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { _l1 } from './_kruise-l1';
import { ImagePullJobCompletionPolicy, ImagePullJobOptions, ImagePullNodes, _checkPullJob, _pullJobSpec } from './image-pull-job';
import { _followTarget } from './releases/served';
import { _withPath } from './strategies';
import type * as kruise from '../imports/kruise';

/** The images and nodes of an image list pull, with the pull settings of an ImagePullJob. */
export interface ImageListPullJobOptions extends ImagePullJobOptions {
  /** The images to pull, each with its tag or digest (at most 255, each once). */
  readonly images: string[];

  /**
   * The nodes to pull on.
   *
   * @default ImagePullNodes.all()
   */
  readonly nodes?: ImagePullNodes;
}

/** Props of an `ImageListPullJob`. */
export interface ImageListPullJobProps extends ImageListPullJobOptions, kplus.ResourceProps {}

/**
 * The spec of an image list pull.
 * @internal
 */
export function _imageListPullJobSpec(o: ImageListPullJobOptions, images: string[]): kruise.ImageListPullJobSpec {
  return { images: [...images], ..._pullJobSpec(o, o.nodes ?? ImagePullNodes.all()) } as kruise.ImageListPullJobSpec;
}

/**
 * An OpenKruise ImageListPullJob (`apps.kruise.io/v1beta1`): kruise-daemon
 * pulls a list of images onto the selected nodes (OpenKruise creates one
 * ImagePullJob per image). Needs the KruiseDaemon and ImagePullJobGate
 * feature gates; with a KruiseControlPlane in the app, synth fails when one
 * is off.
 *
 * Replaces a hand-written manifest such as
 *
 * ```yaml
 * apiVersion: apps.kruise.io/v1beta1
 * kind: ImageListPullJob
 * spec:
 *   images: [nginx:1.27, redis:7.4]
 *   selector: { matchLabels: { pool: web } }
 *   parallelism: 10
 *   completionPolicy: { type: Always, ttlSecondsAfterFinished: 3600 }
 * ```
 */
export class ImageListPullJob extends kplus.Resource {
  /** The nodes pulled on. */
  public readonly nodes: ImagePullNodes;

  /** Nodes pulling at the same time, when set. */
  public readonly parallelism?: number;

  /** The completion policy, when set. */
  public readonly completionPolicy?: ImagePullJobCompletionPolicy;

  /** @see base.Resource.apiObject */
  protected readonly apiObject: ApiObject;

  public readonly resourceType = 'imagelistpulljobs';

  private readonly options: ImageListPullJobOptions;
  private readonly _images: string[];

  public constructor(scope: Construct, id: string, props: ImageListPullJobProps) {
    super(scope, id);
    this.nodes = props.nodes ?? ImagePullNodes.all();
    this.parallelism = props.parallelism;
    this.completionPolicy = props.completionPolicy;
    this.options = props;
    this._images = [...props.images];
    _checkPullJob(this, 'ImageListPullJob', props);
    this.apiObject = new (_l1('ImageListPullJob').KubeImageListPullJob)(this, 'Resource', {
      metadata: props.metadata,
      spec: Lazy.any({ produce: () => this._toKube() }),
    });
    // written in the API version the app's target serves (v1alpha1 on OpenKruise 1.7 and 1.8)
    _followTarget(this.apiObject);
  }

  /** The images pulled (a copy; add with `addImage()`). */
  public get images(): string[] {
    return [...this._images];
  }

  /**
   * Pull one more image.
   *
   * @param image the image, with its tag or digest
   */
  public addImage(image: string): void {
    this._images.push(image);
  }

  /** @internal */
  public _toKube(): kruise.ImageListPullJobSpec {
    return _withPath(this, () => _imageListPullJobSpec(this.options, this._images));
  }
}
