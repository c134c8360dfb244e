/**
 * Migrations an update plan recognises: an apps/v1 StatefulSet replaced by
 * an Advanced StatefulSet of the same name (which adopts the running pods),
 * a Deployment whose pods move to a CloneSet step by step (a CloneSet never
 * adopts pods it does not own), and the objects of a Helm release taken over
 * by the manifests (the kruise chart replaced by KruiseControlPlane).
 */
import { compact, diff, DiffOp, fieldPath, sameJson } from './diff';
import { PlanGates } from './gates';
import { analyzeTemplate, goEncoded } from './template';
import { AdoptedPod, MigrationKind, MigrationPlan, UpdateType } from './types';
import { planStatefulSet, PlanContext } from './workloads';
import { _compareTags, _imageTag } from '../_image-tags';
import { _decodeHelmRecord, _isHelmRecord, _managerImageOf } from '../control-plane/_helm-record';
import { _compareRunning, _keepReleaseFix, _runningRelease } from '../control-plane/_running-release';
import { _migrationSteps } from '../deployment-migration';
import { PruneProtection } from '../prune-protection';
import { defaultPodTemplate } from '../validation/pod-template';
import { selectorMatches } from '../validation/selectors';

type Json = any;

/** An object of one side, as the planner indexes it. */
export interface MigrationObject {
  readonly key: string;
  readonly obj: Json;
  readonly namespace: string;
}

/** What the migration pass found: its entries and the keys it planned (left out of the rest of the plan). */
export interface MigrationResult {
  readonly migrations: MigrationPlan[];
  readonly consumed: Set<string>;
}

const groupOf = (apiVersion: string): string => (apiVersion?.includes('/') ? apiVersion.split('/')[0] : '');
const keyOf = (group: string, kind: string, ns: string, name: string) => `${group}/${kind}/${ns}/${name}`;
const J = (v: unknown) => JSON.stringify(v);
const clone = <T>(v: T): T => (v === undefined ? v : JSON.parse(JSON.stringify(v)));

/** Objects the cluster makes at run time: a live dump holds them, manifests never do. */
const RUNTIME_KINDS = new Set(['Pod', 'ReplicaSet', 'ControllerRevision', 'Event', 'Endpoints', 'EndpointSlice', 'Lease', 'Node']);

const HELM_RELEASE = 'meta.helm.sh/release-name';
const HELM_NAMESPACE = 'meta.helm.sh/release-namespace';
const HELM_RECORD_TYPE = 'helm.sh/release.v1';

/** Whether a live object is run-time state (a pod, a claim of a claim template, a Helm release record...), never a manifest. */
export function isRuntimeObject(obj: Json, liveStatefulSets: Json[]): boolean {
  if (RUNTIME_KINDS.has(obj?.kind) && groupOf(obj.apiVersion) !== 'apps.kruise.io') return true;
  if (obj?.kind === 'Secret' && obj.type === HELM_RECORD_TYPE) return true;
  if (obj?.kind === 'PersistentVolumeClaim') {
    const name: string = obj.metadata?.name ?? '';
    return liveStatefulSets.some(s => (s.spec?.volumeClaimTemplates ?? []).some((t: Json) => {
      const prefix = `${t?.metadata?.name}-${s.metadata?.name}-`;
      return name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length));
    }));
  }
  return false;
}

function templateLabels(obj: Json): Record<string, string> {
  return obj?.spec?.template?.metadata?.labels ?? {};
}

function describe(obj: Json, ns: string): string {
  return `${obj.kind} ${ns ? `${ns}/` : ''}${obj.metadata?.name} (${obj.apiVersion})`;
}

/** "spec.template.spec.containers[0].imagePullPolicy: IfNotPresent -> Always (OpenKruise's default)". */
function differenceLines(ops: DiffOp[], prefix: string, rawNew: Json, rawOld: Json, oldDefaultsBy: string, newDefaultsBy: string): string[] {
  const has = (doc: Json, path: ReadonlyArray<string | number>) => {
    let cur = compact(clone(doc));
    for (const p of path) {
      if (cur === undefined || cur === null) return false;
      cur = cur[p as any];
    }
    return cur !== undefined;
  };
  return ops.map(op => {
    const field = fieldPath(prefix, op.path);
    const from = op.op === 'add' ? '(unset)' : J(op.from);
    const to = op.op === 'remove' ? '(unset)' : J(op.value);
    const why: string[] = [];
    if (op.op !== 'remove' && !has(rawNew, op.path)) why.push(`${newDefaultsBy}'s default`);
    if (op.op !== 'add' && !has(rawOld, op.path)) why.push(`${oldDefaultsBy}'s default`);
    return `${field}: ${from} -> ${to}${why.length > 0 ? ` (${why.join('; ')})` : ''}`;
  });
}

// --- StatefulSet -> Advanced StatefulSet ------------------------------------------------------------------

