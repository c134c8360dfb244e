/**
 * The operations' language: what an action on a live object does, and when
 * it applies, written once per kind (`actions.ts`) over the same expressions
 * as the health rules (`rule.ts`). `lua-actions.ts` compiles it to Argo CD's
 * resource actions (a discovery script and one script per action); the Flux
 * way of each action (a committed field, or the one command that can do it)
 * is part of the description, so the docs and the scripts come from one place.
 */
import { Expr, Message } from './rule';

/** A parameter a user gives when running an action (Argo CD asks for it by name). */
export interface ActionParam {
  readonly name: string;
  /**
   * How the text is read: `count` a whole number 0 or more; `step` a step
   * number of the Rollout, from 1 to the step before the current one;
   * `name` a name of a container of the object, or nothing for all of them.
   */
  readonly type: 'count' | 'step' | 'name';
  /** The value when none is given; without one the parameter is required. */
  readonly dflt?: Expr;
}

/** A value an action writes: read from the object, or a parameter. */
export type ActionValue = Expr | { readonly op: 'param'; readonly name: string };

/** What an action does to the object, or creates beside it. */
export type Effect =
  /** Sets the field at `path` (missing objects on the way are created); with `onlyIf`, only when that holds. */
  | { readonly op: 'set'; readonly path: readonly string[]; readonly value: ActionValue; readonly onlyIf?: Expr }
  /**
   * Creates a ContainerRecreateRequest for the Pod (the object): kruise-daemon
   * restarts the containers named by the `container` parameter (all of them
   * when none is named) in the running pod, which keeps its UID, IP and volumes.
   */
  | { readonly op: 'recreateContainers' }
  /**
   * Creates the job an AdvancedCronJob runs on its schedule, now: from the
   * template it holds (a Job, BroadcastJob or ImageListPullJob), named,
   * annotated and owned as its controller makes a scheduled one.
   */
  | { readonly op: 'runJobNow' };

/** How Flux users do the same thing: Flux has no actions. */
export interface FluxWay {
  /**
   * `commit`: change the manifest in git (the field below), and Flux applies
   * it; `kubectl`: no manifest can say it (a status field, or a new object
   * Flux must not own), so a command does it.
   */
  readonly way: 'commit' | 'kubectl';
  /** The manifest change (`commit`) or the command (`kubectl`). */
  readonly what: string;
  /**
   * A `kubectl` change of a field that the committed manifest also sets is
   * undone by the next reconciliation (kustomize-controller applies the field
   * again); one the manifest does not set stays.
   */
  readonly undoneByReconcile: 'always' | 'never' | 'if the manifest sets the field';
}

/** One action of a kind. */
export interface ActionDef {
  /** The action's name in Argo CD (`argocd app actions run APP NAME`). */
  readonly name: string;
  readonly displayName: string;
  readonly iconClass: string;
  readonly params?: readonly ActionParam[];
  /** Argo CD lists the action only when this holds, and running it otherwise fails with `whyNot`. */
  readonly when: Expr;
  /** Why the action does not apply now, and what would make it apply. */
  readonly whyNot: Message;
  readonly effects: readonly Effect[];
  readonly flux: FluxWay;
}

/** The actions of one kind. */
export interface KindActions {
  /** The API group ('' for the core group). */
  readonly group: string;
  readonly kind: string;
  /** What the kind is to a reader of a message ("CloneSet", "Advanced StatefulSet"). */
  readonly title: string;
  /** Values computed once, as in a health rule. */
  readonly lets?: readonly (readonly [string, Expr])[];
  readonly actions: readonly ActionDef[];
}
