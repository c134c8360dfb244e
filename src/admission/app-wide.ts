/**
 * The app-wide checks: what the webhooks refuse or what goes wrong because of
 * another object the cluster holds (SidecarSet conflicts and injection
 * collisions, two budgets, WorkloadSpreads or PersistentPodStates for one
 * workload, the feature gates of the control plane). Plain functions over the
 * wire manifests of a set of objects (an `AppModel`), so one implementation
 * serves every path: synth builds the model from the construct tree (L2, the
 * `kruise` L1, raw `ApiObject`s, `Include`, `KruiseInclude`, context objects),
 * `cdk8s-kruise check` from the documents it reads. Each check looks up the
 * few objects that can collide with one (indexes by name, target or
 * selector keys) instead of comparing every pair.
 */
import type * as SidecarSetRules from './sidecar-set';
import type * as Injection from '../fleet/injection';
import type { PlacedGateSource } from '../gates/source';
import { fieldError } from '../validation/field-error';
import { describe, groupOf, mergeInPathOrder, namespaceOf, podTemplateOf, sameTargetRef, targetKey } from '../validation/manifest';
import { looseOverlapCandidateKeys, looseOverlapKeys, selectorsLooselyOverlap } from '../validation/selectors';

/** One object the app-wide checks read. */
export interface ModelObject {
  /** The wire form (only read). */
  readonly json: any;
  /** Its position: construct-path order in an app, file and document order for `check`. */
  readonly order: number;
  /**
   * Where it came from when it is not one of the objects under check (a
   * context object, a cluster's live object): it takes part in every check
   * and reports nothing itself.
   */
  readonly origin?: string;
}

/** The objects the app-wide checks judge together, and what they need to know of them. */
export interface AppModel<O extends ModelObject = ModelObject> {
  /** Every object, in order. */
  readonly all: readonly O[];
  /** The labels of a namespace, as a namespace selector sees them. */
  readonly namespaceLabels: Injection.NamespaceLabels;
  /** The objects of one API group and kind, in order. */
  objects(group: string, kind: string): readonly O[];
  /** Whether the object passes admission on its own (the checks look only at objects the cluster would store). */
  admitted(o: O): boolean;
  /** How a message about another object places it: `at 'path'`, `(context: file)`, `(file, document 3)`. */
  place(o: O): string;
  /** A value computed once for this set of objects. */
  once<T>(key: string, compute: () => T): T;
}

/** A SidecarSet of the model that passes admission, defaulted. */
export interface ModelSidecarSet<O extends ModelObject = ModelObject> extends Injection.SidecarSetLike {
  readonly obj: O;
}

/** One workload of the model into whose pods SidecarSets are injected. */
export interface ModelInjection<O extends ModelObject = ModelObject> {
  readonly workload: O;
  readonly result: Injection.InjectionResult<ModelSidecarSet<O>>;
}

/**
 * Every SidecarSet (any served version) of the model that passes admission:
 * one the cluster refuses injects nothing.
 */
export function modelSidecarSets<O extends ModelObject>(m: AppModel<O>): Array<ModelSidecarSet<O>> {
  return m.once('sidecar-sets', () => {
    const sets = m.objects('apps.kruise.io', 'SidecarSet').filter(o => m.admitted(o));
    if (sets.length === 0) return [];
    // the SidecarSet rules load with the first SidecarSet (an app with other policies pays nothing for them)
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { defaultedSidecarSetSpec, sidecarSetSpecOf } = require('./sidecar-set') as typeof SidecarSetRules;
    return sets.map(obj => ({
      obj,
      name: obj.json.metadata?.name,
      spec: defaultedSidecarSetSpec(sidecarSetSpecOf(obj.json)),
      where: obj.origin !== undefined ? m.place(obj) : undefined,
    }));
  });
}

