/**
 * Deploy order of the policies that act when a pod is created: SidecarSet
 * (injection), WorkloadSpread (subset placement), PodUnavailableBudget
 * (protects from the moment it exists) and PersistentPodState (records the
 * pods it is there for). Inside an app, each comes before the workloads it
 * selects: in the file order (its chart first, or its object first in the
 * same chart) and, when asked, in Argo CD sync waves. A pod created before
 * its SidecarSet never gets the sidecars: injection happens only at creation.
 */
import { ApiObject, Chart } from 'cdk8s';
import { IConstruct } from 'constructs';
import { AppObject, allAppObjects, groupOf, namespaceOf, podTemplateOf, targetKey } from './objects';
import type * as SidecarFleet from './sidecar-fleet';
import { _admitted, _objectLine } from '../admission/engine';
import { ARGO_CD_SYNC_WAVE, SYNC_WAVES, _inControlPlane, _reaches } from '../validation/deploy-waves';
import { Warnings, fieldError } from '../validation/report';
import { selectorMatches } from '../validation/selectors';

/** The policies ordered before the workloads they select, by `group/kind`. */
const POLICY_KINDS = new Set(['apps.kruise.io/SidecarSet', 'apps.kruise.io/WorkloadSpread', 'policy.kruise.io/PodUnavailableBudget', 'apps.kruise.io/PersistentPodState']);

const isPolicy = (apiVersion: string | undefined, kind: string | undefined) => POLICY_KINDS.has(`${groupOf(apiVersion)}/${kind}`);

const ordered = new WeakSet<IConstruct>();
const waves = new WeakSet<IConstruct>();
const warned = new WeakMap<IConstruct, Set<string>>();

/**
 * The deploy order of an app's OpenKruise policies. Every app orders them in
 * its files by itself: a SidecarSet, WorkloadSpread, PodUnavailableBudget or
 * PersistentPodState comes before the workloads it selects (its chart's file
 * first, or its object first in a shared chart), with or without a control
 * plane in the app, so `kubectl apply -f dist/` creates it first. This class
 * adds the Argo CD sync waves.
 */
export class KruiseDeployOrder {
  /** The Argo CD sync wave of the policies: after a control plane's objects ("-3", "-2"), before everything else (0). */
  public static readonly POLICY_SYNC_WAVE: string = SYNC_WAVES.policies;

  /**
   * Annotate the app's policies (SidecarSet, WorkloadSpread,
   * PodUnavailableBudget, PersistentPodState) with the Argo CD sync wave
   * `argocd.argoproj.io/sync-wave: "-1"`, so that Argo CD applies them, and
   * waits for them, before the workloads (wave 0). Policies created later in
   * the app get it too; a wave the user set on a policy is kept. A
   * `KruiseControlPlane` with `argoCdSyncWaves` turns this on.
   *
   * @param scope any construct of the app
   */
  public static argoCdSyncWaves(scope: IConstruct): void {
    const root = scope.node.root;
    if (waves.has(root)) return;
    waves.add(root);
    for (const c of root.node.findAll()) if (c instanceof ApiObject) annotate(c);
  }

  private constructor() {}
}

function annotate(o: ApiObject): void {
  if (!isPolicy(o.apiVersion, o.kind)) return;
  if (o.metadata.toJson().annotations?.[ARGO_CD_SYNC_WAVE] !== undefined) return;
  o.metadata.addAnnotation(ARGO_CD_SYNC_WAVE, SYNC_WAVES.policies);
}

/**
 * Order the policies of the app of `obj` (once per app), and give `obj` its
 * sync wave when it is a policy and the app asked for waves.
 * @internal
 */
export function _orderPolicies(obj: IConstruct): void {
  const root = obj.node.root;
  if (obj instanceof ApiObject && waves.has(root)) annotate(obj);
  if (ordered.has(root)) return;
  ordered.add(root);
  root.node.addValidation({ validate: () => { applyOrder(root); return []; } });
}

/** Each policy of the app before the app's workloads it selects. */
function applyOrder(root: IConstruct): void {
  // an app without policies of its own has nothing to order: its objects are not rendered for this
  // (the app-wide index renders every object, those cdk8s-plus writes included, which cdk8s renders again for the output)
  if (!root.node.findAll().some(c => c instanceof ApiObject && isPolicy(c.apiVersion, c.kind))) return;
  const own = allAppObjects(root).filter(o => o.origin === undefined);
  // a policy the cluster refuses acts on nothing (synth fails on it anyway)
  const policies = own.filter(o => isPolicy(o.json.apiVersion, o.json.kind) && _admitted(o.apiObject));
  if (policies.length === 0) return;
  const workloads = own.filter(o => podTemplateOf(o.json) !== undefined && !_inControlPlane(o.apiObject));
  const charts = new Map<Chart, ChartOrder>();
  if (writtenFirst(policies, workloads, charts)) return;
  for (const [policy, workload] of selections(root, policies, workloads)) before(root, policy, workload, charts);
}

/**
 * Whether every policy is written before every workload already: all in one
 * chart without dependencies of its own, the policies first in construct
 * order (how most apps declare them). Then no pair needs looking at.
 */
function writtenFirst(policies: AppObject[], workloads: AppObject[], charts: Map<Chart, ChartOrder>): boolean {
  const chart = Chart.of(policies[0].apiObject);
  const position = chartOrder(chart, charts).position;
  if (!position) return false;
  let last = -1;
  for (const p of policies) {
    if (Chart.of(p.apiObject) !== chart) return false;
    last = Math.max(last, position.get(p.apiObject)!);
  }
  return workloads.every(w => Chart.of(w.apiObject) === chart && position.get(w.apiObject)! > last);
}

