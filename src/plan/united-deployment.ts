/**
 * The plan of a UnitedDeployment: one entry per subset. Each subset runs a
 * workload of the template's kind with the subset's share of the replicas
 * and the subset's partition, so a template change goes through that kind's
 * rules (in place or recreate) subset by subset.
 */
import { sameJson } from './diff';
import { RejectedBy, UpdateType, WorkloadPlan } from './types';
import {
  PlanContext, PlanSubject, planCloneSet, planDeployment, planStatefulSet,
} from './workloads';
import { fieldError } from '../validation/field-error';

type Json = any;

const TEMPLATES: Array<{ key: string; kind: string; apiVersion: string }> = [
  { key: 'cloneSetTemplate', kind: 'CloneSet', apiVersion: 'apps.kruise.io/v1alpha1' },
  { key: 'advancedStatefulSetTemplate', kind: 'StatefulSet', apiVersion: 'apps.kruise.io/v1beta1' },
  { key: 'statefulSetTemplate', kind: 'StatefulSet', apiVersion: 'apps/v1' },
  { key: 'deploymentTemplate', kind: 'Deployment', apiVersion: 'apps/v1' },
];

function templateOf(spec: Json): { key: string; kind: string; apiVersion: string; tpl: Json } | undefined {
  for (const t of TEMPLATES) {
    if (spec?.template?.[t.key]) return { ...t, tpl: spec.template[t.key] };
  }
  return undefined;
}

/** UD-PCT: an integer, or a percentage of the UnitedDeployment's replicas rounded half up. */
function subsetValue(v: unknown, total: number | undefined): number | undefined {
  if (typeof v === 'number') return v;
  const m = typeof v === 'string' ? /^(\d+)%$/.exec(v) : null;
  if (m && total !== undefined) return Math.floor((total * Number(m[1])) / 100 + 0.5);
  return undefined;
}

/**
 * Replicas per subset: set ones as given, the rest of spec.replicas shared
 * evenly by the subsets that set none (the first ones get one more).
 * Capacity mode (min/max replicas) depends on scheduling: undefined.
 */
export function subsetReplicas(spec: Json): Map<string, number | undefined> {
  const out = new Map<string, number | undefined>();
  const subsets: Json[] = spec?.topology?.subsets ?? [];
  const total: number | undefined = spec?.replicas;
  const capacity = subsets.some(s => s.minReplicas !== undefined || s.maxReplicas !== undefined);
  if (capacity) {
    for (const s of subsets) out.set(s.name, undefined);
    return out;
  }
  let fixed = 0;
  const open: string[] = [];
  for (const s of subsets) {
    const v = s.replicas === undefined ? undefined : subsetValue(s.replicas, total);
    if (v === undefined) open.push(s.name);
    else fixed += v;
    out.set(s.name, v);
  }
  const rest = Math.max(0, (total ?? fixed) - fixed);
  open.forEach((name, i) => out.set(name, Math.floor(rest / open.length) + (i < rest % open.length ? 1 : 0)));
  return out;
}

