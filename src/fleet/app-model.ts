/**
 * A cdk8s app as the app-wide checks (`src/admission/app-wide.ts`) read it:
 * every object of the app and of its contexts, rendered once per round of
 * checks, however it was written. The admission engine builds it with its
 * own verdicts, so this module knows no engine (./sidecar-fleet.ts gives the
 * rest of the library the same model).
 */
import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { NamespaceLabels } from './injection';
import { AppObject, _oncePerRound, allAppObjects, appObjects, groupOf, namespaceLabels, placeOf } from './objects';
import type { AppModel } from '../admission/app-wide';
import { KRUISE_GROUPS } from '../validation/schemas';

/** The namespace labels of the app of `scope` (its Namespace objects, its contexts'). */
export function appNamespaceLabels(scope: IConstruct): NamespaceLabels {
  return ns => namespaceLabels(scope, ns);
}

/**
 * The app of `scope` as the app-wide checks read it, once per round: every
 * object of the app and of its contexts; an OpenKruise object counts as
 * stored when `admitted` says it passes admission on its own.
 */
export function _appModelOf(scope: IConstruct, admitted: (obj: ApiObject) => boolean): AppModel<AppObject> {
  const root = scope.node.root;
  return _oncePerRound(root, 'model', () => {
    const byKind = (group: string, kind: string) => appObjects(root, group, kind);
    const model: AppModel<AppObject> = {
      all: allAppObjects(root),
      objects: byKind,
      namespaceLabels: appNamespaceLabels(root),
      admitted: o => !KRUISE_GROUPS.includes(groupOf(o.json.apiVersion)) || admitted(o.apiObject),
      place: placeOf,
      once: (key, compute) => _oncePerRound(root, `model ${key}`, compute),
    };
    return model;
  });
}
