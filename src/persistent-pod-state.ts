/**
 * PersistentPodState: when a pod of a StatefulSet is recreated, OpenKruise
 * schedules it back onto the node (or the zone, or any node label) it ran
 * on, and gives it back annotations it had: for stateful apps on local disks
 * or with node-bound identities.
 *
 * The target is a StatefulSet: an `AdvancedStatefulSet` or a
 * `kplus.StatefulSet` of the app (`target`), or one referenced by name
 * (`targetRef`). The manifest rules (a StatefulSet target, a topology) are
 * judged at synth by the admission layer; the construct refuses other target
 * constructs when it is built, a namespace other than its target's, and a
 * second PersistentPodState of the app (construct, L1 or YAML) for the same
 * workload, which the webhook refuses. `AdvancedStatefulSet.persistPodState()`
 * makes one for itself.
 */
import { ApiObject, ApiObjectMetadata, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { _l1 } from './_kruise-l1';
import { _admitted, _objectLine } from './admission/engine';
import { namespaceOf } from './fleet/objects';
import { _renderForChecks } from './validation/render';
import { fieldError } from './validation/report';
import { WorkloadRef } from './workload-ref';
import type * as kruise from '../imports/kruise';

/** When OpenKruise forgets the state of a pod. */
export enum PersistentPodStateRetention {
  /** When the StatefulSet scales in and the pod is gone for good (the OpenKruise default). */
  WHEN_SCALED = 'WhenScaled',
  /** Only when the StatefulSet is deleted. */
  WHEN_DELETED = 'WhenDeleted',
}

/** A preferred topology: node label keys, with a weight against other preferences. */
export interface PreferredPodTopology {
  /** The weight of the preference (1-100). */
  readonly weight: number;

  /** Node label keys whose values the recreated pod should find again, e.g. `kubernetes.io/hostname`. */
  readonly nodeTopologyKeys: string[];
}

/** What a PersistentPodState keeps, shared by the construct and `persistPodState()`. */
export interface PersistentPodStateOptions {
  /**
   * Node label keys whose values a recreated pod must find again
   * (`kubernetes.io/hostname`: the same node; `topology.kubernetes.io/zone`:
   * the same zone). The pod stays pending until such a node is there.
   *
   * @default - none (then `preferredTopology` must be set)
   */
  readonly requiredTopology?: string[];

  /**
   * Node label keys a recreated pod should find again when it can.
   *
   * @default - none (then `requiredTopology` must be set)
   */
  readonly preferredTopology?: PreferredPodTopology[];

  /**
   * Pod annotations recorded and given back to the recreated pod (e.g. a
   * network identity a CNI plugin writes).
   *
   * @default - none
   */
  readonly annotations?: string[];

  /**
   * When the recorded state of a pod is dropped.
   *
   * @default PersistentPodStateRetention.WHEN_SCALED (the OpenKruise default; not written)
   */
  readonly retention?: PersistentPodStateRetention;

  /**
   * Name, namespace, labels and annotations of the PersistentPodState.
   *
   * @default - a generated name, in the target's namespace
   */
  readonly metadata?: ApiObjectMetadata;
}

/** Props of a `PersistentPodState`. */
export interface PersistentPodStateProps extends PersistentPodStateOptions {
  /**
   * The StatefulSet of the app whose pods keep their state: an
   * `AdvancedStatefulSet` or a `kplus.StatefulSet`.
   *
   * @default - use targetRef
   */
  readonly target?: kplus.Workload;

  /**
   * A StatefulSet by apiVersion, kind and name (e.g. one not in this app).
   *
   * @default - use target
   */
  readonly targetRef?: WorkloadRef;
}

/**
 * An OpenKruise PersistentPodState (`apps.kruise.io/v1alpha1`): recreated
 * pods of a StatefulSet go back to the node (or node labels) they ran on,
 * and get back the annotations they had.
 *
 * Replaces a hand-written manifest such as
 *
 * ```yaml
 * apiVersion: apps.kruise.io/v1alpha1
 * kind: PersistentPodState
 * spec:
 *   targetRef: { apiVersion: apps.kruise.io/v1beta1, kind: StatefulSet, name: db }
 *   requiredPersistentTopology: { nodeTopologyKeys: [kubernetes.io/hostname] }
 *   persistentPodAnnotations: [{ key: cni.example.com/ip }]
 * ```
 */
export class PersistentPodState extends kplus.Resource {
  /** The target workload. */
  public readonly targetRef: WorkloadRef;

  /** @see base.Resource.apiObject */
  protected readonly apiObject: ApiObject;

  public readonly resourceType = 'persistentpodstates';

  private readonly props: PersistentPodStateProps;

  public constructor(scope: Construct, id: string, props: PersistentPodStateProps) {
    super(scope, id);
    this.props = props;
    if (!props.target === !props.targetRef) {
      throw new Error(`PersistentPodState at '${this.node.path}': set exactly one of 'target' or 'targetRef'`);
    }
    let namespace = props.metadata?.namespace;
    if (props.target) {
      const obj = ApiObject.of(props.target);
      if (obj.kind !== 'StatefulSet') {
        throw new Error(`PersistentPodState at '${this.node.path}': 'target' is a ${obj.kind} (${obj.apiVersion}) at '${props.target.node.path}'; `
          + 'OpenKruise keeps the pod state of StatefulSets only: target an AdvancedStatefulSet or a kplus.StatefulSet');
      }
      this.targetRef = { apiVersion: obj.apiVersion, kind: obj.kind, name: obj.name };
      namespace ??= obj.metadata.namespace;
    } else {
      this.targetRef = { ...props.targetRef! };
    }
    this.apiObject = new (_l1('PersistentPodState').KubePersistentPodState)(this, 'Resource', {
      metadata: { ...props.metadata, namespace },
      spec: Lazy.any({ produce: () => this._toKube() }),
    });
    this.node.addValidation({ validate: () => this.validateSelf().map(l => _objectLine(this.apiObject, l)) });
  }

  /** What the app says about this object: the target's namespace, and no other PersistentPodState for the same workload. */
  private validateSelf(): string[] {
    if (!_admitted(this.apiObject)) return [];
    const json = _renderForChecks(this.apiObject);
    const errors: string[] = [];
    if (this.props.target) {
      const targetNs = ApiObject.of(this.props.target).metadata.namespace ?? 'default';
      if (targetNs !== namespaceOf(json)) {
        errors.push(fieldError('metadata.namespace', namespaceOf(json), `differs from the namespace of the target StatefulSet "${this.targetRef.name}" (${targetNs})`,
          'create the PersistentPodState in the target\'s namespace'));
      }
    }
    return errors;
  }

  /** @internal */
  public _toKube(): kruise.PersistentPodStateSpec {
    const p = this.props;
    return {
      targetRef: { ...this.targetRef },
      requiredPersistentTopology: p.requiredTopology ? { nodeTopologyKeys: [...p.requiredTopology] } : undefined,
      preferredPersistentTopology: p.preferredTopology && p.preferredTopology.length > 0
        ? p.preferredTopology.map(t => ({ weight: t.weight, preference: { nodeTopologyKeys: [...t.nodeTopologyKeys] } }))
        : undefined,
      persistentPodAnnotations: p.annotations && p.annotations.length > 0 ? p.annotations.map(key => ({ key })) : undefined,
      persistentPodStateRetentionPolicy: p.retention,
    };
  }
}
