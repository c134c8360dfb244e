/**
 * The shared base of the OpenKruise workload constructs. Everything a
 * cdk8s-plus `Workload` offers (containers, volumes, env, service account,
 * security context, scheduling, connections) comes from there; this adds what
 * the three OpenKruise workloads share: revision history, lifecycle hooks,
 * image pre-download and its gate checks, and (for CloneSet and
 * Advanced StatefulSet) replicas, autoscaling, volume claim templates,
 * services and targeted deletion.
 */
import { ApiObject, ApiObjectMetadata, Size, SizeRoundingBehavior } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { _objectLine } from './admission/engine';
import type { ContainerRecreateRequest, ContainerRecreateRequestOptions } from './container-recreate-request';
import type { ImagePullJob, ImagePullJobOptions } from './image-pull-job';
import type { PodProbeMarker, PodProbeMarkerProbe } from './pod-probe-marker';
import type { PodUnavailableBudget, PodUnavailableBudgetOptions } from './pod-unavailable-budget';
import type { Rollout, RolloutOptions } from './rollout';
import { ImagePreDownload, Lifecycle, _imagePreDownloadAnnotations, _renderLifecycle, _withPath } from './strategies';
import { _assertOwnKplus, _pathOf } from './validation/foreign-kplus';
import { _gateSources } from './validation/gates';
import { Warnings, fieldError } from './validation/report';
import type { WorkloadSpread, WorkloadSpreadOptions } from './workload-spread';

/*
 * The constructs a workload makes on request (pre-pull jobs, container
 * restarts, probe markers, a Rollout, a WorkloadSpread, a budget) load with
 * the first request, not with the workload.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const crrModule = () => require('./container-recreate-request') as typeof import('./container-recreate-request');
const imagePullJobModule = () => require('./image-pull-job') as typeof import('./image-pull-job');
const podProbeMarkerModule = () => require('./pod-probe-marker') as typeof import('./pod-probe-marker');
const budgetModule = () => require('./pod-unavailable-budget') as typeof import('./pod-unavailable-budget');
const rolloutModule = () => require('./rollout') as typeof import('./rollout');
const spreadModule = () => require('./workload-spread') as typeof import('./workload-spread');
/* eslint-enable @typescript-eslint/no-require-imports */

/** Props every OpenKruise workload construct takes. */
export interface KruiseWorkloadProps extends kplus.WorkloadProps {
  /**
   * Old revisions (ControllerRevisions) kept for rollback.
   *
   * @default - 10 (the OpenKruise default; not written)
   */
  readonly revisionHistoryLimit?: number;

  /**
   * Pod lifecycle hooks.
   *
   * @default - no hooks
   */
  readonly lifecycle?: Lifecycle;

  /**
   * Pull new images onto the nodes before in-place updates reach them.
   *
   * @default - no pre-download settings (OpenKruise's defaults apply when its gate is on)
   */
  readonly imagePreDownload?: ImagePreDownload;
}

/**
 * Why a container cannot be restarted in place: its position in the names
 * asked for (none: the names as a whole), the name, what is wrong, the fix.
 * @internal
 */
export interface _RecreateProblem {
  readonly index?: number;
  readonly name?: string;
  readonly problem: string;
  readonly fix: string;
}

/** Options of `recreateContainers()` and `recreateContainersCommand()` on a workload. */
export interface WorkloadContainerRecreateOptions extends ContainerRecreateRequestOptions {
  /**
   * The names of the containers to restart, in order (containers of this
   * workload; init containers cannot be restarted this way).
   *
   * @default - every container of the workload
   */
  readonly containers?: string[];
}

/**
 * What a concrete workload hands to the base once its L1 object exists.
 * @internal
 */
export interface _KruiseWorkloadWiring {
  /** Human name of the kind for messages, e.g. 'Advanced StatefulSet'. */
  readonly kind: string;
  /** The feature gate image pre-download needs for this kind. */
  readonly preDownloadGate: string;
}

