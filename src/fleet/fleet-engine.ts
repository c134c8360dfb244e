/**
 * The fleet check: the policies a platform team publishes (SidecarSets,
 * WorkloadSpreads, PodUnavailableBudgets, PersistentPodStates) against every
 * workload of every app output and cluster, in one linear pass: each
 * workload meets only the policies its labels, namespace and name can
 * select (looked up in indexes), never every policy.
 */
import {
  FleetChangeType, FleetCheckInput, FleetInjection, FleetObjectRef, FleetPodChange, FleetPolicyChange, FleetPolicyReport, FleetProblem,
  FleetProblemKind, FleetProblemSeverity, FleetReport, FleetSource, FleetSourceSelection, FleetSourceSummary, FleetWorkload, FleetWorkloadChange,
} from './fleet-types';
import {
  NamespaceLabels, SidecarSetIndex, SidecarSetLike, conflictKeys, injectInto, injects, sidecarSetConflictLine,
  sidecarSetConflicts, sidecarSetLabel,
} from './injection';
import { groupOf, namespaceOf, podTemplateOf, sameTargetRef, targetKey } from './objects';
import { judgeManifest } from '../admission/judge';
import { defaultedSidecarSetSpec, sidecarSetSpecOf } from '../admission/sidecar-set';
import { AdmissionContext } from '../admission/types';
import { sameJson } from '../plan/diff';
import { PlanInputError } from '../plan/errors';
import { planSidecarSet, podsOf } from '../plan/sidecarsets';
import { ImageChange, UpdateType } from '../plan/types';
import { contextFromFlags } from '../releases/flags';
import { Product, ReleaseError } from '../releases/registry';
import { selectorMatches, selectorsLooselyOverlap } from '../validation/selectors';

type Json = any;

/** The file each object was read from (the readers record it; objects given in code have none). */
export const fileOf = new WeakMap<object, string>();

const SIDECAR_SET = 'apps.kruise.io/SidecarSet';
const WORKLOAD_SPREAD = 'apps.kruise.io/WorkloadSpread';
const BUDGET = 'policy.kruise.io/PodUnavailableBudget';
const POD_STATE = 'apps.kruise.io/PersistentPodState';
const POLICY_KINDS = new Set([SIDECAR_SET, WORKLOAD_SPREAD, BUDGET, POD_STATE]);

/** A policy: one under review (`reviewed`), an old one, or one a source has of its own. */
export interface Policy {
  readonly json: Json;
  /** `group/kind`. */
  readonly gk: string;
  readonly name: string;
  readonly namespace?: string;
  readonly ref: FleetObjectRef;
  readonly reviewed: boolean;
  /** For SidecarSets: what the injection reads. */
  readonly sidecar?: FleetSidecarSet;
}

export interface FleetSidecarSet extends SidecarSetLike {
  readonly policy: Policy;
}

export interface Workload {
  readonly json: Json;
  readonly ref: FleetWorkload;
  readonly namespace: string;
  readonly labels: Record<string, string>;
  /** `targetKey` of the workload, as a targetRef names it. */
  readonly key: string;
}

export interface Source {
  readonly name: string;
  readonly summary: FleetSourceSummary;
  readonly nsLabels: NamespaceLabels;
  /** Whether an input holds the Namespace object (else only its name label is known). */
  readonly knows: (namespace: string) => boolean;
  readonly workloads: Workload[];
  /** Policies of the source's own (not under review, not an older copy of one). */
  readonly own: Policy[];
}

/** The workloads the old and the new version of a policy reach. */
interface Reach {
  readonly old: Reached[];
  readonly new: Reached[];
}

/** What the report collects for one reviewed policy. */
interface Acc {
  readonly workloads: FleetWorkload[];
  readonly injections: FleetInjection[];
  /** Its conflicts with other policies. */
  readonly conflicts: FleetProblem[];
  /** What it meets in the workloads and in the change. */
  readonly problems: FleetProblem[];
}

const identity = (gk: string, namespace: string | undefined, name: string) => `${gk}/${namespace ?? ''}/${name}`;

