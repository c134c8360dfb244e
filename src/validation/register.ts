import { IConstruct } from 'constructs';
import { _admissionEngine } from '../admission/engine';
import { _orderPolicies } from '../fleet/deploy-order';

/**
 * Synth-time admission of OpenKruise objects.
 *
 * When an app synthesizes, every `apps.kruise.io` / `policy.kruise.io` (OpenKruise) and `rollouts.kruise.io` (Kruise Rollouts) object
 * in it goes through what the API server and the OpenKruise webhooks would do
 * on create: the schema of its apiVersion/kind, the kind's defaults (in
 * memory, never written), then the kind's validating rules. It makes no
 * difference whether the object is an L2 construct, a `kruise` L1 class, a
 * raw `ApiObject` or included YAML. An object that would be refused fails
 * synth with one line per problem under its construct path: the field, the
 * bad value, what is wrong and how to fix it.
 *
 * The library turns this on as soon as one of its constructs or L1 classes
 * is used in the app; an app that only has raw `ApiObject`s (or cdk8s
 * `Include`s) of OpenKruise kinds calls `KruiseValidation.enable(app)`.
 */
export class KruiseValidation {
  /**
   * Enable admission at synth for every OpenKruise object of the app of
   * `scope`. Calling it more than once is harmless.
   *
   * @param scope any construct of the app
   */
  public static enable(scope: IConstruct): void {
    _admissionEngine(scope);
    // the policies that act at pod creation deploy before the workloads they select
    _orderPolicies(scope);
  }

  private constructor() {}
}
