/**
 * Old manifests versus new: objects matched by group, kind, namespace and
 * name, every changed Kruise workload and SidecarSet planned by its rules,
 * the rest listed as other changes.
 */
import { sameJson } from './diff';
import { PlanInputError } from './errors';
import { planGates } from './gates';
import { isRuntimeObject, planMigrations } from './migration';
import { planReleaseChange } from './release-change';
import {
  RELEASED_KINDS, RolloutView, planRollout, releasePlan, releasedObject, rolloutView, workloadConflicts, workloadKey,
} from './rollout-release';
import { PodOwner, planSidecarSet, podsOf } from './sidecarsets';
import {
  PlanReport, ReleaseChangePlan, RolloutChange, RolloutPlan, SidecarSetPlan, UpdatePlanOptions, UpdateType, WorkloadPlan,
} from './types';
import { planUnitedDeployment } from './united-deployment';
import {
  PlanContext, PlanSubject, howOf, planCloneSet, planDaemonSet, planDeployment, planStatefulSet,
} from './workloads';

import { _compareTags, _imageTag } from '../_image-tags';
import { targetFromFlags } from '../releases/flags';
import { isManagerOf, managerImage, managerRelease } from '../releases/live';
import { Product, Release, ReleaseError, defaultRelease, parseRelease, releaseOrder, releaseName, sameRelease } from '../releases/registry';

type Json = any;

/** Options the CLI adds to the public ones. */
export interface CompareOptions extends UpdatePlanOptions {
  /** How the gates were given, for errors. */
  readonly gatesOrigin?: string;
  /** How the OpenKruise release was given, for errors (`--openkruise`). */
  readonly openKruiseOrigin?: string;
  /** How the Kruise Rollouts release was given, for errors (`--rollouts`). */
  readonly kruiseRolloutsOrigin?: string;
}

const CLUSTER_SCOPED = new Set([
  'Namespace', 'Node', 'PersistentVolume', 'StorageClass', 'PriorityClass', 'ClusterRole', 'ClusterRoleBinding',
  'CustomResourceDefinition', 'MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration', 'APIService',
  'SidecarSet', 'ResourceDistribution', 'NodeImage', 'IngressClass', 'RuntimeClass',
]);

const groupOf = (apiVersion: string): string => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');

interface Keyed {
  readonly key: string;
  readonly obj: Json;
  readonly namespace: string;
  /** Position in its side's manifests (the order `kubectl apply -f` applies them). */
  readonly position: number;
}

function index(objs: Json[], side: string, defaultNamespace: string): Map<string, Keyed> {
  const out = new Map<string, Keyed>();
  for (const obj of objs) {
    const name = obj?.metadata?.name;
    if (typeof name !== 'string' || name === '') {
      throw new PlanInputError(`${side}: a ${obj?.kind ?? 'manifest'} has no metadata.name; give every object a name (generateName cannot be planned)`);
    }
    const namespace = CLUSTER_SCOPED.has(obj.kind) ? '' : obj.metadata.namespace || defaultNamespace;
    const key = `${groupOf(obj.apiVersion)}/${obj.kind}/${namespace}/${name}`;
    if (out.has(key)) {
      throw new PlanInputError(`${side}: ${obj.kind} ${namespace ? `${namespace}/` : ''}${name} appears twice; keep one object per name`);
    }
    out.set(key, { key, obj, namespace, position: out.size });
  }
  return out;
}

const KRUISE_WORKLOADS = new Set(['CloneSet', 'StatefulSet', 'DaemonSet', 'UnitedDeployment']);

function isKruise(obj: Json): boolean {
  return groupOf(obj.apiVersion) === 'apps.kruise.io' && (KRUISE_WORKLOADS.has(obj.kind) || obj.kind === 'SidecarSet');
}

/** What a comparison of other objects looks at: the object without status and server-owned metadata. */
function comparable(obj: Json): Json {
  const { status, metadata, ...rest } = obj ?? {};
  void status;
  const annotations = { ...(metadata?.annotations ?? {}) };
  delete annotations['kubectl.kubernetes.io/last-applied-configuration'];
  return { ...rest, metadata: { name: metadata?.name, labels: metadata?.labels, annotations } };
}

function describeObj(k: Keyed): string {
  return `${k.obj.kind} ${k.namespace ? `${k.namespace}/` : ''}${k.obj.metadata.name}`;
}

