/**
 * The admission layer, as OpenKruise builds it (one webhook package per
 * kind): per kind and served version, the mutating webhook's defaults and the
 * validating webhook's create-time rules, as pure functions over the wire
 * form of the object. The engine (engine.ts) runs them at synth on every
 * `apps.kruise.io` / `policy.kruise.io` / `rollouts.kruise.io` object of the App, however it was
 * written: an L2 construct, a `kruise.Kube*` L1 class, a raw `ApiObject` or
 * included YAML.
 */

import type { PlacedGateSource } from '../gates/source';
import type { Target } from '../releases/target';

/** An object in wire form (what `ApiObject.toJson()` returns). */
export type Manifest = Record<string, any>;

/** What a rule may know about the App beyond the object itself. */
export interface AdmissionContext {
  /**
   * The kruise-rollout-manager settings of the App (Rollout rules): absent
   * when the App has no Kruise Rollouts control plane, and the manager's
   * defaults apply.
   */
  readonly rollout?: RolloutAdmissionSettings;

  /**
   * The releases the object is judged by (OpenKruise, Kruise Rollouts) and
   * where they were declared: the app's target, or a command's flags.
   */
  readonly target: Target;

  /**
   * Whether the cluster is known to have the CustomResourceDefinition of this
   * name (e.g. `ephemeraljobs.apps.kruise.io`) although the chart of the
   * target's line does not install it: one among the objects judged with this
   * one (the app's, the documents of a check) or in the cluster's live state.
   * Absent: none is known.
   */
  readonly crdInstalled?: (name: string) => boolean;

  /**
   * Whether an OpenKruise feature gate is on: as set on the App's
   * `KruiseControlPlane` (all of them, when there are several), else as the
   * target declares it, else the target release's default.
   */
  gate(name: string): boolean;
}

/** What the Rollout rules read of the App's kruise-rollout-managers. */
export interface RolloutAdmissionSettings {
  /** `--partition-percent-limit` (the smallest, when the App has several managers). */
  readonly partitionPercentLimit: number;
  /** The managers, for cross-checks of their feature gates. */
  readonly managers: ReadonlyArray<PlacedGateSource & { readonly path: string }>;
}

/** Another object of the App, as an app-wide rule sees it. */
export interface AppObjectView {
  /** The wire form. */
  readonly json: Manifest;
  /** The construct path of its owner (the L2 when it is one's `Resource`). */
  readonly path: string;
  /** How a message places it: `at 'path'`, or `(context: origin)` for an object of a context the app reads but does not write. */
  readonly place: string;
}

/** What an app-wide rule may read of the App. */
export interface AdmissionApp {
  /** Every other object of the App with this API group and kind, in construct-path order. */
  objects(group: string, kind: string): AppObjectView[];
}

/** One problem a rule finds: the field, its value, what is wrong and how to fix it (as `fieldError` writes them). */
export interface Finding {
  readonly field: string;
  readonly value: unknown;
  readonly problem: string;
  readonly fix: string;
}

/**
 * A webhook rule of a kind that one release changed: from `release` on
 * (`1.9`, or `1.8.3` for a release inside a line) the webhook `refuses` what
 * `find` reports, or `accepts` it (and the releases before refused it). The
 * engine applies the rules the target's release has; a plan lists the ones
 * that change between two releases.
 */
export interface ReleaseRule {
  /** The release of the change, of the kind's product (`1.9`, `1.8.3`, `0.6`). */
  readonly release: string;
  /** `refuses`: refused from `release` on; `accepts`: refused before `release`, accepted from it on. */
  readonly change: 'refuses' | 'accepts';
  /** What the rule is about, for plans: e.g. `a fractional percent in spec.updateStrategy.maxUnavailable`. */
  readonly what: string;
  /**
   * The problems on the defaulted object (as the webhook of a release that
   * refuses it finds them); a `refuses` rule may give whole lines
   * (`field: value problem; fix`) instead.
   */
  find(manifest: Manifest, ctx: AdmissionContext): Array<Finding | string>;
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
   * Whether the mutating webhook answers a create with its result: every
   * OpenKruise mutating webhook answers only when its defaults change the
   * object as its Go types see it, and otherwise leaves the object as sent
   * (no defaults, no Go zero values written back). Absent: it always does on
   * a create (its defaults always change something there).
   */
  readonly writesBack?: (manifest: Manifest) => boolean;
  /**
   * Whether the mutating webhook answers an update for a reason beyond its
   * defaults: `created` as the create sent it, `stored` as the cluster
   * keeps it (empty lists the Go types drop are gone), `merged` the update
   * applied over `stored`. Absent: only its defaults decide.
   */
  readonly answersUpdate?: (created: Manifest, stored: Manifest, merged: Manifest) => boolean;
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
   * Warnings, not errors: `Warnings.treatAsErrors` makes them fatal. `app`
   * holds the other objects of the App (e.g. the workload a WorkloadSpread
   * spreads).
   */
  readonly warnings?: (manifest: Manifest, ctx: AdmissionContext, app?: AdmissionApp) => string[];
  /**
   * The rules upstream checks against cluster state, approximated against
   * the other objects of the App (e.g. one Rollout per workload); run on the
   * defaulted object once it passed `validate`. One line per problem.
   */
  readonly appRules?: (manifest: Manifest, app: AdmissionApp, ctx: AdmissionContext) => string[];

  /**
   * The rules of the kind that differ between releases, each as the change
   * of the release that made it (`validate` holds what every modelled
   * release does): the one place per kind where releases differ.
   */
  readonly releaseRules?: readonly ReleaseRule[];
}
