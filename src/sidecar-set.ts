import { ApiObject, ApiObjectMetadata, JsonPatch, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct, IConstruct } from 'constructs';
import { _l1 } from './_kruise-l1';
import { _followTarget } from './releases/served';
import type * as kruise from '../imports/kruise';
import { InjectionPreview } from './fleet/preview';
import { ImagePullJob, ImagePullJobOptions, ImagePullNodes } from './image-pull-job';
import { ScatterTerm, _partition } from './strategies';
import { _assertOwnKplus } from './validation/foreign-kplus';

/** Where a sidecar goes relative to the pod's own containers. */
export enum SidecarInjectPolicy {
  /** Before the app containers (the default for containers). */
  BEFORE_APP_CONTAINER = 'BeforeAppContainer',
  /** After the app containers (the default for init containers). */
  AFTER_APP_CONTAINER = 'AfterAppContainer',
}

/** How a pod annotation patch treats an annotation the pod already has. */
export enum SidecarSetPatchPolicy {
  /** Keep the pod's value. */
  RETAIN = 'Retain',
  /** Replace the pod's value. */
  OVERWRITE = 'Overwrite',
  /** JSON-merge-patch the pod's value (both are JSON objects). */
  MERGE_PATCH_JSON = 'MergePatchJson',
}

/** Which new pods get a pinned SidecarSet revision. */
export enum SidecarSetRevisionPolicy {
  /** Every new pod gets the pinned revision. */
  ALWAYS = 'Always',
  /** Pods outside the update selector get the pinned revision; the rest follow the partition. */
  PARTIAL = 'Partial',
}

/** How a sidecar is upgraded when its image changes. */
export class SidecarUpgradeStrategy {
  /** Restart the sidecar with the new image (the default). */
  public static cold(): SidecarUpgradeStrategy {
    return new SidecarUpgradeStrategy('ColdUpgrade');
  }

  /**
   * Run the sidecar as two containers (`<name>-1`, `<name>-2`) and switch
   * between them, so the sidecar is upgraded without stopping the pod.
   *
   * @param emptyImage the image the idle container of the pair runs
   */
  public static hot(emptyImage: string): SidecarUpgradeStrategy {
    if (!emptyImage) throw new Error('SidecarUpgradeStrategy.hot() needs the empty image the idle container runs');
    return new SidecarUpgradeStrategy('HotUpgrade', emptyImage);
  }

  private constructor(
    /** ColdUpgrade or HotUpgrade. */
    public readonly upgradeType: string,
    /** The image of the idle hot-upgrade container. */
    public readonly emptyImage?: string) {}

  /** @internal */
  public _toKube(): kruise.SidecarSetSpecContainersUpgradeStrategy {
    return { upgradeType: this.upgradeType, hotUpgradeEmptyImage: this.emptyImage };
  }
}

/** Environment variables a sidecar copies from one of the pod's containers at injection. */
export class SidecarEnvTransfer {
  /**
   * Copy variables from the app container with this name.
   * @param containerName the app container
   * @param envNames the variables to copy
   */
  public static fromContainer(containerName: string, envNames: string[]): SidecarEnvTransfer {
    return new SidecarEnvTransfer(envNames, containerName, undefined);
  }

  /**
   * Copy variables from the app container named by a pod label.
   * @param labelKey the pod label whose value is the container name
   * @param envNames the variables to copy
   */
  public static fromContainerInLabel(labelKey: string, envNames: string[]): SidecarEnvTransfer {
    return new SidecarEnvTransfer(envNames, undefined, `metadata.labels['${labelKey}']`);
  }

  /**
   * Copy variables from the app container named by a pod annotation.
   * @param annotationKey the pod annotation whose value is the container name
   * @param envNames the variables to copy
   */
  public static fromContainerInAnnotation(annotationKey: string, envNames: string[]): SidecarEnvTransfer {
    return new SidecarEnvTransfer(envNames, undefined, `metadata.annotations['${annotationKey}']`);
  }