export function policyOf(json: Json, source: string, reviewed: boolean, ctx: AdmissionContext, judge: boolean = true): Policy | undefined {
  const gk = `${groupOf(json?.apiVersion)}/${json?.kind}`;
  if (!POLICY_KINDS.has(gk)) return undefined;
  const name = String(json.metadata?.name);
  // what the cluster refuses acts on nothing: the input is wrong, not the fleet
  const refusal = judge ? refusalOf(json, ctx) : undefined;
  if (refusal) throw new PlanInputError(`${fileOf.get(json) ?? source}: ${json.kind} "${name}" is refused by the cluster: ${refusal}; fix it where it is written`);
  const namespace = gk === SIDECAR_SET ? undefined : namespaceOf(json);
  const file = fileOf.get(json);
  const ref: FleetObjectRef = { kind: json.kind, name, namespace, source, file };
  const policy: { -readonly [K in keyof Policy]: Policy[K] } = { json, gk, name, namespace, ref, reviewed };
  if (gk === SIDECAR_SET) {
    policy.sidecar = { name, spec: defaultedSidecarSetSpec(sidecarSetSpecOf(json)), where: reviewed ? undefined : `(${source})`, policy };
  }
  return policy;
}

function policiesOf(objects: Json[], source: string, reviewed: boolean, ctx: AdmissionContext, judge: boolean): Map<string, Policy> {
  const out = new Map<string, Policy>();
  for (const o of objects) {
    const p = policyOf(o, source, reviewed, ctx, judge);
    if (p) out.set(identity(p.gk, p.namespace, p.name), p);
  }
  return out;
}

export function namespaceLabelsOf(objects: Json[]): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  for (const o of objects) {
    if (o?.kind === 'Namespace' && o.apiVersion === 'v1' && o.metadata?.name && !out.has(o.metadata.name)) out.set(o.metadata.name, o.metadata.labels ?? {});
  }
  return out;
}

function workloadLabel(w: FleetWorkload): string {
  return `${w.kind} ${w.namespace}/${w.name} (${w.source})`;
}

function policyLabel(p: Policy): string {
  return p.sidecar ? sidecarSetLabel(p.sidecar) : `${p.ref.kind} ${p.namespace}/${p.name}${p.reviewed ? '' : ` (${p.ref.source})`}`;
}

/** What the cluster does about each kind of injection problem. */
const SEVERITY: Partial<Record<FleetProblemKind, FleetProblemSeverity>> = {
  [FleetProblemKind.REPLACES_APP_CONTAINER]: FleetProblemSeverity.REPLACES_APP_CONTAINER,
  [FleetProblemKind.REPLACES_APP_INIT_CONTAINER]: FleetProblemSeverity.REPLACES_APP_CONTAINER,
  [FleetProblemKind.NAME_IN_OTHER_LIST]: FleetProblemSeverity.REFUSED,
  [FleetProblemKind.INJECTED_TWICE]: FleetProblemSeverity.REFUSED,
};

/** The policies with a targetRef by target, and the budgets with a selector by namespace. */
export class PolicyIndex {
  private readonly byTarget = new Map<string, Policy[]>();
  private readonly budgetsByNamespace = new Map<string, Policy[]>();

  constructor(policies: Iterable<Policy>) {
    for (const p of policies) {
      if (p.gk === SIDECAR_SET) continue;
      const ref = p.json.spec?.targetRef;
      if (ref) push(this.byTarget, targetKey(p.namespace!, ref), p);
      else if (p.gk === BUDGET && p.json.spec?.selector) push(this.budgetsByNamespace, p.namespace!, p);
    }
  }

  /** The WorkloadSpreads, budgets and PersistentPodStates that cover the pods of `w`. */
  public covering(w: Pick<Workload, 'key' | 'namespace' | 'labels'>): Policy[] {
    const out = [...(this.byTarget.get(w.key) ?? [])];
    for (const p of this.budgetsByNamespace.get(w.namespace) ?? []) if (selectorMatches(p.json.spec.selector, w.labels)) out.push(p);
    return out;
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v); else m.set(k, [v]);
}

/**
 * The first thing the API server or the OpenKruise webhook of the target
 * release refuses in a policy (schema, then the defaulted object's rules), if any.
 */
function refusalOf(live: Json, ctx: AdmissionContext): string | undefined {
  // a live object's status is the controller's, not what was applied
  const { status, ...json } = live;
  void status;
  return judgeManifest(json, ctx).errors[0];
}

