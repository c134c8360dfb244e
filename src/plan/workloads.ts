/**
 * The plan of one workload: CloneSet, Advanced StatefulSet, Advanced
 * DaemonSet, and the native StatefulSet / Deployment a UnitedDeployment
 * subset may run. Each planner compares the old and the new object and says
 * what the pods go through, how many move, and in which steps.
 */
import { diff, fieldPath, sameJson } from './diff';
import { PlanGates } from './gates';
import {
  batchesOf, describeBatches, ordinals, partitionReplicas, reservedOrdinals, upstreamValue,
} from './rollout';
import { analyzeTemplate, inPlaceOnlyViolation, storedTemplate, TemplateAnalysis } from './template';
import { RejectedBy, UpdateType, WorkloadPlan } from './types';
import type { AdmissionContext } from '../admission/types';
import { updateRuleErrors } from '../admission/update';
import { fieldError } from '../validation/field-error';

type Json = any;

/** What every planner needs besides the two objects. */
export interface PlanContext {
  readonly gates: PlanGates;
  readonly daemonSetNodes?: number;
  /** The release the cluster runs after the change, as admission judges by it: the webhook's update rules (admission/update.ts). */
  readonly admission?: AdmissionContext;
}

/**
 * The first of the webhook's update rules the change breaks, for a
 * workload's own object (not a UnitedDeployment subset's): the same rules
 * `check --live` applies (admission/update.ts).
 */
function updateRefusal(s: PlanSubject, oldObj: Json, newObj: Json, ctx: PlanContext): { field: string; rejection: string } | undefined {
  if (!ctx.admission || s.subset !== undefined) return undefined;
  // the plan judges an InPlaceOnly change container by container itself (planCloneSet, planStatefulSet)
  const [first] = updateRuleErrors(oldObj, newObj, ctx.admission).filter(l => !l.includes('InPlaceOnly'));
  return first === undefined ? undefined : { field: first.slice(0, first.indexOf(': ')), rejection: first };
}

/** Identity of a plan entry. */
export interface PlanSubject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly subset?: string;
  readonly subsetKind?: string;
  /** Where the workload spec sits in the object, for field names (`spec`, or `spec.template.cloneSetTemplate.spec`). */
  readonly specPath: string;
}

/** A plan entry without the fields that default to empty. */
type Draft = Omit<WorkloadPlan, 'apiVersion' | 'kind' | 'namespace' | 'name' | 'subset' | 'subsetKind' | 'imageChanges' | 'metadataChanged' | 'envFromMetadataRestarts' | 'resizedContainers' | 'batches' | 'notes' | 'releaseConflicts'>
& Partial<Pick<WorkloadPlan, 'batches' | 'notes'>>;

/** What each pod goes through ("in place: image of ..."), per plan entry, without the pod counts of the summary. */
const HOW = new WeakMap<WorkloadPlan, string>();

/** The part of a plan's summary that says how each pod is updated (for plans whose pods move). */
export function howOf(plan: WorkloadPlan): string | undefined {
  return HOW.get(plan);
}

function entry(s: PlanSubject, a: TemplateAnalysis | undefined, d: Draft, notes: string[], how?: string): WorkloadPlan {
  const plan: WorkloadPlan = {
    apiVersion: s.apiVersion,
    kind: s.kind,
    namespace: s.namespace,
    name: s.name,
    ...(s.subset !== undefined ? { subset: s.subset, subsetKind: s.subsetKind } : {}),
    imageChanges: a?.images ?? [],
    metadataChanged: a?.metadataChanged ?? false,
    // restarts and resizes happen only when the pods are updated in place
    envFromMetadataRestarts: d.updateType === UpdateType.IN_PLACE ? a?.envRestarts ?? [] : [],
    resizedContainers: d.updateType === UpdateType.IN_PLACE ? a?.resized ?? [] : [],
    ...d,
    batches: d.batches ?? [],
    releaseConflicts: [],
    notes: [...(a?.envNotRefreshed ?? []), ...notes, ...(d.notes ?? [])],
  };
  if (how !== undefined) HOW.set(plan, how);
  return plan;
}

