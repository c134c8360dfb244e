import { ApiObject, ApiObjectMetadata, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { _l1 } from './_kruise-l1';
import type * as kruise from '../imports/kruise';
import { _admitted, _objectLine } from './admission/engine';
import { groupOf, namespaceOf } from './fleet/objects';
import { ResolvedTarget, resolveTarget, targetNamespace } from './fleet/targets';
import { _assertOwnKplus } from './validation/foreign-kplus';
import { _renderForChecks } from './validation/render';
import { fieldError, Warnings } from './validation/report';
import { WorkloadRef } from './workload-ref';

/** Pod operations a PodUnavailableBudget guards. */
export enum PodUnavailableBudgetOperation {
  /** In-place updates of the pods. */
  UPDATE = 'UPDATE',
  /** Pod deletion. */
  DELETE = 'DELETE',
  /** Pod eviction. */
  EVICT = 'EVICT',
  /** In-place resource resizing. */
  RESIZE = 'RESIZE',
}

/** Options of a PodUnavailableBudget, whatever it protects (see `CloneSet.protect()`). */
export interface PodUnavailableBudgetOptions {
  /**
   * Metadata.
   * @default - a generated name, in the target's namespace
   */
  readonly metadata?: ApiObjectMetadata;
  /**
   * At most this many (or percent of) pods unavailable at once.
   * @default - use minAvailable
   */
  readonly maxUnavailable?: kplus.PercentOrAbsolute;
  /**
   * At least this many (or percent of) pods available.
   * @default - use maxUnavailable
   */
  readonly minAvailable?: kplus.PercentOrAbsolute;
  /**
   * The operations guarded (annotation `kruise.io/pub-protect-operations`).
   * @default - every operation the enabled feature gates cover
   */
  readonly protectOperations?: PodUnavailableBudgetOperation[];
  /**
   * Replica count to compute percentages against, instead of the workload's
   * (annotation `pub.kruise.io/protect-total-replicas`).
   * @default - the workload's replicas
   */
  readonly protectTotalReplicas?: number;
}

/** Properties of a PodUnavailableBudget. */
export interface PodUnavailableBudgetProps extends PodUnavailableBudgetOptions {
  /**
   * The workload whose pods are protected (a Kruise workload or a cdk8s-plus workload).
   * @default - use targetRef or selector
   */
  readonly target?: kplus.Workload;
  /**
   * The workload whose pods are protected, by reference.
   * @default - use target or selector
   */
  readonly targetRef?: WorkloadRef;
  /**
   * The pods protected, by label.
   * @default - use target or targetRef
   */
  readonly selector?: kplus.LabelSelector;
}

/** Kinds OpenKruise can find the pods and replicas of (they have a scale subresource). */
const PROTECTABLE = new Set(['apps/Deployment', 'apps/ReplicaSet', 'apps/StatefulSet', '/ReplicationController', 'apps.kruise.io/CloneSet', 'apps.kruise.io/StatefulSet', 'apps.kruise.io/UnitedDeployment']);

/**
 * A PodUnavailableBudget (policy.kruise.io/v1alpha1): limits how many pods of
 * a workload may be unavailable because of deletion, eviction or in-place
 * update, at once.
 */
export class PodUnavailableBudget extends Construct {
  /** The L1 object. */
  public readonly apiObject: ApiObject;
  /** maxUnavailable. */
  public readonly maxUnavailable?: kplus.PercentOrAbsolute;
  /** minAvailable. */
  public readonly minAvailable?: kplus.PercentOrAbsolute;

  private readonly props: PodUnavailableBudgetProps;

  constructor(scope: Construct, id: string, props: PodUnavailableBudgetProps) {
    super(scope, id);
    _assertOwnKplus(`PodUnavailableBudget at '${this.node.path}'`, props);
    this.props = props;
    this.maxUnavailable = props.maxUnavailable;
    this.minAvailable = props.minAvailable;
    const annotations: Record<string, string> = { ...(props.metadata?.annotations ?? {}) };
    if (props.protectOperations) annotations['kruise.io/pub-protect-operations'] = props.protectOperations.join(',');
    if (props.protectTotalReplicas !== undefined) annotations['pub.kruise.io/protect-total-replicas'] = String(props.protectTotalReplicas);
    this.apiObject = new (_l1('PodUnavailableBudget').KubePodUnavailableBudget)(this, 'Resource', {
      metadata: {
        ...props.metadata,
        namespace: props.metadata?.namespace ?? targetNamespace(props.target),
        annotations: Object.keys(annotations).length > 0 ? annotations : undefined,
      },
      spec: Lazy.any({ produce: () => this._toKube() }),
    });
    this.node.addValidation({ validate: () => this.validateSelf().map(l => _objectLine(this.apiObject, l)) });
    Warnings._addProducer(this, () => this.warnings().map(l => _objectLine(this.apiObject, l)));
  }

  private target(): ResolvedTarget | undefined {
    return resolveTarget(this.props.target, this.props.targetRef);
  }

  /** @internal */
  public _toKube(): kruise.PodUnavailableBudgetSpec {
    const t = this.target();
    const pct = <T>(p: kplus.PercentOrAbsolute | undefined, cls: { fromNumber(n: number): T; fromString(s: string): T }) =>
      (p === undefined ? undefined : typeof p.value === 'number' ? cls.fromNumber(p.value) : cls.fromString(String(p.value)));
    return {
      targetRef: t ? { ...t.ref } : undefined,
      selector: this.props.selector?._toKube(),
      maxUnavailable: pct(this.props.maxUnavailable, _l1('PodUnavailableBudget').PodUnavailableBudgetSpecMaxUnavailable),
      minAvailable: pct(this.props.minAvailable, _l1('PodUnavailableBudget').PodUnavailableBudgetSpecMinAvailable),
    };
  }

  private validateSelf(): string[] {
    const json = _renderForChecks(this.apiObject);
    // the object's own rules are the admission layer's; these need the construct or the App
    if (!_admitted(this.apiObject)) return [];
    const errors: string[] = [];
    const t = this.target();
    if (t?.namespace !== undefined && t.namespace !== namespaceOf(json)) {
      errors.push(fieldError('metadata.namespace', namespaceOf(json), `differs from the namespace of the target ${t.ref.kind} "${t.ref.name}" (${t.namespace}), so the budget protects nothing`, 'create the PodUnavailableBudget in the target\'s namespace'));
    }
    return errors;
  }

  private warnings(): string[] {
    const t = this.target();
    if (!t) return [];
    const key = `${groupOf(t.ref.apiVersion)}/${t.ref.kind}`;
    if (PROTECTABLE.has(key)) return [];
    return [fieldError('spec.targetRef', t.ref, 'names a kind without a scale subresource OpenKruise can read, so the budget protects no pod', 'use a selector on its pod labels instead')];
  }
}