/** Every object of the model that creates pods from a template (workloads and pods), in order. */
export function modelWorkloads<O extends ModelObject>(m: AppModel<O>): O[] {
  return m.once('workloads', () => m.all.filter(o => podTemplateOf(o.json) !== undefined));
}

/**
 * The SidecarSets injected into each workload's pods, with the problems;
 * workloads no SidecarSet selects are left out.
 */
export function modelInjections<O extends ModelObject>(m: AppModel<O>): Array<ModelInjection<O>> {
  return m.once('injections', () => {
    const sets = modelSidecarSets(m);
    if (sets.length === 0) return [];
    const { SidecarSetIndex, injectInto } = injection();
    const index = new SidecarSetIndex(sets);
    const out: Array<ModelInjection<O>> = [];
    for (const w of modelWorkloads(m)) {
      const candidates = index.candidates(podTemplateOf(w.json)?.metadata.labels);
      if (candidates.length === 0) continue;
      const r = injectInto(m.namespaceLabels, w.json, candidates, { problemsOnly: true });
      if (r && (r.injected.length > 0 || r.problems.length > 0)) out.push({ workload: w, result: r });
    }
    return out;
  });
}

/**
 * The SidecarSets of the model sharing a name rule 29 compares with `me`, in
 * order: the only ones that can conflict with it.
 */
export function modelConflictCandidates<O extends ModelObject>(m: AppModel<O>, me: ModelSidecarSet<O>): Array<ModelSidecarSet<O>> {
  const { conflictKeys } = injection();
  const index = m.once('sidecar-set-names', () => {
    const byKey = new Map<string, Array<ModelSidecarSet<O>>>();
    for (const s of modelSidecarSets(m)) for (const k of new Set(conflictKeys(s))) push(byKey, k, s);
    return byKey;
  });
  const out = new Set<ModelSidecarSet<O>>();
  for (const k of conflictKeys(me)) for (const s of index.get(k) ?? []) if (s !== me) out.add(s);
  return [...out].sort((a, b) => a.obj.order - b.obj.order);
}

/** The pod webhook's model, loaded with the first SidecarSet (an app with other policies pays nothing for it). */
function injection(): typeof Injection {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../fleet/injection') as typeof Injection;
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v); else m.set(k, [v]);
}

/**
 * Of two objects in conflict, the one that reports it: an object under check
 * always reports against one it only reads (context, live state); of two
 * under check, the first in order (the webhook refuses the second one
 * applied, and one line per pair is enough).
 */
function reports(me: ModelObject, other: ModelObject): boolean {
  return other.origin !== undefined || other.order > me.order;
}

/**
 * The app-wide problems of the model's objects under check (never of an
 * object with an `origin`), as lines `field: value problem; fix` without the
 * object's own name: each object's list, in the order the checks found them.
 */
export function appWideProblems<O extends ModelObject>(m: AppModel<O>): Map<O, string[]> {
  const out = new Map<O, string[]>();
  const add = (o: O, line: string) => {
    const list = out.get(o);
    if (!list) out.set(o, [line]); else if (!list.includes(line)) list.push(line);
  };
  sidecarSetProblems(m, add);
  targetProblems(m, add, 'apps.kruise.io', 'WorkloadSpread', 'keep one WorkloadSpread per workload');
  targetProblems(m, add, 'apps.kruise.io', 'PersistentPodState', 'keep one PersistentPodState per workload');
  budgetProblems(m, add);
  return out;
}