function rejected(
  s: PlanSubject, a: TemplateAnalysis | undefined, field: string, by: RejectedBy, rejection: string,
  keep: number | undefined, replicas: number | undefined, notes: string[],
): WorkloadPlan {
  const who = by === RejectedBy.WEBHOOK ? 'the webhook refuses the update' : 'the controller refuses to update the pods';
  return entry(s, a, {
    updateType: UpdateType.REJECTED,
    summary: `rejected: ${who}: ${rejection}`,
    rejectedField: field,
    rejectedBy: by,
    rejection,
    replicas,
    podsUpdated: keep === undefined ? undefined : 0,
    podsOnOldRevision: keep,
  }, notes);
}

/** "image of app: a -> b; labels/annotations patched; ..." for an in-place change. */
function inPlaceWhat(a: TemplateAnalysis): string {
  const parts: string[] = [];
  for (const i of a.images) parts.push(`image of "${i.container}" ${i.oldImage} -> ${i.newImage}`);
  if (a.resized.length > 0) parts.push(`cpu/memory of ${a.resized.map(c => `"${c}"`).join(', ')} resized`);
  if (a.metadataChanged) parts.push('labels/annotations patched onto the pods');
  if (a.envRestarts.length > 0) parts.push(`${a.envRestarts.map(c => `"${c}"`).join(', ')} restarted to read the new label/annotation env`);
  return parts.join('; ');
}

function selectorChange(s: PlanSubject, oldSpec: Json, newSpec: Json, fields: string[]): { field: string; rejection: string } | undefined {
  for (const f of fields) {
    if (!sameJson(oldSpec?.[f], newSpec?.[f])) {
      return {
        field: `${s.specPath}.${f}`,
        rejection: fieldError(`${s.specPath}.${f}`, newSpec?.[f], `cannot change on a ${s.subsetKind ?? s.kind} (it was ${JSON.stringify(oldSpec?.[f])})`,
          `keep the old value, or delete and recreate the ${s.kind} under a new name`),
      };
    }
  }
  return undefined;
}

/** The volumeClaimTemplates as compared: the status the webhook defaults dropped. */
function claims(spec: Json): Json {
  return (spec?.volumeClaimTemplates ?? []).map((c: Json) => {
    const { status, ...rest } = c ?? {};
    void status;
    if (rest.metadata) {
      const { creationTimestamp, ...m } = rest.metadata;
      void creationTimestamp;
      rest.metadata = m;
    }
    return rest;
  });
}

function scaleNote(oldReplicas: number | undefined, replicas: number, what = 'pods'): string[] {
  if (oldReplicas === undefined || oldReplicas === replicas) return [];
  return oldReplicas < replicas
    ? [`replicas ${oldReplicas} -> ${replicas}: ${replicas - oldReplicas} new ${what} start from the new template`]
    : [`replicas ${oldReplicas} -> ${replicas}: ${oldReplicas - replicas} ${what} are deleted`];
}

/**
 * Nothing in the template changed: a NONE entry when the replica count or
 * something noted (claims) changed, else undefined (the workload counts as
 * unchanged for its pods).
 */
function noTemplateChange(s: PlanSubject, replicas: number | undefined, oldReplicas: number | undefined, notes: string[]): WorkloadPlan | undefined {
  const scaled = replicas !== undefined && oldReplicas !== undefined && replicas !== oldReplicas;
  if (notes.length === 0 && !scaled) return undefined;
  return entry(s, undefined, {
    updateType: UpdateType.NONE,
    summary: `no pod update: ${scaled ? 'only the replica count changes' : 'the pod template is unchanged'}`,
    replicas,
    podsUpdated: 0,
    podsOnOldRevision: 0,
  }, [...scaleNote(oldReplicas, replicas ?? 0), ...notes]);
}

// --- CloneSet ---------------------------------------------------------------------------------------

