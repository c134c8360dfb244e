/**
 * Health checks of the OpenKruise and Kruise Rollouts kinds for the GitOps
 * engines: Argo CD's Lua health scripts (`argocd-cm`) and Flux's
 * `healthCheckExprs` (CEL), both compiled from one rule per kind
 * (`kinds.ts`), so the two engines judge every object alike.
 */
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { KIND_ACTIONS } from './actions';
import { toCel } from './cel';
import { KIND_RULES } from './kinds';
import { toLua } from './lua';
import { actionsConfigKey, actionsConfigValue } from './lua-actions';

/** One entry of a Flux Kustomization's `spec.healthCheckExprs`. */
export interface FluxHealthCheckExpr {
  /** The apiVersion of the kind (Flux matches on its group and the kind). */
  readonly apiVersion: string;
  /** The kind. */
  readonly kind: string;
  /** CEL that holds when the object is ready (kstatus Current). */
  readonly current: string;
  /**
   * CEL that holds when the object failed (kstatus Failed).
   *
   * @default - the kind never fails
   */
  readonly failed?: string;
}

/** The key Argo CD reads a kind's health script from in `argocd-cm`. */
function argoKey(group: string, kind: string): string {
  return `resource.customizations.health.${group}_${kind}`;
}

/**
 * Health checks of every OpenKruise and Kruise Rollouts kind whose status
 * says something, for Argo CD and Flux.
 *
 * Each kind has one rule: Healthy when the update the spec asks for is done;
 * Progressing while an update or a job runs or the controller has not yet
 * observed the spec; Suspended when the update stopped where the spec says (a
 * partition reached, a paused update, OnDelete pods waiting to be deleted, a
 * paused job or Rollout step); Degraded when a job failed or a progress
 * deadline passed. The rule compiles to Argo CD's Lua and to Flux's CEL,
 * so both engines read a live object the same way; Flux has no Suspended, so
 * a Kustomization that waits is Ready once an update stops where the spec
 * says.
 */
export class KruiseHealthChecks {
  /**
   * The `argocd-cm` data that gives Argo CD these health checks: one
   * `resource.customizations.health.<group>_<Kind>` key per kind (for every
   * version of the kind), holding its Lua script. The scripts use no Lua
   * library, so `resource.customizations.useOpenLibs.*` stays off.
   */
  public static argoCdConfigData(): { [key: string]: string } {
    const data: { [key: string]: string } = {};
    for (const rule of KIND_RULES) data[argoKey(rule.group, rule.kind)] = toLua(rule);
    return data;
  }

  /**
   * The `spec.healthCheckExprs` of a Flux Kustomization (kustomize-controller
   * v1.5 and later) that gives kstatus these health checks. Flux reads them
   * for the objects it waits for: set `wait: true` on the Kustomization.
   */
  public static fluxHealthCheckExprs(): FluxHealthCheckExpr[] {
    return KIND_RULES.map(toCel);
  }

  private constructor() {}
}

/**
 * Operations on the OpenKruise and Kruise Rollouts kinds as Argo CD resource
 * actions, each shown only while it applies:
 *
 * - Rollout: `approve` (the step that waits for approval goes on), `pause`,
 *   `resume`, `step-back` (back to an earlier step of the release);
 * - CloneSet, Advanced StatefulSet, Advanced DaemonSet: `pause` and `resume`
 *   of the update, `scale` (CloneSet, Advanced StatefulSet);
 * - a Pod of one of them: `restart-in-place` (a ContainerRecreateRequest:
 *   kruise-daemon restarts its containers, the pod keeps its UID and IP);
 * - BroadcastJob and AdvancedCronJob: `suspend` and `resume`; AdvancedCronJob:
 *   `run-now` (the job its template describes, made as its controller makes a
 *   scheduled one).
 */
export class KruiseActions {
  /**
   * The `argocd-cm` data that gives Argo CD these actions: one
   * `resource.customizations.actions.<group>_<Kind>` key per kind
   * (`resource.customizations.actions.Pod` for pods), holding its discovery
   * script and the script of each action.
   */
  public static argoCdConfigData(): { [key: string]: string } {
    const data: { [key: string]: string } = {};
    for (const kind of KIND_ACTIONS) data[actionsConfigKey(kind)] = actionsConfigValue(kind);
    return data;
  }

  private constructor() {}
}

/** Props of `ArgoCdHealthChecks`. */
export interface ArgoCdHealthChecksProps {
  /**
   * The namespace Argo CD runs in.
   *
   * @default 'argocd'
   */
  readonly namespace?: string;

  /**
   * Also write the resource actions of the OpenKruise and Kruise Rollouts
   * kinds (`KruiseActions.argoCdConfigData()`).
   *
   * @default true
   */
  readonly actions?: boolean;
}

/**
 * The `argocd-cm` ConfigMap with the health checks of every OpenKruise and
 * Kruise Rollouts kind (`KruiseHealthChecks.argoCdConfigData()`) and, unless
 * `actions` is false, their resource actions (`KruiseActions.argoCdConfigData()`),
 * labelled as Argo CD reads it (`app.kubernetes.io/part-of: argocd`).
 *
 * It holds only these keys: apply it with server-side apply (`kubectl
 * apply --server-side`), which merges them into the `argocd-cm` of an Argo CD
 * install and leaves its other settings alone. When Argo CD manages its own
 * `argocd-cm` from a repository, put the keys there instead
 * (`KruiseHealthChecks.argoCdConfigData()`), or the two sources fight over it.
 */
export class ArgoCdHealthChecks extends Construct {
  /** The ConfigMap. */
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: ArgoCdHealthChecksProps = {}) {
    super(scope, id);
    this.apiObject = new ApiObject(this, 'Resource', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'argocd-cm',
        namespace: props.namespace ?? 'argocd',
        labels: { 'app.kubernetes.io/name': 'argocd-cm', 'app.kubernetes.io/part-of': 'argocd' },
      },
      data: argoCdConfigMapData(props.actions ?? true),
    });
  }
}

/** The data of the `argocd-cm` the library writes: the health keys, and the action keys unless left out. */
function argoCdConfigMapData(actions: boolean): { [key: string]: string } {
  return { ...KruiseHealthChecks.argoCdConfigData(), ...(actions ? KruiseActions.argoCdConfigData() : {}) };
}