/** Rule 29 between the SidecarSets, and the collisions of their sidecars with the pods they are injected into. */
function sidecarSetProblems<O extends ModelObject>(m: AppModel<O>, add: (o: O, line: string) => void): void {
  const sets = modelSidecarSets(m);
  if (sets.length === 0) return;
  for (const me of sets) {
    if (me.obj.origin !== undefined) continue;
    for (const other of modelConflictCandidates(m, me)) {
      if (!reports(me.obj, other.obj)) continue;
      const why = injection().sidecarSetConflicts(me, other);
      if (why.length === 0) continue;
      const place = m.place(other.obj);
      add(me.obj, fieldError('spec', other.name, `is another SidecarSet ${place.startsWith('(') ? place : `(${place})`} whose selectors and namespaces can match the same pods, and ${why.join(', ')}; OpenKruise refuses the second one applied`,
        'rename, or make the selectors or namespaceSelectors disjoint'));
    }
  }
  for (const { workload: w, result: r } of modelInjections(m)) {
    for (const p of r.problems) {
      // the SidecarSet under check reports what it does to a pod; a context SidecarSet's problem is the workload's
      if (p.from.obj.origin === undefined) add(p.from.obj, p.sidecarSetLine(`${describe(w.json)} ${m.place(w)}`));
      else if (w.origin === undefined) add(w, p.workloadLine);
    }
  }
}

/** Two WorkloadSpreads (or PersistentPodStates) of one namespace with the same target, which OpenKruise refuses. */
function targetProblems<O extends ModelObject>(m: AppModel<O>, add: (o: O, line: string) => void, group: string, kind: string, fix: string): void {
  // what the cluster refuses is stored nowhere, so only admitted objects are compared (they also decode)
  const all = m.objects(group, kind).filter(o => m.admitted(o));
  if (all.length < 2) return;
  const byTarget = new Map<string, O[]>();
  for (const o of all) push(byTarget, targetKey(namespaceOf(o.json), o.json.spec?.targetRef), o);
  for (const me of all) {
    if (me.origin !== undefined) continue;
    const ref = me.json.spec?.targetRef;
    for (const other of byTarget.get(targetKey(namespaceOf(me.json), ref)) ?? []) {
      if (other === me || namespaceOf(other.json) !== namespaceOf(me.json) || !reports(me, other)) continue;
      if (!sameTargetRef(other.json.spec?.targetRef, ref)) continue;
      add(me, fieldError('spec.targetRef', ref, `is also the target of ${kind} "${other.json.metadata?.name}" ${m.place(other)}, which OpenKruise refuses`, fix));
    }
  }
}

/**
 * Rule 10 of the PodUnavailableBudget webhook across the model: two budgets of
 * one namespace with the same target, or with selectors that loosely overlap.
 */
function budgetProblems<O extends ModelObject>(m: AppModel<O>, add: (o: O, line: string) => void): void {
  const all = m.objects('policy.kruise.io', 'PodUnavailableBudget').filter(o => m.admitted(o));
  if (all.length < 2) return;
  const byTarget = new Map<string, O[]>();
  const bySelector = new Map<string, O[]>();
  for (const o of all) {
    const spec = o.json.spec ?? {};
    if (spec.targetRef) push(byTarget, targetKey(namespaceOf(o.json), spec.targetRef), o);
    if (spec.selector) for (const k of new Set(looseOverlapKeys(spec.selector))) push(bySelector, `${namespaceOf(o.json)} ${k}`, o);
  }
  for (const me of all) {
    if (me.origin !== undefined) continue;
    const a = me.json.spec ?? {};
    const ns = namespaceOf(me.json);
    const candidates = mergeInPathOrder(
      a.targetRef ? byTarget.get(targetKey(ns, a.targetRef)) : undefined,
      ...(a.selector ? looseOverlapCandidateKeys(a.selector).map(k => bySelector.get(`${ns} ${k}`)) : []),
    );
    for (const other of candidates) {
      if (other === me || namespaceOf(other.json) !== ns || other.json.metadata?.name === me.json.metadata?.name || !reports(me, other)) continue;
      const b = other.json.spec ?? {};
      const name = other.json.metadata?.name;
      if (sameTargetRef(a.targetRef, b.targetRef)) {
        add(me, fieldError('spec.targetRef', a.targetRef, `is also the target of PodUnavailableBudget "${name}" ${m.place(other)}, which OpenKruise refuses`, 'keep one budget per workload'));
      }
      if (a.selector && b.selector && selectorsLooselyOverlap(a.selector, b.selector)) {
        add(me, fieldError('spec.selector', a.selector, `overlaps the selector of PodUnavailableBudget "${name}" ${m.place(other)}, which OpenKruise refuses`, 'make the selectors use different keys or disjoint values'));
      }
    }
  }
}

