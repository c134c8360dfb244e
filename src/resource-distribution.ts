import { ApiObject, ApiObjectMetadata, JsonPatch, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { _l1 } from './_kruise-l1';
import type * as kruise from '../imports/kruise';
import { _assertOwnKplus } from './validation/foreign-kplus';

/**
 * The object a ResourceDistribution copies. The source construct is moved
 * into the distribution: it is no longer emitted on its own.
 */
export class DistributedResource {
  /**
   * Distribute a cdk8s-plus ConfigMap.
   * @param configMap the ConfigMap
   */
  public static fromConfigMap(configMap: kplus.ConfigMap): DistributedResource {
    _assertOwnKplus('DistributedResource.fromConfigMap()', configMap, 'configMap');
    return new DistributedResource(ApiObject.of(configMap));
  }

  /**
   * Distribute a cdk8s-plus Secret.
   * @param secret the Secret
   */
  public static fromSecret(secret: kplus.Secret): DistributedResource {
    _assertOwnKplus('DistributedResource.fromSecret()', secret, 'secret');
    return new DistributedResource(ApiObject.of(secret));
  }

  /**
   * Distribute any API object (OpenKruise accepts only v1 Secret and ConfigMap).
   * @param apiObject the object
   */
  public static fromApiObject(apiObject: ApiObject): DistributedResource {
    return new DistributedResource(apiObject);
  }

  private constructor(
    /** The source object. */
    public readonly apiObject: ApiObject) {}

  /** @internal */
  public _detach(): void {
    const scope = this.apiObject.node.scope;
    if (scope && scope.node.tryFindChild(this.apiObject.node.id) === this.apiObject) scope.node.tryRemoveChild(this.apiObject.node.id);
  }

  /** @internal */
  public _toJson(): any {
    const json = this.apiObject.toJson();
    const { namespace, ...metadata } = json.metadata ?? {};
    void namespace;
    return { ...json, metadata };
  }
}

/** Properties of a ResourceDistribution. */
export interface ResourceDistributionProps {
  /**
   * Metadata (cluster-scoped: no namespace).
   * @default - a generated name
   */
  readonly metadata?: ApiObjectMetadata;
  /** The object copied into the target namespaces. */
  readonly resource: DistributedResource;
  /**
   * Copy into every namespace (OpenKruise skips kube-system and kube-public).
   * @default false
   */
  readonly allNamespaces?: boolean;
  /**
   * Copy into these namespaces.
   * @default - none
   */
  readonly includedNamespaces?: string[];
  /**
   * Never copy into these namespaces.
   * @default - none
   */
  readonly excludedNamespaces?: string[];
  /**
   * Copy into namespaces with these labels.
   * @default - none
   */
  readonly namespaceLabelSelector?: kplus.LabelSelector;
}

/**
 * A ResourceDistribution (apps.kruise.io/v1alpha1, cluster-scoped): OpenKruise
 * copies a Secret or ConfigMap into many namespaces and keeps the copies in
 * sync.
 */
export class ResourceDistribution extends Construct {
  /** The L1 object. */
  public readonly apiObject: ApiObject;
  /** The distributed resource. */
  public readonly resource: DistributedResource;

  private readonly props: ResourceDistributionProps;

  constructor(scope: Construct, id: string, props: ResourceDistributionProps) {
    super(scope, id);
    _assertOwnKplus(`ResourceDistribution at '${this.node.path}'`, props);
    this.props = props;
    this.resource = props.resource;
    props.resource._detach();
    const l1 = new (_l1('ResourceDistribution').KubeResourceDistribution)(this, 'Resource', {
      metadata: { ...props.metadata, namespace: undefined },
      spec: Lazy.any({ produce: () => this._toKube() }),
    });
    if (l1.metadata.namespace !== undefined) l1.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
    this.apiObject = l1;
  }

  /** @internal */
  public _toKube(): kruise.ResourceDistributionSpec {
    const p = this.props;
    const list = (names?: string[]) => (names && names.length > 0 ? { list: names.map(name => ({ name })) } : undefined);
    return {
      resource: this.resource._toJson(),
      targets: {
        allNamespaces: p.allNamespaces,
        includedNamespaces: list(p.includedNamespaces),
        excludedNamespaces: list(p.excludedNamespaces),
        namespaceLabelSelector: p.namespaceLabelSelector?._toKube(),
      },
    };
  }
}