/** Plan of a CloneSet update (webhook-rules §1, §20). */
export function planCloneSet(s: PlanSubject, oldObj: Json, newObj: Json, ctx: PlanContext): WorkloadPlan | undefined {
  const o = oldObj.spec ?? {};
  const n = newObj.spec ?? {};
  const sp = s.specPath;
  const defaults = !ctx.gates.isEnabled('TemplateNoDefaults');
  const a = analyzeTemplate(storedTemplate(o.template, defaults), storedTemplate(n.template, defaults), ctx.gates, `${sp}.template`);
  const replicas: number = n.replicas ?? 1;
  const oldReplicas: number = o.replicas ?? 1;
  const u = n.updateStrategy ?? {};
  const type: string = u.type || 'ReCreate';
  const notes: string[] = [];

  const immutable = selectorChange(s, o, n, ['selector']) ?? updateRefusal(s, oldObj, newObj, ctx);
  if (immutable) return rejected(s, a, immutable.field, RejectedBy.WEBHOOK, immutable.rejection, oldReplicas, oldReplicas, notes);

  const claimsChanged = !sameJson(claims(o), claims(n));
  const vctRecreates = claimsChanged && ctx.gates.isEnabled('RecreatePodWhenChangeVCTInCloneSetGate') && type !== 'InPlaceOnly';
  if (claimsChanged && !vctRecreates) {
    notes.push(`${sp}.volumeClaimTemplates changed: existing pods keep their claims; only pods created from now on get claims from the new templates`
      + (ctx.gates.isEnabled('RecreatePodWhenChangeVCTInCloneSetGate') ? ' (InPlaceOnly ignores claim changes)' : ' (RecreatePodWhenChangeVCTInCloneSetGate is off)'));
  }
  if (a.ops.length === 0 && !vctRecreates) return noTemplateChange(s, replicas, oldReplicas, notes);

  if (!['ReCreate', 'InPlaceIfPossible', 'InPlaceOnly'].includes(type)) {
    return rejected(s, a, `${sp}.updateStrategy.type`, RejectedBy.WEBHOOK,
      fieldError(`${sp}.updateStrategy.type`, type, 'is not a CloneSet update strategy', 'use ReCreate, InPlaceIfPossible or InPlaceOnly'), oldReplicas, oldReplicas, notes);
  }
  if (type === 'InPlaceOnly') {
    const bad = inPlaceOnlyViolation(a.ops, 'exact');
    if (bad) {
      const field = fieldPath(`${sp}.template`, bad.path);
      return rejected(s, a, field, RejectedBy.WEBHOOK,
        fieldError(field, bad.op === 'remove' ? undefined : bad.value, `is a ${bad.op} in the pod template, and InPlaceOnly allows only container image changes`,
          'change only images, or set updateStrategy.type to InPlaceIfPossible (pods are then recreated for this change)'),
        oldReplicas, oldReplicas, notes);
    }
  }

  const partition = partitionReplicas(u.partition, replicas);
  if (partition === undefined) {
    return rejected(s, a, `${sp}.updateStrategy.partition`, RejectedBy.WEBHOOK,
      fieldError(`${sp}.updateStrategy.partition`, u.partition, 'is neither an integer nor a percentage', 'write a pod count like 2 or a percentage like "50%"'), oldReplicas, oldReplicas, notes);
  }
  const surge = u.maxSurge === undefined ? 0 : upstreamValue(u.maxSurge, replicas, true);
  if (surge === undefined) notes.push(`${sp}.updateStrategy.maxSurge ${JSON.stringify(u.maxSurge)} is not an integer or integer percentage: the controller uses 0`);
  const maxSurge = u.paused ? 0 : surge ?? 0;
  if (type === 'InPlaceOnly' && (surge ?? 0) > 0) {
    return rejected(s, a, `${sp}.updateStrategy.maxSurge`, RejectedBy.WEBHOOK,
      fieldError(`${sp}.updateStrategy.maxSurge`, u.maxSurge, 'resolves to more than 0 pods, which InPlaceOnly does not allow', 'remove maxSurge or set it to 0'), oldReplicas, oldReplicas, notes);
  }
  const unavail = upstreamValue(u.maxUnavailable ?? '20%', replicas, maxSurge === 0);
  if (unavail === undefined) notes.push(`${sp}.updateStrategy.maxUnavailable ${JSON.stringify(u.maxUnavailable)} is not an integer or integer percentage: the controller uses 0`);
  const maxUnavailable = unavail ?? 0;
  if (replicas > 0 && maxUnavailable < 1 && maxSurge < 1) {
    return rejected(s, a, `${sp}.updateStrategy.maxUnavailable`, RejectedBy.WEBHOOK,
      fieldError(`${sp}.updateStrategy.maxUnavailable`, u.maxUnavailable, 'and maxSurge both resolve to 0 pods, so no pod could ever be updated', 'allow at least one pod: maxUnavailable >= 1 or maxSurge >= 1'),
      oldReplicas, oldReplicas, notes);
  }

  let updateType: UpdateType;
  let forcedBy: string | undefined;
  let how: string;
  if (a.ops.length === 0) {
    updateType = UpdateType.RECREATE;
    forcedBy = `${sp}.volumeClaimTemplates`;
    how = `recreate: ${sp}.volumeClaimTemplates changed and RecreatePodWhenChangeVCTInCloneSetGate is on`;
  } else if (type === 'ReCreate') {
    updateType = UpdateType.RECREATE;
    forcedBy = `${sp}.updateStrategy.type`;
    how = `recreate: updateStrategy.type is ReCreate, so every template change recreates the pods (${a.blocking?.why ?? inPlaceWhat(a)})`;
  } else if (a.blocking) {
    updateType = UpdateType.RECREATE;
    forcedBy = a.blocking.field;
    how = `recreate: ${a.blocking.why}`;
  } else if (vctRecreates) {
    updateType = UpdateType.RECREATE;
    forcedBy = `${sp}.volumeClaimTemplates`;
    how = `recreate: ${sp}.volumeClaimTemplates changed and RecreatePodWhenChangeVCTInCloneSetGate is on`;
  } else {
    updateType = UpdateType.IN_PLACE;
    how = `in place: ${inPlaceWhat(a)}`;
  }

  const toUpdate = replicas - partition;
  const step = maxUnavailable + maxSurge;
  const batches = u.paused ? [] : batchesOf(toUpdate, step);
  if (partition > 0) notes.push(`partition ${JSON.stringify(u.partition)} keeps ${partition} of ${replicas} pods on the old template`);
  if (maxSurge > 0) notes.push(`maxSurge ${JSON.stringify(u.maxSurge)}: up to ${maxSurge} extra pods exist during the rollout`);
  if (u.paused) notes.push('updateStrategy.paused is true: no pod moves until it is unpaused');
  notes.push(...scaleNote(oldReplicas, replicas));
  return entry(s, a, {
    updateType,
    summary: `${how}; ${u.paused ? 'paused' : describeBatches(batches)}`,
    forcedBy,
    replicas,
    podsUpdated: u.paused ? 0 : toUpdate,
    podsOnOldRevision: u.paused ? replicas : partition,
    batches,
  }, notes, how);
}

