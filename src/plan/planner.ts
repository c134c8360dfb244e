/**
 * Old manifests versus new: objects matched by group, kind, namespace and
 * name, every changed Kruise workload and SidecarSet planned by its rules,
 * the rest listed as other changes.
 */
import { sameJson } from './diff';
import { PlanInputError } from './errors';
import { planGates } from './gates';
import { PodOwner, planSidecarSet } from './sidecarsets';
import {
  PlanReport, SidecarSetPlan, UpdatePlanOptions, UpdateType, WorkloadPlan,
} from './types';
import { planUnitedDeployment, subsetReplicas } from './united-deployment';
import {
  PlanContext, PlanSubject, planCloneSet, planDaemonSet, planStatefulSet,
} from './workloads';

type Json = any;

/** Options the CLI adds to the public ones. */
export interface CompareOptions extends UpdatePlanOptions {
  /** The old side is live objects (defaulted by the API server): other objects are compared for presence only. */
  readonly oldIsLive?: boolean;
  /** How the gates were given, for errors. */
  readonly gatesOrigin?: string;
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
    out.set(key, { key, obj, namespace });
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
    const o = k.obj;
    const spec = o.spec ?? {};
    let labels: Record<string, string> | undefined;
    let pods: number | undefined;
    if (o.kind === 'UnitedDeployment') {
      const t = Object.values(spec.template ?? {})[0] as Json;
      labels = t?.spec?.template?.metadata?.labels;
      const per = [...subsetReplicas(spec).values()];
      pods = per.every(v => v !== undefined) ? per.reduce((a: number, b) => a + (b ?? 0), 0) : undefined;
    } else if (o.kind === 'Pod' && groupOf(o.apiVersion) === '') {
      labels = o.metadata?.labels;
      pods = 1;
    } else if (spec.template?.spec) {
      labels = spec.template.metadata?.labels;
      pods = o.kind === 'DaemonSet' ? daemonSetNodes : o.kind === 'Job' ? spec.parallelism ?? 1 : spec.replicas ?? 1;
    } else if (spec.jobTemplate?.spec?.template) {
      labels = spec.jobTemplate.spec.template.metadata?.labels;
      pods = undefined;
    }
    if (labels) out.push({ id: describeObj(k), namespace: k.namespace, labels, pods });
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
    notes: [],
    replicas,
    podsUpdated: replicas,
    podsOnOldRevision: replicas === undefined ? undefined : 0,
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
    notes: [],
    replicas: 0,
    podsUpdated: 0,
    podsOnOldRevision: 0,
  };
}

/** The plan of `oldObjs` -> `newObjs`. */
export function comparePlan(oldObjs: Json[], newObjs: Json[], options: CompareOptions = {}): PlanReport {
  if (options.daemonSetNodes !== undefined && (!Number.isInteger(options.daemonSetNodes) || options.daemonSetNodes < 0)) {
    throw new PlanInputError(`daemonSetNodes: ${JSON.stringify(options.daemonSetNodes)} is not a node count; pass a whole number >= 0`);
  }
  const gates = planGates(options.featureGates, options.gatesOrigin ?? 'featureGates');
  const ctx: PlanContext = { gates, daemonSetNodes: options.daemonSetNodes };
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

  const keys = [...new Set([...after.keys(), ...before.keys()])];
  for (const key of keys) {
    const o = before.get(key);
    const n = after.get(key);
    const sample = (n ?? o)!;
    if (!isKruise(sample.obj)) {
      if (!o) otherChanges.push(`${describeObj(n!)}: added`);
      else if (!n) otherChanges.push(`${describeObj(o)}: removed`);
      else if (!options.oldIsLive && !sameJson(comparable(o.obj), comparable(n.obj))) otherChanges.push(`${describeObj(n)}: changed`);
      continue;
    }
    const isSidecarSet = sample.obj.kind === 'SidecarSet';
    if (!o || !n) {
      const p = !o ? created(n!, ctx) : deleted(o, ctx);
      if (isSidecarSet) sidecarSets.push(p as SidecarSetPlan);
      else workloads.push(p as WorkloadPlan);
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
    const p = n.obj.kind === 'CloneSet' ? planCloneSet(s, o.obj, n.obj, ctx)
      : n.obj.kind === 'StatefulSet' ? planStatefulSet(s, o.obj, n.obj, ctx)
        : planDaemonSet(s, o.obj, n.obj, ctx);
    if (p) workloads.push(p);
    else unchanged++;
  }
  const rejected = workloads.some(w => w.updateType === UpdateType.REJECTED) || sidecarSets.some(s => s.updateType === UpdateType.REJECTED);
  return { workloads, sidecarSets, otherChanges, unchanged, rejected, featureGates: gates.summary };
}