/**
 * Base of the OpenKruise workload constructs (CloneSet, AdvancedStatefulSet,
 * AdvancedDaemonSet).
 */
export abstract class KruiseWorkload extends kplus.Workload {
  /** Old revisions kept for rollback, when set. */
  public readonly revisionHistoryLimit?: number;

  /** The pod lifecycle hooks, when set. */
  public readonly lifecycle?: Lifecycle;

  private readonly imagePreDownload?: ImagePreDownload;

  protected constructor(scope: Construct, id: string, props: KruiseWorkloadProps) {
    super(scope, id, _assertOwnKplus(`${new.target.name} at '${_pathOf(scope, id)}'`, props));
    this.revisionHistoryLimit = props.revisionHistoryLimit;
    this.lifecycle = props.lifecycle;
    this.imagePreDownload = props.imagePreDownload;
  }

  /**
   * Finish construction once `apiObject` exists: annotations, isolation,
   * synth-time rules and warnings.
   * @internal
   */
  protected _wire(w: _KruiseWorkloadWiring): void {
    const annotations = _withPath(this, () => _imagePreDownloadAnnotations(this.imagePreDownload), true) ?? {};
    for (const [k, v] of Object.entries(annotations)) this.apiObject.metadata.addAnnotation(k, v);
    if (this.isolate) this.connections.isolate();

    // The kind's rules and warnings come from the admission layer, which
    // judges every Kruise object of the App; the construct adds the gate
    // cross-check of the pre-download props it set.
    Warnings._addProducer(this, () => {
      const out: string[] = [];
      if (Object.keys(annotations).length > 0) {
        for (const src of _gateSources(this)) {
          for (const gate of [w.preDownloadGate, 'KruiseDaemon']) {
            if (!src.isEnabled(gate)) {
              out.push(_objectLine(this.apiObject, fieldError('metadata.annotations', Object.keys(annotations),
                `ask for image pre-download, which needs the OpenKruise feature gate ${gate}, off in the control plane ${src.place}, so they have no effect`, src.howToEnable(gate))));
            }
          }
        }
      }
      return out;
    });
  }

  /**
   * Pull the images of this workload's containers and init containers onto
   * the nodes its pods run on, with one ImagePullJob per distinct image
   * (`podSelector` is the workload's selector, in its namespace). Only the
   * containers added so far count. Handy before an update to a new image
   * tag: the job warms the nodes while the old pods still run. Needs the
   * KruiseDaemon and ImagePullJobGate feature gates.
   *
   * @param options pull settings; `pullSecrets` defaults to the workload's `dockerRegistryAuth`
   * @returns the ImagePullJobs, children of this workload with id `PrePull-<container name>`
   */
  public prePullImages(options: ImagePullJobOptions = {}): ImagePullJob[] {
    const containers = [...this.initContainers, ...this.containers];
    if (containers.length === 0) {
      throw new Error(`prePullImages() at '${this.node.path}': the workload has no container yet, so there is no image to pull; add the containers first`);
    }
    const pullSecrets = options.pullSecrets ?? (this.dockerRegistryAuth ? [this.dockerRegistryAuth] : undefined);
    const { ImagePullJob, ImagePullNodes } = imagePullJobModule();
    const seen = new Set<string>();
    const jobs: ImagePullJob[] = [];
    for (const c of containers) {
      if (seen.has(c.image)) continue;
      seen.add(c.image);
      const id = this.node.tryFindChild(`PrePull-${c.name}`) ? `PrePull-${c.name}-${jobs.length}` : `PrePull-${c.name}`;
      jobs.push(new ImagePullJob(this, id, {
        ...options,
        pullSecrets,
        image: c.image,
        nodes: ImagePullNodes._ofWorkload(this),
        metadata: this.metadata.namespace ? { namespace: this.metadata.namespace } : undefined,
      }));
    }
    return jobs;
  }