  /**
   * Copy variables from the container named by any pod field path. OpenKruise
   * accepts only `metadata.labels['k']` and `metadata.annotations['k']`.
   * @param fieldPath the pod field holding the container name
   * @param envNames the variables to copy
   */
  public static fromFieldPath(fieldPath: string, envNames: string[]): SidecarEnvTransfer {
    return new SidecarEnvTransfer(envNames, undefined, fieldPath);
  }

  private constructor(
    /** The variables copied. */
    public readonly envNames: string[],
    /** The source container, when named directly. */
    public readonly sourceContainerName?: string,
    /** The pod field naming the source container. */
    public readonly sourceFieldPath?: string) {
    if (envNames.length === 0) throw new Error('SidecarEnvTransfer needs at least one variable name');
  }

  /** @internal */
  public _toKube(): kruise.SidecarSetSpecContainersTransferEnv {
    return {
      sourceContainerName: this.sourceContainerName,
      sourceContainerNameFrom: this.sourceFieldPath ? { fieldRef: { apiVersion: 'v1', fieldPath: this.sourceFieldPath } } : undefined,
      envNames: [...this.envNames],
    };
  }
}

/**
 * A sidecar: a cdk8s-plus container plus how OpenKruise injects it.
 *
 * Unlike a cdk8s-plus pod container, a sidecar renders no resources,
 * security context or image pull policy unless you set them (OpenKruise then
 * applies the Kubernetes defaults), so a policy does not impose 1 CPU on
 * every pod it reaches.
 */
export interface SidecarContainerProps extends kplus.ContainerProps {
  /**
   * Where the sidecar goes relative to the pod's own containers.
   * @default - BEFORE_APP_CONTAINER for containers, AFTER_APP_CONTAINER for init containers
   */
  readonly injectPolicy?: SidecarInjectPolicy;

  /**
   * Mount every volume the app containers mount, at the same paths
   * (`shareVolumePolicy: enabled`); env variables used in their subPathExpr
   * are copied too.
   * @default false
   */
  readonly shareVolumes?: boolean;

  /**
   * Attach every block device the app containers attach.
   * @default false
   */
  readonly shareVolumeDevices?: boolean;

  /**
   * Environment variables copied from the pod's containers at injection.
   * @default - none
   */
  readonly transferEnv?: SidecarEnvTransfer[];

  /**
   * How the sidecar is upgraded when its image changes.
   * @default SidecarUpgradeStrategy.cold()
   */
  readonly upgradeStrategy?: SidecarUpgradeStrategy;
}

/** Annotations a SidecarSet sets on the pods it injects into. */
export interface SidecarSetPodMetadataPatch {
  /** The annotations. */
  readonly annotations: { [key: string]: string };
  /**
   * What to do when the pod already has an annotation.
   * @default SidecarSetPatchPolicy.RETAIN
   */
  readonly policy?: SidecarSetPatchPolicy;
}

/** Pin the sidecar revision new pods get. */
export class SidecarSetInjectionRevision {
  /**
   * Inject a stored revision (a ControllerRevision in the OpenKruise namespace).
   * @param revisionName the ControllerRevision name
   * @param policy which new pods get it
   */
  public static fromRevisionName(revisionName: string, policy?: SidecarSetRevisionPolicy): SidecarSetInjectionRevision {
    return new SidecarSetInjectionRevision(revisionName, undefined, policy);
  }

  /**
   * Inject the newest revision carrying this custom version.
   * @param customVersion the version recorded with the revision
   * @param policy which new pods get it
   */
  public static fromCustomVersion(customVersion: string, policy?: SidecarSetRevisionPolicy): SidecarSetInjectionRevision {
    return new SidecarSetInjectionRevision(undefined, customVersion, policy);
  }

  private constructor(
    /** The ControllerRevision name. */
    public readonly revisionName?: string,
    /** The custom version. */
    public readonly customVersion?: string,
    /** Which new pods get the revision. */
    public readonly policy?: SidecarSetRevisionPolicy) {}

