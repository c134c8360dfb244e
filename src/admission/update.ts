/**
 * What the webhooks do with an update: the old object as the cluster stores
 * it, the new one as it is applied. The new object meets every rule of a
 * create (`judgeManifest`; the webhooks validate it whole), then the rules
 * each release's webhook has only for an update: the fields that cannot
 * change, the changes an InPlaceOnly strategy allows, ... Both objects are
 * compared defaulted, as the webhook compares them after the mutating
 * webhook's defaults.
 *
 * `cdk8s-kruise check` judges a document as an update of the object of the
 * same identity its `--live` file holds, and `plan --old-live` refuses the
 * same changes. Rules that read other cluster state (pods a CloneSet's
 * podsToDelete names, StorageClasses that allow expansion) are left to the
 * cluster.
 */
import { isDeepStrictEqual } from 'util';
import { appliedOver } from './apply';
import { admissionModuleFor } from './index';
import { asCreated, hasMutatingWebhook, judgeManifest, Judgement } from './judge';
import { AdmissionApp, AdmissionContext, Manifest } from './types';
import { Release, atLeast, productOfGroup } from '../releases/registry';
import { TargetRelease, defaultTarget, targetRelease } from '../releases/target';
import { fieldError } from '../validation/field-error';
import { formatIssue, goZeroValues, validateManifest, withoutNulls } from '../validation/schemas';

type Json = Record<string, any>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A value as the webhook compares it, decoded into its Go type: an empty
 * list, an empty map and an empty struct that is not a pointer are what an
 * unset field decodes to (apimachinery's semantic equality and `omitempty`
 * let them compare equal), so they are left out.
 */