/** The pods of the new manifests, as SidecarSets select them. */
function podOwners(objs: Keyed[], daemonSetNodes: number | undefined): PodOwner[] {
  const out: PodOwner[] = [];
  for (const k of objs) {
    const pods = podsOf(k.obj, daemonSetNodes);
    if (pods) out.push({ id: describeObj(k), namespace: k.namespace, ...pods });
  }
  return out;
}

function created(k: Keyed, ctx: PlanContext): WorkloadPlan | SidecarSetPlan {
  const o = k.obj;
  if (o.kind === 'SidecarSet') {
    return {
      apiVersion: o.apiVersion,
      name: o.metadata.name,
      updateType: UpdateType.CREATE,
      summary: 'new SidecarSet: its sidecars are injected into pods created from now on; running pods get them only when recreated',
      inPlaceImages: [],
      hotUpgrade: [],
      newPodsOnly: [],
      selectedWorkloads: [],
      batches: [],
      notes: [],
    };
  }
  const replicas: number | undefined = o.kind === 'DaemonSet' ? ctx.daemonSetNodes : o.kind === 'UnitedDeployment' ? o.spec?.replicas : o.spec?.replicas ?? 1;
  return {
    apiVersion: o.apiVersion,
    kind: o.kind,
    namespace: k.namespace,
    name: o.metadata.name,
    updateType: UpdateType.CREATE,
    summary: `new ${o.kind}: ${replicas === undefined ? 'its' : replicas} pod${replicas === 1 ? '' : 's'} created`,
    imageChanges: [],
    metadataChanged: false,
    envFromMetadataRestarts: [],
    resizedContainers: [],
    batches: [],
    releaseConflicts: [],
    notes: [],
    replicas,
    podsUpdated: replicas,
    podsOnOldRevision: replicas === undefined ? undefined : 0,
  };
}

/** A workload whose manifest fights the release in progress without changing its pod template. */
function conflictEntry(n: Keyed, c: { conflicts: string[]; moved?: number; kept?: number; replicas?: number }): WorkloadPlan {
  return {
    apiVersion: n.obj.apiVersion,
    kind: n.obj.kind,
    namespace: n.namespace,
    name: n.obj.metadata.name,
    updateType: UpdateType.NONE,
    summary: `no pod template change, but the manifest fights the release in progress${c.moved ? `: ${c.moved} pod${c.moved === 1 ? '' : 's'} move to the revision being released at once` : ''}`,
    imageChanges: [],
    metadataChanged: false,
    envFromMetadataRestarts: [],
    resizedContainers: [],
    replicas: c.replicas,
    podsUpdated: c.moved,
    podsOnOldRevision: c.kept,
    batches: c.moved ? [c.moved] : [],
    releaseConflicts: c.conflicts,
    notes: [],
  };
}

function deleted(k: Keyed, ctx: PlanContext): WorkloadPlan | SidecarSetPlan {
  const o = k.obj;
  if (o.kind === 'SidecarSet') {
    return {
      apiVersion: o.apiVersion,
      name: o.metadata.name,
      updateType: UpdateType.DELETE,
      summary: 'removed from the manifests: running pods keep their sidecars; pods created after it is deleted get none',
      inPlaceImages: [],
      hotUpgrade: [],
      newPodsOnly: [],
      selectedWorkloads: [],
      batches: [],
      notes: [],
    };
  }
  const replicas: number | undefined = o.kind === 'DaemonSet' ? ctx.daemonSetNodes : o.spec?.replicas ?? (o.kind === 'UnitedDeployment' ? undefined : 1);
  return {
    apiVersion: o.apiVersion,
    kind: o.kind,
    namespace: k.namespace,
    name: o.metadata.name,
    updateType: UpdateType.DELETE,
    summary: `removed from the manifests: when it is pruned, its ${replicas === undefined ? '' : `${replicas} `}pods are deleted`,
    imageChanges: [],
    metadataChanged: false,
    envFromMetadataRestarts: [],
    resizedContainers: [],
    batches: [],
    releaseConflicts: [],
    notes: [],
    replicas: 0,
    podsUpdated: 0,
    podsOnOldRevision: 0,
  };
}

/**
 * The release of `product` a side's control plane installs (the image tag of
 * its manager Deployment), if it has one. A manager of the old side newer
 * than every modelled release (a cluster ahead of this library) names none:
 * taking it over is refused as a downgrade (./migration.ts), not the input.
 */