const ORDINAL = (name: string) => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-(\\d+)$`);

function stsSwitch(o: MigrationObject, n: MigrationObject, oldAll: MigrationObject[], live: boolean, ctx: PlanContext): MigrationPlan {
  const name: string = n.obj.metadata.name;
  const ns = n.namespace;
  const os = o.obj.spec ?? {};
  const nsp = n.obj.spec ?? {};
  const oldReplicas: number = os.replicas ?? 1;
  const newReplicas: number = nsp.replicas ?? 1;
  const notes: string[] = [];
  const steps: string[] = [];
  const re = ORDINAL(name);

  // the running pods: named <set>-<ordinal> in the namespace, owned by the apps/v1 StatefulSet or by nobody
  const livePods = oldAll.filter(k => k.obj.kind === 'Pod' && k.namespace === ns && re.test(k.obj.metadata?.name ?? ''));
  const foreign = livePods.filter(k => {
    const ref = (k.obj.metadata?.ownerReferences ?? []).find((r: Json) => r?.controller);
    return ref && !(ref.kind === 'StatefulSet' && groupOf(ref.apiVersion) === 'apps' && ref.name === name);
  });
  const pods = livePods.filter(k => !foreign.includes(k))
    .sort((a, b) => Number(re.exec(a.obj.metadata.name)![1]) - Number(re.exec(b.obj.metadata.name)![1]));
  const claimNames: string[] = (nsp.volumeClaimTemplates ?? []).map((c: Json) => c?.metadata?.name);
  const oldClaimNames: string[] = (os.volumeClaimTemplates ?? []).map((c: Json) => c?.metadata?.name);
  const adopted: AdoptedPod[] = pods.length > 0
    ? pods.map(p => {
      const ord = Number(re.exec(p.obj.metadata.name)![1]);
      const vols: Json[] = p.obj.spec?.volumes ?? [];
      const claims = vols.map(v => v?.persistentVolumeClaim?.claimName).filter((c: unknown): c is string => typeof c === 'string');
      return { name: p.obj.metadata.name, uid: p.obj.metadata.uid, claims: claims.length > 0 ? claims : oldClaimNames.map(t => `${t}-${name}-${ord}`) };
    })
    : Array.from({ length: oldReplicas }, (_, i) => ({ name: `${name}-${i}`, claims: oldClaimNames.map(t => `${t}-${name}-${i}`) }));
  if (live && pods.length === 0) notes.push(`the live objects hold none of the pods ${name}-<ordinal>: the names follow spec.replicas ${oldReplicas}; add pods to the kubectl get to see their UIDs and claims`);
  for (const f of foreign) notes.push(`pod ${f.obj.metadata.name} is owned by another controller, so it is not adopted`);

  let cause: string | undefined;
  const selector = nsp.selector;
  const unselected = pods.length > 0 ? pods.filter(p => !selectorMatches(selector, p.obj.metadata?.labels)).map(p => p.obj.metadata.name) : [];
  const labelsSeen = pods.length > 0 ? pods[0].obj.metadata?.labels ?? {} : templateLabels(o.obj);
  if (unselected.length > 0 || (pods.length === 0 && !selectorMatches(selector, labelsSeen))) {
    cause = `spec.selector ${J(selector)} does not select the running pods (${unselected.length > 0 ? unselected.join(', ') : `template labels ${J(labelsSeen)}`}): `
      + `nothing is adopted, and the controller loops on AlreadyExists creating ${name}-0; select the running StatefulSet's labels ${J(os.selector?.matchLabels ?? labelsSeen)} `
      + '(AdvancedStatefulSet takeOver: StatefulSetTakeover.fromManifest(), which adds no selector label of its own)';
  } else if ((nsp.serviceName ?? '') !== (os.serviceName ?? '')) {
    cause = `spec.serviceName ${J(nsp.serviceName)} is not the running StatefulSet's ${J(os.serviceName)}: the adopted pods keep the DNS subdomain ${J(os.serviceName)} `
      + `(it cannot change on a running pod) while every pod the new StatefulSet creates gets ${J(nsp.serviceName)}; keep serviceName ${J(os.serviceName)}`;
  } else if (J([...claimNames].sort()) !== J([...oldClaimNames].sort())) {
    cause = `spec.volumeClaimTemplates ${J(claimNames)} are not the running StatefulSet's ${J(oldClaimNames)}: the adopted pods mount the claims ${oldClaimNames.map(t => `${t}-${name}-<ordinal>`).join(', ') || '(none)'}, `
      + 'and the controller loops trying to change the volumes of running pods, which the API server refuses; declare the same claim templates';
  }
  const claimSpecs = (spec: Json) => (spec.volumeClaimTemplates ?? []).map((c: Json) => ({ name: c?.metadata?.name, spec: c?.spec }));
  if (!cause && !sameJson(compact(claimSpecs(os)), compact(claimSpecs(nsp)))) {
    notes.push('the claim templates have the running names but other specs: the adopted pods keep their PVCs as they are; only ordinals created from now on get claims of the new templates');
  }

  // whether the adopted pods roll: the revision holds the template as stored, Kubernetes' defaults on the old side, OpenKruise's on the new
  const noDefaults = ctx.gates.isEnabled('TemplateNoDefaults');
  const oldT = goEncoded(defaultPodTemplate(dropTimestamp(os.template), true));
  const newT = goEncoded(noDefaults ? dropTimestamp(nsp.template) : defaultPodTemplate(dropTimestamp(nsp.template)));
  const a = analyzeTemplate(oldT, newT, ctx.gates, 'spec.template');
  const differences = differenceLines(a.ops, 'spec.template', nsp.template, os.template, 'Kubernetes', 'OpenKruise');
  // the revision the adopted pods carry: the Advanced StatefulSet takes it over only when its bytes are the ones it
  // writes itself; OpenKruise v1.9.0 (apimachinery v0.32) writes the template's `creationTimestamp: null`, a
  // kube-controller-manager on apimachinery v0.36 or later (omitzero) leaves it out
  const revisions = oldAll.filter(k => k.obj.kind === 'ControllerRevision' && k.namespace === ns
    && (k.obj.metadata?.ownerReferences ?? []).some((r: Json) => r?.kind === 'StatefulSet' && r?.name === name));
  const running = revisions.find(r => r.obj.metadata.name === o.obj.status?.updateRevision) ?? revisions[revisions.length - 1];
  const runningMeta = running?.obj.data?.spec?.template?.metadata;
  const encodingDiffers = running === undefined ? undefined : !(runningMeta && Object.prototype.hasOwnProperty.call(runningMeta, 'creationTimestamp'));
  const partition = Number(nsp.updateStrategy?.rollingUpdate?.partition ?? 0);
  const held = (nsp.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate' && partition >= adopted.length && adopted.length > 0;

  let rollSummary = 'the adopted pods do not roll: the template, with the defaults OpenKruise adds, is the running revision, so the new StatefulSet takes that revision over';
  let roll = false;
  const rollsBy: string[] = [];
  if (a.ops.length > 0) {
    roll = true;
    const asKruise = { ...n.obj, spec: { ...nsp, template: oldT, replicas: newReplicas } };
    const p = planStatefulSet({ apiVersion: n.obj.apiVersion, kind: n.obj.kind, namespace: ns, name, specPath: 'spec' }, asKruise, n.obj, ctx);
    // (the planner stores both templates as the API server returns them, so it sees the same differences)
    rollSummary = `the adopted pods then roll: ${p?.summary ?? 'their template differs'}`;
    rollsBy.push('their template differs');
    if (p?.updateType === UpdateType.REJECTED && !cause) cause = `the roll after adoption is refused: ${p.rejection}`;
    if (!noDefaults && a.ops.some(op => op.path[op.path.length - 1] === 'imagePullPolicy')) {
      notes.push('OpenKruise sets a missing imagePullPolicy to Always where Kubernetes set IfNotPresent: write imagePullPolicy: IfNotPresent to keep the running revision');
    }
  }
  if (encodingDiffers) {
    if (!roll) rollSummary = `the adopted pods then roll: recreated one at a time (podUpdatePolicy ${nsp.updateStrategy?.rollingUpdate?.podUpdatePolicy ?? 'ReCreate'}), although the template is the same`;
    roll = true;
    rollsBy.push('the revision bytes differ');
    notes.push(`ControllerRevision ${running!.obj.metadata.name} was written without the template's creationTimestamp (a kube-controller-manager on apimachinery v0.36 or later leaves it out), `
      + 'while OpenKruise v1.9.0 writes creationTimestamp: null: the bytes differ, so the Advanced StatefulSet makes a revision of its own and takes every adopted pod for an old one');
  } else if (encodingDiffers === undefined && live) {
    notes.push('whether the adopted pods roll also depends on the bytes of the apps/v1 StatefulSet\'s ControllerRevision, which the live objects do not hold: add controllerrevisions to the kubectl get');
  }
  if (roll && held) {
    roll = false;
    rollSummary = `the adopted pods do not roll yet: partition ${partition} keeps ordinals below ${partition} on their revision (${rollsBy.join(' and ')}), until the partition is lowered`;
  } else if (roll && encodingDiffers) {
    notes.push(`to keep the adopted pods as they are, write updateStrategy rollingUpdate partition ${adopted.length} (AdvancedStatefulSetUpdateStrategy.rollingUpdate({ partition: ${adopted.length} })), and lower it when the pods may be recreated`);
  }

  const protectedNow = PruneProtection.isProtected(o.obj);
  if (!live || !protectedNow) {
    steps.push(`keep GitOps from pruning the apps/v1 StatefulSet: annotate it with ${PruneProtection.ARGO_CD_SYNC_OPTIONS}: Prune=false (Argo CD) and ${PruneProtection.FLUX_PRUNE}: disabled (Flux) `
      + '(PruneProtection.protect()), and let the engine apply the annotations before this change');
    notes.push(`prune: once the apps/v1 StatefulSet leaves the manifests a GitOps engine prunes it (Argo CD with foreground propagation by default, Flux in the background), and the garbage collector then deletes its ${oldReplicas} pods; the annotations stop that`);
  } else {
    notes.push('the apps/v1 StatefulSet carries the prune annotations of Argo CD and Flux: leaving the manifests does not delete it');
  }
  const deleteCmd = `kubectl delete statefulset.apps ${name} -n ${ns} --cascade=orphan`;
  steps.push(`delete the apps/v1 StatefulSet and keep its pods: ${deleteCmd} (pods, their PVCs and ControllerRevisions stay, without an owner)`);
  steps.push(`apply the new manifests: the Advanced StatefulSet adopts the ControllerRevisions, then the pods ${adopted.map(p => p.name).join(', ')}`);
  notes.push(`applied before the orphan delete, the Advanced StatefulSet adopts nothing (the pods are still owned) and loops on AlreadyExists creating ${name}-0 until the apps/v1 StatefulSet is deleted`);
  if (roll || held) steps.push(rollSummary);
  if (newReplicas < adopted.length) notes.push(`replicas ${newReplicas}: of the ${adopted.length} adopted pods, ordinals from ${newReplicas} up are deleted after adoption`);
  if (newReplicas > adopted.length) notes.push(`replicas ${newReplicas}: ${newReplicas - adopted.length} more pods are created after adoption`);
  const to = describe(n.obj, ns);
  return {
    kind: MigrationKind.STATEFUL_SET_TO_ADVANCED,
    namespace: ns,
    current: describe(o.obj, ns),
    target: to,
    refused: cause !== undefined,
    cause,
    summary: cause
      ? `migration refused: the Advanced StatefulSet would not adopt the running pods: ${cause}`
      : `migration: the apps/v1 StatefulSet becomes an Advanced StatefulSet of the same name, which adopts its ${adopted.length} pods (names, UIDs and PVCs kept); ${roll ? 'they then roll' : 'they do not roll'}`,
    steps,
    commands: [deleteCmd],
    adoptedPods: cause ? [] : adopted,
    podsRoll: cause ? undefined : roll,
    templateDifferences: differences,
    notes,
  };
}