// --- Advanced StatefulSet (and the native StatefulSet of a UnitedDeployment subset) ---------------------

/** Plan of an Advanced StatefulSet update (webhook-rules §2, §20); `native` for apps/v1 StatefulSet semantics. */
export function planStatefulSet(s: PlanSubject, oldObj: Json, newObj: Json, ctx: PlanContext, native = false): WorkloadPlan | undefined {
  const o = oldObj.spec ?? {};
  const n = newObj.spec ?? {};
  const sp = s.specPath;
  const defaults = native || !ctx.gates.isEnabled('TemplateNoDefaults');
  const a = analyzeTemplate(storedTemplate(o.template, defaults), storedTemplate(n.template, defaults), ctx.gates, `${sp}.template`);
  const replicas: number = n.replicas ?? 1;
  const oldReplicas: number = o.replicas ?? 1;
  const notes: string[] = [];
  const withDefault = (spec: Json) => ({ ...spec, podManagementPolicy: spec.podManagementPolicy || 'OrderedReady' });

  const immutable = selectorChange(s, withDefault(o), withDefault(n), ['selector', 'serviceName', 'podManagementPolicy']) ?? updateRefusal(s, oldObj, newObj, ctx);
  if (immutable) return rejected(s, a, immutable.field, RejectedBy.WEBHOOK, immutable.rejection, oldReplicas, oldReplicas, notes);

  const claimsChanged = !sameJson(claims(o), claims(n));
  if (claimsChanged) {
    const resize = !native && ctx.gates.isEnabled('StatefulSetAutoResizePVCGate') && n.volumeClaimUpdateStrategy?.type && n.volumeClaimUpdateStrategy.type !== 'OnDelete';
    if (resize) {
      const bad = claimResizeProblem(claims(o), claims(n), `${sp}.volumeClaimTemplates`);
      if (bad) return rejected(s, a, bad.field, RejectedBy.WEBHOOK, bad.rejection, oldReplicas, oldReplicas, notes);
      notes.push(`${sp}.volumeClaimTemplates changed: the claims of existing pods are resized as their pods update (volumeClaimUpdateStrategy ${n.volumeClaimUpdateStrategy.type})`);
    } else {
      notes.push(`${sp}.volumeClaimTemplates changed: existing pods keep their claims; only new ordinals get claims from the new templates`);
    }
  }
  if (a.ops.length === 0) return noTemplateChange(s, replicas, oldReplicas, notes);

  const us = n.updateStrategy ?? {};
  const type: string = us.type || 'RollingUpdate';
  const ru = us.rollingUpdate ?? {};
  const policy: string = native ? 'ReCreate' : ru.podUpdatePolicy || 'ReCreate';
  const parallel = (n.podManagementPolicy || 'OrderedReady') === 'Parallel';
  const rs = reservedOrdinals(!native && s.apiVersion.endsWith('/v1beta1') ? n.reserveOrdinals : undefined);
  if (!native && !s.apiVersion.endsWith('/v1beta1') && n.reserveOrdinals) notes.push('reserveOrdinals exists only in apps.kruise.io/v1beta1: a v1alpha1 object loses it');
  if (!rs) {
    return rejected(s, a, `${sp}.reserveOrdinals`, RejectedBy.WEBHOOK,
      fieldError(`${sp}.reserveOrdinals`, n.reserveOrdinals, 'has an item that is neither an ordinal nor a "start-end" range', 'write ordinals like 1 or ranges like "3-5"'), oldReplicas, oldReplicas, notes);
  }
  const start = !native && ctx.gates.isEnabled('StatefulSetStartOrdinal') ? Number(n.ordinals?.start ?? 0) : native ? Number(n.ordinals?.start ?? 0) : 0;
  const all = ordinals(replicas, start, rs);

  if (!native && (policy === 'InPlaceIfPossible' || policy === 'InPlaceOnly')) {
    const gatesList: Json[] = n.template?.spec?.readinessGates ?? [];
    if (!gatesList.some(g => g?.conditionType === 'InPlaceUpdateReady')) {
      const field = `${sp}.template.spec.readinessGates`;
      return rejected(s, a, field, RejectedBy.WEBHOOK,
        fieldError(field, n.template?.spec?.readinessGates, `has no InPlaceUpdateReady gate, which podUpdatePolicy ${policy} requires`, 'add { conditionType: InPlaceUpdateReady }'),
        oldReplicas, oldReplicas, notes);
    }
  }
  if (!native && policy === 'InPlaceOnly') {
    const bad = inPlaceOnlyViolation(a.ops, 'substring');
    if (bad) {
      const field = fieldPath(`${sp}.template`, bad.path);
      return rejected(s, a, field, RejectedBy.WEBHOOK,
        fieldError(field, bad.op === 'remove' ? undefined : bad.value, `is a ${bad.op} in the pod template, and podUpdatePolicy InPlaceOnly allows only container image changes`,
          'change only images, or set podUpdatePolicy to InPlaceIfPossible (pods are then recreated for this change)'), oldReplicas, oldReplicas, notes);
    }
    if (a.blocking) {
      return rejected(s, a, a.blocking.field, RejectedBy.CONTROLLER,
        fieldError(a.blocking.field, undefined, `passes the InPlaceOnly webhook but cannot be applied in place (${a.blocking.why}), so the pods are never updated`,
          'revert that field, or use podUpdatePolicy InPlaceIfPossible'), replicas, replicas, notes);
    }
  }

  let updateType: UpdateType;
  let forcedBy: string | undefined;
  let how: string;
  if (type === 'OnDelete') {
    updateType = UpdateType.ON_DELETE;
    how = 'OnDelete: no pod is updated until it is deleted; a deleted pod comes back with the new template';
  } else if (policy === 'ReCreate') {
    updateType = UpdateType.RECREATE;
    forcedBy = native ? a.blocking?.field ?? fieldPath(`${sp}.template`, a.ops[0].path) : `${sp}.updateStrategy.rollingUpdate.podUpdatePolicy`;
    how = native ? `recreate: a StatefulSet recreates pods for every template change (${a.blocking?.why ?? inPlaceWhat(a)})`
      : `recreate: podUpdatePolicy is ReCreate, so every template change recreates the pods (${a.blocking?.why ?? inPlaceWhat(a)})`;
  } else if (a.blocking) {
    updateType = UpdateType.RECREATE;
    forcedBy = a.blocking.field;
    how = `recreate: ${a.blocking.why}`;
  } else {
    updateType = UpdateType.IN_PLACE;
    how = `in place: ${inPlaceWhat(a)}`;
  }

  const partition = Math.max(0, Number(ru.partition ?? 0));
  const updated = type === 'OnDelete' || ru.paused ? [] : all.filter(ord => ord - start >= partition).reverse();
  const kept = all.filter(ord => !updated.includes(ord));
  let step = 1;
  if (parallel) {
    step = Math.max(1, upstreamValue(ru.maxUnavailable ?? 1, replicas, false) ?? 1);
  } else if (ru.maxUnavailable !== undefined && ru.maxUnavailable !== 1) {
    notes.push(`maxUnavailable ${JSON.stringify(ru.maxUnavailable)} counts only with podManagementPolicy Parallel: OrderedReady updates one pod at a time`);
  }
  const batches = batchesOf(updated.length, step);
  if (partition > 0 && type !== 'OnDelete') notes.push(`partition ${partition} keeps ordinals below ${start + partition} on the old template`);
  if (ru.paused) notes.push('rollingUpdate.paused is true: no pod moves until it is unpaused');
  if (ru.unorderedUpdate?.priorityStrategy) notes.push('unorderedUpdate.priorityStrategy orders the update by pod priority instead of by ordinal');
  if (rs.size > 0) notes.push(`reserveOrdinals skips ${[...rs].sort((x, y) => x - y).join(', ')}`);
  notes.push(...scaleNote(oldReplicas, replicas));
  const order = updated.length > 0 ? `, ordinals ${updated.join(', ')} (highest first)` : '';
  return entry(s, a, {
    updateType,
    summary: `${how}; ${type === 'OnDelete' ? 'no pod moves by itself' : ru.paused ? 'paused' : describeBatches(batches) + order}`,
    forcedBy,
    replicas,
    podsUpdated: updated.length,
    podsOnOldRevision: kept.length,
    batches,
    updatedOrdinals: updated,
    keptOrdinals: kept,
  }, notes, how);
}