  /** @internal */
  public _toKube(): kruise.SidecarSetSpecInjectionStrategyRevision {
    return {
      revisionName: this.revisionName,
      customVersion: this.customVersion,
      policy: this.policy as unknown as kruise.SidecarSetSpecInjectionStrategyRevisionPolicy | undefined,
    };
  }
}

/** Options of a rolling sidecar update. */
export interface SidecarSetRollingUpdateOptions {
  /**
   * Pods (or percent) that keep the old sidecars.
   * @default - all pods are updated (0)
   */
  readonly partition?: kplus.PercentOrAbsolute;
  /**
   * Pods (or percent) whose sidecars may be unavailable at once.
   * @default - 1
   */
  readonly maxUnavailable?: kplus.PercentOrAbsolute;
  /**
   * Stop updating.
   * @default false
   */
  readonly paused?: boolean;
  /**
   * Update only the pods this selector matches (cannot be combined with a partition).
   * @default - every injected pod
   */
  readonly selector?: kplus.LabelSelector;
  /**
   * Spread updated pods evenly across these labels.
   * @default - no scattering
   */
  readonly scatter?: ScatterTerm[];
}

/** How running pods follow a changed SidecarSet (only image changes reach them). */
export class SidecarSetUpdateStrategy {
  /** Never touch running pods; only new pods get the new sidecars. */
  public static notUpdate(): SidecarSetUpdateStrategy {
    return new SidecarSetUpdateStrategy({ type: 'NotUpdate' });
  }

  /**
   * Update sidecar images in place, a few pods at a time (the default).
   * @param options partition, maxUnavailable, selector, scatter
   */
  public static rollingUpdate(options: SidecarSetRollingUpdateOptions = {}): SidecarSetUpdateStrategy {
    return new SidecarSetUpdateStrategy({
      type: 'RollingUpdate',
      partition: _partition(options.partition, _l1('SidecarSet').SidecarSetSpecUpdateStrategyPartition),
      maxUnavailable: options.maxUnavailable === undefined ? undefined
        : fromPercent(options.maxUnavailable, _l1('SidecarSet').SidecarSetSpecUpdateStrategyMaxUnavailable),
      paused: options.paused,
      selector: options.selector?._toKube(),
      scatterStrategy: options.scatter?.map(t => ({ key: t.key, value: t.value })),
    });
  }

  private constructor(private readonly spec: kruise.SidecarSetSpecUpdateStrategy) {}

  /** @internal */
  public _toKube(): kruise.SidecarSetSpecUpdateStrategy {
    return this.spec;
  }
}

function fromPercent<T>(p: kplus.PercentOrAbsolute, cls: { fromNumber(n: number): T; fromString(s: string): T }): T {
  return typeof p.value === 'number' ? cls.fromNumber(p.value) : cls.fromString(String(p.value));
}

/** Options of `SidecarSet.prePullImages()`. */
export interface SidecarSetPrePullImagesOptions extends ImagePullJobOptions {
  /**
   * The namespace of the ImagePullJobs, and so of the pods whose nodes they
   * pull on (OpenKruise looks for the pods of a pod selector in the job's
   * namespace only).
   *
   * @default - the SidecarSet's `namespace` prop; one of the two is needed unless `nodes` is set
   */
  readonly namespace?: string;

  /**
   * The nodes to pull on.
   *
   * @default - the nodes of the pods the SidecarSet selects, in `namespace`
   */
  readonly nodes?: ImagePullNodes;
}

