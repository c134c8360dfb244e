import { ApiObject } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { _objectLine } from './admission/engine';
import { groupOf } from './fleet/objects';
import { _gateSources } from './validation/gates';
import { KruiseValidation } from './validation/register';
import { fieldError } from './validation/report';

/** The label OpenKruise reads. */
const DELETE_PROTECTION_LABEL = 'policy.kruise.io/delete-protection';

/** What `policy.kruise.io/delete-protection` blocks. */
export enum DeleteProtectionMode {
  /** Refuse every deletion. */
  ALWAYS = 'Always',
  /** Refuse deletion while the object still has pods, replicas, PVCs or custom resources. */
  CASCADING = 'Cascading',
}

/** The kinds OpenKruise protects, and whether Cascading means anything for them. */
const PROTECTED: Record<string, boolean> = {
  '/Namespace': true,
  'apiextensions.k8s.io/CustomResourceDefinition': true,
  'apps/Deployment': true,
  'apps/ReplicaSet': true,
  'apps/StatefulSet': true,
  'apps.kruise.io/CloneSet': true,
  'apps.kruise.io/StatefulSet': true,
  'apps.kruise.io/UnitedDeployment': true,
  '/Service': false,
  'networking.k8s.io/Ingress': false,
};

/**
 * Deletion protection (`policy.kruise.io/delete-protection`): OpenKruise
 * refuses to delete a Namespace, CRD, Deployment, ReplicaSet, StatefulSet or
 * Kruise workload carrying it. Needs the feature gate
 * ResourcesDeletionProtection (off by default).
 */
export class DeleteProtection extends Construct {
  /**
   * Protect `scope` (any construct whose default child is an ApiObject, or an ApiObject).
   *
   * @param scope the object to protect
   * @param mode Always or Cascading
   */
  public static of(scope: IConstruct, mode: DeleteProtectionMode): DeleteProtection {
    const obj = scope instanceof ApiObject ? scope : ApiObject.of(scope);
    const key = `${groupOf(obj.apiVersion)}/${obj.kind}`;
    const cascading = PROTECTED[key];
    if (cascading === undefined) {
      throw new Error(`DeleteProtection at '${scope.node.path}': OpenKruise does not protect ${obj.kind} (${obj.apiVersion}) from deletion; protect a Namespace, CustomResourceDefinition, Deployment, ReplicaSet, StatefulSet, CloneSet, Advanced StatefulSet, UnitedDeployment, Service or Ingress`);
    }
    if (mode === DeleteProtectionMode.CASCADING && !cascading) {
      throw new Error(`DeleteProtection at '${scope.node.path}': OpenKruise ignores Cascading on a ${obj.kind}; use DeleteProtectionMode.ALWAYS`);
    }
    const existing = obj.node.tryFindChild('DeleteProtection');
    if (existing) throw new Error(`DeleteProtection at '${scope.node.path}': the object is already protected`);
    return new DeleteProtection(obj, mode);
  }

  /** The protection mode. */
  public readonly mode: DeleteProtectionMode;

  private constructor(obj: ApiObject, mode: DeleteProtectionMode) {
    super(obj, 'DeleteProtection');
    KruiseValidation.enable(this);
    this.mode = mode;
    obj.metadata.addLabel(DELETE_PROTECTION_LABEL, mode);
    this.node.addValidation({
      validate: () => {
        const errors: string[] = [];
        const field = `metadata.labels[${JSON.stringify(DELETE_PROTECTION_LABEL)}]`;
        for (const src of _gateSources(this)) {
          if (!src.isEnabled('ResourcesDeletionProtection')) {
            errors.push(_objectLine(obj, fieldError(field, mode, `needs the OpenKruise feature gate ResourcesDeletionProtection, which is off in the control plane ${src.place}, so nothing is protected`,
              src.howToEnable('ResourcesDeletionProtection'))));
          } else if (obj.kind === 'CustomResourceDefinition' && mode === DeleteProtectionMode.CASCADING && !src.isEnabled('DeletionProtectionForCRDCascadingGate')) {
            errors.push(_objectLine(obj, fieldError(field, mode, `needs the OpenKruise feature gate DeletionProtectionForCRDCascadingGate, which is off in the control plane ${src.place}, so OpenKruise refuses every deletion of the CustomResourceDefinition`,
              `${src.howToEnable('DeletionProtectionForCRDCascadingGate')}, or use DeleteProtectionMode.ALWAYS`)));
          }
        }
        return errors;
      },
    });
  }
}