  /**
   * Restart containers of one running pod of this workload in place, with a
   * ContainerRecreateRequest in the workload's namespace: the GitOps way to
   * restart (reviewed, merged and applied like any change). Containers
   * added later count: the names are checked against the workload at synth.
   * Needs the KruiseDaemon feature gate.
   *
   * @param podName the pod (one of this workload's pods)
   * @param options the containers, strategy, deadline
   * @returns the ContainerRecreateRequest, a child of this workload with id `Recreate-<podName>`
   */
  public recreateContainers(podName: string, options: WorkloadContainerRecreateOptions = {}): ContainerRecreateRequest {
    const crr = new (crrModule().ContainerRecreateRequest)(this, `Recreate-${podName}`, {
      ...options,
      podName,
      containers: options.containers ?? this.containers.map(c => c.name),
      metadata: { ...options.metadata, namespace: options.metadata?.namespace ?? this.metadata.namespace },
    });
    crr.node.addValidation({
      validate: () => this._recreateProblems(crr.containers).map(p => _objectLine(ApiObject.of(crr), p.index === undefined
        ? fieldError('spec.containers', [], `is empty: ${p.problem}`, p.fix)
        : fieldError(`spec.containers[${p.index}].name`, p.name, p.problem, p.fix))),
    });
    return crr;
  }

  /**
   * The `kubectl` command that restarts containers of one running pod of
   * this workload in place, now: it creates a ContainerRecreateRequest
   * (with a generated name, so the command can be run again). Pods are
   * runtime objects, so this is a command to run, not a manifest to keep;
   * for the GitOps way, see `recreateContainers()`.
   *
   * @param podName the pod (one of this workload's pods)
   * @param options the containers, strategy, deadline
   */
  public recreateContainersCommand(podName: string, options: WorkloadContainerRecreateOptions = {}): string {
    const containers = options.containers ?? this.containers.map(c => c.name);
    const problems = this._recreateProblems(containers);
    if (problems.length > 0) {
      throw new Error(`recreateContainersCommand() at '${this.node.path}': ${problems.map(p => `${p.name === undefined ? '' : `"${p.name}" `}${p.problem}; ${p.fix}`).join('; ')}`);
    }
    const crr = crrModule();
    let spec: ReturnType<typeof crr._containerRecreateSpec>;
    try {
      spec = crr._containerRecreateSpec({ ...options, podName, containers });
    } catch (e: any) {
      throw new Error(`recreateContainersCommand() at '${this.node.path}': ${e?.message ?? e}`);
    }
    const { name: _n, ...metadata } = { ...options.metadata, generateName: `${podName}-`, namespace: options.metadata?.namespace ?? this.metadata.namespace };
    const manifest = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ContainerRecreateRequest', metadata: JSON.parse(JSON.stringify(metadata)), spec: JSON.parse(JSON.stringify(spec)) };
    return `kubectl create -f - <<'EOF'\n${JSON.stringify(manifest, undefined, 2)}\nEOF`;
  }

  /**
   * Why `names` cannot be restarted in the pods of this workload (empty when they can):
   * the position in `names` (undefined: all of them), the name, what is wrong, the fix.
   * @internal
   */
  public _recreateProblems(names: string[]): _RecreateProblem[] {
    const regular = this.containers.map(c => c.name);
    const init = this.initContainers.map(c => c.name);
    const out: _RecreateProblem[] = [];
    if (names.length === 0) out.push({ problem: 'no container to restart: the workload has none yet', fix: 'add its containers first, or name them' });
    names.forEach((n, index) => {
      if (init.includes(n)) {
        out.push({ index, name: n, problem: `is an init container of the pods of '${this.node.path}', which OpenKruise cannot restart (it looks the container up among the pod's running containers)`, fix: `name one of ${JSON.stringify(regular)}` });
      } else if (!regular.includes(n)) {
        out.push({ index, name: n, problem: `is no container of the pods of '${this.node.path}'`, fix: `name one of ${JSON.stringify(regular)}` });
      }
    });
    return out;
  }