function normal(v: unknown): unknown {
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map(x => normal(x));
  if (!isObject(v)) return v;
  const out: Json = {};
  for (const k of Object.keys(v).sort()) {
    const x = normal(v[k]);
    if (x === undefined || x === null || (isObject(x) && Object.keys(x).length === 0)) continue;
    out[k] = x;
  }
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(normal(a)) === JSON.stringify(normal(b));

/**
 * A value as `reflect.DeepEqual` sees it once decoded into its Go type: a null
 * is what an unset field decodes to, a zero scalar (false, 0, "") in a field
 * that is not a pointer is the same as an unset one, but an empty list or map
 * is not nil and an empty struct behind a pointer is not a nil pointer.
 * `pointers` names the scalar fields that are pointers, whose zero value is set.
 */
function goDecoded(v: unknown, pointers: readonly string[] = [], key = ''): unknown {
  if (Array.isArray(v)) return v.map(x => goDecoded(x, pointers));
  if (!isObject(v)) return v === null || (!pointers.includes(key) && (v === false || v === 0 || v === '')) ? undefined : v;
  const out: Json = {};
  for (const k of Object.keys(v).sort()) {
    const x = goDecoded(v[k], pointers, k);
    if (x !== undefined) out[k] = x;
  }
  return out;
}

/**
 * The pointer fields of a Job, BroadcastJob and pod template (k8s.io/api
 * batch/v1 JobSpec, core/v1 PodSpec, SecurityContext and volume sources;
 * apis/apps/v1beta1 BroadcastJobSpec): a 0 or false there is set, so it is a
 * change from none to reflect.DeepEqual.
 */
const TEMPLATE_POINTERS = [
  'activeDeadlineSeconds', 'ttlSecondsAfterFinished', 'parallelism', 'completions', 'backoffLimit', 'backoffLimitPerIndex', 'maxFailedIndexes',
  'manualSelector', 'suspend', 'terminationGracePeriodSeconds', 'automountServiceAccountToken', 'shareProcessNamespace', 'enableServiceLinks',
  'hostUsers', 'priority', 'setHostnameAsFQDN', 'privileged', 'runAsUser', 'runAsGroup', 'runAsNonRoot', 'readOnlyRootFilesystem',
  'allowPrivilegeEscalation', 'fsGroup', 'optional', 'defaultMode', 'mode', 'expirationSeconds',
];

/** A field that must stay as `reflect.DeepEqual` compares it in its Go type. */
function deepEqualUnchanged(oldV: unknown, newV: unknown, field: string, kind: string, pointers: readonly string[] = []): string[] {
  if (JSON.stringify(goDecoded(oldV, pointers)) === JSON.stringify(goDecoded(newV, pointers))) return [];
  const why = same(oldV, newV) ? '; the webhook compares the Go values with reflect.DeepEqual, where an empty list or map is not an unset one' : '';
  return [fieldError(field, newV, `cannot change on an update of ${articled(kind)} (it was ${JSON.stringify(oldV) ?? 'unset'}${why})`,
    `keep the old value, or delete the ${kind} and create it again`)];
}

/** Every spec field changed but those the kind may change, as error lines. */
function onlyThese(oldSpec: Json, newSpec: Json, allowed: readonly string[], kind: string, at = 'spec'): string[] {
  const keys = [...new Set([...Object.keys(oldSpec ?? {}), ...Object.keys(newSpec ?? {})])].sort();
  const changed = keys.filter(k => !allowed.includes(k) && !same(oldSpec?.[k], newSpec?.[k]));
  return changed.map(k => fieldError(`${at}.${k}`, newSpec?.[k], `cannot change on an update of ${articled(kind)} (it was ${JSON.stringify(oldSpec?.[k]) ?? 'unset'}): `
    + `the webhook lets an update change only ${listed(allowed)}`, `keep the old value, or delete the ${kind} and create it again`));
}

/** A field that must stay as it was. */
function unchanged(oldV: unknown, newV: unknown, field: string, kind: string): string[] {
  if (same(oldV, newV)) return [];
  return [fieldError(field, newV, `cannot change on an update of ${articled(kind)} (it was ${JSON.stringify(oldV) ?? 'unset'})`,
    `keep the old value, or delete the ${kind} and create it again`)];
}

const articled = (kind: string) => `${/^[AEIOU]/.test(kind) ? 'an' : 'a'} ${kind}`;
const listed = (xs: readonly string[]) => (xs.length === 1 ? xs[0] : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

/** The template changes an InPlaceOnly update allows: container images, nothing else. */
function inPlaceOnly(oldTemplate: Json | undefined, newTemplate: Json | undefined, at: string, strategyField: string): string[] {
  const o: Json = isObject(oldTemplate?.spec) ? oldTemplate.spec : {};
  const n: Json = isObject(newTemplate?.spec) ? newTemplate.spec : {};
  const oc: unknown[] = Array.isArray(o.containers) ? o.containers : [];
  const nc: unknown[] = Array.isArray(n.containers) ? n.containers : [];
  const withoutImages = (s: Json, cs: unknown[]) => ({ ...s, containers: cs.map(c => (isObject(c) ? { ...c, image: undefined } : c)) });
  if (oc.length === nc.length && same(withoutImages(o, oc), withoutImages(n, nc))) return [];
  return [fieldError(`${at}.spec`, undefined, `changes more than container images, which ${strategyField} InPlaceOnly does not allow on an update`,
    'change only images, or use InPlaceIfPossible (pods are then recreated for this change)')];
}

/** One kind's update rules: old and new defaulted, the release of the target. */
type UpdateRules = (oldObj: Json, newObj: Json, release: Release, ctx: AdmissionContext) => string[];

const spec = (m: Json): Json => (isObject(m.spec) ? m.spec : {});

/**
 * The update rules of each kind, as the released webhooks have them
 * (pkg/webhook/<kind>/validating of kruise v1.7.4, v1.8.4 and v1.9.0;
 * pkg/webhook/rollout/validating of rollouts v0.5.5 and v0.6.2).
 */
const RULES: Readonly<Record<string, UpdateRules>> = {
  // cloneset/validating/validation.go validateCloneSetUpdate; controller/cloneset/core ValidateCloneSetUpdate (InPlaceOnly)
  'apps.kruise.io/CloneSet': (o, n) => [
    ...onlyThese(spec(o), spec(n), ['replicas', 'template', 'lifecycle', 'scaleStrategy', 'updateStrategy', 'minReadySeconds', 'progressDeadlineSeconds',
      'volumeClaimTemplates', 'revisionHistoryLimit'], 'CloneSet'),
    ...(spec(n).updateStrategy?.type === 'InPlaceOnly' ? inPlaceOnly(spec(o).template, spec(n).template, 'spec.template', 'updateStrategy.type') : []),
  ],
  // statefulset/validating/statefulset_validation.go ValidateStatefulSetUpdate; statefulset_create_update_handler.go (InPlaceOnly)
  'apps.kruise.io/StatefulSet': (o, n) => [
    ...onlyThese(spec(o), spec(n), ['replicas', 'ordinals', 'template', 'reserveOrdinals', 'lifecycle', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy',
      'scaleStrategy', 'volumeClaimTemplates', 'volumeClaimUpdateStrategy', 'updateStrategy'], 'Advanced StatefulSet'),
    ...(spec(n).updateStrategy?.rollingUpdate?.podUpdatePolicy === 'InPlaceOnly'
      ? inPlaceOnly(spec(o).template, spec(n).template, 'spec.template', 'updateStrategy.rollingUpdate.podUpdatePolicy') : []),
  ],
  // daemonset/validating/daemonset_create_update_handler.go validateDaemonSetUpdate (v1beta1 from 1.9: scaleStrategy too)
  'apps.kruise.io/DaemonSet': (o, n) => onlyThese(spec(o), spec(n), ['burstReplicas', 'template', 'lifecycle', 'updateStrategy', 'minReadySeconds', 'revisionHistoryLimit',
    ...(String(n.apiVersion).endsWith('/v1beta1') ? ['scaleStrategy'] : [])], 'Advanced DaemonSet'),
  // advancedcronjob/validating/advancedcronjob_create_update_handler.go validateAdvancedCronJobUpdate (an imageListPullJobTemplate may change from 1.9)
  'apps.kruise.io/AdvancedCronJob': (o, n, release) => {
    const allowed = ['schedule', 'concurrencyPolicy', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit', 'startingDeadlineSeconds', 'paused', 'timeZone'];
    const ot: Json = isObject(spec(o).template) ? spec(o).template : {};
    const nt: Json = isObject(spec(n).template) ? { ...spec(n).template } : {};
    if (atLeast(release, '1.9') && ot.imageListPullJobTemplate !== undefined) nt.imageListPullJobTemplate = ot.imageListPullJobTemplate;
    const errors = onlyThese({ ...spec(o), template: undefined }, { ...spec(n), template: undefined }, allowed, 'AdvancedCronJob');
    // apiequality.Semantic.DeepEqual of the decoded specs (advancedcronjob_create_update_handler.go:304 of v1.9.0, :197 of
    // v1.7.4): a false, 0 or "" in a field that is no pointer is the same as none (a BroadcastJob template's paused: false)
    if (!same(goDecoded(ot, TEMPLATE_POINTERS), goDecoded(nt, TEMPLATE_POINTERS))) {
      errors.push(fieldError('spec.template', spec(n).template, `cannot change on an update of an AdvancedCronJob: the webhook lets an update change only ${listed(allowed)}`
        + `${atLeast(release, '1.9') ? ' and an imageListPullJobTemplate' : ''}`, 'keep the old template, or delete the AdvancedCronJob and create it again'));
    }
    return errors;
  },
  // podunavailablebudget/validating/pub_create_update_handler.go:122 validateUpdatePubConflict
  // (reflect.DeepEqual: `matchExpressions: []` is a change from none; no mutating webhook)
  'policy.kruise.io/PodUnavailableBudget': (o, n) => [
    ...deepEqualUnchanged(spec(o).selector, spec(n).selector, 'spec.selector', 'PodUnavailableBudget'),
    ...deepEqualUnchanged(spec(o).targetRef, spec(n).targetRef, 'spec.targetRef', 'PodUnavailableBudget'),
  ],
  // persistentpodstate/validating/persistent_create_update_handler.go:102 validateUpdateObjImmutable (reflect.DeepEqual)
  'apps.kruise.io/PersistentPodState': (o, n) => deepEqualUnchanged(spec(o).targetRef, spec(n).targetRef, 'spec.targetRef', 'PersistentPodState'),
  // podprobemarker/validating/probe_create_update_handler.go:102 validatingPodProbeMarkerFn (reflect.DeepEqual)
  'apps.kruise.io/PodProbeMarker': (o, n) => deepEqualUnchanged(spec(o).selector, spec(n).selector, 'spec.selector', 'PodProbeMarker'),
  // workloadspread/validating/workloadspread_validation.go validateWorkloadSpreadTargetRefUpdate: the group, kind and name
  'apps.kruise.io/WorkloadSpread': (o, n) => {
    const ref = (m: Json) => (isObject(spec(m).targetRef) ? spec(m).targetRef : undefined);
    const or = ref(o);
    const nr = ref(n);
    if (!or || !nr) return [];
    const group = (r: Json) => String(r.apiVersion ?? '').split('/').slice(0, -1).join('/');
    return group(or) === group(nr) && or.kind === nr.kind && or.name === nr.name ? []
      : [fieldError('spec.targetRef', nr, `names another workload than before (${JSON.stringify(or)}), which an update of a WorkloadSpread may not`,
        'keep the old target, or delete the WorkloadSpread and create one for the new workload')];
  },
  // resourcedistribution/validating/resourcedistribution_create_update_handler.go validateResourceDistributionSpecResource
  'apps.kruise.io/ResourceDistribution': (o, n) => {
    const r = (m: Json): Json => (isObject(spec(m).resource) ? spec(m).resource : {});
    const key = (x: Json) => JSON.stringify([x.apiVersion, x.kind, x.metadata?.name]);
    return key(r(o)) === key(r(n)) ? [] : [fieldError('spec.resource', { apiVersion: r(n).apiVersion, kind: r(n).kind, name: r(n).metadata?.name },
      `is another resource than before (${r(o).kind} "${r(o).metadata?.name}"): its apiVersion, kind and name cannot change on an update`,
      'keep the resource, or delete the ResourceDistribution and create one for the other resource')];
  },
  // uniteddeployment/validating/uniteddeployment_validation.go validateSubsetTemplateUpdate, validateUnitedDeploymentTopology
  'apps.kruise.io/UnitedDeployment': (o, n) => {
    const errors: string[] = [];
    const ot: Json = isObject(spec(o).template) ? spec(o).template : {};
    const nt: Json = isObject(spec(n).template) ? spec(n).template : {};
    for (const [k, what] of [['statefulSetTemplate', 'statefulSetTemplate'], ['advancedStatefulSetTemplate', 'advancedStatefulSetTemplate']]) {
      if (isObject(ot[k]) && isObject(nt[k])) {
        errors.push(...onlyThese(spec(ot[k]), spec(nt[k]), ['replicas', 'template', 'updateStrategy'], `UnitedDeployment's ${what}`, `spec.template.${k}.spec`));
      }
    }
    const subsets = (m: Json): Json[] => (Array.isArray(spec(m).topology?.subsets) ? spec(m).topology.subsets.filter(isObject) : []);
    const old = new Map(subsets(o).map(s => [s.name, s]));
    subsets(n).forEach((s, i) => {
      const before = old.get(s.name);
      if (!before) return;
      errors.push(...unchanged(before.nodeSelectorTerm, s.nodeSelectorTerm, `spec.topology.subsets[${i}].nodeSelectorTerm`, 'UnitedDeployment subset'));
      errors.push(...unchanged(before.tolerations, s.tolerations, `spec.topology.subsets[${i}].tolerations`, 'UnitedDeployment subset'));
    });
    return errors;
  },
  // imagepulljob/validating/imagepulljob_create_update_handler.go:70 (from 1.9):
  // reflect.DeepEqual, so `pullSecrets: []` is a change from none (the mutating
  // webhook writes back only when a default changed, which on update it does not)
  'apps.kruise.io/ImagePullJob': (o, n, release) => (atLeast(release, '1.9')
    ? deepEqualUnchanged(spec(o).pullSecrets, spec(n).pullSecrets, 'spec.pullSecrets', 'ImagePullJob') : []),
  // sidecarset/validating/sidecarset_create_update_handler.go validateSidecarContainerConflict
  'apps.kruise.io/SidecarSet': (o, n) => {
    const containers = (m: Json): Json[] => (Array.isArray(spec(m).containers) ? spec(m).containers.filter(isObject) : []);
    const old = new Map(containers(o).map(c => [c.name, c.upgradeStrategy?.upgradeType ?? '']));
    const errors: string[] = [];
    containers(n).forEach((c, i) => {
      if (!old.has(c.name)) {
        errors.push(fieldError(`spec.containers[${i}].name`, c.name, 'is a container the SidecarSet did not have: an update may not add a sidecar container',
          'keep the containers the SidecarSet has, or create another SidecarSet for the new container'));
        return;
      }
      const before = old.get(c.name);
      const now = c.upgradeStrategy?.upgradeType ?? '';
      if (before !== '' && before !== now) {
        errors.push(fieldError(`spec.containers[${i}].upgradeStrategy.upgradeType`, c.upgradeStrategy?.upgradeType, `cannot change on an update (it was ${JSON.stringify(before)})`,
          'keep the old upgrade type, or add the container under another name'));
      }
    });
    return errors;
  },
  // containerrecreaterequest/mutating/crr_mutating_handler.go:71: the spec cannot
  // change as reflect.DeepEqual compares it (`orderedRecreate: false` is no change),
  // nor the pod-uid and node-name labels (:74, :77)
  'apps.kruise.io/ContainerRecreateRequest': (o, n) => {
    const errors = deepEqualUnchanged(spec(o), spec(n), 'spec', 'ContainerRecreateRequest',
      ['activeDeadlineSeconds', 'ttlSecondsAfterFinished', 'terminationGracePeriodSeconds', 'unreadyGracePeriodSeconds']);
    for (const label of ['crr.apps.kruise.io/pod-uid', 'crr.apps.kruise.io/node-name']) {
      const before = o.metadata?.labels?.[label] ?? '';
      const now = n.metadata?.labels?.[label] ?? '';
      if (before !== now) {
        errors.push(fieldError(`metadata.labels["${label}"]`, now, `cannot change on an update of a ContainerRecreateRequest (it was ${JSON.stringify(before)})`,
          'keep the label the webhook set when the ContainerRecreateRequest was created'));
      }
    }
    return errors;
  },
  // rollout/validating (v0.5.5, v0.6.2): while the release is Progressing or Terminating
  'rollouts.kruise.io/Rollout': (o, n) => {
    const phase = o.status?.phase;
    if (phase !== 'Progressing' && phase !== 'Terminating') return [];
    const during = `while the Rollout is ${phase}`;
    const s = (m: Json) => spec(m).strategy ?? {};
    const strategy = (m: Json) => (isObject(s(m).blueGreen) ? s(m).blueGreen : isObject(s(m).canary) ? s(m).canary : {});
    const errors: string[] = [];
    const ref = String(n.apiVersion).endsWith('/v1alpha1') ? 'objectRef' : 'workloadRef';
    const field = (f: string, oldV: unknown, newV: unknown) => {
      if (JSON.stringify(normal(oldV)) !== JSON.stringify(normal(newV))) {
        errors.push(fieldError(f, newV, `cannot change ${during} (it was ${JSON.stringify(oldV) ?? 'unset'})`, 'wait until the release ends, or keep the old value'));
      }
    };
    field(`spec.${ref}`, spec(o)[ref], spec(n)[ref]);
    field('spec.strategy.trafficRoutings', strategy(o).trafficRoutings ?? s(o).trafficRoutings, strategy(n).trafficRoutings ?? s(n).trafficRoutings);
    if (ref === 'workloadRef') {
      field('spec.strategy.canary.enableExtraWorkloadForCanary', strategy(o).enableExtraWorkloadForCanary, strategy(n).enableExtraWorkloadForCanary);
      const steps = (m: Json) => (Array.isArray(strategy(m).steps) ? strategy(m).steps.length : 0);
      if (steps(o) !== steps(n)) {
        errors.push(fieldError('spec.strategy.steps', `${steps(n)} steps`, `cannot be added or removed ${during} (it had ${steps(o)})`, 'wait until the release ends, or keep the steps'));
      }
    } else {
      field('metadata.annotations["rollouts.kruise.io/rolling-style"]', o.metadata?.annotations?.['rollouts.kruise.io/rolling-style'], n.metadata?.annotations?.['rollouts.kruise.io/rolling-style']);
    }
    return errors;
  },
};

/** The release of a group's product the context targets, and where it was declared. */
function targetOf(group: string, ctx: AdmissionContext): TargetRelease {
  return targetRelease(ctx.target ?? defaultTarget(), productOfGroup(group));
}

/**
 * What a cluster gives back of an object it stored, where that is not the
 * object as written: the stored version's conversion there and back. The
 * webhooks judge an update on the stored object with the applied manifest
 * merged over it, so a field the conversion wrote stays unless the manifest
 * gives it again. Each with why, for the messages.
 */
const STORED_FORMS: Record<string, (m: Json) => { stored: Json; why: string } | undefined> = {
  // an Advanced DaemonSet that gives neither maxUnavailable nor maxSurge is stored with maxUnavailable 1 and maxSurge 0
  // (apis/apps/defaults/v1alpha1.go:330 of v1.7.4, :300 of v1.9.1): an update that gives maxSurge alone keeps maxUnavailable 1
  'apps.kruise.io/DaemonSet': m => {
    const u = m.spec?.updateStrategy;
    if (isObject(u) && u.type !== undefined && u.type !== '' && u.type !== 'RollingUpdate') return undefined;
    const ru = isObject(u) && isObject(u.rollingUpdate) ? u.rollingUpdate : {};
    if (ru.maxUnavailable != null || ru.maxSurge != null) return undefined;
    const stored = JSON.parse(JSON.stringify(m));
    stored.spec = isObject(stored.spec) ? stored.spec : {};
    stored.spec.updateStrategy = { ...(isObject(stored.spec.updateStrategy) ? stored.spec.updateStrategy : {}) };
    stored.spec.updateStrategy.rollingUpdate = { ...ru, maxUnavailable: 1, maxSurge: 0 };
    return { stored, why: 'the webhook stored maxUnavailable: 1 and maxSurge: 0 when the DaemonSet gave neither, and an update keeps the maxUnavailable it does not give again' };
  },
  // Kruise Rollouts stores a Rollout as v1beta1: a v1alpha1 step with a weight and no replicas gets replicas
  // "<weight>%" on the way (api/v1alpha1/conversion.go:55-60 of v0.5.5 and v0.6.2), which the way back keeps (:191)
  'rollouts.kruise.io/Rollout': m => {
    if (!String(m.apiVersion).endsWith('/v1alpha1')) return undefined;
    const steps = m.spec?.strategy?.canary?.steps;
    if (!Array.isArray(steps) || !steps.some(st => isObject(st) && st.replicas == null && Number.isInteger(st.weight))) return undefined;
    const stored = JSON.parse(JSON.stringify(m));
    for (const st of stored.spec.strategy.canary.steps) if (isObject(st) && st.replicas == null && Number.isInteger(st.weight)) st.replicas = `${st.weight}%`;
    return { stored, why: 'Kruise Rollouts stores a v1alpha1 step\'s weight without replicas as replicas "<weight>%" too, and an update keeps them unless it gives the steps again' };
  },
};

/** The old object as the cluster gives it back (`STORED_FORMS`), and why it differs, if it does. */
function storedForm(old: Manifest): { stored: Manifest; why?: string } {
  const form = STORED_FORMS[`${String(old.apiVersion ?? '').split('/')[0]}/${old.kind}`]?.(old);
  return form ?? { stored: old };
}

/**
 * The verdict on an update of `old` (as the cluster stores it) to
 * `changed`: the rules of a create on the new object, then the release's
 * update rules of the kind on both, defaulted.
 */
export function judgeUpdate(old: Manifest, changed: Manifest, ctx: AdmissionContext, app?: AdmissionApp): Judgement {
  const judged = judgeManifest(changed, ctx, app);
  const asNew = { ...judged, errors: judged.errors.map(l => keptOldVersionField(l, old, changed)) };
  if (!asNew.decoded) return asNew;
  const found = updateRuleErrors(old, changed, ctx).filter(l => !asNew.errors.includes(l));
  return { errors: [...asNew.errors, ...found], decoded: true };
}

/** The value at a field path of an error line (`spec.a[0]["k"].b`), or undefined. */
function valueAtPath(m: unknown, path: string): unknown {
  let here: unknown = m;
  for (const t of path.matchAll(/([^.[\]]+)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g)) {
    if (here === null || typeof here !== 'object') return undefined;
    const key = t[1] ?? (t[2] !== undefined ? Number(t[2]) : JSON.parse(t[3]));
    here = (here as any)[key];
  }
  return here;
}

/**
 * An unknown field of an update that changes apiVersion, which the old
 * object has as it is: `kubectl apply` (client-side) leaves an unchanged field
 * out of its patch, and the stored object read in the new version has none
 * (the API server prunes it), so the cluster admits the update and the field
 * is gone. Refused all the same, saying so: with server-side apply the field
 * is sent and refused, and either way the manifest asks for what the new
 * version cannot keep.
 */
function keptOldVersionField(line: string, old: Manifest, changed: Manifest): string {
  if (old.apiVersion === changed.apiVersion) return line;
  const m = /^([^:\s]+): (.*) is not a field of ([^;:]+); /.exec(line);
  if (!m || !isDeepStrictEqual(valueAtPath(old, m[1]), valueAtPath(changed, m[1])) || valueAtPath(old, m[1]) === undefined) return line;
  return fieldError(m[1], valueAtPath(changed, m[1]), `is not a field of ${m[3]} in ${changed.apiVersion}: the cluster admits this update when kubectl apply leaves the unchanged `
    + `field out of its patch (server-side apply sends it and is refused), but then the field is gone from the object, since ${changed.apiVersion} cannot keep it`,
  `remove it, or keep apiVersion ${old.apiVersion}`);
}

/**
 * The create rules on the object the webhook sees, where the stored form of
 * `old` makes it differ from `changed`: what it refuses beyond `changed`'s
 * own errors, saying where the value came from.
 */
function storedFormErrors(old: Manifest, changed: Manifest, ctx: AdmissionContext): string[] {
  const { stored, why } = storedForm(old);
  // an update sent in another version reads the stored object in that version
  if (!why || changed.apiVersion !== old.apiVersion) return [];
  const own = judgeManifest(changed, ctx).errors;
  return judgeManifest(appliedOver(stored, changed), ctx).errors.filter(l => !own.includes(l)).map(l => `${l} (the stored object has it: ${why})`);
}

/**
 * Whether an update of a stored pod template to `after` makes the template
 * defaults change it: a merge patch replaces a list whole (containers,
 * volumes: the defaults the cluster wrote into the old items are gone) and
 * takes out a field the manifest no longer gives; fields it only adds or
 * changes (labels, overhead) get no default.
 */
function templateLosesDefaults(before: unknown, after: unknown): boolean {
  if (Array.isArray(before) || Array.isArray(after)) return !isDeepStrictEqual(before, after);
  if (!isObject(before)) return false;
  if (!isObject(after)) return true;
  return Object.keys(before).some(k => !(k in after) || templateLosesDefaults(before[k], after[k]));
}

/** An object as Go types with omitempty lists store it: an empty list of the spec is gone. */
function withoutEmptyLists(m: Manifest): Manifest {
  if (!isObject(m.spec)) return m;
  return { ...m, spec: Object.fromEntries(Object.entries(m.spec).filter(([, v]) => !(Array.isArray(v) && v.length === 0))) };
}

/**
 * The required fields an update leaves unset, and the null list items it
 * has, where the mutating webhook writes no Go zero values back: every OpenKruise mutating webhook answers
 * only when its defaults change the object, and on an update of an object
 * the cluster defaulted they change nothing unless the update takes out a
 * defaulted field or replaces a list of the pod template (a scatter entry
 * without a value is then refused by the schema; pkg/webhook/cloneset/mutating
 * cloneset_create_update_handler.go:71 and the same check in every kind).
 */
function unwrittenZeroValueErrors(old: Manifest, changed: Manifest, ctx: AdmissionContext): string[] {
  if (!hasMutatingWebhook(changed.apiVersion, changed.kind) || changed.apiVersion !== old.apiVersion) return [];
  const group = String(changed.apiVersion).split('/')[0];
  const target = targetOf(group, ctx);
  const module = admissionModuleFor(String(changed.apiVersion), String(changed.kind));
  if (!module?.defaults) return [];
  const goView = (m: Manifest) => goZeroValues(m, target);
  const created = goView(withoutNulls(asCreated(old), target));
  // the stored object: the webhook's result on create (a module that knows it answers nothing there stores it as sent)
  const asStored = (module.writesBack?.(created) ?? true) ? goView(module.defaults(created, ctx)) : created;
  const storedOld: Manifest = { ...asStored, metadata: old.metadata };
  // the status the manifest gives is not the update's: the API server keeps the stored one (status subresource)
  const merged = withoutNulls(appliedOver(storedOld, asCreated(changed)), target);
  const byDefaults = module.writesBack
    ? module.writesBack(merged)
    : !isDeepStrictEqual(goView(merged), goView(module.defaults(goView(merged), ctx)))
      || templateLosesDefaults(storedOld.spec?.template, merged.spec?.template);
  const answers = byDefaults
    || (module.answersUpdate?.(created, storedOld, withoutNulls(appliedOver(withoutEmptyLists(storedOld), asCreated(changed)), target)) ?? false);
  if (answers) return [];
  // a required field left unset, and a null list item (which the API server keeps): the Go zero value the webhook
  // decodes them as is never written back
  return validateManifest(merged, target).filter(i => i.missing || (i.value === null && i.keyword === 'type')).map(i => formatIssue({
    ...i,
    problem: i.missing
      ? `is required: the ${changed.kind} webhook writes its Go zero values back only when its defaults change the object, which they do not on this update `
        + 'of the stored object, so the API server\'s schema finds the field unset'
      : `${i.problem}: the API server keeps a null list item, and the ${changed.kind} webhook writes its Go zero value back only when its defaults change the object, `
        + 'which they do not on this update of the stored object',
    fix: i.missing ? i.fix : 'remove the null item, or give its value',
  }));
}

/**
 * The errors of the release's update rules of the kind alone (the object's
 * create rules not asked): `plan --old-live` refuses these changes.
 */
export function updateRuleErrors(old: Manifest, changed: Manifest, ctx: AdmissionContext): string[] {
  const group = String(changed.apiVersion ?? '').split('/')[0];
  const rules = RULES[`${group}/${changed.kind}`];
  const fromStored = [...storedFormErrors(old, changed, ctx), ...unwrittenZeroValueErrors(old, changed, ctx)];
  if (!rules) return fromStored;
  const target = targetOf(group, ctx);
  const module = admissionModuleFor(String(changed.apiVersion), String(changed.kind));
  const stored = (m: Manifest) => {
    const created = withoutNulls(asCreated(m), target);
    return module?.defaults ? module.defaults(created, ctx) : created;
  };
  // the old object's status counts (a Rollout's phase): the stored object keeps it
  const oldDefaulted = withClusterCopies({ ...stored(old), status: old.status });
  // a rule of the mutating webhook compares before it defaults: the manifest applied over the stored object, as sent
  const changedObject = BEFORE_DEFAULTS.has(`${group}/${changed.kind}`)
    ? withoutNulls(asCreated(appliedOver({ ...oldDefaulted, metadata: old.metadata }, changed)), target)
    : stored(appliedOver(old, changed));
  return [...fromStored, ...rules(oldDefaulted, changedObject, target.release, ctx)];
}

/**
 * The stored object with the values a mutating webhook copied into it from
 * cluster state on create, which no manifest has: a ContainerRecreateRequest
 * gets its pod's terminationGracePeriodSeconds when it gives none
 * (containerrecreaterequest/mutating/crr_mutating_handler.go:164 of v1.7.4,
 * :175 of v1.8.4 and v1.9.1; a pod always has one), so an update that takes
 * the field out (null) changes the spec.
 */
function withClusterCopies(stored: Manifest): Manifest {
  if (stored.apiVersion !== 'apps.kruise.io/v1alpha1' || stored.kind !== 'ContainerRecreateRequest') return stored;
  const strategy = stored.spec?.strategy;
  if (strategy === null || typeof strategy !== 'object' || (strategy.terminationGracePeriodSeconds !== undefined && strategy.terminationGracePeriodSeconds !== null)) return stored;
  return { ...stored, spec: { ...stored.spec, strategy: { ...strategy, terminationGracePeriodSeconds: 'the pod\'s terminationGracePeriodSeconds, copied by the webhook' } } };
}

/**
 * The kinds whose update rule is the mutating webhook's, which compares the
 * object as sent with the stored one before it defaults anything
 * (containerrecreaterequest/mutating/crr_mutating_handler.go:71): a field the
 * update takes out differs from its stored default.
 */
const BEFORE_DEFAULTS: ReadonlySet<string> = new Set(['apps.kruise.io/ContainerRecreateRequest']);

/** Whether a kind has rules of its own for an update (the others are judged as a create). */
export function hasUpdateRules(apiVersion: string, kind: string): boolean {
  return RULES[`${String(apiVersion).split('/')[0]}/${kind}`] !== undefined;
}