/** What a fleet check judges every source by: its release, the policies under review and the old ones, indexed. */
export interface Prepared {
  readonly ctx: AdmissionContext;
  readonly reviewed: Map<string, Policy>;
  readonly old?: Map<string, Policy>;
  /** The reviewed policies, then the old ones, in input order: what threads call each other's policies by. */
  readonly numbered: Policy[];
  /** Each policy's place in `numbered`. */
  readonly numberOf: Map<Policy, number>;
  /** Namespaces among the policies: they count in every source without its own. */
  readonly policyNamespaces: Map<string, Record<string, string>>;
  readonly newIndex: SidecarSetIndex<FleetSidecarSet>;
  readonly oldIndex: SidecarSetIndex<FleetSidecarSet>;
  readonly newCover: PolicyIndex;
  readonly oldCover: PolicyIndex;
}

/** The releases a check judges by (absent: the defaults). */
export interface FleetReleases {
  readonly openKruise?: string;
  readonly kruiseRollouts?: string;
  /** How messages name where they were given (the command's flags); absent: the API's fields. */
  readonly releaseNames?: Readonly<Record<Product, string>>;
}

/** The API's fields of the releases (`FleetCheckInput`, `FleetCheckPaths`), as messages name them. */
const API_RELEASE_NAMES: Readonly<Record<Product, string>> = { openkruise: 'openKruise', rollouts: 'kruiseRollouts' };

/**
 * The release, the policies and their indexes. `judge`: refuse a policy the
 * cluster refuses (false where they were judged already, in another thread).
 */
export function prepareCheck(policies: Json[], oldPolicies: Json[] | undefined, releases: FleetReleases, judge: boolean = true): Prepared {
  let ctx: AdmissionContext;
  try {
    // the policies are judged by the release the clusters run (its schema, rules and gate defaults)
    ctx = contextFromFlags({ openkruise: releases.openKruise, rollouts: releases.kruiseRollouts, names: releases.releaseNames ?? API_RELEASE_NAMES });
  } catch (e) {
    if (e instanceof ReleaseError) throw new PlanInputError(e.message);
    throw e;
  }
  const reviewed = policiesOf(policies, 'policies', true, ctx, judge);
  const old = oldPolicies ? policiesOf(oldPolicies, 'old policies', false, ctx, judge) : undefined;
  const sidecars = (m: Map<string, Policy> | undefined) => (m ? [...m.values()].filter(p => p.sidecar).map(p => p.sidecar!) : []);
  const numbered = [...reviewed.values(), ...(old?.values() ?? [])];
  return {
    ctx,
    reviewed,
    old,
    numbered,
    numberOf: new Map(numbered.map((p, i) => [p, i])),
    policyNamespaces: namespaceLabelsOf(policies),
    newIndex: new SidecarSetIndex(sidecars(reviewed)),
    oldIndex: new SidecarSetIndex(sidecars(old)),
    newCover: new PolicyIndex(reviewed.values()),
    oldCover: new PolicyIndex(old?.values() ?? []),
  };
}

/** What a workload's place in a report needs: its reference and its pods' labels. */
export interface Reached {
  readonly ref: FleetWorkload;
  readonly labels: Record<string, string>;
}

/**
 * Where the check of a source's workloads goes: into the report here
 * (`Collector`), or, in a worker thread, into a record this thread plays
 * back into it (./fleet-jobs.ts).
 */
export interface WorkloadSink {
  /** An injection problem or an unknown namespace; `policies` holds a reviewed one. */
  problem(kind: FleetProblemKind, severity: FleetProblemSeverity, policies: Policy[], w: Reached, message: string): void;
  /** The reviewed SidecarSets `policies` inject into the pods of `w`, the containers they then have. */
  injected(policies: Policy[], w: Reached, injection: Omit<FleetInjection, 'workload'>): void;
  /** A reviewed WorkloadSpread, budget or PersistentPodState covers the pods of `w`. */
  covered(p: Policy, w: Reached): void;
  /** An old policy reaches `w`. */
  reachedBefore(p: Policy, w: Reached): void;
}

/** The report of a check, gathered in source and workload order. */
export class Collector implements WorkloadSink {
  private readonly acc: Map<Policy, Acc>;
  /** The conflicts between policies (found once every source's own are known, reported first). */
  private readonly conflictProblems: FleetProblem[] = [];
  /** What the workloads and the change meet, in source and workload order. */
  private readonly problems: FleetProblem[] = [];
  /** Per old-or-new policy identity: the workloads the old and the new version reach. */
  private readonly reach = new Map<string, Reach>();
  // the entry of each policy object, looked up by identity once (an old and a new version share one)
  private readonly reachOf = new Map<Policy, Reach>();