  /**
   * Run custom probes in the containers of this workload's pods and record
   * their results as pod conditions, labels or annotations, with a
   * PodProbeMarker selecting this workload's pods (in its namespace). A
   * second call adds the probes to the same PodProbeMarker. Needs the
   * PodProbeMarkerGate and KruiseDaemon feature gates.
   *
   * @param probes the probes (each names a container of this workload)
   * @returns the PodProbeMarker, a child of this workload with id 'ProbeMarker'
   */
  public addProbeMarker(...probes: PodProbeMarkerProbe[]): PodProbeMarker {
    const existing = this.node.tryFindChild('ProbeMarker') as PodProbeMarker | undefined;
    const marker = existing ?? new (podProbeMarkerModule().PodProbeMarker)(this, 'ProbeMarker', { target: this });
    for (const p of probes) marker.addProbe(p);
    return marker;
  }

  /**
   * Release every new version of this workload step by step with a Kruise
   * Rollouts `Rollout` (canary batches, traffic weights, A/B matches, or
   * blue-green for a CloneSet), instead of all at once by its own update
   * strategy. A traffic routing without a Service uses the one
   * `exposeViaService()` made. Leave the workload's own partition and pause
   * unset: the release drives them.
   *
   * @param options the strategy and settings
   * @returns the Rollout, a child of this workload with id 'Rollout'
   */
  public rollout(options: RolloutOptions): Rollout {
    return rolloutModule().Rollout.of(this, options);
  }

  /**
   * The pod template; with no container yet, an empty container list the
   * rules report (instead of a bare exception).
   * @internal
   */
  protected _podTemplate(): k8s.PodTemplateSpec {
    return {
      metadata: this.podMetadata.toJson(),
      spec: this.containers.length === 0 ? { containers: [] } : this._toPodSpec(),
    };
  }

  /** @internal */
  protected _renderLifecycle(): any {
    return _renderLifecycle(this.lifecycle);
  }
}

/** A volume claim template: every pod gets its own PersistentVolumeClaim from it. */
export interface VolumeClaimTemplateOptions {
  /** The storage each claim requests. */
  readonly storage: Size;

  /**
   * Access modes of the claims (the API server requires at least one).
   *
   * @default [PersistentVolumeAccessMode.READ_WRITE_ONCE]
   */
  readonly accessModes?: kplus.PersistentVolumeAccessMode[];

  /**
   * The StorageClass of the claims.
   *
   * @default - the cluster's default StorageClass
   */
  readonly storageClassName?: string;

  /**
   * Filesystem or block volumes.
   *
   * @default - Filesystem (the Kubernetes default; not written)
   */
  readonly volumeMode?: kplus.PersistentVolumeMode;

  /**
   * Labels and annotations of the claims.
   *
   * @default - none
   */
  readonly metadata?: ApiObjectMetadata;
}

/** A named volume claim template. */
export interface VolumeClaimTemplate extends VolumeClaimTemplateOptions {
  /** The claim template name; pods mount the claim under this volume name. */
  readonly name: string;
}

/** Props of the replicated OpenKruise workloads (CloneSet, AdvancedStatefulSet). */
export interface KruiseReplicatedWorkloadProps extends KruiseWorkloadProps {
  /**
   * Number of desired pods.
   *
   * @default - 1 (the OpenKruise default; not written). Not written either
   * when a HorizontalPodAutoscaler targets the workload.
   */
  readonly replicas?: number;

  /**
   * Per-pod PersistentVolumeClaims. Mount one with
   * `container.mount(path, workload.claimVolume(name))`.
   *
   * @default - none
   */
  readonly volumeClaimTemplates?: VolumeClaimTemplate[];
}