/** The dependencies this module added: object -> the objects it was made to depend on. */
const added = new WeakMap<IConstruct, Set<IConstruct>>();

/**
 * How a chart writes its objects without further dependencies: in construct
 * order, when none of its constructs depends on another (but for what this
 * module added); then a policy created before a workload is written before
 * it already, and needs no dependency (an app of 10,000 workloads gets no
 * 10,000 edges for it).
 */
interface ChartOrder {
  /** Position of each construct in construct order; undefined when the chart has dependencies of its own. */
  readonly position?: Map<IConstruct, number>;
}

function chartOrder(chart: Chart, cache: Map<Chart, ChartOrder>): ChartOrder {
  let hit = cache.get(chart);
  if (hit) return hit;
  const all = chart.node.findAll();
  const own = all.some(c => c !== chart && (Chart.isChart(c) || c.node.dependencies.some(d => !added.get(c)?.has(d))));
  hit = own ? {} : { position: new Map(all.map((c, i) => [c, i])) };
  cache.set(chart, hit);
  return hit;
}

/** Every (policy, workload it selects) pair, found by lookups rather than by comparing every pair. */
function selections(root: IConstruct, policies: AppObject[], workloads: AppObject[]): Array<[AppObject, AppObject]> {
  const out: Array<[AppObject, AppObject]> = [];
  const kindOf = (o: AppObject) => `${groupOf(o.json.apiVersion)}/${o.json.kind}`;
  if (policies.some(p => kindOf(p) === 'apps.kruise.io/SidecarSet')) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fleet = require('./sidecar-fleet') as typeof SidecarFleet; // the SidecarSet defaults load with the first SidecarSet
    const mine = new Set(workloads);
    for (const { workload, result } of fleet.appInjections(root)) {
      if (!mine.has(workload)) continue;
      for (const s of result.injected) if (s.obj.origin === undefined) out.push([s.obj, workload]);
    }
  }
  const byTarget = new Map<string, AppObject[]>();
  const budgetsBySelector = new Map<string, AppObject[]>();
  for (const p of policies) {
    if (p.json.spec?.targetRef) {
      const k = targetKey(namespaceOf(p.json), p.json.spec.targetRef);
      byTarget.set(k, [...(byTarget.get(k) ?? []), p]);
    } else if (kindOf(p) === 'policy.kruise.io/PodUnavailableBudget' && p.json.spec?.selector) {
      const ns = namespaceOf(p.json);
      budgetsBySelector.set(ns, [...(budgetsBySelector.get(ns) ?? []), p]);
    }
  }
  if (byTarget.size === 0 && budgetsBySelector.size === 0) return out;
  for (const w of workloads) {
    const ns = namespaceOf(w.json);
    const key = targetKey(ns, { apiVersion: w.json.apiVersion, kind: w.json.kind, name: w.json.metadata?.name });
    for (const p of byTarget.get(key) ?? []) out.push([p, w]);
    const labels = podTemplateOf(w.json)?.metadata.labels ?? {};
    for (const p of budgetsBySelector.get(ns) ?? []) if (selectorMatches(p.json.spec.selector, labels)) out.push([p, w]);
  }
  return out;
}

/** Make `workload` deploy after `policy`: the object in the same chart, else the chart. */
function before(root: IConstruct, policy: AppObject, workload: AppObject, charts: Map<Chart, ChartOrder>): void {
  const p = policy.apiObject;
  const w = workload.apiObject;
  const pc = Chart.of(p);
  const wc = Chart.of(w);
  if (pc === wc) {
    const position = chartOrder(wc, charts).position;
    if (position && position.get(p)! < position.get(w)!) return;
    if (!_reaches(p, w)) {
      w.node.addDependency(p);
      added.set(w, (added.get(w) ?? new Set()).add(p));
    } else {
      warn(root, policy, workload, `, and the two depend on each other in chart '${wc.node.path}', so the ${policy.json.kind} `
        + 'cannot be written before the pods it selects', `remove the dependency of the ${policy.json.kind}`);
    }
    return;
  }
  if (wc.node.dependencies.includes(pc)) return;
  if (_reaches(pc, wc)) {
    warn(root, policy, workload, ` of chart '${wc.node.path}', but chart '${pc.node.path}' depends on chart '${wc.node.path}' `
      + `(or contains it), so the ${policy.json.kind} cannot be applied first and pods created before it miss it`, 'move the policies to a chart of their own');
    return;
  }
  wc.addDependency(pc);
}

function describe(o: AppObject): string {
  return `${o.json.kind} "${o.json.metadata?.name}"`;
}

/**
 * Warn once per synth, on the policy, in the shape of every message: the
 * field by which it picks `workload` (its targetRef or its selector), then
 * `problem` (which follows the workload's name) and `fix`.
 */
function warn(root: IConstruct, policy: AppObject, workload: AppObject, problem: string, fix: string): void {
  const ref = policy.json.spec?.targetRef;
  const line = ref !== undefined
    ? fieldError('spec.targetRef', ref, `targets ${describe(workload)}${problem}`, fix)
    : fieldError('spec.selector', policy.json.spec?.selector, `selects the pods of ${describe(workload)}${problem}`, fix);
  const message = _objectLine(policy.apiObject, line);
  const seen = warned.get(root) ?? new Set<string>();
  warned.set(root, seen);
  if (seen.has(message)) return;
  seen.add(message);
  Warnings.add(policy.owner, message);
}