  constructor(private readonly prep: Prepared) {
    this.acc = new Map([...prep.reviewed.values()].map(p => [p, { workloads: [], injections: [], problems: [], conflicts: [] }]));
  }

  /** A problem of the policies under review (the first reviewed one reports it). */
  public add: ProblemSink = (kind, severity, policies, other, message) => this.file(false, kind, severity, policies, other, message);

  /**
   * The conflicts OpenKruise refuses between the policies, and between them
   * and each source's own: reported before what the workloads meet, whenever
   * they are found.
   */
  public conflicts(sources: readonly OwnPolicies[]): void {
    const conflict: ProblemSink = (kind, severity, policies, other, message) => this.file(true, kind, severity, policies, other, message);
    sidecarSetConflictsOf(this.prep.reviewed, sources, conflict);
    targetConflictsOf(this.prep.reviewed, sources, conflict);
  }

  public problem(kind: FleetProblemKind, severity: FleetProblemSeverity, policies: Policy[], w: Reached, message: string): void {
    this.add(kind, severity, policies, refOf(w.ref), message);
  }

  public injected(policies: Policy[], w: Reached, made: Omit<FleetInjection, 'workload'>): void {
    const injection: FleetInjection = { workload: w.ref, ...made };
    for (const p of policies) {
      const a = this.acc.get(p)!;
      a.workloads.push(w.ref);
      a.injections.push(injection);
      if (this.prep.old) this.reached(p, 'new', w);
    }
  }

  public covered(p: Policy, w: Reached): void {
    this.acc.get(p)!.workloads.push(w.ref);
    if (this.prep.old) this.reached(p, 'new', w);
  }

  public reachedBefore(p: Policy, w: Reached): void {
    this.reached(p, 'old', w);
  }

  /** The report, its sources summarized as `summaries` say. */
  public report(summaries: FleetSourceSummary[]): FleetReport {
    const { reviewed, old } = this.prep;
    const changes = old ? changesOf(reviewed, old, this.reach, this.add) : [];
    const policies: FleetPolicyReport[] = [...reviewed.values()].map(p => {
      const a = this.acc.get(p)!;
      const problems = a.conflicts.length > 0 ? [...a.conflicts, ...a.problems] : a.problems;
      return {
        kind: p.ref.kind,
        name: p.name,
        namespace: p.namespace,
        file: p.ref.file,
        workloads: a.workloads,
        sources: perSource(a.workloads),
        pods: podSum(a.workloads),
        injections: a.injections,
        problems,
      };
    });
    const problems = this.conflictProblems.length > 0 ? [...this.conflictProblems, ...this.problems] : this.problems;
    return {
      sources: summaries,
      policies,
      problems,
      compared: old !== undefined,
      changes,
      refused: problems.some(p => p.severity === FleetProblemSeverity.REFUSED),
      replacesAppContainer: problems.some(p => p.severity === FleetProblemSeverity.REPLACES_APP_CONTAINER),
    };
  }

  private file(
    conflict: boolean, kind: FleetProblemKind, severity: FleetProblemSeverity, policies: Policy[], other: FleetObjectRef, message: string,
  ): void {
    const reviewedOnes = policies.filter(p => p.reviewed);
    const p: FleetProblem = { kind, severity, policy: reviewedOnes[0].ref, other, message };
    (conflict ? this.conflictProblems : this.problems).push(p);
    for (const r of reviewedOnes) {
      const a = this.acc.get(r)!;
      (conflict ? a.conflicts : a.problems).push(p);
    }
  }

  private reached(p: Policy, side: 'old' | 'new', w: Reached): void {
    let r = this.reachOf.get(p);
    if (!r) {
      const id = identity(p.gk, p.namespace, p.name);
      r = this.reach.get(id);
      if (!r) this.reach.set(id, r = { old: [], new: [] });
      this.reachOf.set(p, r);
    }
    r[side].push(w);
  }
}

/** Run the fleet check. */
export function runFleetCheck(input: FleetCheckInput & FleetReleases): FleetReport {
  const prep = prepareCheck(input.policies, input.oldPolicies, input);
  const sources = input.sources.map(s => readSource(s, prep));
  const collector = new Collector(prep);
  collector.conflicts(sources);
  for (const s of sources) checkSource(s, prep, collector);
  return collector.report(sources.map(s => s.summary));
}