function sideRelease(product: Product, objs: Json[], side: string, newerNamesNone = false): Release | undefined {
  for (const obj of objs) {
    if (!isManagerOf(obj, product)) continue;
    try {
      const r = managerRelease(obj, product, `${side}: ${obj.kind} ${obj.metadata?.namespace ? `${obj.metadata.namespace}/` : ''}${obj.metadata?.name}`);
      if (r) return r;
    } catch (e) {
      if (!(e instanceof ReleaseError)) throw e;
      if (newerNamesNone && _compareTags(_imageTag(managerImage(obj)), `v${newestRelease(product)}`) === 1) continue;
      throw new PlanInputError(e.message);
    }
  }
  return undefined;
}

/** The newest modelled release of a product (`1.9.1`). */
function newestRelease(product: Product): string {
  const all = releaseOrder(product);
  return all[all.length - 1];
}

/**
 * The release of `product` the cluster runs before and after the change:
 * given (`1.8`, or `1.8..1.9` for an upgrade), else the control planes of
 * the old and the new manifests, else the default line; a given release that
 * disagrees with a control plane of the manifests is an input error.
 */
function planReleases(product: Product, given: string | undefined, origin: string, oldObjs: Json[], newObjs: Json[]): { from: Release; to: Release } {
  const parse = (text: string) => {
    try {
      return parseRelease(product, text, origin);
    } catch (e) {
      if (e instanceof ReleaseError) throw new PlanInputError(e.message);
      throw e;
    }
  };
  const parts = given === undefined ? [] : given.split('..');
  if (parts.length > 2) throw new PlanInputError(`${origin}: '${given}' is neither a release nor OLD..NEW; write e.g. 1.8 or 1.8..1.9`);
  const givenFrom = parts.length > 0 ? parse(parts[0]) : undefined;
  const givenTo = parts.length > 1 ? parse(parts[1]) : givenFrom;
  const oldCp = sideRelease(product, oldObjs, 'old manifests', true);
  const newCp = sideRelease(product, newObjs, 'new manifests');
  const agree = (g: Release | undefined, cp: Release | undefined, side: string) => {
    if (g && cp && !sameRelease(g, cp)) {
      throw new PlanInputError(`${origin}: ${releaseName(g)} disagrees with the control plane of the ${side} manifests, which installs ${releaseName(cp)}; give the release the cluster runs (or leave ${origin} out)`);
    }
  };
  agree(givenFrom, oldCp, 'old');
  agree(givenTo, newCp, 'new');
  const from = givenFrom ?? oldCp ?? newCp ?? defaultRelease(product);
  const to = givenTo ?? newCp ?? from;
  return { from, to };
}