function toQuantity(size: Size): k8s.Quantity {
  const ki = size.toKibibytes({ rounding: SizeRoundingBehavior.NONE });
  const units: Array<[string, number]> = [['Ti', 1024 ** 3], ['Gi', 1024 ** 2], ['Mi', 1024], ['Ki', 1]];
  for (const [unit, factor] of units) {
    if (Number.isInteger(ki / factor)) return k8s.Quantity.fromString(`${ki / factor}${unit}`);
  }
  return k8s.Quantity.fromString(`${Math.ceil(ki)}Ki`);
}

/**
 * Base of the OpenKruise workloads that run a number of replicas: CloneSet
 * and AdvancedStatefulSet. Both can be targeted by a kplus
 * HorizontalPodAutoscaler and both honour the `apps.kruise.io/specified-delete`
 * pod label.
 */
export abstract class KruiseReplicatedWorkload extends KruiseWorkload implements kplus.IScalable {
  /** The pod label that marks a pod for deletion by its CloneSet or Advanced StatefulSet. */
  public static readonly SPECIFIED_DELETE_LABEL = 'apps.kruise.io/specified-delete';

  /** The desired replicas, when set. */
  public readonly replicas?: number;

  /** Whether a HorizontalPodAutoscaler targets this workload (then replicas are not written). */
  public hasAutoscaler = false;

  private readonly claims = new Map<string, { template: VolumeClaimTemplateOptions; volume: kplus.Volume }>();

  protected constructor(scope: Construct, id: string, props: KruiseReplicatedWorkloadProps) {
    super(scope, id, props);
    this.replicas = props.replicas;
    for (const t of props.volumeClaimTemplates ?? []) this.addVolumeClaimTemplate(t.name, t);
  }

  /**
   * Add a volume claim template; returns the volume to mount in containers.
   *
   * @param name the claim template name (a DNS-1123 label)
   * @param options storage, access modes, class, mode, metadata
   */
  public addVolumeClaimTemplate(name: string, options: VolumeClaimTemplateOptions): kplus.Volume {
    if (this.claims.has(name)) throw new Error(`volumeClaimTemplates: "${name}" is already defined; give every claim template its own name`);
    const claim = kplus.PersistentVolumeClaim.fromClaimName(this, `Claim-${name}`, name);
    const volume = kplus.Volume.fromPersistentVolumeClaim(this, `ClaimVolume-${name}`, claim, { name });
    this.claims.set(name, { template: options, volume });
    return volume;
  }

  /**
   * Spread the pods of this workload over subsets of nodes (zones, node
   * pools, elastic capacity) with a WorkloadSpread targeting it. (Named
   * `spreadOver` because cdk8s-plus `Workload` reserves `spread` internally.)
   *
   * @param options subsets and schedule strategy
   * @returns the WorkloadSpread, a child of this workload with id 'Spread'
   */
  public spreadOver(options: WorkloadSpreadOptions = {}): WorkloadSpread {
    return new (spreadModule().WorkloadSpread)(this, 'Spread', { ...options, target: this });
  }

  /**
   * Limit how many pods of this workload may be unavailable at once because
   * of deletion, eviction or in-place update, with a PodUnavailableBudget
   * targeting it.
   *
   * @param options maxUnavailable or minAvailable, and what is protected
   * @returns the PodUnavailableBudget, a child of this workload with id 'Budget'
   */
  public protect(options: PodUnavailableBudgetOptions): PodUnavailableBudget {
    return new (budgetModule().PodUnavailableBudget)(this, 'Budget', { ...options, target: this });
  }

  /**
   * The volume of a volume claim template, for `container.mount()`.
   *
   * @param name the claim template name
   */
  public claimVolume(name: string): kplus.Volume {
    const c = this.claims.get(name);
    if (!c) throw new Error(`volumeClaimTemplates: no claim template "${name}"; add it with addVolumeClaimTemplate()`);
    return c.volume;
  }