/** Properties of a SidecarSet. */
export interface SidecarSetProps {
  /**
   * Metadata of the SidecarSet (cluster-scoped: no namespace).
   * @default - a generated name
   */
  readonly metadata?: ApiObjectMetadata;
  /** The pods to inject into. */
  readonly selector: kplus.LabelSelector;
  /**
   * Inject only into pods of this namespace (rendered as a namespaceSelector
   * on `kubernetes.io/metadata.name`; cannot be combined with namespaceSelector).
   * @default - every namespace
   */
  readonly namespace?: string;
  /**
   * Inject only into pods of namespaces with these labels.
   * @default - every namespace
   */
  readonly namespaceSelector?: kplus.LabelSelector;
  /**
   * Sidecar containers.
   * @default - none; add with addContainer()
   */
  readonly containers?: SidecarContainerProps[];
  /**
   * Sidecar init containers (with restartPolicy Always: native sidecars).
   * @default - none; add with addInitContainer()
   */
  readonly initContainers?: SidecarContainerProps[];
  /**
   * Volumes of the SidecarSet, in addition to those the sidecars mount.
   * @default - the volumes the sidecars mount
   */
  readonly volumes?: kplus.Volume[];
  /**
   * Secrets added to the pods' image pull secrets.
   * @default - none
   */
  readonly imagePullSecrets?: kplus.ISecret[];
  /**
   * Annotations set on injected pods (needs a whitelist in the cluster).
   * @default - none
   */
  readonly patchPodMetadata?: SidecarSetPodMetadataPatch[];
  /**
   * Stop injecting into new pods.
   * @default false
   */
  readonly injectionPaused?: boolean;
  /**
   * Inject a pinned revision instead of the current spec.
   * @default - the current spec
   */
  readonly injectionRevision?: SidecarSetInjectionRevision;
  /**
   * How running pods follow changes.
   * @default SidecarSetUpdateStrategy.rollingUpdate() (maxUnavailable 1)
   */
  readonly updateStrategy?: SidecarSetUpdateStrategy;
  /**
   * Revisions kept.
   * @default 10
   */
  readonly revisionHistoryLimit?: number;
  /**
   * A version label of your own, recorded with each revision.
   * @default - none
   */
  readonly customVersion?: string;
}

interface SidecarEntry { readonly container: kplus.Container; readonly props: SidecarContainerProps }

/**
 * A SidecarSet (apps.kruise.io/v1beta1, cluster-scoped): sidecar containers
 * OpenKruise injects into every matching pod at creation.
 *
 * At synth it is checked on its own (the SidecarSet webhook's rules), against every other
 * SidecarSet of the app (two SidecarSets that can select the same pods and
 * inject the same container or volume name are refused by OpenKruise), and
 * against every workload of the app it selects (the injected pod must not
 * have two containers, volumes or ports of the same name).
 */
export class SidecarSet extends Construct {
  /**
   * The pod `workload` runs after OpenKruise injects every SidecarSet of the app.
   * @param workload a workload construct (or its ApiObject)
   */
  public static previewInjection(workload: IConstruct): InjectionPreview {
    return InjectionPreview.of(workload);
  }

  /** The L1 object. */
  public readonly apiObject: ApiObject;
  /** The pod selector. */
  public readonly selector: kplus.LabelSelector;
  /** The namespace selector. */
  public readonly namespaceSelector?: kplus.LabelSelector;
  /** Update strategy. */
  public readonly updateStrategy?: SidecarSetUpdateStrategy;

  private readonly props: SidecarSetProps;
  private readonly _containers: SidecarEntry[] = [];
  private readonly _initContainers: SidecarEntry[] = [];
  private readonly _volumes: kplus.Volume[] = [];
  private readonly _pullSecrets: kplus.ISecret[] = [];
  private readonly _patches: SidecarSetPodMetadataPatch[] = [];

  constructor(scope: Construct, id: string, props: SidecarSetProps) {
    super(scope, id);
    _assertOwnKplus(`SidecarSet at '${this.node.path}'`, props);
    if (props.namespace !== undefined && props.namespaceSelector !== undefined) {
      throw new Error(`SidecarSet at '${this.node.path}': set either 'namespace' (${props.namespace}) or 'namespaceSelector', not both`);
    }
    this.props = props;
    this.selector = props.selector;
    this.namespaceSelector = props.namespace !== undefined
      ? kplus.LabelSelector.of({ labels: { 'kubernetes.io/metadata.name': props.namespace } })
      : props.namespaceSelector;
    this.updateStrategy = props.updateStrategy;
    const l1 = new (_l1('SidecarSet').KubeSidecarSet)(this, 'Resource', {
      metadata: { ...props.metadata, namespace: undefined },
      spec: Lazy.any({ produce: () => this._toKube() }),
    });
    // written in the API version the app's target serves (v1alpha1 on OpenKruise 1.7 and 1.8)
    _followTarget(l1);
    if (l1.metadata.namespace !== undefined) l1.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
    this.apiObject = l1;
    for (const c of props.containers ?? []) this.addContainer(c);
    for (const c of props.initContainers ?? []) this.addInitContainer(c);
    for (const v of props.volumes ?? []) this.addVolume(v);
    for (const s of props.imagePullSecrets ?? []) this.addImagePullSecret(s);
    for (const p of props.patchPodMetadata ?? []) this.addPodMetadataPatch(p);

  }