/** Every workload of a source against the policies that can select it, in order, into `sink`. */
export function checkSource(s: Source, prep: Prepared, sink: WorkloadSink): void {
  const { newIndex, oldIndex, newCover, oldCover, old } = prep;
  const ownSidecars = s.own.filter(p => p.sidecar).map(p => p.sidecar!);
  const ownIndex = ownSidecars.length > 0 ? new SidecarSetIndex(ownSidecars) : undefined;
  for (const w of s.workloads) {
    let candidates = newIndex.candidates(w.labels);
    if (ownIndex) candidates.push(...ownIndex.candidates(w.labels));
    if (candidates.length > 0 && !s.knows(w.namespace)) {
      // a namespace in no input: a selector on its labels can be judged neither way, so the SidecarSet is left out of the pod
      const unknown = candidates.filter(x => undecidable(x, w));
      for (const x of unknown.filter(u => u.policy.reviewed)) {
        sink.problem(FleetProblemKind.NAMESPACE_UNKNOWN, FleetProblemSeverity.UNKNOWN, [x.policy], w,
          `${sidecarSetLabel(x)} selects the pods of ${workloadLabel(w.ref)}, but namespace "${w.namespace}" is in no input, so whether spec.namespaceSelector ${JSON.stringify(x.spec.namespaceSelector)} selects it is not known and nothing is assumed; add the Namespace to the inputs (kubectl get namespace ${w.namespace} -o yaml, or the app's synth output with its Namespace)`);
      }
      if (unknown.length > 0) candidates = candidates.filter(x => !unknown.includes(x));
    }
    if (candidates.length > 0) {
      const r = injectInto(s.nsLabels, w.json, candidates, { problemsOnly: true });
      const injectedHere = r ? r.injected.filter(x => x.policy.reviewed).map(x => x.policy) : [];
      if (r && injectedHere.length > 0) {
        sink.injected(injectedHere, w, {
          sidecarSets: r.injectedBy,
          containers: r.containerNames,
          initContainers: r.initContainerNames,
          containerOrderFixed: r.sidecarOrderFixed,
        });
      }
      for (const p of r?.problems ?? []) {
        const involved = [p.from.policy, ...(p.other ? [p.other.policy] : [])];
        if (!involved.some(x => x.reviewed)) continue;
        sink.problem(p.kind, SEVERITY[p.kind] ?? FleetProblemSeverity.WARNING, involved, w, `${sidecarSetLabel(p.from)} injects into ${workloadLabel(w.ref)}: ${p.detail}`);
      }
    }
    for (const p of newCover.covering(w)) sink.covered(p, w);
    if (old) {
      for (const x of oldIndex.candidates(w.labels)) if (injects(s.nsLabels, x, w.json)) sink.reachedBefore(x.policy, w);
      for (const p of oldCover.covering(w)) sink.reachedBefore(p, w);
    }
  }
}

/**
 * Whether `x` selects the pods of `w` but its namespace selector reads a
 * label of the namespace other than its name (the only one known of a
 * namespace in no input).
 */
function undecidable(x: FleetSidecarSet, w: Workload): boolean {
  const sel = x.spec.namespaceSelector;
  if (!sel || !x.spec.selector || !selectorMatches(x.spec.selector, w.labels)) return false;
  const keys = [...Object.keys(sel.matchLabels ?? {}), ...(sel.matchExpressions ?? []).map((e: any) => e.key)];
  if (keys.every(k => k === 'kubernetes.io/metadata.name')) return false;
  return true;
}

function refOf(w: FleetWorkload): FleetObjectRef {
  return { kind: w.kind, name: w.name, namespace: w.namespace, source: w.source, file: w.file };
}