  /**
   * The `kubectl` command that marks running pods for deletion: the workload
   * deletes pods labelled `apps.kruise.io/specified-delete` within its
   * unavailability budget and creates replacements (an Advanced StatefulSet
   * recreates the same ordinal). Pods are runtime objects, so the label is
   * applied to the cluster, never synthesized.
   *
   * @param podNames the pods to mark
   */
  public markForDeletionCommand(...podNames: string[]): string {
    if (podNames.length === 0) throw new Error('markForDeletionCommand: name at least one pod');
    const ns = this.metadata.namespace ? ` -n ${this.metadata.namespace}` : '';
    return `kubectl label pod${ns} ${podNames.join(' ')} ${KruiseReplicatedWorkload.SPECIFIED_DELETE_LABEL}=true`;
  }

  /**
   * Expose the pods via a Service (like `kplus.Deployment.exposeViaService`).
   *
   * @param options ports, service type and name
   */
  public exposeViaService(options: kplus.DeploymentExposeViaServiceOptions = {}): kplus.Service {
    const containerPorts = this.containers.flatMap(c => c.ports);
    const ports = options.ports ?? containerPorts.map(p => ({ port: p.number, targetPort: p.number, protocol: p.protocol, name: p.name }));
    if (ports.length === 0) {
      throw new Error(`Unable to expose ${this.apiObject.kind} ${this.name} via a service: no port; pass 'ports' or give a container a port`);
    }
    if (ports.length > 1 && ports.some(p => p.name === undefined)) {
      throw new Error(`Unable to expose ${this.apiObject.kind} ${this.name} via a service: with several ports every port needs a name`);
    }
    const numbers = containerPorts.map(p => p.number);
    for (const p of ports) {
      const target = p.targetPort ?? p.port;
      if (!numbers.includes(target)) {
        throw new Error(`Unable to expose ${this.apiObject.kind} ${this.name} via a service: port ${target} is not exposed by any container`);
      }
    }
    return new kplus.Service(this, `${options.name ?? ''}Service`, {
      selector: this,
      ports,
      metadata: { namespace: this.metadata.namespace, ...(options.name ? { name: options.name } : {}) },
      type: options.serviceType ?? kplus.ServiceType.CLUSTER_IP,
    });
  }

  /** @see IScalable.markHasAutoscaler() */
  public markHasAutoscaler(): void {
    this.hasAutoscaler = true;
  }

  /** @see IScalable.toScalingTarget() */
  public toScalingTarget(): kplus.ScalingTarget {
    return {
      kind: this.apiObject.kind,
      apiVersion: this.apiObject.apiVersion,
      name: this.name,
      containers: this.containers,
      replicas: this.replicas,
    };
  }

  /**
   * The pod spec without the volumes of the claim templates (the workload
   * adds those to each pod itself).
   * @internal
   */
  public _toPodSpec(): k8s.PodSpec {
    const spec = super._toPodSpec();
    const isClaim = (v: k8s.Volume) => this.claims.has(v.name) && v.persistentVolumeClaim?.claimName === v.name;
    const volumes = (spec.volumes ?? []).filter(v => !isClaim(v));
    return { ...spec, volumes: volumes.length > 0 ? volumes : undefined };
  }

  /** @internal */
  protected _replicas(): number | undefined {
    return this.hasAutoscaler ? undefined : this.replicas;
  }

  /** @internal */
  protected _volumeClaimTemplates(): k8s.KubePersistentVolumeClaimProps[] | undefined {
    if (this.claims.size === 0) return undefined;
    return [...this.claims.entries()].map(([name, { template: t }]) => ({
      metadata: { ...t.metadata, name },
      spec: {
        accessModes: (t.accessModes ?? [kplus.PersistentVolumeAccessMode.READ_WRITE_ONCE]).map(m => String(m)),
        storageClassName: t.storageClassName,
        volumeMode: t.volumeMode,
        resources: { requests: { storage: toQuantity(t.storage) } },
      },
    }));
  }
}