/** The plan of `oldObjs` -> `newObjs`. */
export function comparePlan(oldObjs: Json[], newObjs: Json[], options: CompareOptions = {}): PlanReport {
  if (options.daemonSetNodes !== undefined && (!Number.isInteger(options.daemonSetNodes) || options.daemonSetNodes < 0)) {
    throw new PlanInputError(`daemonSetNodes: ${JSON.stringify(options.daemonSetNodes)} is not a node count; pass a whole number >= 0`);
  }
  const kruise = planReleases('openkruise', options.openKruise, options.openKruiseOrigin ?? 'openKruise', oldObjs, newObjs);
  const releases = planReleases('rollouts', options.kruiseRollouts, options.kruiseRolloutsOrigin ?? 'kruiseRollouts', oldObjs, newObjs);
  // the new side's gates: the release the cluster runs after the change
  const gates = planGates(options.featureGates, options.gatesOrigin ?? 'featureGates', kruise.to);
  // the webhook's update rules of the release the cluster runs after the change (admission/update.ts)
  const target = targetFromFlags({ openkruise: kruise.to.version, rollouts: releases.to.version });
  const ctx: PlanContext = { gates, daemonSetNodes: options.daemonSetNodes, admission: { target, gate: g => gates.isEnabled(g) } };
  const ns = options.defaultNamespace ?? 'default';
  const before = index(oldObjs, 'old manifests', ns);
  const after = index(newObjs, 'new manifests', ns);
  const workloads: WorkloadPlan[] = [];
  const sidecarSets: SidecarSetPlan[] = [];
  const otherChanges: string[] = [];
  let unchanged = 0;

  const namespaceLabels = (name: string): Record<string, string> => {
    const own = after.get(`/Namespace//${name}`)?.obj;
    return { ...(own?.metadata?.labels ?? {}), 'kubernetes.io/metadata.name': name };
  };
  const owners = podOwners([...after.values()], ctx.daemonSetNodes);

  // Kruise Rollouts: the Rollouts of each side, and the one of the new manifests that releases a workload
  const isRollout = (obj: Json) => groupOf(obj.apiVersion) === 'rollouts.kruise.io' && obj.kind === 'Rollout';
  const views = (side: Map<string, Keyed>) => [...side.values()].filter(k => isRollout(k.obj)).map(k => ({ k, v: rolloutView(k.obj, ns) }));
  const newRollouts = views(after);
  const oldRollouts = views(before);
  const governing = (w: Keyed) => newRollouts.find(r => r.v.namespace === w.namespace && r.v.key === workloadKey(w.obj)
    && r.v.ref?.name === w.obj.metadata.name);
  const oldRolloutOf = (r: { k: Keyed; v: RolloutView }) => oldRollouts.find(x => x.k.key === r.k.key && x.v.key === r.v.key
    && x.v.ref?.name === r.v.ref?.name)?.v;
  const live = !!options.oldIsLive;

  /** A workload's plan under the Rollout that releases it (if any), with what fights a release in progress. */
  const underRollout = (o: Keyed, n: Keyed, p: WorkloadPlan | undefined, replan: (obj: Json) => WorkloadPlan | undefined,
    ordinalStart: number): WorkloadPlan | undefined => {
    const r = governing(n);
    if (!r) return p;
    const key = workloadKey(n.obj);
    let out = p && releasePlan({
      plan: p,
      releasedPlan: () => replan(releasedObject(n.obj, key, r.v.style).obj),
      how: howOf,
      oldObj: o.obj,
      newObj: n.obj,
      rollout: r.v,
      oldRollout: oldRolloutOf(r),
      rolloutFirst: r.k.position < n.position,
      oldIsLive: live,
      daemonSetNodes: ctx.daemonSetNodes,
      ordinalStart,
    });
    if (live && !r.v.disabled) {
      const c = workloadConflicts(o.obj, n.obj, r.v, ctx.daemonSetNodes);
      if (c.conflicts.length > 0) out = out ? { ...out, releaseConflicts: [...out.releaseConflicts, ...c.conflicts] } : conflictEntry(n, c);
    }
    return out;
  };

  /** A new workload: its first deploy is never released by a Rollout. */
  const firstDeploy = (n: Keyed, p: WorkloadPlan): WorkloadPlan => {
    const r = governing(n);
    if (!r) return p;
    const reason = `a workload's first deploy is never released by a Rollout (the webhook takes updates only): all pods are created at once; Rollout ${r.v.name} releases the next changes of the pod template`;
    return {
      ...p,
      rollout: { rollout: r.v.name, apiVersion: r.v.apiVersion, style: r.v.style, inEffect: false, reason, steps: [], completion: '' },
      notes: [`not released by Rollout ${r.v.name}: ${reason}`, ...p.notes],
    };
  };

  // migrations (a StatefulSet becoming an Advanced StatefulSet, a Deployment's pods moving to a CloneSet, a
  // Helm release taken over) are planned first; the run-time objects of a live dump (pods, claims of claim
  // templates, revisions, Helm's release records) are never manifests, so they are neither removed nor compared
  const { migrations, consumed } = planMigrations(before, after, live, gates, ctx.daemonSetNodes, options.newManifestsDir);
  if (live) {
    const liveSets = [...before.values()].filter(k => k.obj.kind === 'StatefulSet').map(k => k.obj);
    for (const k of before.values()) if (!after.has(k.key) && isRuntimeObject(k.obj, liveSets)) consumed.add(k.key);
  }

  const keys = [...new Set([...after.keys(), ...before.keys()])].filter(k => !consumed.has(k));
  for (const key of keys) {
    const o = before.get(key);
    const n = after.get(key);
    const sample = (n ?? o)!;
    if (isRollout(sample.obj)) continue; // planned below, once every workload is known
    if (!isKruise(sample.obj)) {
      // a Deployment or StatefulSet (apps) is planned when a Rollout releases it
      if (n && RELEASED_KINDS.includes(workloadKey(n.obj)) && governing(n)) {
        if (!o) {
          workloads.push(firstDeploy(n, created(n, ctx) as WorkloadPlan));
          continue;
        }
        const s: PlanSubject = { apiVersion: n.obj.apiVersion, kind: n.obj.kind, namespace: n.namespace, name: n.obj.metadata.name, specPath: 'spec' };
        const plan = (obj: Json) => (n.obj.kind === 'Deployment' ? planDeployment(s, o.obj, obj, ctx) : planStatefulSet(s, o.obj, obj, ctx, true));
        const p = underRollout(o, n, plan(n.obj), plan, Number(n.obj.spec?.ordinals?.start ?? 0));
        if (p) {
          workloads.push(p);
          continue;
        }
      }
      if (!o) otherChanges.push(`${describeObj(n!)}: added`);
      else if (!n) otherChanges.push(`${describeObj(o)}: removed`);
      else if (!live && !sameJson(comparable(o.obj), comparable(n.obj))) otherChanges.push(`${describeObj(n)}: changed`);
      continue;
    }
    const isSidecarSet = sample.obj.kind === 'SidecarSet';
    if (!o || !n) {
      const p = !o ? created(n!, ctx) : deleted(o, ctx);
      if (isSidecarSet) sidecarSets.push(p as SidecarSetPlan);
      else workloads.push(!o && !isSidecarSet ? firstDeploy(n!, p as WorkloadPlan) : p as WorkloadPlan);
      continue;
    }
    if (isSidecarSet) {
      const p = planSidecarSet(o.obj, n.obj, owners, namespaceLabels);
      if (p) sidecarSets.push(p);
      else unchanged++;
      continue;
    }
    const subject = { apiVersion: n.obj.apiVersion, kind: n.obj.kind, namespace: n.namespace, name: n.obj.metadata.name };
    if (n.obj.kind === 'UnitedDeployment') {
      const ps = planUnitedDeployment(subject, o.obj, n.obj, ctx);
      if (ps.length === 0) unchanged++;
      workloads.push(...ps);
      continue;
    }
    const s: PlanSubject = { ...subject, specPath: 'spec' };
    const plan = (obj: Json) => (n.obj.kind === 'CloneSet' ? planCloneSet(s, o.obj, obj, ctx)
      : n.obj.kind === 'StatefulSet' ? planStatefulSet(s, o.obj, obj, ctx)
        : planDaemonSet(s, o.obj, obj, ctx));
    const start = n.obj.kind === 'StatefulSet' && ctx.gates.isEnabled('StatefulSetStartOrdinal') ? Number(n.obj.spec?.ordinals?.start ?? 0) : 0;
    const p = underRollout(o, n, plan(n.obj), plan, start);
    if (p) workloads.push(p);
    else unchanged++;
  }

  const rollouts: RolloutPlan[] = [];
  for (const key of [...new Set([...after.keys(), ...before.keys()])]) {
    const o = before.get(key);
    const n = after.get(key);
    if (!isRollout((n ?? o)!.obj)) continue;
    const ov = o && rolloutView(o.obj, ns);
    const nv = n && rolloutView(n.obj, ns);
    const v = (nv ?? ov)!;
    const p = planRollout(ov, nv, live, `${v.ref?.kind ?? 'workload'} ${v.namespace}/${v.ref?.name ?? '?'}`);
    if (p) rollouts.push(p);
  }
  const rejected = workloads.some(w => w.updateType === UpdateType.REJECTED) || sidecarSets.some(s => s.updateType === UpdateType.REJECTED)
    || rollouts.some(r => r.change === RolloutChange.REJECTED) || migrations.some(m => m.refused);
  const releaseConflict = workloads.some(w => w.releaseConflicts.length > 0) || rollouts.some(r => r.releaseConflicts.length > 0);
  const releaseChanges: ReleaseChangePlan[] = [];
  for (const [product, r] of [['openkruise', kruise], ['rollouts', releases]] as const) {
    if (r.from.version !== r.to.version) releaseChanges.push(planReleaseChange(product, r.from, r.to, live ? oldObjs : undefined));
  }
  return {
    workloads,
    sidecarSets,
    rollouts,
    migrations,
    otherChanges,
    unchanged,
    rejected,
    releaseConflict,
    featureGates: gates.summary,
    ...(releaseChanges.length > 0 ? { releaseChanges } : {}),
  };
}