/** Rule 23 of §2 (StatefulSetAutoResizePVCGate): only storage sizes may change. */
function claimResizeProblem(oldC: Json[], newC: Json[], at: string): { field: string; rejection: string } | undefined {
  const fix = 'change only resources.requests.storage, or set volumeClaimUpdateStrategy.type to OnDelete';
  if (oldC.length !== newC.length) {
    return { field: at, rejection: fieldError(at, newC.map(c => c?.metadata?.name), `has ${newC.length} templates instead of ${oldC.length}`, fix) };
  }
  for (let i = 0; i < newC.length; i++) {
    const name = newC[i]?.metadata?.name;
    const before = oldC.find(c => c?.metadata?.name === name);
    if (!before) return { field: `${at}[${i}].metadata.name`, rejection: fieldError(`${at}[${i}].metadata.name`, name, 'is not one of the old templates', fix) };
    const a = before.spec ?? {};
    const b = newC[i].spec ?? {};
    if (a.storageClassName && b.storageClassName && a.storageClassName !== b.storageClassName) {
      return { field: `${at}[${i}].spec.storageClassName`, rejection: fieldError(`${at}[${i}].spec.storageClassName`, b.storageClassName, `differs from ${JSON.stringify(a.storageClassName)}`, fix) };
    }
    if (!sameJson(a.accessModes, b.accessModes)) {
      return { field: `${at}[${i}].spec.accessModes`, rejection: fieldError(`${at}[${i}].spec.accessModes`, b.accessModes, `differs from ${JSON.stringify(a.accessModes)}`, fix) };
    }
  }
  return undefined;
}