/** A source's workloads, namespace labels and own policies (its own are judged: the first refused one throws). */
export function readSource(s: FleetSource, prep: Prepared): Source {
  const { reviewed, old, policyNamespaces, ctx } = prep;
  const namespaces = namespaceLabelsOf(s.manifests);
  // a namespace's labels are read for every SidecarSet a workload meets: built once per namespace (never written to)
  const labelsOf = new Map<string, Record<string, string>>();
  const nsLabels: NamespaceLabels = ns => {
    let l = labelsOf.get(ns);
    if (!l) labelsOf.set(ns, l = { ...(namespaces.get(ns) ?? policyNamespaces.get(ns) ?? {}), 'kubernetes.io/metadata.name': ns });
    return l;
  };
  const knows = (ns: string) => namespaces.has(ns) || policyNamespaces.has(ns);
  const workloads: Workload[] = [];
  const own: Policy[] = [];
  for (const o of s.manifests) {
    const p = policyOf(o, s.name, false, ctx);
    if (p) {
      // the cluster's copy of a policy under review (or being removed) is what the change replaces
      const id = identity(p.gk, p.namespace, p.name);
      if (!reviewed.has(id) && !old?.has(id)) own.push(p);
      continue;
    }
    if (!podTemplateOf(o)) continue;
    const pods = podsOf(o);
    const namespace = namespaceOf(o);
    const name = String(o.metadata?.name);
    workloads.push({
      json: o,
      ref: { source: s.name, kind: o.kind, namespace, name, pods: pods?.pods, file: fileOf.get(o) },
      namespace,
      labels: podTemplateOf(o)!.metadata.labels ?? {},
      key: targetKey(namespace, { apiVersion: o.apiVersion, kind: o.kind, name }),
    });
  }
  const summary = { name: s.name, kind: s.kind, workloads: workloads.length, namespaces: namespaces.size };
  return { name: s.name, summary, nsLabels, knows, workloads, own };
}

/** A source's own policies, as the conflict checks read them. */
export interface OwnPolicies {
  readonly own: Policy[];
}

/** Where a problem goes: `policies` holds a reviewed one, `other` is the other side. */
export type ProblemSink = (
  kind: FleetProblemKind, severity: FleetProblemSeverity, policies: Policy[], other: FleetObjectRef, message: string,
) => void;

/** Rule 29 between the SidecarSets under review, and between each of them and every source's own SidecarSets. */
function sidecarSetConflictsOf(reviewed: Map<string, Policy>, sources: readonly OwnPolicies[], problem: ProblemSink): void {
  const mine = [...reviewed.values()].filter(p => p.sidecar);
  const byKey = new Map<string, Policy[]>();
  for (const p of mine) for (const k of new Set(conflictKeys(p.sidecar!))) push(byKey, k, p);
  const check = (a: Policy, b: Policy) => {
    const why = sidecarSetConflicts(a.sidecar!, b.sidecar!);
    if (why.length === 0) return;
    const line = sidecarSetConflictLine(sidecarSetLabel(a.sidecar!), sidecarSetLabel(b.sidecar!), why);
    problem(FleetProblemKind.SIDECAR_SET_CONFLICT, FleetProblemSeverity.REFUSED, [a, b], b.ref, line);
  };
  const order = new Map(mine.map((p, i) => [p, i]));
  for (const a of mine) {
    const seen = new Set<Policy>();
    for (const k of conflictKeys(a.sidecar!)) {
      for (const b of byKey.get(k) ?? []) {
        if (order.get(b)! <= order.get(a)! || seen.has(b)) continue;
        seen.add(b);
        check(a, b);
      }
    }
  }
  for (const s of sources) {
    for (const o of s.own.filter(p => p.sidecar)) {
      const seen = new Set<Policy>();
      for (const k of conflictKeys(o.sidecar!)) {
        for (const a of byKey.get(k) ?? []) {
          if (seen.has(a)) continue;
          seen.add(a);
          check(a, o);
        }
      }
    }
  }
}

const TARGET_CONFLICT: Record<string, [FleetProblemKind, string]> = {
  [BUDGET]: [FleetProblemKind.BUDGET_CONFLICT, 'keep one budget per workload'],
  [WORKLOAD_SPREAD]: [FleetProblemKind.WORKLOAD_SPREAD_CONFLICT, 'keep one WorkloadSpread per workload'],
  [POD_STATE]: [FleetProblemKind.PERSISTENT_POD_STATE_CONFLICT, 'keep one PersistentPodState per workload'],
};

/**
 * Budgets, WorkloadSpreads and PersistentPodStates OpenKruise refuses: two of
 * a kind in one namespace with the same target (budgets also with loosely
 * overlapping selectors), among those under review and against each source's own.
 */