function dropTimestamp(t: Json): Json {
  const c = clone(t ?? {});
  if (c.metadata) delete c.metadata.creationTimestamp;
  return c;
}

// --- Deployment -> CloneSet ---------------------------------------------------------------------------------

interface Budget { readonly floor: number; readonly what: string }

function intOrPercent(v: Json, total: number, roundUp: boolean): number | undefined {
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(String(v ?? ''));
  if (!m) return undefined;
  const x = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

/** The floor of ready pods a budget selecting both workloads' pods keeps (PodUnavailableBudget or PodDisruptionBudget). */
function budgetOf(objs: MigrationObject[], ns: string, labels: Array<Record<string, string>>, total: number): Budget | undefined {
  for (const k of objs) {
    const isPub = k.obj.kind === 'PodUnavailableBudget' && groupOf(k.obj.apiVersion) === 'policy.kruise.io';
    const isPdb = k.obj.kind === 'PodDisruptionBudget' && groupOf(k.obj.apiVersion) === 'policy';
    if ((!isPub && !isPdb) || k.namespace !== ns) continue;
    const sel = k.obj.spec?.selector;
    if (!sel || !labels.some(l => selectorMatches(sel, l))) continue;
    const what = `${k.obj.kind} ${ns}/${k.obj.metadata.name}`;
    const min = k.obj.spec?.minAvailable;
    const max = k.obj.spec?.maxUnavailable;
    if (min !== undefined) {
      const f = intOrPercent(min, total, true);
      if (f !== undefined) return { floor: f, what: `${what} minAvailable ${J(min)}` };
    }
    if (max !== undefined) {
      const u = intOrPercent(max, total, isPub);
      if (u !== undefined) return { floor: Math.max(0, total - u), what: `${what} maxUnavailable ${J(max)}` };
    }
  }
  return undefined;
}

function services(objs: MigrationObject[], ns: string): Json[] {
  return objs.filter(k => k.obj.kind === 'Service' && groupOf(k.obj.apiVersion) === '' && k.namespace === ns
    && Object.keys(k.obj.spec?.selector ?? {}).length > 0).map(k => k.obj);
}

const selects = (svc: Json, labels: Record<string, string>) => Object.entries(svc.spec.selector as Record<string, string>)
  .every(([k, v]) => labels[k] === v);

function deploySwitch(dep: MigrationObject, depNew: MigrationObject | undefined, csOld: MigrationObject | undefined, cs: MigrationObject,
  oldAll: MigrationObject[], newAll: MigrationObject[], live: boolean): MigrationPlan {
  const ns = cs.namespace;
  const d0: number = dep.obj.spec?.replicas ?? 1;
  const d0Ready: number = live ? dep.obj.status?.readyReplicas ?? 0 : d0;
  const d1: number | undefined = depNew ? depNew.obj.spec?.replicas ?? 1 : undefined;
  const c0: number = csOld ? csOld.obj.spec?.replicas ?? 1 : 0;
  const c0Ready: number = csOld ? (live ? csOld.obj.status?.readyReplicas ?? 0 : c0) : 0;
  const c1: number = cs.obj.spec?.replicas ?? 1;
  const total = d0 + c0;
  const notes: string[] = [];
  const steps: string[] = [];
  const depLabels = templateLabels(dep.obj);
  const csLabels = templateLabels(cs.obj);
  let cause: string | undefined;

  const svcs = services(newAll, ns);
  const pool = svcs.length > 0 ? svcs : services(oldAll, ns);
  const serving = pool.filter(s => selects(s, depLabels));
  const missing = serving.filter(s => !selects(s, csLabels));
  if (missing.length > 0) {
    const s = missing[0];
    cause = `Service ${ns}/${s.metadata.name} selects the Deployment's pods (${J(s.spec.selector)}) but not the CloneSet's (template labels ${J(csLabels)}): `
      + `the CloneSet's pods get no requests, and once the Deployment is at 0 nothing answers; give the CloneSet's pods the labels ${J(s.spec.selector)}`;
  } else if (serving.length === 0) {
    notes.push('no Service of the manifests selects the Deployment\'s pods: nothing checks that requests reach both workloads');
  } else {
    notes.push(`Service ${serving.map(s => `${ns}/${s.metadata.name}`).join(', ')} selects the pods of both workloads`);
  }

  const budget = budgetOf([...newAll, ...oldAll], ns, [depLabels, csLabels], total);
  const floor = budget?.floor ?? Math.min(total, d0Ready + c0Ready);
  const depAfter = d1 === undefined ? 0 : Math.min(d0Ready, d1);
  const csBefore = Math.min(c0Ready, c1);
  const minReady = depAfter + csBefore;
  const peak = Math.max(d0, d1 ?? 0) + Math.max(c0, c1);
  if (!cause && d1 === undefined && d0 > 0) {
    cause = `the Deployment leaves the manifests while it runs ${d0} pods: pruning it deletes them at once; scale it to 0 first (the last step of DeploymentMigration removes it at 0 pods)`;
  } else if (!cause && minReady < floor) {
    cause = `the Deployment scales down (${d0} -> ${d1 ?? 0}) before the CloneSet's new pods are ready: ready pods drop to ${minReady}, below ${floor}`
      + ` (${budget ? budget.what : 'no budget selects the pods, so none may be lost'}); scale the Deployment down in the next step, once the CloneSet's pods are ready (DeploymentMigration gives the steps)`;
  }
  steps.push(`this change: CloneSet ${c0} -> ${c1} pods, Deployment ${d0} -> ${d1 === undefined ? 'deleted' : d1}; at most ${peak} pods run, at least ${minReady} stay ready`);
  if (c0 === 0 && d1 !== undefined) {
    const u = Math.max(0, d0 - (budget?.floor ?? d0));
    const plan = _migrationSteps(d0, Math.min(u, d0 - 1), u === 0 ? 1 : Math.min(1, d0));
    steps.push(`the order (DeploymentMigration({ replicas: ${d0}${u > 0 ? `, maxUnavailable: ${Math.min(u, d0 - 1)}` : ''} })): `
      + plan.slice(1).map(s => (s.deleteDeployment ? `${s.step}: delete the Deployment` : `${s.step}: CloneSet ${s.cloneSetReplicas}, Deployment ${s.deploymentReplicas}`)).join('; ')
      + '; commit each step once the previous one is ready');
  }
  notes.push('a CloneSet never adopts pods it does not own: the pods move by scaling the two workloads, never by adoption');
  if (live && csOld && c0Ready < c0) notes.push(`the CloneSet has ${c0Ready} of ${c0} pods ready: the previous step has not finished`);
  if (d1 === undefined && d0 === 0) steps.push('the Deployment has no pods left: pruning (or kubectl delete deployment) deletes no pod');
  return {
    kind: MigrationKind.DEPLOYMENT_TO_CLONE_SET,
    namespace: ns,
    current: describe(dep.obj, ns),
    target: describe(cs.obj, ns),
    refused: cause !== undefined,
    cause,
    summary: cause ? `migration step refused: ${cause}` : `migration step: the CloneSet scales to ${c1} while the Deployment ${d1 === undefined ? 'is deleted' : `scales to ${d1}`}, never below ${floor} ready pods`,
    steps,
    commands: [],
    adoptedPods: [],
    templateDifferences: [],
    notes,
  };
}

// --- Helm takeover --------------------------------------------------------------------------------------------

function resourceName(obj: Json): string {
  const g = groupOf(obj.apiVersion);
  return `${String(obj.kind).toLowerCase()}${g ? `.${g}` : ''}`;
}

function handoverCommand(obj: Json, ns: string, manager: string, to: string): string | undefined {
  const fields: Json[] = obj.metadata?.managedFields ?? [];
  const i = fields.findIndex(f => f?.manager === manager && f?.operation === 'Update' && !f?.subresource);
  if (i < 0) return undefined;
  const patch = [
    { op: 'test', path: `/metadata/managedFields/${i}/manager`, value: manager },
    { op: 'replace', path: `/metadata/managedFields/${i}/manager`, value: to },
    { op: 'replace', path: `/metadata/managedFields/${i}/operation`, value: 'Apply' },
  ];
  return `kubectl patch ${resourceName(obj)} ${obj.metadata.name}${ns ? ` -n ${ns}` : ''} --type=json -p '${J(patch)}'`;
}

const WORKLOAD_KINDS = new Set(['Deployment', 'DaemonSet']);

/** The label of the handover manager pods, added to the webhook Service's selector while the chart's manager pods stop. */
export const HANDOVER_LABEL = 'cdk8s-kruise/handover';

/** The kruise-manager containers of the taken-over workloads (the Deployment's `manager` first), live and new. */
interface ManagerContainer { readonly what: string; readonly container: string; readonly liveImage: string; readonly newImage: string }

function managerContainers(taken: MigrationObject[], after: Map<string, MigrationObject>): ManagerContainer[] {
  const out: ManagerContainer[] = [];
  for (const k of taken.filter(t => WORKLOAD_KINDS.has(t.obj.kind) && groupOf(t.obj.apiVersion) === 'apps')) {
    const n = after.get(k.key)!.obj;
    for (const c of k.obj.spec?.template?.spec?.containers ?? []) {
      const nc = (n.spec?.template?.spec?.containers ?? []).find((x: Json) => x?.name === c?.name);
      if (typeof c?.image !== 'string' || typeof nc?.image !== 'string') continue;
      out.push({ what: `${k.obj.kind} ${k.namespace}/${k.obj.metadata.name}`, container: c.name, liveImage: c.image, newImage: nc.image });
    }
  }
  const rank = (x: { what: string; container: string }) => (x.what.startsWith('Deployment') && x.container === 'manager' ? 0 : x.what.startsWith('Deployment') ? 1 : 2);
  return out.sort((a, b) => rank(a) - rank(b));
}

/** What moving the webhook traffic to handover pods adds to a takeover: steps and commands before and after the apply. */
interface WebhookHandover {
  readonly stepsBefore: string[];
  readonly commandsBefore: string[];
  readonly stepsAfter: string[];
  readonly commandsAfter: string[];
  readonly handoverPods: number;
}

/**
 * The webhook Service's pods are the chart's manager pods, which the apply
 * replaces: without more, a Pod created or deleted while one of them stops can
 * meet it (kube-proxy still sends it new connections for a moment, and it has
 * no drain hook). So pods of the new manager serve first: a handover
 * Deployment with the new manifests' pod template and one more label runs
 * beside the chart's; the Service selects only them (and kube-proxy is given
 * the drain time to follow); the chart's manager pods are stopped while no
 * new connection goes to them, and kruise-manager answers the calls under way
 * as its webhook server shuts down; the apply then puts the Service's own
 * selector back (the handover pods and the new manager pods as they become
 * ready); once the new pods are endpoints, the handover pods go, serving
 * through their drain hook until they have left the endpoints.
 */
function webhookHandover(taken: MigrationObject[], after: Map<string, MigrationObject>, rolling: MigrationObject[],
  notes: string[]): WebhookHandover | undefined {
  const serviceRefs = new Set<string>();
  for (const n of after.values()) {
    if (n.obj.kind !== 'MutatingWebhookConfiguration' && n.obj.kind !== 'ValidatingWebhookConfiguration') continue;
    for (const w of n.obj.webhooks ?? []) {
      const svc = w?.clientConfig?.service;
      if (svc?.name && svc?.namespace) serviceRefs.add(keyOf('', 'Service', svc.namespace, svc.name));
    }
  }
  for (const key of serviceRefs) {
    const svc = taken.find(t => t.key === key);
    const selector: Record<string, string> | undefined = svc?.obj.spec?.selector;
    if (!svc || !selector || Object.keys(selector).length === 0) continue;
    const dep = rolling.find(k => k.obj.kind === 'Deployment' && k.namespace === svc.namespace && selectorMatches({ matchLabels: selector }, templateLabels(k.obj)));
    if (!dep) continue;
    const ns = dep.namespace;
    const name: string = dep.obj.metadata.name;
    const svcName: string = svc.obj.metadata.name;
    const n = after.get(dep.key)!.obj;
    const template = clone(n.spec?.template ?? {});
    const replicas: number = n.spec?.replicas ?? 1;
    const hName = `${name}-handover`;
    template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), [HANDOVER_LABEL]: 'true' } };
    const handoverDeployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: hName, namespace: ns, labels: { [HANDOVER_LABEL]: 'true' } },
      spec: {
        replicas,
        selector: { ...(n.spec?.selector ?? {}), matchLabels: { ...(n.spec?.selector?.matchLabels ?? {}), [HANDOVER_LABEL]: 'true' } },
        template,
      },
    };
    const drains = (template.spec?.containers ?? []).map((c: Json) => Number(c?.lifecycle?.preStop?.sleep?.seconds ?? 0));
    const drain = Math.max(0, ...drains);
    const settle = drain > 0 ? drain : 5;
    const endpoints = `kubectl get endpointslices -n ${ns} -l kubernetes.io/service-name=${svcName} -o json`;
    const until = (jq: string) => `timeout 300 sh -c 'until ${endpoints} | jq -e "${jq.replace(/"/g, '\\"')}" >/dev/null; do sleep 1; done'`;
    const onlyHandover = `[.items[].endpoints[]?] | length > 0 and all(.conditions.ready and (.targetRef.name | startswith("${hName}-")))`;
    const newReady = `[.items[].endpoints[]? | select(.conditions.ready and (.targetRef.name | startswith("${hName}-") | not))] | length > 0`;
    const chartPods = `${Object.entries(selector).map(([k, v]) => `${k}=${v}`).join(',')},!${HANDOVER_LABEL}`;
    if (drain === 0) {
      notes.push('the new manager pods have no preStop drain (manager.drainDelay 0): as the handover pods stop at the end, kube-proxy can still send them a new connection for a moment');
    }
    if (template.spec?.hostNetwork) {
      notes.push(`the manager pods use the host network: the ${replicas} handover pods need nodes where no other manager pod runs (the same ports)`);
    }
    notes.push('during the handover the chart\'s manager pods, then the new ones, take part in leader election with the handover pods: one of them runs the controllers, every ready one answers webhook calls');
    return {
      handoverPods: replicas,
      stepsBefore: [
        `start the handover pods: Deployment ${ns}/${hName}, the new manifests' manager pod template with the label ${HANDOVER_LABEL}: "true", ${replicas} pod${replicas === 1 ? '' : 's'} beside the chart's; wait until they are ready`,
        `move the webhook calls to them: Service ${ns}/${svcName} selects only the handover pods; wait until its EndpointSlices list only them, then ${settle} s for kube-proxy to follow (the manager's drain time)`,
        `stop the chart's manager pods (Deployment ${ns}/${name} to 0): no new connection goes to them, and kruise-manager answers the calls under way as its webhook server shuts down; wait until they are gone`,
      ],
      commandsBefore: [
        `kubectl apply --server-side --field-manager=cdk8s-kruise-handover -f - <<'EOF'\n${J(handoverDeployment)}\nEOF`,
        `kubectl rollout status deployment/${hName} -n ${ns} --timeout=300s`,
        `kubectl patch service ${svcName} -n ${ns} --type=merge -p '${J({ spec: { selector: { [HANDOVER_LABEL]: 'true' } } })}'`,
        `${until(onlyHandover)} && sleep ${settle}`,
        `kubectl scale deployment ${name} -n ${ns} --replicas=0`,
        `kubectl wait --for=delete pod -n ${ns} -l '${chartPods}' --timeout=300s`,
      ],
      stepsAfter: [
        `end the handover: once pods of Deployment ${ns}/${name} are endpoints of Service ${ns}/${svcName} again (the apply put its selector back), delete Deployment ${ns}/${hName}; `
          + `its pods leave the endpoints at once and keep serving for their drain time (${drain} s) before they stop`,
      ],
      commandsAfter: [
        until(newReady),
        `kubectl delete deployment ${hName} -n ${ns}`,
        `kubectl wait --for=delete pod -n ${ns} -l ${HANDOVER_LABEL}=true --timeout=300s`,
      ],
    };
  }
  return undefined;
}