// --- Advanced DaemonSet ------------------------------------------------------------------------------

/** Plan of an Advanced DaemonSet update (webhook-rules §3, §20). */
export function planDaemonSet(s: PlanSubject, oldObj: Json, newObj: Json, ctx: PlanContext): WorkloadPlan | undefined {
  const o = oldObj.spec ?? {};
  const n = newObj.spec ?? {};
  const sp = s.specPath;
  // the DaemonSet webhook persists no template defaults: revisions hold the template as written
  const a = analyzeTemplate(storedTemplate(o.template, false), storedTemplate(n.template, false), ctx.gates, `${sp}.template`);
  const nodes = ctx.daemonSetNodes;
  const notes: string[] = [];
  const immutable = selectorChange(s, o, n, ['selector']) ?? updateRefusal(s, oldObj, newObj, ctx);
  if (immutable) return rejected(s, a, immutable.field, RejectedBy.WEBHOOK, immutable.rejection, nodes, nodes, notes);
  if (a.ops.length === 0) return noTemplateChange(s, nodes, nodes, notes);

  const us = n.updateStrategy ?? {};
  const type: string = us.type || 'RollingUpdate';
  const ru = us.rollingUpdate ?? {};
  let rut: string = ru.rollingUpdateType || 'Standard';
  if (rut === 'Surging') rut = 'Standard';
  let updateType: UpdateType;
  let forcedBy: string | undefined;
  let how: string;
  if (type === 'OnDelete') {
    updateType = UpdateType.ON_DELETE;
    how = 'OnDelete: no pod is updated until it is deleted';
  } else if (rut !== 'InPlaceIfPossible') {
    updateType = UpdateType.RECREATE;
    forcedBy = `${sp}.updateStrategy.rollingUpdate.rollingUpdateType`;
    how = `recreate: rollingUpdateType is ${rut}, so every template change recreates the pods (${a.blocking?.why ?? inPlaceWhat(a)})`;
  } else if (a.blocking) {
    updateType = UpdateType.RECREATE;
    forcedBy = a.blocking.field;
    how = `recreate: ${a.blocking.why}`;
  } else {
    updateType = UpdateType.IN_PLACE;
    how = `in place: ${inPlaceWhat(a)}`;
  }
  const bothUnset = ru.maxUnavailable === undefined && ru.maxSurge === undefined;
  const total = nodes ?? 0;
  const maxUnavailable = upstreamValue(bothUnset ? 1 : ru.maxUnavailable, total, true) ?? 0;
  const maxSurge = upstreamValue(bothUnset ? 0 : ru.maxSurge, total, true) ?? 0;
  const step = maxSurge > 0 ? maxSurge : Math.max(1, maxUnavailable);
  let selector: string | undefined;
  if (ru.selector) {
    selector = JSON.stringify(ru.selector);
    notes.push(`rollingUpdate.selector ${selector}: only pods on matching nodes are updated`);
  }
  if (ru.paused) notes.push('rollingUpdate.paused is true: no pod moves until it is unpaused');
  const moves = type !== 'OnDelete' && !ru.paused;
  const partitionText = ru.partition === undefined ? undefined : JSON.stringify(ru.partition);
  if (nodes === undefined) {
    if (partitionText) notes.push(`partition ${partitionText} keeps that many pods on the old template`);
    notes.push('pod counts need the number of nodes the DaemonSet runs on (--nodes)');
    return entry(s, a, {
      updateType,
      summary: `${how}; ${moves ? `${selector ? 'pods on the selected nodes' : 'one pod per node'}${partitionText ? `, ${partitionText} kept by the partition` : ''}, ${maxSurge > 0 ? 'surging' : 'unavailable'} ${JSON.stringify(maxSurge > 0 ? ru.maxSurge : bothUnset ? 1 : ru.maxUnavailable)} at a time` : 'no pod moves by itself'}`,
      forcedBy,
      nodeSelector: selector,
    }, notes, how);
  }
  const partition = partitionReplicas(ru.partition, nodes) ?? 0;
  if (partition > 0) notes.push(`partition ${partitionText} keeps ${partition} of ${nodes} pods on the old template`);
  const toUpdate = moves && !selector ? nodes - partition : moves ? undefined : 0;
  const batches = toUpdate === undefined ? [] : batchesOf(toUpdate, step);
  return entry(s, a, {
    updateType,
    summary: `${how}; ${!moves ? 'no pod moves by itself' : toUpdate === undefined ? 'pods on the selected nodes only' : describeBatches(batches)}`,
    forcedBy,
    replicas: nodes,
    podsUpdated: toUpdate,
    podsOnOldRevision: toUpdate === undefined ? undefined : nodes - toUpdate,
    batches,
    nodeSelector: selector,
  }, notes, how);
}