/** What an object needs of the feature gates: all of `allOf`, one of `anyOf`; the field that needs them; what happens without. */
interface GateNeed {
  readonly allOf: readonly string[];
  readonly anyOf?: readonly string[];
  readonly field?: string;
  readonly value?: unknown;
  readonly consequence?: string;
}

const PULL_JOB_GATES = ['KruiseDaemon', 'ImagePullJobGate'];

/** The feature gates each kind needs to be accepted (or to do anything): the same in OpenKruise 1.7, 1.8 and 1.9 (whose gate defaults the sources apply). */
function gateNeeds(json: any): GateNeed[] {
  const kind = `${groupOf(json?.apiVersion)}/${json?.kind}`;
  switch (kind) {
    case 'apps.kruise.io/SidecarSet': return [{ allOf: ['PodWebhook'], consequence: 'pods are created without its sidecars then' }];
    case 'apps.kruise.io/WorkloadSpread': return [{ allOf: ['WorkloadSpread'] }];
    case 'policy.kruise.io/PodUnavailableBudget': return [{ allOf: [], anyOf: ['PodUnavailableBudgetDeleteGate', 'PodUnavailableBudgetUpdateGate'] }];
    case 'apps.kruise.io/ResourceDistribution': return [{ allOf: ['ResourceDistributionGate'] }];
    case 'apps.kruise.io/ContainerRecreateRequest': return [{ allOf: ['KruiseDaemon'] }];
    case 'apps.kruise.io/PodProbeMarker': return [{ allOf: ['PodProbeMarkerGate', 'KruiseDaemon'] }];
    case 'apps.kruise.io/ImagePullJob':
    case 'apps.kruise.io/ImageListPullJob': return [{ allOf: PULL_JOB_GATES }];
    case 'apps.kruise.io/AdvancedCronJob': {
      const t = json.spec?.template?.imageListPullJobTemplate;
      if (t === undefined || t === null) return [];
      return [{
        allOf: PULL_JOB_GATES,
        field: 'spec.template.imageListPullJobTemplate.spec.images',
        value: t?.spec?.images,
        consequence: 'the webhook refuses the ImageListPullJob each run creates then',
      }];
    }
    default: return [];
  }
}

/**
 * The feature gates an object needs that a control plane turns off: one
 * line per gate and control plane (`kind: "SidecarSet" needs the OpenKruise
 * feature gate PodWebhook, which is off in the control plane at 'infra/kruise' ...`).
 */
export function gateProblems(json: any, sources: readonly PlacedGateSource[]): string[] {
  if (sources.length === 0) return [];
  const needs = gateNeeds(json);
  if (needs.length === 0) return [];
  const out: string[] = [];
  for (const need of needs) {
    const then = need.consequence ?? `the webhook refuses every ${json.kind} then`;
    const field = need.field ?? 'kind';
    const value = need.field ? need.value : json.kind;
    for (const src of sources) {
      for (const gate of need.allOf) {
        if (!src.isEnabled(gate)) {
          out.push(fieldError(field, value, `needs the OpenKruise feature gate ${gate}, which is off in the control plane ${src.place} (${then})`, src.howToEnable(gate)));
        }
      }
      const anyOf = need.anyOf ?? [];
      if (anyOf.length > 0 && !anyOf.some(g => src.isEnabled(g))) {
        out.push(fieldError(field, value, `needs one of the OpenKruise feature gates ${anyOf.join(' or ')}, all off in the control plane ${src.place}`, src.howToEnable(anyOf[0])));
      }
    }
  }
  return out;
}
