/**
 * The API version an L2 writes: the one the app's target release serves.
 * The constructs build their object with the version the default lines store
 * (e.g. apps.kruise.io/v1beta1 for a SidecarSet); on a release that does not
 * serve it (1.7 and 1.8 serve v1alpha1 of AdvancedCronJob, BroadcastJob,
 * DaemonSet, ImageListPullJob, ImagePullJob, NodeImage and SidecarSet) the
 * object is written in the version that release stores, converted as
 * upstream's conversion does. The target is read when the object renders,
 * so a declaration made after the construct counts.
 */
import { ApiObject } from 'cdk8s';
import { isDefaultLine, productOfGroup } from './registry';
import { _targetOf, targetRelease } from './target';
import { _setRenderTransform } from '../validation/render';
import { schemaEntry, servedVersions, storedVersion } from '../validation/schemas';

/** v1beta1 -> v1alpha1, the fields whose place differs (upstream's ConvertFrom). */
const TO_V1ALPHA1: Record<string, (json: any) => void> = {
  SidecarSet: json => {
    const v = json.spec?.customVersion;
    if (v === undefined) return;
    delete json.spec.customVersion;
    json.metadata = { ...json.metadata, labels: { ...json.metadata?.labels, 'apps.kruise.io/sidecarset-custom-version': v } };
  },
  DaemonSet: json => {
    const scaling = json.spec?.scaleStrategy;
    if (scaling === undefined) return;
    if (scaling?.partitionedScaling === true) {
      json.metadata = { ...json.metadata, annotations: { ...json.metadata?.annotations, 'daemonset.kruise.io/progressive-create-pod': 'true' } };
    }
    delete json.spec.scaleStrategy;
  },
};

/** The apiVersion the target of `obj`'s app serves for `obj`'s kind: `written` when it serves it, else the version it stores. */
function servedFor(obj: ApiObject, written: string): string {
  const t = targetRelease(_targetOf(obj), productOfGroup(obj.apiGroup));
  if (isDefaultLine(t.release)) return written;
  const served = servedVersions(obj.apiGroup, obj.kind, t);
  if (served.includes(written) || served.length === 0) return written;
  return storedVersion(obj.apiGroup, obj.kind, t) ?? written;
}

/**
 * Make an L2's object follow the app's target: its `apiVersion` (as read by
 * references to it, and as written) is the one the target serves.
 * @internal
 */
export function _followTarget(obj: ApiObject): void {
  const written = obj.apiVersion;
  Object.defineProperty(obj, 'apiVersion', { get: () => servedFor(obj, written), configurable: true, enumerable: true });
  _setRenderTransform(obj, json => {
    const version = servedFor(obj, written);
    if (version === json.apiVersion) return json;
    const out = { ...json, apiVersion: version, spec: json.spec === undefined ? undefined : { ...json.spec } };
    if (out.spec === undefined) delete out.spec;
    if (version.endsWith('/v1alpha1') && schemaEntry(version, obj.kind)) TO_V1ALPHA1[obj.kind]?.(out);
    return out;
  });
}