function helmTakeover(release: string, releaseNs: string, owned: MigrationObject[], oldAll: MigrationObject[],
  after: Map<string, MigrationObject>, ctx: PlanContext, applyFrom: string): MigrationPlan {
  const notes: string[] = [];
  const steps: string[] = [];
  const commands: string[] = [];
  const differences: string[] = [];
  let cause: string | undefined;
  const refuse = (c: string) => { cause ??= c; };
  void ctx;

  const taken = owned.filter(k => after.has(k.key));
  const left = owned.filter(k => !after.has(k.key));
  for (const k of left) {
    const what = `${k.obj.kind} ${k.namespace ? `${k.namespace}/` : ''}${k.obj.metadata.name}`;
    if (k.obj.kind === 'CustomResourceDefinition') refuse(`${what} of the release is not in the new manifests: nothing would manage it, and deleting the release record leaves it behind; install the CRDs with the control plane (installCrds)`);
    else notes.push(`${what} of the release is not in the new manifests: it stays in the cluster as it is, managed by nobody; delete it once the takeover is done if nothing needs it`);
  }

  // CRDs: every stored version still served
  for (const k of taken.filter(t => t.obj.kind === 'CustomResourceDefinition')) {
    const stored: string[] = k.obj.status?.storedVersions ?? [];
    const served = new Set((after.get(k.key)!.obj.spec?.versions ?? []).filter((v: Json) => v?.served !== false).map((v: Json) => v?.name));
    const lost = stored.filter(v => !served.has(v));
    if (lost.length > 0) refuse(`CustomResourceDefinition ${k.obj.metadata.name} stores objects as ${lost.join(', ')}, which the new CRD does not serve; objects of that version could no longer be read`);
  }
  const crds = taken.filter(t => t.obj.kind === 'CustomResourceDefinition').length;

  // webhooks: every webhook the live configurations hold is in ours
  let webhooks = 0;
  for (const k of taken.filter(t => t.obj.kind === 'MutatingWebhookConfiguration' || t.obj.kind === 'ValidatingWebhookConfiguration')) {
    const mine = new Map<string, Json>((after.get(k.key)!.obj.webhooks ?? []).map((w: Json) => [w?.name, w]));
    const liveNames = new Set((k.obj.webhooks ?? []).map((w: Json) => w?.name));
    for (const w of k.obj.webhooks ?? []) {
      webhooks++;
      // a webhook renamed by a newer chart (mimagepulljob.kb.io -> mimagepulljob-v1beta1.kb.io) judges the same resources under its new name
      const resources = (h: Json) => J((h?.rules ?? []).flatMap((r: Json) => (r?.resources ?? []).map((x: string) => `${(r?.apiGroups ?? []).join(',')}/${x}`)).sort());
      const renamed = mine.has(w?.name) ? undefined
        : [...mine.values()].find(h => !liveNames.has(h?.name) && resources(h) === resources(w)
          && J(h?.rules?.[0]?.operations) === J(w?.rules?.[0]?.operations));
      const m = mine.get(w?.name) ?? renamed;
      if (renamed) notes.push(`${k.obj.kind} ${k.obj.metadata.name}: webhook ${w.name} is ${renamed.name} in the new manifests (the same resources and operations)`);
      if (!m) {
        refuse(`${k.obj.kind} ${k.obj.metadata.name}: webhook ${w?.name} is live but not in the new manifests: taking the configuration over removes it, and ${w?.name} stops judging ${J((w?.rules ?? []).flatMap((r: Json) => r?.resources ?? []))}; keep it (check the control plane's feature gates)`);
      } else if (w?.clientConfig?.service?.path !== m?.clientConfig?.service?.path) {
        notes.push(`${k.obj.kind} ${k.obj.metadata.name}: webhook ${w.name} moves from path ${w.clientConfig?.service?.path} to ${m.clientConfig?.service?.path}`);
      }
    }
  }

  // the certificate and the Service the webhooks call
  const secret = taken.find(t => t.obj.kind === 'Secret' && t.obj.metadata.name === 'kruise-webhook-certs');
  if (secret) {
    const mine = after.get(secret.key)!.obj;
    if (mine.data && Object.keys(mine.data).length > 0) {
      refuse(`Secret ${secret.namespace}/kruise-webhook-certs: the new manifests write its data, replacing the certificate kruise-manager made while the webhook configurations still carry its CA; leave the data out (WebhookCertificates.selfManaged())`);
    } else {
      notes.push(`Secret ${secret.namespace}/kruise-webhook-certs is kept with its data (kruise-manager's, not in the manifests): the running and the new managers serve the same certificate, and the caBundles stay`);
    }
  }
  const svc = taken.find(t => t.obj.kind === 'Service' && t.obj.metadata.name === 'kruise-webhook-service');
  const liveSelector = { ...(svc?.obj.spec?.selector ?? {}) };
  if (svc && liveSelector[HANDOVER_LABEL] !== undefined) {
    delete liveSelector[HANDOVER_LABEL];
    notes.push(`Service ${svc.namespace}/${svc.obj.metadata.name} selects pods labelled ${HANDOVER_LABEL}: a handover is under way; the apply puts the Service's own selector back`);
  }
  if (svc && !sameJson(liveSelector, after.get(svc.key)!.obj.spec?.selector)) {
    refuse(`Service ${svc.namespace}/kruise-webhook-service: its selector changes from ${J(svc.obj.spec?.selector)} to ${J(after.get(svc.key)!.obj.spec?.selector)}: the webhooks lose their endpoints while the pods roll; keep the selector`);
  }

  // the pods that roll
  const rolls: string[] = [];
  const rolling: MigrationObject[] = [];
  for (const k of taken.filter(t => WORKLOAD_KINDS.has(t.obj.kind) && groupOf(t.obj.apiVersion) === 'apps')) {
    const n = after.get(k.key)!.obj;
    const oldT = goEncoded(defaultPodTemplate(dropTimestamp(k.obj.spec?.template), true));
    const newT = goEncoded(defaultPodTemplate(dropTimestamp(n.spec?.template), true));
    const ops = diff(oldT, newT);
    const what = `${k.obj.kind} ${k.namespace}/${k.obj.metadata.name}`;
    if (ops.length > 0) {
      const strategy = k.obj.kind === 'Deployment'
        ? `maxSurge ${J(n.spec?.strategy?.rollingUpdate?.maxSurge ?? '25%')}, maxUnavailable ${J(n.spec?.strategy?.rollingUpdate?.maxUnavailable ?? '25%')}`
        : `maxUnavailable ${J(n.spec?.updateStrategy?.rollingUpdate?.maxUnavailable ?? 1)} per node`;
      rolls.push(`${what} (${strategy})`);
      rolling.push(k);
      differences.push(...differenceLines(ops, `${what}: spec.template`, n.spec?.template, k.obj.spec?.template, 'Kubernetes', 'Kubernetes'));
    }
  }

  // the release: the one the cluster runs (its kruise-manager's image, else the release record's manifest), never a downgrade
  const record = oldAll.filter(k => _isHelmRecord(k.obj) && k.obj.metadata?.labels?.name === release && k.namespace === releaseNs);
  const decoded = record.map(r => { try { return _decodeHelmRecord(r.obj, 'the release record'); } catch { return undefined; } })
    .filter((r): r is NonNullable<typeof r> => r !== undefined)
    .sort((a, b) => (a.status === 'deployed' ? -1 : 0) - (b.status === 'deployed' ? -1 : 0) || (b.version ?? 0) - (a.version ?? 0))[0];
  const manager = managerContainers(taken, after)[0];
  const liveImage = manager?.liveImage ?? (decoded ? _managerImageOf(decoded.manifest) : undefined);
  const liveSource = manager ? `${manager.what}: container ${manager.container} runs ${manager.liveImage}`
    : decoded ? `the release record (chart kruise ${decoded.chartVersion}) runs ${liveImage}` : undefined;
  const newImage = manager?.newImage;
  let releaseChange: string | undefined;
  if (liveImage !== undefined && newImage !== undefined && _imageTag(liveImage) !== undefined) {
    const running = _runningRelease(_imageTag(liveImage)!);
    const target = _runningRelease(_imageTag(newImage) ?? '');
    const cmp = target.version === undefined ? _compareTags(running.tag, _imageTag(newImage)) : _compareRunning(running, target.version);
    if (cmp !== undefined && cmp > 0) {
      refuse(`${liveSource}, newer than ${newImage} of the new manifests: taking over would downgrade OpenKruise; ${_keepReleaseFix(running)}`);
    } else if (cmp !== undefined && cmp < 0) {
      releaseChange = `OpenKruise ${running.version} -> ${target.version ?? _imageTag(newImage)}`;
      notes.push(`the takeover upgrades OpenKruise: ${liveSource}, the new manifests ${newImage}`
        + (running.release && target.release && running.release.line.line !== target.release.line.line
          ? `; cdk8s-kruise plan --openkruise ${running.release.line.line}..${target.release.line.line} lists what the new line changes` : ''));
    }
  }

  const recordKind = record.some(r => r.obj.kind === 'ConfigMap') ? 'configmap' : 'secret';
  const recordCmd = `kubectl delete ${recordKind} -n ${releaseNs} -l owner=helm,name=${release}`;
  steps.push(`delete the release record (${record.length > 0 ? record.map(r => r.obj.metadata.name).join(', ') : `Secrets labelled owner=helm,name=${release}`}): ${recordCmd}; `
    + `helm list no longer shows ${release}, and no helm uninstall can delete the ${crds} CRDs (and with them every OpenKruise object) or the other objects`);
  if (record.length === 0) notes.push(`the release record is not in the live objects: add secrets -n ${releaseNs} -l owner=helm to the kubectl get to see it`);
  // kruise-manager rewrites the metadata of the certificate Secret (Helm's annotations go), but Helm still owns fields of it
  const alsoHelms = oldAll.filter(k => after.has(k.key) && !taken.includes(k) && typeof k.obj.metadata?.annotations?.[HELM_RELEASE] !== 'string'
    && (k.obj.metadata?.managedFields ?? []).some((f: Json) => f?.manager === 'helm'));
  const handover = [...taken, ...alsoHelms].map(k => handoverCommand(k.obj, k.namespace, 'helm', 'cdk8s-kruise')).filter((c): c is string => c !== undefined);
  const noFields = taken.filter(k => (k.obj.metadata?.managedFields ?? []).length === 0).length;
  steps.push(`hand Helm's fields to the field manager cdk8s-kruise (${handover.length} objects), so that the apply below removes what only the chart wrote, Helm's labels and annotations included`
    + (noFields > 0 ? `; ${noFields} of the live objects have no managedFields: save them with kubectl get ... -o json --show-managed-fields to get the commands` : ''));
  commands.push(recordCmd, ...handover);

  // the webhook traffic moves to pods of the new manager before the chart's manager pods stop
  const moved = webhookHandover(taken, after, rolling, notes);
  if (moved) {
    steps.push(...moved.stepsBefore);
    commands.push(...moved.commandsBefore);
  }
  const applyCmd = `kubectl apply --server-side --field-manager=cdk8s-kruise --force-conflicts -f ${applyFrom}`;
  steps.push(`apply the new manifests: ${applyCmd} (kruise-manager owns fields of the webhook configurations and CRDs, so conflicts are certain)`);
  commands.push(applyCmd);
  if (rolls.length > 0) {
    steps.push(`wait for the pods that roll: ${rolls.join('; ')}`);
    commands.push(...rolling.map(k => `kubectl rollout status ${k.obj.kind.toLowerCase()}/${k.obj.metadata.name} -n ${k.namespace} --timeout=600s`));
  }
  if (moved) {
    steps.push(...moved.stepsAfter);
    commands.push(...moved.commandsAfter);
  }
  notes.push('without the handover, Helm\'s labels (app.kubernetes.io/managed-by: Helm) and annotations (meta.helm.sh/release-*) stay, and a later helm install of the same release adopts the objects again without a word');
  notes.push('a helm.sh/resource-policy: keep annotation added to live objects does not stop helm uninstall: Helm reads the policy from the manifests in its record; delete the record instead');
  const summary = cause
    ? `takeover refused: ${cause}`
    : `takeover: the manifests take over the ${taken.length} objects of Helm release ${releaseNs}/${release} (${crds} CRDs and ${webhooks} webhooks kept, the certificate kept); `
      + `${releaseChange ? `the release changes: ${releaseChange}; ` : ''}`
      + `${rolls.length > 0 ? `the pods of ${rolls.length} workload${rolls.length === 1 ? '' : 's'} roll once` : 'no pod rolls'}`
      + `${moved ? `, the webhook calls moved to ${moved.handoverPods} handover pods of the new manager first` : ''}`;
  return {
    kind: MigrationKind.HELM_TAKEOVER,
    namespace: releaseNs,
    current: `Helm release ${releaseNs}/${release}`,
    target: `the new manifests (${taken.length} objects of the same names)`,
    refused: cause !== undefined,
    cause,
    summary,
    steps,
    commands,
    adoptedPods: [],
    podsRoll: rolls.length > 0,
    templateDifferences: differences,
    notes,
  };
}

