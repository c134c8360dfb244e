/**
 * The admission layer, as OpenKruise builds it (one webhook package per
 * kind): per kind and served version, the mutating webhook's defaults and the
 * validating webhook's create-time rules, as pure functions over the wire
 * form of the object. The engine (engine.ts) runs them at synth on every
 * `apps.kruise.io` / `policy.kruise.io` object of the App, however it was
 * written: an L2 construct, a `kruise.Kube*` L1 class, a raw `ApiObject` or
 * included YAML.
 */

/** An object in wire form (what `ApiObject.toJson()` returns). */
export type Manifest = Record<string, any>;

/** What a rule may know about the App beyond the object itself. */
export interface AdmissionContext {
  /**
   * Whether an OpenKruise feature gate is on: as set on the App's
   * `KruiseControlPlane` (all of them, when there are several), else the
   * v1.9.0 default.
   */
  gate(name: string): boolean;
}

/** The admission webhooks of one kind (every served version). */
export interface AdmissionModule {
  /** The API group, e.g. `apps.kruise.io`. */
  readonly group: string;
  /** The kind, e.g. `CloneSet`. */
  readonly kind: string;
  /** The served versions these functions handle, e.g. `['v1alpha1', 'v1beta1']`. */
  readonly versions: readonly string[];
  /**
   * The mutating webhook: returns a defaulted copy (the input is not
   * changed, nothing of it is written out). Absent when upstream has no
   * mutating webhook for the kind.
   */
  readonly defaults?: (manifest: Manifest, ctx: AdmissionContext) => Manifest;
  /**
   * The validating webhook's create-time rules that need no cluster state,
   * run on the defaulted object after it passed the schema. One line per
   * problem, each made with `fieldError(field, value, problem, fix)`.
   */
  readonly validate: (manifest: Manifest, ctx: AdmissionContext) => string[];
  /**
   * What upstream accepts but silently ignores or does surprisingly, on the
   * object as written (so a warning can tell what the user left unset, e.g.
   * replicas an autoscaler owns); only asked of objects that pass admission.
   * Warnings, not errors: `Warnings.treatAsErrors` makes them fatal.
   */
  readonly warnings?: (manifest: Manifest, ctx: AdmissionContext) => string[];
}