  /** The SidecarSet's name. */
  public get name(): string {
    return this.apiObject.name;
  }

  /** The sidecar containers (copies; use addContainer to add). */
  public get containers(): kplus.Container[] {
    return this._containers.map(e => e.container);
  }

  /** The sidecar init containers (copies; use addInitContainer to add). */
  public get initContainers(): kplus.Container[] {
    return this._initContainers.map(e => e.container);
  }

  /**
   * Add a sidecar container.
   * @param props the container and how it is injected
   */
  public addContainer(props: SidecarContainerProps): kplus.Container {
    return this.add(this._containers, props, 'container');
  }

  /**
   * Add a sidecar init container (a native sidecar with restartPolicy Always).
   * @param props the container and how it is injected
   */
  public addInitContainer(props: SidecarContainerProps): kplus.Container {
    return this.add(this._initContainers, props, 'init container');
  }

  /**
   * Add a volume to the SidecarSet (volumes the sidecars mount are added automatically).
   * @param volume the volume
   */
  public addVolume(volume: kplus.Volume): void {
    this._volumes.push(volume);
  }

  /**
   * Add an image pull secret to injected pods.
   * @param secret the secret
   */
  public addImagePullSecret(secret: kplus.ISecret): void {
    this._pullSecrets.push(secret);
  }

  /**
   * Add annotations to injected pods.
   * @param patch the annotations and their policy
   */
  public addPodMetadataPatch(patch: SidecarSetPodMetadataPatch): void {
    this._patches.push(patch);
  }

  /**
   * Pull the images of the sidecars (containers and init containers added so
   * far) onto the nodes of the pods this SidecarSet selects, with one
   * ImagePullJob per distinct image, so that injected pods do not wait for
   * the sidecar image and a sidecar image update (in place) finds it on the
   * node. Needs the KruiseDaemon and ImagePullJobGate feature gates.
   *
   * @param options pull settings, the namespace of the jobs, or other nodes
   * @returns the ImagePullJobs, children of this SidecarSet with id `PrePull-<sidecar name>`
   */
  public prePullImages(options: SidecarSetPrePullImagesOptions = {}): ImagePullJob[] {
    const sidecars = [...this._initContainers, ...this._containers].map(e => e.container);
    if (sidecars.length === 0) {
      throw new Error(`SidecarSet at '${this.node.path}': prePullImages() found no sidecar yet, so there is no image to pull; add the sidecars first`);
    }
    const namespace = options.namespace ?? this.props.namespace;
    if (options.nodes === undefined && namespace === undefined) {
      throw new Error(`SidecarSet at '${this.node.path}': prePullImages() needs 'namespace' (the SidecarSet has no 'namespace' prop): `
        + 'an ImagePullJob finds the pods of its pod selector in its own namespace only; pass namespace, or nodes: ImagePullNodes.all()');
    }
    const { namespace: _ns, nodes, ...pull } = options;
    const jobs: ImagePullJob[] = [];
    const seen = new Set<string>();
    for (const c of sidecars) {
      if (seen.has(c.image)) continue;
      seen.add(c.image);
      const id = this.node.tryFindChild(`PrePull-${c.name}`) ? `PrePull-${c.name}-${jobs.length}` : `PrePull-${c.name}`;
      jobs.push(new ImagePullJob(this, id, {
        ...pull,
        image: c.image,
        nodes: nodes ?? ImagePullNodes.ofPods(this.selector),
        metadata: namespace !== undefined ? { namespace } : undefined,
      }));
    }
    return jobs;
  }