// --- the pass -------------------------------------------------------------------------------------------------

/** Recognise the migrations between the two sides. */
export function planMigrations(before: Map<string, MigrationObject>, after: Map<string, MigrationObject>, live: boolean, gates: PlanGates,
  daemonSetNodes?: number, applyFrom = 'dist'): MigrationResult {
  const ctx: PlanContext = { gates, daemonSetNodes };
  const migrations: MigrationPlan[] = [];
  const consumed = new Set<string>();
  const oldAll = [...before.values()];
  const newAll = [...after.values()];

  // apps/v1 StatefulSet -> Advanced StatefulSet of the same namespace and name
  for (const n of newAll) {
    if (n.obj.kind !== 'StatefulSet' || groupOf(n.obj.apiVersion) !== 'apps.kruise.io') continue;
    const oldKey = keyOf('apps', 'StatefulSet', n.namespace, n.obj.metadata.name);
    const o = before.get(oldKey);
    if (!o || after.has(oldKey) || before.has(n.key)) continue;
    migrations.push(stsSwitch(o, n, oldAll, live, ctx));
    consumed.add(oldKey).add(n.key);
  }

  // Deployment -> CloneSet: a CloneSet of the new side beside a running Deployment of the same name, or whose pods a Service selects with the Deployment's
  for (const cs of newAll) {
    if (cs.obj.kind !== 'CloneSet' || groupOf(cs.obj.apiVersion) !== 'apps.kruise.io') continue;
    const deps = oldAll.filter(k => k.obj.kind === 'Deployment' && groupOf(k.obj.apiVersion) === 'apps' && k.namespace === cs.namespace);
    const svcs = [...services(newAll, cs.namespace), ...services(oldAll, cs.namespace)];
    // the pair: the same name, or a Service selecting both, or the one Deployment of the namespace this change scales down or removes
    const shrinking = deps.filter(d => { const a = after.get(d.key); return !a || (a.obj.spec?.replicas ?? 1) < (d.obj.spec?.replicas ?? 1); });
    const dep = deps.find(d => d.obj.metadata.name === cs.obj.metadata.name)
      ?? deps.find(d => svcs.some(s => selects(s, templateLabels(d.obj)) && selects(s, templateLabels(cs.obj))))
      ?? (shrinking.length === 1 ? shrinking[0] : undefined);
    if (!dep) continue;
    const depNew = after.get(dep.key);
    const csOld = before.get(cs.key);
    const unchanged = depNew && csOld && (depNew.obj.spec?.replicas ?? 1) === (dep.obj.spec?.replicas ?? 1)
      && (cs.obj.spec?.replicas ?? 1) === (csOld.obj.spec?.replicas ?? 1);
    if (unchanged) continue;
    migrations.push(deploySwitch(dep, depNew, csOld, cs, oldAll, newAll, live));
    consumed.add(dep.key);
  }

  // Helm releases whose objects the new manifests take over
  if (live) {
    const releases = new Map<string, MigrationObject[]>();
    for (const k of oldAll) {
      const a = k.obj.metadata?.annotations ?? {};
      if (typeof a[HELM_RELEASE] !== 'string') continue;
      const id = `${a[HELM_NAMESPACE] ?? k.namespace}/${a[HELM_RELEASE]}`;
      releases.set(id, [...(releases.get(id) ?? []), k]);
    }
    for (const [id, owned] of releases) {
      if (!owned.some(k => after.has(k.key))) continue;
      const [releaseNs, release] = [id.slice(0, id.indexOf('/')), id.slice(id.indexOf('/') + 1)];
      migrations.push(helmTakeover(release, releaseNs, owned, oldAll, after, ctx, applyFrom));
      for (const k of owned) if (!after.has(k.key)) consumed.add(k.key);
    }
  }
  return { migrations, consumed };
}