function targetConflictsOf(reviewed: Map<string, Policy>, sources: readonly OwnPolicies[], problem: ProblemSink): void {
  const mine = [...reviewed.values()].filter(p => p.gk !== SIDECAR_SET);
  const byNamespace = new Map<string, Policy[]>();
  for (const p of mine) push(byNamespace, `${p.gk} ${p.namespace}`, p);
  const check = (a: Policy, b: Policy) => {
    const [kind, fix] = TARGET_CONFLICT[a.gk];
    const sa = a.json.spec ?? {};
    const sb = b.json.spec ?? {};
    if (sameTargetRef(sa.targetRef, sb.targetRef)) {
      problem(kind, FleetProblemSeverity.REFUSED, [a, b], b.ref, `${policyLabel(a)} and ${policyLabel(b)} both target ${sa.targetRef.kind} ${a.namespace}/${sa.targetRef.name}, which OpenKruise refuses (the second one applied); ${fix}`);
    } else if (a.gk === BUDGET && sa.selector && sb.selector && selectorsLooselyOverlap(sa.selector, sb.selector)) {
      problem(kind, FleetProblemSeverity.REFUSED, [a, b], b.ref, `${policyLabel(a)} and ${policyLabel(b)} have overlapping selectors (${JSON.stringify(sa.selector)} and ${JSON.stringify(sb.selector)}), which OpenKruise refuses (the second one applied); make the selectors use different keys or disjoint values`);
    }
  };
  for (const list of byNamespace.values()) for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) check(list[i], list[j]);
  for (const s of sources) for (const o of s.own) for (const a of byNamespace.get(`${o.gk} ${o.namespace}`) ?? []) check(a, o);
}

function perSource(workloads: FleetWorkload[]): FleetSourceSelection[] {
  const by = new Map<string, FleetWorkload[]>();
  for (const w of workloads) push(by, w.source, w);
  return [...by].map(([source, ws]) => ({
    source, namespaces: [...new Set(ws.map(w => w.namespace))].sort(), workloads: ws.length, pods: podSum(ws),
  }));
}

function podSum(workloads: FleetWorkload[]): number | undefined {
  let sum = 0;
  for (const w of workloads) {
    if (w.pods === undefined) return undefined;
    sum += w.pods;
  }
  return sum;
}

/** The fields of a SidecarSet that decide which pods it selects, as the plan names them. */
const SELECTION_FIELDS = new Set(['spec.selector', 'spec.namespaceSelector']);

const images = (list: ImageChange[]) => list.map(i => `"${i.container}" ${i.oldImage} -> ${i.newImage}`).join('; ');