  /**
   * Whether this SidecarSet selects the pods of `workload` (labels and namespace).
   * @param workload a workload construct (or its ApiObject)
   */
  public selects(workload: IConstruct): boolean {
    return InjectionPreview.of(workload).injectedBy.includes(this.name);
  }

  private add(list: SidecarEntry[], props: SidecarContainerProps, what: string): kplus.Container {
    if (!props.name) throw new Error(`SidecarSet at '${this.node.path}': every sidecar ${what} needs a name (image ${props.image})`);
    const container = new kplus.Container(props);
    list.push({ container, props });
    return container;
  }

  private renderContainer(e: SidecarEntry): kruise.SidecarSetSpecContainers {
    const k = e.container._toKube();
    const base: any = { ...k };
    if (e.props.resources === undefined) delete base.resources;
    if (e.props.securityContext === undefined) delete base.securityContext;
    if (e.props.imagePullPolicy === undefined) delete base.imagePullPolicy;
    // OpenKruise's SidecarSet defaulter leaves a startup probe's successThreshold unset (0), which it then refuses:
    // write the only value a startup probe may have (cdk8s-plus adds a startup probe to any container with a port)
    if (base.startupProbe && base.startupProbe.successThreshold === undefined) base.startupProbe = { ...base.startupProbe, successThreshold: 1 };
    return {
      ...base,
      podInjectPolicy: e.props.injectPolicy,
      shareVolumePolicy: e.props.shareVolumes === undefined ? undefined : { type: e.props.shareVolumes ? 'enabled' : 'disabled' },
      shareVolumeDevicePolicy: e.props.shareVolumeDevices === undefined ? undefined : { type: e.props.shareVolumeDevices ? 'enabled' : 'disabled' },
      transferEnv: e.props.transferEnv?.map(t => t._toKube()),
      upgradeStrategy: e.props.upgradeStrategy?._toKube(),
    };
  }

  private renderVolumes(): kplus.Volume[] {
    const byName = new Map<string, kplus.Volume>();
    const add = (v: kplus.Volume) => {
      const prev = byName.get(v.name);
      if (prev && prev !== v) throw new Error(`SidecarSet at '${this.node.path}': two different volumes are named "${v.name}"; rename one`);
      byName.set(v.name, v);
    };
    for (const e of [...this._initContainers, ...this._containers]) for (const m of e.container.mounts) add(m.volume);
    for (const v of this._volumes) add(v);
    return [...byName.values()];
  }

  /** @internal */
  public _toKube(): kruise.SidecarSetSpec {
    const volumes = this.renderVolumes();
    const injection = this.props.injectionPaused !== undefined || this.props.injectionRevision
      ? { paused: this.props.injectionPaused, revision: this.props.injectionRevision?._toKube() } : undefined;
    return {
      selector: this.selector._toKube(),
      namespaceSelector: this.namespaceSelector?._toKube(),
      containers: this._containers.length > 0 ? this._containers.map(e => this.renderContainer(e)) : undefined,
      initContainers: this._initContainers.length > 0
        ? this._initContainers.map(e => this.renderContainer(e) as kruise.SidecarSetSpecInitContainers) : undefined,
      volumes: volumes.length > 0 ? volumes.map(v => v._toKube()) : undefined,
      imagePullSecrets: this._pullSecrets.length > 0 ? this._pullSecrets.map(s => ({ name: s.name })) : undefined,
      patchPodMetadata: this._patches.length > 0 ? this._patches.map(p => ({ annotations: { ...p.annotations }, patchPolicy: p.policy })) : undefined,
      injectionStrategy: injection,
      updateStrategy: this.updateStrategy?._toKube(),
      revisionHistoryLimit: this.props.revisionHistoryLimit,
      customVersion: this.props.customVersion,
    };
  }
}