function child(t: { key: string; kind: string; apiVersion: string; tpl: Json }, replicas: number | undefined, partition: number): Json {
  const spec = JSON.parse(JSON.stringify(t.tpl.spec ?? {}));
  spec.replicas = replicas ?? 0;
  if (t.kind === 'CloneSet') {
    spec.updateStrategy = { ...(spec.updateStrategy ?? {}), partition };
  } else if (t.kind === 'StatefulSet' && (spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate') {
    spec.updateStrategy = { ...(spec.updateStrategy ?? {}), rollingUpdate: { ...(spec.updateStrategy?.rollingUpdate ?? {}), partition } };
  }
  return { apiVersion: t.apiVersion, kind: t.kind, metadata: t.tpl.metadata ?? {}, spec };
}

function partitionOf(spec: Json, subset: string): number {
  const type = spec?.updateStrategy?.type ?? 'Manual';
  if (type !== 'Manual') return 0;
  const v = spec?.updateStrategy?.manualUpdate?.partitions?.[subset];
  return typeof v === 'number' ? v : 0;
}

/** One plan entry per subset that changes. */
export function planUnitedDeployment(base: Omit<PlanSubject, 'specPath'>, oldObj: Json, newObj: Json, ctx: PlanContext): WorkloadPlan[] {
  const o = oldObj.spec ?? {};
  const n = newObj.spec ?? {};
  const nt = templateOf(n);
  const ot = templateOf(o);
  const out: WorkloadPlan[] = [];
  if (!nt || !ot) return out;
  const oldReplicas = subsetReplicas(o);
  const newReplicas = subsetReplicas(n);
  const oldSubsets = new Map<string, Json>((o.topology?.subsets ?? []).map((s: Json) => [s.name, s]));
  const subsets: Json[] = n.topology?.subsets ?? [];
  const specPath = `spec.template.${nt.key}.spec`;
  subsets.forEach((sub, i) => {
    const s: PlanSubject = { ...base, subset: sub.name, subsetKind: nt.kind, specPath };
    const replicas = newReplicas.get(sub.name);
    const before = oldSubsets.get(sub.name);
    const empty = { imageChanges: [], metadataChanged: false, envFromMetadataRestarts: [], resizedContainers: [], batches: [], releaseConflicts: [] };
    const ident = { apiVersion: base.apiVersion, kind: base.kind, namespace: base.namespace, name: base.name, subset: sub.name, subsetKind: nt.kind };
    if (!before) {
      out.push({
        ...ident, ...empty, updateType: UpdateType.CREATE, summary: `new subset: ${replicas ?? 'its'} pods created`, replicas, podsUpdated: replicas, podsOnOldRevision: 0, notes: [],
      });
      return;
    }
    for (const f of ['nodeSelectorTerm', 'tolerations']) {
      if (!sameJson(before[f], sub[f])) {
        const field = `spec.topology.subsets[${i}].${f}`;
        const rejection = fieldError(field, sub[f], `cannot change for the existing subset "${sub.name}"`, 'keep it, or add a subset under a new name and remove this one');
        out.push({
          ...ident,
          ...empty,
          updateType: UpdateType.REJECTED,
          summary: `rejected: the webhook refuses the update: ${rejection}`,
          rejectedField: field,
          rejectedBy: RejectedBy.WEBHOOK,
          rejection,
          replicas: oldReplicas.get(sub.name),
          podsUpdated: 0,
          podsOnOldRevision: oldReplicas.get(sub.name),
          notes: [],
        });
        return;
      }
    }
    if (ot.key !== nt.key) {
      out.push({
        ...ident,
        ...empty,
        updateType: UpdateType.RECREATE,
        forcedBy: `spec.template.${nt.key}`,
        summary: `recreate: the subset workload changes from ${ot.kind} to ${nt.kind}; the old workload and its pods are deleted`,
        replicas,
        podsUpdated: replicas,
        podsOnOldRevision: 0,
        notes: [],
      });
      return;
    }
    const plan = (() => {
      const oc = child(ot, oldReplicas.get(sub.name), partitionOf(o, sub.name));
      const nc = child(nt, replicas, partitionOf(n, sub.name));
      if (nt.key === 'cloneSetTemplate') return planCloneSet(s, oc, nc, ctx);
      if (nt.key === 'advancedStatefulSetTemplate') return planStatefulSet({ ...s, apiVersion: base.apiVersion }, { ...oc, apiVersion: 'apps.kruise.io/v1beta1' }, nc, ctx);
      if (nt.key === 'statefulSetTemplate') return planStatefulSet(s, oc, nc, ctx, true);
      return planDeployment(s, oc, nc, ctx);
    })();
    if (!plan) return;
    const notes = [...plan.notes];
    if (sub.patch) notes.push(`subset "${sub.name}" has a patch: the plan compares the template without it`);
    if (replicas === undefined) notes.push('subset replicas come from minReplicas/maxReplicas and scheduling: pod counts are not known before the rollout');
    out.push({ ...plan, notes });
  });
  for (const [name] of oldSubsets) {
    if (subsets.some(s => s.name === name)) continue;
    const r = oldReplicas.get(name);
    out.push({
      apiVersion: base.apiVersion,
      kind: base.kind,
      namespace: base.namespace,
      name: base.name,
      subset: name,
      subsetKind: ot.kind,
      imageChanges: [],
      metadataChanged: false,
      envFromMetadataRestarts: [],
      resizedContainers: [],
      batches: [],
      releaseConflicts: [],
      updateType: UpdateType.DELETE,
      summary: `subset removed: its ${r ?? ''} pods are deleted`.replace('  ', ' '),
      replicas: 0,
      podsUpdated: 0,
      podsOnOldRevision: 0,
      notes: [],
    });
  }
  return out;
}