/** The change of every policy that is created, removed or changed, per workload it reaches. */
function changesOf(reviewed: Map<string, Policy>, old: Map<string, Policy>, reach: Map<string, Reach>, problem: ProblemSink): FleetPolicyChange[] {
  const out: FleetPolicyChange[] = [];
  for (const id of [...new Set([...reviewed.keys(), ...old.keys()])]) {
    const n = reviewed.get(id);
    const o = old.get(id);
    const p = (n ?? o)!;
    const r = reach.get(id) ?? { old: [], new: [] };
    const base = { kind: p.ref.kind, name: p.name, namespace: p.namespace };
    const entry = (w: Reached, change: FleetPodChange, summary: string, more: Partial<FleetWorkloadChange> = {}): FleetWorkloadChange =>
      ({ workload: w.ref, change, restarted: [], hotUpgraded: [], onRecreate: [], summary, ...more });
    const isSidecar = p.gk === SIDECAR_SET;
    const start = (w: Reached) => (isSidecar
      ? entry(w, FleetPodChange.START_INJECTION, 'starts being injected: new pods get the sidecars, running pods only when recreated')
      : entry(w, FleetPodChange.START_COVERAGE, `starts being covered by the ${p.ref.kind}`));
    const stop = (w: Reached) => (isSidecar
      ? entry(w, FleetPodChange.STOP_INJECTION, 'stops being injected: running pods keep the sidecars until recreated, new pods are created without')
      : entry(w, FleetPodChange.STOP_COVERAGE, `stops being covered by the ${p.ref.kind}`));
    if (!o) {
      out.push({ ...base, change: FleetChangeType.CREATE, summary: isSidecar ? 'new SidecarSet: its sidecars are injected into pods created from now on; running pods get them only when recreated' : `new ${p.ref.kind}`, workloads: r.new.map(start), notes: [] });
      continue;
    }
    if (!n) {
      out.push({ ...base, change: FleetChangeType.DELETE, summary: isSidecar ? 'removed: running pods keep its sidecars until they are recreated' : `removed ${p.ref.kind}`, workloads: r.old.map(stop), notes: [] });
      continue;
    }
    const before = new Set(r.old.map(w => w.ref));
    const after = new Set(r.new.map(w => w.ref));
    const started = r.new.filter(w => !before.has(w.ref));
    const stopped = r.old.filter(w => !after.has(w.ref));
    const kept = r.new.filter(w => before.has(w.ref));
    if (!isSidecar) {
      const specChanged = !sameJson(o.json.spec, n.json.spec);
      if (!specChanged && started.length === 0 && stopped.length === 0) continue;
      const fields = Object.keys({ ...o.json.spec, ...n.json.spec }).filter(k => !sameJson(o.json.spec?.[k], n.json.spec?.[k])).sort();
      const summary = `spec changes (${fields.map(f => `spec.${f}`).join(', ')})${p.gk === WORKLOAD_SPREAD ? '; a WorkloadSpread acts when pods are created, so running pods stay where they are' : ''}`;
      out.push({ ...base, change: FleetChangeType.UPDATE, summary, workloads: [...started.map(start), ...stopped.map(stop)], notes: [] });
      continue;
    }
    const plan = planSidecarSet(o.json, n.json, [], () => ({}));
    if (!plan && started.length === 0 && stopped.length === 0) continue;
    const notes: string[] = [];
    const us = n.sidecar!.spec.updateStrategy ?? {};
    const workloads: FleetWorkloadChange[] = [...started.map(start), ...stopped.map(stop)];
    let summary = plan?.summary ?? 'the selection changes';
    if (plan?.updateType === UpdateType.REJECTED) {
      summary = `refused: ${plan.rejection}`;
      problem(FleetProblemKind.SIDECAR_SET_UPDATE_REFUSED, FleetProblemSeverity.REFUSED, [n], n.ref, `${sidecarSetLabel(n.sidecar!)}: the webhook refuses the update: ${plan.rejection}`);
      for (const w of kept) workloads.push(entry(w, FleetPodChange.REFUSED, `the update is refused: ${plan.rejection}`));
    } else if (plan?.updateType === UpdateType.IN_PLACE) {
      const hot = plan.hotUpgrade;
      const cold = plan.inPlaceImages.filter(i => !hot.includes(i.container)).map(i => i.container);
      summary = `in place on running pods: ${plan.inPlaceImages.map(i => `"${i.container}" ${i.oldImage} -> ${i.newImage}${hot.includes(i.container) ? ' (hot upgrade)' : ' (container restart)'}`).join('; ')}`;
      if (us.type === 'NotUpdate') notes.push('updateStrategy.type is NotUpdate: running pods keep the old sidecars');
      if (us.paused) notes.push('updateStrategy.paused is true: no running pod is upgraded until it is unpaused');
      if (us.partition !== undefined && us.partition !== 0 && us.partition !== '0%') notes.push(`updateStrategy.partition ${JSON.stringify(us.partition)} keeps that many selected pods of each cluster on the old sidecars`);
      for (const w of kept) {
        if (us.type === 'NotUpdate' || (us.selector && !selectorMatches(us.selector, w.labels))) {
          const why = us.type === 'NotUpdate' ? 'updateStrategy.type is NotUpdate' : 'its pods are outside updateStrategy.selector';
          workloads.push(entry(w, FleetPodChange.ON_RECREATE, `only when recreated (${why}): ${images(plan.inPlaceImages)}`, { onRecreate: plan.inPlaceImages.map(i => `image of sidecar "${i.container}"`) }));
        } else {
          const how = [cold.length > 0 ? `${cold.map(c => `"${c}"`).join(', ')} restarted with the new image` : '', hot.length > 0 ? `${hot.map(c => `"${c}"`).join(', ')} hot-upgraded` : ''].filter(x => x).join('; ');
          workloads.push(entry(w, FleetPodChange.IN_PLACE, `in place${us.paused ? ' once the update is unpaused' : ''}: ${how}`, { restarted: cold, hotUpgraded: hot }));
        }
      }
    } else if (plan?.updateType === UpdateType.NEW_PODS_ONLY) {
      // a selector decides which workloads are injected (the starts and stops above); it reaches no pod
      const reaching = plan.newPodsOnly.filter(f => !SELECTION_FIELDS.has(f));
      if (reaching.length > 0) {
        summary = `only on recreate: ${reaching.join(', ')}`;
        for (const w of kept) workloads.push(entry(w, FleetPodChange.ON_RECREATE, `only when recreated: ${reaching.join(', ')}`, { onRecreate: reaching }));
      } else {
        summary = `the selection changes (${plan.newPodsOnly.join(', ')}); the pods of the workloads it keeps selecting are not touched`;
      }
    } else if (plan) {
      summary = plan.summary;
    }
    out.push({ ...base, change: FleetChangeType.UPDATE, summary, workloads, notes });
  }
  return out;
}
