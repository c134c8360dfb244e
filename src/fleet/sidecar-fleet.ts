/**
 * The app-wide checks' view of a cdk8s app: its objects (and its contexts')
 * rendered once per round of checks, as the `AppModel` the plain checks of
 * `src/admission/app-wide.ts` and the injection (`./injection`) read. Every
 * object takes part, however it was written.
 */
import { IConstruct } from 'constructs';
import { _appModelOf, appNamespaceLabels } from './app-model';
import { InjectionResult } from './injection';
import { AppObject } from './objects';
import { AppModel, ModelSidecarSet, modelInjections, modelSidecarSets, modelWorkloads } from '../admission/app-wide';
import { _admitted } from '../admission/engine';

export { appNamespaceLabels };

/** A SidecarSet of the app (or of one of its contexts), defaulted. */
export type AppSidecarSet = ModelSidecarSet<AppObject>;

/**
 * The app of `scope` as the app-wide checks read it, once per round: every
 * object of the app and of its contexts; an OpenKruise object counts as
 * stored when it passes admission on its own.
 */
export function appModel(scope: IConstruct): AppModel<AppObject> {
  return _appModelOf(scope, _admitted);
}

/**
 * Every SidecarSet (any served version, however written) in the app of
 * `scope` and its contexts that passes admission: one the cluster refuses
 * injects nothing.
 */
export function appSidecarSets(scope: IConstruct): AppSidecarSet[] {
  return [...modelSidecarSets(appModel(scope))];
}

/** One workload of the app (or of a context) into whose pods SidecarSets are injected. */
export interface AppInjection {
  readonly workload: AppObject;
  readonly result: InjectionResult<AppSidecarSet>;
}

/**
 * The SidecarSets of the app (and its contexts) injected into each workload's
 * pods, with the problems, computed once per round: what the app-wide checks
 * and the policies' deploy order read. Workloads no SidecarSet selects are
 * left out.
 */
export function appInjections(scope: IConstruct): AppInjection[] {
  return modelInjections(appModel(scope));
}

/** Every object of the app that creates pods from a template (workloads and pods), in construct-path order. */
export function appWorkloads(scope: IConstruct): AppObject[] {
  return [...modelWorkloads(appModel(scope))];
}
