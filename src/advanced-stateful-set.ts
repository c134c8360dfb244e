import { ApiObject, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { GoverningService } from './_governing-service';
import { _l1 } from './_kruise-l1';
import { _objectLine } from './admission/engine';
import { KruiseReplicatedWorkload, KruiseReplicatedWorkloadProps } from './kruise-workload';
import { PersistentPodState, PersistentPodStateOptions } from './persistent-pod-state';
import type { StatefulSetTakeover } from './stateful-set-takeover';
import { AdvancedStatefulSetUpdateStrategy, PodUpdatePolicy, _intOrString, _withPath } from './strategies';
import type * as kruise from '../imports/kruise';
import { KruiseValidation } from './validation/register';
import { fieldError } from './validation/report';

/** An ordinal (or a range of ordinals) an Advanced StatefulSet skips when it creates pods. */
export class ReserveOrdinal {
  /**
   * One ordinal.
   *
   * @param ordinal the ordinal to skip (0 or more)
   */
  public static of(ordinal: number): ReserveOrdinal {
    return new ReserveOrdinal(ordinal);
  }

  /**
   * A range of ordinals, both ends included.
   *
   * @param start the first ordinal to skip
   * @param end the last ordinal to skip
   */
  public static range(start: number, end: number): ReserveOrdinal {
    return new ReserveOrdinal(`${start}-${end}`);
  }

  private constructor(private readonly value: number | string) {}

  /** @internal */
  public _toKube(): kruise.StatefulSetSpecReserveOrdinals {
    return typeof this.value === 'number'
      ? _l1('StatefulSet').StatefulSetSpecReserveOrdinals.fromNumber(this.value)
      : _l1('StatefulSet').StatefulSetSpecReserveOrdinals.fromString(this.value);
  }
}

/** What happens to the PVCs of an Advanced StatefulSet's pods. */
export enum PvcRetentionPolicy {
  /** Keep the PVCs. */
  RETAIN = 'Retain',
  /** Delete the PVCs. */
  DELETE = 'Delete',
}

/** The PVC retention policy of an Advanced StatefulSet (`persistentVolumeClaimRetentionPolicy`). */
export interface PvcRetention {
  /**
   * When the StatefulSet is deleted.
   *
   * @default PvcRetentionPolicy.RETAIN (the OpenKruise default; not written)
   */
  readonly whenDeleted?: PvcRetentionPolicy;

  /**
   * When pods are removed by a scale-in.
   *
   * @default PvcRetentionPolicy.RETAIN (the OpenKruise default; not written)
   */
  readonly whenScaled?: PvcRetentionPolicy;
}

/** How PVCs follow changes of the volume claim templates (`volumeClaimUpdateStrategy.type`). */
export enum VolumeClaimUpdatePolicy {
  /** PVCs are only recreated when you delete them. */
  ON_DELETE = 'OnDelete',
  /** PVC storage is resized as pods are rolled (needs the StatefulSetAutoResizePVCGate gate). */
  ON_POD_ROLLING_UPDATE = 'OnPodRollingUpdate',
}

/** The scale strategy of an Advanced StatefulSet. */
export interface AdvancedStatefulSetScaleStrategy {
  /**
   * Pods (or whole percent of replicas) that may be unavailable while scaling
   * (anything other than 1 needs `PodManagementPolicy.PARALLEL`).
   *
   * @default - no limit
   */
  readonly maxUnavailable?: kplus.PercentOrAbsolute;
}

/** Props of an `AdvancedStatefulSet`. */
export interface AdvancedStatefulSetProps extends KruiseReplicatedWorkloadProps {
  /**
   * The governing Service that gives the pods their network identity.
   *
   * @default - a headless Service named like the workload, selecting the pods,
   * with the container ports (without ports when no container has one)
   */
  readonly service?: kplus.Service;

  /**
   * Create pods one at a time in order, or all at once.
   *
   * @default - OrderedReady (the OpenKruise default; not written)
   */
  readonly podManagementPolicy?: kplus.PodManagementPolicy;

  /**
   * How pods of an old revision are replaced.
   *
   * @default - a rolling update that recreates pods (the OpenKruise default; not written)
   */
  readonly updateStrategy?: AdvancedStatefulSetUpdateStrategy;

  /**
   * Ordinals skipped when pods are created.
   *
   * @default - none
   */
  readonly reserveOrdinals?: ReserveOrdinal[];

  /**
   * How pods are created and removed when scaling.
   *
   * @default - no limit
   */
  readonly scaleStrategy?: AdvancedStatefulSetScaleStrategy;

  /**
   * Whether the PVCs of pods are deleted with the StatefulSet or on scale-in.
   *
   * @default - both retained (the OpenKruise default; not written)
   */
  readonly pvcRetention?: PvcRetention;

  /**
   * The ordinal of the first pod (`ordinals.start`).
   *
   * @default - 0
   */
  readonly ordinalsStart?: number;

  /**
   * How PVCs follow changes of the volume claim templates.
   *
   * @default - OnDelete where the StatefulSetAutoResizePVCGate gate is on; not written
   */
  readonly volumeClaimUpdatePolicy?: VolumeClaimUpdatePolicy;

  /**
   * Take over a running `apps/v1` StatefulSet and adopt its pods: the
   * workload takes its name, selector, pod labels, serviceName and replica
   * count, and adds no selector label of its own. Delete the apps/v1
   * StatefulSet with `--cascade=orphan` first (see `cdk8s-kruise plan
   * --old-live` for the pods adopted and whether they roll).
   *
   * @default - a new workload with a selector label of its own
   */
  readonly takeOver?: StatefulSetTakeover;
}

/**
 * An OpenKruise Advanced StatefulSet (`apps.kruise.io/v1beta1` StatefulSet;
 * v1alpha1 would silently drop fields such as reserveOrdinals): a
 * StatefulSet with in-place update, parallel rolling update
 * (maxUnavailable), unordered update priorities, reserved ordinals, PVC
 * retention and lifecycle hooks. It takes the props of `kplus.StatefulSet`
 * and creates a governing headless Service the same way.
 *
 * Replaces a hand-written manifest such as
 *
 * ```yaml
 * apiVersion: apps.kruise.io/v1beta1
 * kind: StatefulSet
 * spec:
 *   serviceName: db
 *   podManagementPolicy: Parallel
 *   updateStrategy:
 *     type: RollingUpdate
 *     rollingUpdate: { podUpdatePolicy: InPlaceIfPossible, maxUnavailable: 2 }
 *   template:
 *     spec:
 *       readinessGates: [{ conditionType: InPlaceUpdateReady }]
 *       containers: [...]
 * ```
 */
export class AdvancedStatefulSet extends KruiseReplicatedWorkload {
  /**
   * Turn an existing `apps/v1` StatefulSet manifest into an Advanced
   * StatefulSet manifest: the apiVersion changes, server-set metadata and
   * `status` are dropped, and `spec.minReadySeconds` (which the Advanced
   * StatefulSet keeps in its rolling update) moves to
   * `spec.updateStrategy.rollingUpdate.minReadySeconds`. The object is
   * checked by the same rules as the construct. On a running cluster the
   * switch is more than this manifest: delete the apps/v1 StatefulSet with
   * `--cascade=orphan` first, so that the new one adopts its pods, and read
   * `cdk8s-kruise plan --old-live` for the pods adopted and whether they roll
   * (a template that leaves `imagePullPolicy` out differs once OpenKruise's
   * defaults are in: they set `Always` where Kubernetes set `IfNotPresent`).
   *
   * @param scope the parent construct
   * @param id the construct id
   * @param manifest the StatefulSet manifest (parsed YAML or JSON)
   */
  public static fromStatefulSetManifest(scope: Construct, id: string, manifest: any): ApiObject {
    if (manifest?.kind !== 'StatefulSet' || manifest?.apiVersion !== 'apps/v1') {
      throw new Error(`fromStatefulSetManifest: expected an apps/v1 StatefulSet, got ${manifest?.apiVersion}/${manifest?.kind}; pass the parsed manifest of a StatefulSet`);
    }
    const { resourceVersion, uid, creationTimestamp, generation, managedFields, selfLink, ...metadata } = manifest.metadata ?? {};
    const spec = JSON.parse(JSON.stringify(manifest.spec ?? {}));
    if (spec.minReadySeconds !== undefined) {
      const u = spec.updateStrategy ??= {};
      if ((u.type ?? 'RollingUpdate') !== 'RollingUpdate') {
        throw new Error(`fromStatefulSetManifest: spec.minReadySeconds (${spec.minReadySeconds}) has no place with updateStrategy ${u.type}; an Advanced StatefulSet only knows it for rolling updates, so remove it or use RollingUpdate`);
      }
      u.rollingUpdate = { ...u.rollingUpdate, minReadySeconds: spec.minReadySeconds };
      delete spec.minReadySeconds;
    }
    const obj = new ApiObject(scope, id, { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', metadata, spec });
    KruiseValidation.enable(obj);
    return obj;
  }

  /** The governing Service. */
  public readonly service: kplus.Service;

  /** The pod management policy, when set. */
  public readonly podManagementPolicy?: kplus.PodManagementPolicy;

  /** The update strategy, when set. */
  public readonly updateStrategy?: AdvancedStatefulSetUpdateStrategy;

  /** @see base.Resource.apiObject */
  protected readonly apiObject: ApiObject;

  public readonly resourceType = 'statefulsets';

  private readonly ownService: boolean;
  private readonly props: AdvancedStatefulSetProps;

  private readonly takeOver?: StatefulSetTakeover;

  public constructor(scope: Construct, id: string, props: AdvancedStatefulSetProps = {}) {
    super(scope, id, takeOverProps(scope, id, props));
    this.props = props;
    this.takeOver = props.takeOver;
    if (props.takeOver) {
      // the running pods carry the running StatefulSet's labels, not a selector label of ours
      this.select(kplus.LabelSelector.of({ labels: props.takeOver.selector }));
    }
    this.podManagementPolicy = props.podManagementPolicy;
    this.updateStrategy = props.updateStrategy;
    this.apiObject = new (_l1('StatefulSet').KubeStatefulSet)(this, 'Resource', {
      metadata: props.takeOver
        ? { ...props.metadata, name: props.takeOver.name, namespace: props.metadata?.namespace ?? props.takeOver.namespace }
        : props.metadata,
      spec: Lazy.any({ produce: () => _withPath(this, () => this._toKube()) }),
    });
    // the pod metadata resolves against the workload's object, so its labels come once that exists
    for (const [k, v] of Object.entries(props.takeOver?.podLabels ?? {})) this.podMetadata.addLabel(k, v);
    this.ownService = props.service === undefined;
    // The governing Service shares the workload's name: pods are then
    // reachable as <pod>.<workload>.<namespace>.svc, as with a hand-written StatefulSet.
    if (props.takeOver && props.service && props.service.name !== props.takeOver.serviceName) {
      throw new Error(`AdvancedStatefulSet at '${this.node.path}': service "${props.service.name}" is not the governing Service "${props.takeOver.serviceName}" of the StatefulSet it takes over; `
        + 'the running pods keep that DNS subdomain, so pass that Service or leave service out');
    }
    this.service = props.service ?? new GoverningService(this, 'Service', {
      clusterIP: 'None',
      metadata: { name: props.takeOver?.serviceName ?? this.apiObject.name, namespace: this.metadata.namespace },
    });
    this.service.select(this);
    this.apiObject.addDependency(this.service);
    if (this.ownService) {
      for (const c of this.containers) this.bindPorts(c);
    }
    this._wire({
      kind: 'Advanced StatefulSet',
      preDownloadGate: 'PreDownloadImageForInPlaceUpdate',
    });
    const running = props.takeOver?.claimTemplates;
    if (running) {
      this.node.addValidation({
        validate: () => {
          const mine = (this._volumeClaimTemplates() ?? []).map(c => c.metadata?.name ?? '');
          const same = mine.length === running.length && [...mine].sort().every((n, i) => n === [...running].sort()[i]);
          return same ? [] : [_objectLine(this.apiObject, fieldError('spec.volumeClaimTemplates', mine,
            `differ from ${JSON.stringify(running)} of the StatefulSet "${props.takeOver!.name}" it takes over: its pods mount the claims <template>-${props.takeOver!.name}-<ordinal>, and OpenKruise cannot change the volumes of a running pod`,
            'declare the same claim templates with addVolumeClaimTemplate()'))];
        },
      });
    }
  }

  /**
   * How Services, network policies and affinities select the pods: when
   * taking over a StatefulSet, by its selector (the running pods carry no
   * `cdk8s.io/metadata.addr` label).
   */
  public toPodSelectorConfig(): kplus.PodSelectorConfig {
    const own = super.toPodSelectorConfig();
    if (!this.takeOver) return own;
    return { labelSelector: kplus.LabelSelector.of({ labels: this.takeOver.selector }), namespaces: own.namespaces };
  }

  /**
   * The pod template; when taking over a StatefulSet, with the running
   * pods' labels and without a `cdk8s.io/metadata.addr` label of ours.
   * @internal
   */
  protected _podTemplate(): k8s.PodTemplateSpec {
    const t = super._podTemplate();
    if (!this.takeOver) return t;
    const labels = { ...(t.metadata?.labels ?? {}) };
    // the running pods' own address label (a cdk8s-plus StatefulSet's) stays; ours goes
    if (this.takeOver.podLabels[kplus.Pod.ADDRESS_LABEL] === undefined) delete labels[kplus.Pod.ADDRESS_LABEL];
    return { ...t, metadata: { ...t.metadata, labels } };
  }

  /**
   * Keep the node (or node labels) and annotations of each pod across its
   * recreation, with a PersistentPodState targeting this StatefulSet in its
   * namespace: e.g. `persistPodState({ requiredTopology: ['kubernetes.io/hostname'] })`
   * brings a recreated pod back to the node that holds its local data.
   *
   * @param options required and preferred topology, annotations, retention
   * @returns the PersistentPodState, a child of this workload with id 'PodState'
   */
  public persistPodState(options: PersistentPodStateOptions): PersistentPodState {
    return new PersistentPodState(this, 'PodState', { ...options, target: this });
  }

  /**
   * Add a container; its ports are added to the governing Service this
   * construct created.
   *
   * @param cont the container
   */
  public addContainer(cont: kplus.ContainerProps): kplus.Container {
    const c = super.addContainer(cont);
    // The base constructor adds the props' containers before the service exists.
    if (this.ownService) this.bindPorts(c);
    return c;
  }

  private bindPorts(c: kplus.Container): void {
    for (const p of c.ports) this.service.bind(p.number, { targetPort: p.number, protocol: p.protocol, name: p.name });
  }

  /**
   * The pod spec, with the `InPlaceUpdateReady` readiness gate that the
   * in-place pod update policies require.
   * @internal
   */
  public _toPodSpec(): k8s.PodSpec {
    const spec = super._toPodSpec();
    const policy = this.updateStrategy?.podUpdatePolicy;
    if (policy !== PodUpdatePolicy.IN_PLACE_IF_POSSIBLE && policy !== PodUpdatePolicy.IN_PLACE_ONLY) return spec;
    return { ...spec, readinessGates: [...(spec.readinessGates ?? []), { conditionType: 'InPlaceUpdateReady' }] };
  }

  /** @internal */
  public _toKube(): kruise.StatefulSetSpec {
    const p = this.props;
    const ret = p.pvcRetention;
    const maxUnavailable = _intOrString(p.scaleStrategy?.maxUnavailable, _l1('StatefulSet').StatefulSetSpecScaleStrategyMaxUnavailable);
    return {
      replicas: this._replicas(),
      serviceName: this.service.name,
      podManagementPolicy: this.podManagementPolicy,
      selector: this._toLabelSelector(),
      template: this._podTemplate(),
      volumeClaimTemplates: this._volumeClaimTemplates(),
      updateStrategy: this.updateStrategy?._toKube(),
      revisionHistoryLimit: this.revisionHistoryLimit,
      lifecycle: this._renderLifecycle(),
      reserveOrdinals: p.reserveOrdinals && p.reserveOrdinals.length > 0 ? p.reserveOrdinals.map(o => o._toKube()) : undefined,
      scaleStrategy: maxUnavailable ? { maxUnavailable } : undefined,
      persistentVolumeClaimRetentionPolicy: ret && (ret.whenDeleted || ret.whenScaled)
        ? { whenDeleted: ret.whenDeleted, whenScaled: ret.whenScaled }
        : undefined,
      ordinals: p.ordinalsStart !== undefined ? { start: p.ordinalsStart } : undefined,
      volumeClaimUpdateStrategy: p.volumeClaimUpdatePolicy ? { type: p.volumeClaimUpdatePolicy } : undefined,
    };
  }
}

/** The props a takeover hands to the workload base: its name, namespace and replicas, and no selector label of ours. */
function takeOverProps(scope: Construct, id: string, props: AdvancedStatefulSetProps): AdvancedStatefulSetProps {
  const t = props.takeOver;
  if (!t) return props;
  const path = scope.node.path ? `${scope.node.path}/${id}` : id;
  const name = props.metadata?.name;
  if (name !== undefined && name !== t.name) {
    throw new Error(`AdvancedStatefulSet at '${path}': metadata.name "${name}" is not the name "${t.name}" of the StatefulSet it takes over; `
      + `its pods are ${t.name}-<ordinal> and are adopted only by a StatefulSet of that name, so leave metadata.name out or set "${t.name}"`);
  }
  const ns = props.metadata?.namespace;
  if (ns !== undefined && t.namespace !== undefined && ns !== t.namespace) {
    throw new Error(`AdvancedStatefulSet at '${path}': metadata.namespace "${ns}" is not the namespace "${t.namespace}" of the StatefulSet it takes over; pods are adopted only in their own namespace`);
  }
  if (props.select !== undefined && props.select) {
    throw new Error(`AdvancedStatefulSet at '${path}': select: true adds a selector label the running pods of "${t.name}" do not carry, so none would be adopted; leave select out with takeOver`);
  }
  return {
    ...props,
    select: false,
    replicas: props.replicas ?? t.replicas,
    metadata: { ...props.metadata, name: t.name, namespace: ns ?? t.namespace },
  };
}