// --- Deployment (UnitedDeployment subsets) -------------------------------------------------------------

/** Plan of a Deployment (a UnitedDeployment subset, or one a Rollout releases): every template change rolls new pods. */
export function planDeployment(s: PlanSubject, oldObj: Json, newObj: Json, ctx: PlanContext): WorkloadPlan | undefined {
  const o = oldObj.spec ?? {};
  const n = newObj.spec ?? {};
  const sp = s.specPath;
  const a = analyzeTemplate(storedTemplate(o.template, true), storedTemplate(n.template, true), ctx.gates, `${sp}.template`);
  const replicas: number = n.replicas ?? 1;
  const oldReplicas: number = o.replicas ?? 1;
  if (a.ops.length === 0) return noTemplateChange(s, replicas, oldReplicas, []);
  const ru = n.strategy?.rollingUpdate ?? {};
  const recreateAll = n.strategy?.type === 'Recreate';
  const maxSurge = upstreamValue(ru.maxSurge ?? '25%', replicas, true) ?? 0;
  const maxUnavailable = upstreamValue(ru.maxUnavailable ?? '25%', replicas, false) ?? 0;
  const batches = recreateAll ? batchesOf(replicas, replicas) : batchesOf(replicas, Math.max(1, maxSurge + maxUnavailable));
  const how = `recreate: a Deployment replaces its pods for every template change (${a.blocking?.why ?? inPlaceWhat(a)})`;
  return entry(s, a, {
    updateType: UpdateType.RECREATE,
    summary: `${how}; ${describeBatches(batches)}`,
    forcedBy: a.blocking?.field ?? fieldPath(`${sp}.template`, diff(o.template, n.template)[0]?.path ?? []),
    replicas,
    podsUpdated: replicas,
    podsOnOldRevision: 0,
    batches,
  }, scaleNote(oldReplicas, replicas), how);
}
