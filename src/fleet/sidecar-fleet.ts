/**
 * App-wide SidecarSet checks: conflicts between SidecarSets (webhook-rules §4
 * rule 29, judged against every SidecarSet of the app) and the injection
 * preview (what the OpenKruise pod webhook does to a pod at creation).
 */
import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { AppObject, _oncePerRound, allAppObjects, appObjects, describe, namespaceLabels, namespaceOf, podTemplateOf } from './objects';
import { defaultedSidecarSetSpec, sidecarSetSpecOf } from '../admission/sidecar-set';
import { cloneJson } from '../validation/json';
import { LabelSelectorJson, selectorMatches, selectorsOverlap } from '../validation/selectors';

/** A SidecarSet of the app, defaulted. */
export interface AppSidecarSet {
  readonly obj: AppObject;
  readonly name: string;
  readonly spec: any;
}

/** Every SidecarSet (any served version, L1 or L2) in the app of `scope`. */
export function appSidecarSets(scope: IConstruct): AppSidecarSet[] {
  return [..._oncePerRound(scope, 'sidecar-sets', () => appObjects(scope, 'apps.kruise.io', 'SidecarSet').map(obj => ({
    obj,
    name: obj.json.metadata?.name,
    spec: defaultedSidecarSetSpec(sidecarSetSpecOf(obj.json)),
  })))];
}

/** The SidecarSet of the app rendered from `obj` (undefined when it is not one). */
export function appSidecarSetOf(scope: IConstruct, obj: ApiObject): AppSidecarSet | undefined {
  return _oncePerRound(scope, 'sidecar-sets-by-object', () => new Map(appSidecarSets(scope).map(s => [s.obj.apiObject, s]))).get(obj);
}

/** The names rule 29 compares: injected containers and init containers, volumes, pod annotations patched other than Retain. */
function conflictKeys(s: AppSidecarSet): string[] {
  const out: string[] = [];
  for (const c of s.spec.initContainers ?? []) out.push(`init ${c.name}`);
  for (const c of s.spec.containers ?? []) out.push(`container ${c.name}`);
  for (const v of s.spec.volumes ?? []) out.push(`volume ${v.name}`);
  for (const p of s.spec.patchPodMetadata ?? []) {
    if (p.patchPolicy === 'Retain') continue;
    for (const k of Object.keys(p.annotations ?? {})) out.push(`annotation ${k}`);
  }
  return out;
}

/**
 * The SidecarSets of the app that share a name rule 29 compares with `me`,
 * in app order: the only ones `sidecarSetConflicts` can find in conflict with
 * it, looked up instead of comparing every pair.
 */
export function conflictCandidates(scope: IConstruct, me: AppSidecarSet): AppSidecarSet[] {
  const index = _oncePerRound(scope, 'sidecar-set-names', () => {
    const byKey = new Map<string, AppSidecarSet[]>();
    for (const s of appSidecarSets(scope)) {
      for (const k of new Set(conflictKeys(s))) {
        const list = byKey.get(k);
        if (list) list.push(s); else byKey.set(k, [s]);
      }
    }
    return byKey;
  });
  const out = new Set<AppSidecarSet>();
  for (const k of conflictKeys(me)) for (const s of index.get(k) ?? []) if (s !== me) out.add(s);
  return [...out].sort((a, b) => a.obj.order - b.obj.order);
}

/**
 * SidecarSets indexed by what their pod selector requires, so that a
 * workload meets only the SidecarSets that can select its pods: a required
 * label value (matchLabels, or an `In` expression) or a required key
 * (`Exists`); SidecarSets whose selector requires neither are candidates for
 * every pod. The exact match is still decided by `sidecarSetSelects`.
 */
export class SidecarSetIndex {
  private readonly byLabel = new Map<string, AppSidecarSet[]>();
  private readonly byKey = new Map<string, AppSidecarSet[]>();
  private readonly always: AppSidecarSet[] = [];

  constructor(sets: AppSidecarSet[]) {
    const add = (m: Map<string, AppSidecarSet[]>, k: string, s: AppSidecarSet) => {
      const list = m.get(k);
      if (list) list.push(s); else m.set(k, [s]);
    };
    for (const s of sets) {
      const sel = s.spec.selector as LabelSelectorJson | undefined;
      const labels = Object.entries(sel?.matchLabels ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      const exprIn = (sel?.matchExpressions ?? []).find(e => e.operator === 'In' && (e.values ?? []).length > 0);
      const exprExists = (sel?.matchExpressions ?? []).find(e => e.operator === 'Exists');
      if (labels.length > 0) add(this.byLabel, `${labels[0][0]}=${labels[0][1]}`, s);
      else if (exprIn) for (const v of new Set(exprIn.values)) add(this.byLabel, `${exprIn.key}=${v}`, s);
      else if (exprExists) add(this.byKey, exprExists.key, s);
      else this.always.push(s);
    }
  }

  /** The SidecarSets that may select a pod with these labels. */
  public candidates(labels: Record<string, string> | undefined): AppSidecarSet[] {
    const out = new Set<AppSidecarSet>(this.always);
    for (const [k, v] of Object.entries(labels ?? {})) {
      for (const s of this.byLabel.get(`${k}=${v}`) ?? []) out.add(s);
      for (const s of this.byKey.get(k) ?? []) out.add(s);
    }
    return [...out];
  }
}

/** The injection problems of the app, per SidecarSet name, computed once per round for every SidecarSet. */
export function appInjectionProblems(scope: IConstruct): Map<string, string[]> {
  return _oncePerRound(scope, 'injection-problems', () => {
    const index = new SidecarSetIndex(appSidecarSets(scope));
    const out = new Map<string, string[]>();
    for (const w of appWorkloads(scope)) {
      const candidates = index.candidates(podTemplateOf(w.json)?.metadata.labels);
      if (candidates.length === 0) continue;
      const r = injectInto(scope, w.json, candidates, { problemsOnly: true });
      for (const p of r?.problems ?? []) {
        const line = `injecting into ${describe(w.json)} at '${w.owner.node.path}': ${p.problem.slice(p.problem.indexOf(': ') + 2)}`;
        const list = out.get(p.sidecarSet);
        if (list) list.push(line); else out.set(p.sidecarSet, [line]);
      }
    }
    return out;
  });
}

const canonical = (v: any): string => JSON.stringify(v, (_k, x) => (x && typeof x === 'object' && !Array.isArray(x)
  ? Object.keys(x).sort().reduce((r: any, k) => { r[k] = x[k]; return r; }, {}) : x));

/** Rule 29: why `a` and `b` conflict (empty when they can coexist). */
export function sidecarSetConflicts(a: AppSidecarSet, b: AppSidecarSet): string[] {
  if (a.name === b.name) return [];
  const nsA = a.spec.namespaceSelector as LabelSelectorJson | undefined;
  const nsB = b.spec.namespaceSelector as LabelSelectorJson | undefined;
  if (nsA && nsB && !selectorsOverlap(nsA, nsB)) return [];
  if (!a.spec.selector || !b.spec.selector || !selectorsOverlap(a.spec.selector, b.spec.selector)) return [];
  const out: string[] = [];
  const names = (list: any[] | undefined) => new Set((list ?? []).map(c => c.name));
  const bInit = names(b.spec.initContainers);
  const bMain = names(b.spec.containers);
  for (const c of a.spec.initContainers ?? []) if (bInit.has(c.name)) out.push(`both inject the init container "${c.name}"`);
  for (const c of a.spec.containers ?? []) if (bMain.has(c.name)) out.push(`both inject the container "${c.name}"`);
  const bVolumes = new Map<string, any>((b.spec.volumes ?? []).map((v: any) => [v.name, v]));
  for (const v of a.spec.volumes ?? []) {
    const other = bVolumes.get(v.name);
    if (other && canonical(other) !== canonical(v)) out.push(`both declare the volume "${v.name}" with different definitions`);
  }
  const bPatches = new Map<string, string>();
  for (const p of b.spec.patchPodMetadata ?? []) {
    if (p.patchPolicy === 'Retain') continue;
    for (const k of Object.keys(p.annotations ?? {})) bPatches.set(k, p.patchPolicy);
  }
  for (const p of a.spec.patchPodMetadata ?? []) {
    if (p.patchPolicy === 'Retain') continue;
    for (const k of Object.keys(p.annotations ?? {})) {
      const other = bPatches.get(k);
      if (other && (other === 'Overwrite' || p.patchPolicy === 'Overwrite')) out.push(`both patch the pod annotation "${k}" (${p.patchPolicy} vs ${other})`);
    }
  }
  return out;
}

/** Whether a SidecarSet selects the pods of a workload (namespace and labels), as the pod webhook decides. */
export function sidecarSetSelects(scope: IConstruct, s: AppSidecarSet, workloadJson: any): boolean {
  const pod = podTemplateOf(workloadJson);
  if (!pod || !s.spec.selector) return false;
  const ns = namespaceOf(workloadJson);
  if (s.spec.namespaceSelector && !selectorMatches(s.spec.namespaceSelector, namespaceLabels(scope, ns))) return false;
  return selectorMatches(s.spec.selector, pod.metadata.labels ?? {});
}

/** The result of injecting the app's SidecarSets into one workload's pod. */
export interface InjectionResult {
  readonly workload: any;
  readonly injectedBy: string[];
  readonly template: { metadata: any; spec: any };
  readonly problems: Array<{ sidecarSet: string; problem: string }>;
}

/** Names of the containers a sidecar becomes in the pod (a hot-upgrade sidecar becomes two). */
function podNames(c: any): string[] {
  return c.upgradeStrategy?.upgradeType === 'HotUpgrade' ? [`${c.name}-1`, `${c.name}-2`] : [c.name];
}

const ENV_REF = /\$\(([-._a-zA-Z][-._a-zA-Z0-9]*)\)/g;

function mergeByKey<T>(original: T[], extra: T[], key: (t: T) => string): T[] {
  const seen = new Set(original.map(key));
  const out = [...original];
  for (const e of extra) {
    if (seen.has(key(e))) continue;
    out.push(e);
    seen.add(key(e));
  }
  return out;
}

/** Build the sidecar containers of one SidecarSet for `pod`, as the pod webhook does at creation. */
function buildSidecar(c: any, pod: any, isInit: boolean): any[] {
  const appContainers: any[] = pod.spec.containers ?? [];
  const built = cloneJson(c);
  const sidecarOnly = ['podInjectPolicy', 'upgradeStrategy', 'shareVolumePolicy', 'shareVolumeDevicePolicy', 'transferEnv', 'resourcesPolicy'];
  for (const k of sidecarOnly) delete built[k];
  const injectedMounts: any[] = [];
  const injectedEnvs: any[] = [];
  if (c.shareVolumePolicy?.type === 'enabled') {
    for (const app of appContainers) {
      for (const m of app.volumeMounts ?? []) {
        injectedMounts.push(m);
        for (const ref of (m.subPathExpr ?? '').matchAll(ENV_REF)) {
          const env = (app.env ?? []).find((e: any) => e.name === ref[1]);
          if (env) injectedEnvs.push(env);
        }
      }
    }
  }
  const transfer: any[] = [];
  for (const t of c.transferEnv ?? []) {
    let source = t.sourceContainerName;
    const path = t.sourceContainerNameFrom?.fieldRef?.fieldPath as string | undefined;
    if (path) {
      const m = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(path);
      source = m ? (pod.metadata[m[1]] ?? {})[m[2]] : undefined;
    }
    const wanted = [...new Set([...(t.envName ? [t.envName] : []), ...(t.envNames ?? [])])].sort();
    const from = appContainers.find(a => a.name === source);
    for (const n of wanted) {
      const env = (from?.env ?? []).find((e: any) => e.name === n);
      if (env) transfer.push(env);
    }
  }
  const transferEnvs = mergeByKey(transfer, injectedEnvs, e => e.name);
  if (c.shareVolumeDevicePolicy?.type === 'enabled') {
    const devices = appContainers.flatMap(a => a.volumeDevices ?? []);
    built.volumeDevices = mergeByKey(built.volumeDevices ?? [], devices, d => d.devicePath);
  }
  const taken = new Set([...(built.volumeMounts ?? []).map((m: any) => m.mountPath), ...(built.volumeDevices ?? []).map((d: any) => d.devicePath)]);
  const mounts = [...(built.volumeMounts ?? [])];
  for (const m of injectedMounts) {
    if (taken.has(m.mountPath)) continue;
    mounts.push(m);
    taken.add(m.mountPath);
  }
  if (mounts.length > 0) built.volumeMounts = mounts;
  const env = mergeByKey([...(built.env ?? []), { name: 'IS_INJECTED', value: 'true' }], transferEnvs, e => e.name);
  built.env = env;
  const hot = c.upgradeStrategy?.upgradeType === 'HotUpgrade' && (!isInit || c.restartPolicy === 'Always');
  if (!hot) return [built];
  return podNames(c).map((name, i) => ({
    ...built,
    name,
    image: i === 0 ? built.image : c.upgradeStrategy.hotUpgradeEmptyImage,
    env: [
      ...built.env,
      { name: 'SIDECARSET_VERSION', valueFrom: { fieldRef: { fieldPath: `metadata.annotations['version.sidecarset.kruise.io/${name}']` } } },
      { name: 'SIDECARSET_VERSION_ALT', valueFrom: { fieldRef: { fieldPath: `metadata.annotations['versionalt.sidecarset.kruise.io/${name}']` } } },
    ],
  }));
}

function containerOf(list: any[], name: string): any {
  return list.find(c => c.name === name);
}

/** Options of `injectInto`. */
export interface InjectOptions {
  /** Only the problems are wanted (the app-wide check): the injected template is not assembled. */
  readonly problemsOnly?: boolean;
}

/**
 * Inject every SidecarSet of the app that selects `workloadJson` into its pod
 * template, in SidecarSet name order, and report collisions with the app's
 * own containers, volumes and ports. `workloadJson` is only read (it may be
 * the render the output writes); the template returned is a copy.
 */
export function injectInto(scope: IConstruct, workloadJson: any, sidecarSets: AppSidecarSet[] = appSidecarSets(scope),
  options: InjectOptions = {}): InjectionResult | undefined {
  const tpl = podTemplateOf(workloadJson);
  if (!tpl) return undefined;
  const pod = { metadata: tpl.metadata ?? {}, spec: tpl.spec ?? {} };
  const matched = [...sidecarSets]
    .filter(s => !s.spec.injectionStrategy?.paused && namespaceOf(workloadJson) !== 'kube-system' && sidecarSetSelects(scope, s, workloadJson))
    .sort((a, b) => a.name.localeCompare(b.name));
  const problems: Array<{ sidecarSet: string; problem: string }> = [];
  const appMain: any[] = pod.spec.containers ?? [];
  const appInit: any[] = pod.spec.initContainers ?? [];
  const appVolumes: any[] = pod.spec.volumes ?? [];
  const where = describe(workloadJson);

  // patchPodMetadata
  const annotations: Record<string, string> = { ...(pod.metadata.annotations ?? {}) };
  for (const s of matched) {
    for (const p of s.spec.patchPodMetadata ?? []) {
      for (const [k, v] of Object.entries<string>(p.annotations ?? {})) {
        if (p.patchPolicy === 'Retain' && k in annotations) continue;
        if (p.patchPolicy === 'MergePatchJson' && annotations[k]) {
          annotations[k] = JSON.stringify({ ...JSON.parse(annotations[k]), ...JSON.parse(v) });
        } else {
          annotations[k] = v;
        }
      }
    }
  }

  const sidecarMain: Array<{ c: any; policy: string; from: string }> = [];
  const sidecarInit: Array<{ c: any; policy: string; from: string }> = [];
  const sidecarVolumes: Array<{ v: any; from: string }> = [];
  const secrets: any[] = [];
  for (const s of matched) {
    const volumes = new Map<string, any>((s.spec.volumes ?? []).map((v: any) => [v.name, v]));
    const useVolumes = (c: any) => {
      for (const m of [...(c.volumeMounts ?? []), ...(c.volumeDevices ?? [])]) {
        const v = volumes.get(m.name);
        if (v) sidecarVolumes.push({ v, from: s.name });
      }
    };
    for (const c of s.spec.initContainers ?? []) {
      useVolumes(c);
      for (const b of buildSidecar(c, pod, true)) sidecarInit.push({ c: b, policy: c.podInjectPolicy, from: s.name });
    }
    secrets.push(...(s.spec.imagePullSecrets ?? []));
    for (const c of s.spec.containers ?? []) {
      useVolumes(c);
      for (const b of buildSidecar(c, pod, false)) sidecarMain.push({ c: b, policy: c.podInjectPolicy, from: s.name });
    }
  }

  // collisions with the app's own containers: upstream silently replaces the app container
  for (const { c, from } of sidecarMain) {
    if (containerOf(appMain, c.name)) problems.push({ sidecarSet: from, problem: `${where}: sidecar container "${c.name}" has the name of an app container, which OpenKruise silently replaces with the sidecar; rename one of them` });
    if (containerOf(appInit, c.name)) problems.push({ sidecarSet: from, problem: `${where}: sidecar container "${c.name}" has the name of an app init container, which the API server refuses; rename one of them` });
  }
  for (const { c, from } of sidecarInit) {
    if (containerOf(appInit, c.name)) problems.push({ sidecarSet: from, problem: `${where}: sidecar init container "${c.name}" has the name of an app init container, which OpenKruise silently replaces with the sidecar; rename one of them` });
    if (containerOf(appMain, c.name)) problems.push({ sidecarSet: from, problem: `${where}: sidecar init container "${c.name}" has the name of an app container, which the API server refuses; rename one of them` });
  }
  const seenSidecar = new Map<string, string>();
  for (const { c, from } of [...sidecarInit, ...sidecarMain]) {
    const prev = seenSidecar.get(c.name);
    if (prev && prev !== from) problems.push({ sidecarSet: from, problem: `${where}: sidecar "${c.name}" is injected by both SidecarSet "${prev}" and "${from}"; rename one of them` });
    seenSidecar.set(c.name, from);
  }
  for (const { v, from } of sidecarVolumes) {
    const app = appVolumes.find(a => a.name === v.name);
    if (app && canonical(app) !== canonical(v)) {
      problems.push({ sidecarSet: from, problem: `${where}: sidecar volume "${v.name}" has the name of a different app volume; OpenKruise keeps the app's volume, so the sidecar mounts the wrong data; rename one of them` });
    }
  }

  // assemble the pod as the webhook does
  const merge = (origins: any[], injected: Array<{ c: any; policy: string }>) => {
    const out = [...origins];
    const before: any[] = [];
    const after: any[] = [];
    for (const { c, policy } of injected) {
      const i = out.findIndex(o => o.name === c.name);
      if (i >= 0) { out[i] = c; continue; }
      (policy === 'BeforeAppContainer' ? before : after).push(c);
    }
    return [...before, ...out, ...after];
  };
  const initSorted = [...sidecarInit].sort((a, b) => a.c.name.localeCompare(b.c.name));
  const containers = merge(appMain, sidecarMain);
  const initContainers = merge(appInit, initSorted);
  const volumes = mergeByKey(appVolumes, sidecarVolumes.map(x => x.v), v => v.name);
  const pullSecrets = mergeByKey(pod.spec.imagePullSecrets ?? [], secrets, s => s.name);

  // ports: every container shares the pod's network namespace
  const hotPair = (a: string, b: string) => a.replace(/-[12]$/, '') === b.replace(/-[12]$/, '') && sidecarMain.some(x => x.c.name === a) && sidecarMain.some(x => x.c.name === b) && a !== b;
  const ports = new Map<string, string>();
  const portNames = new Map<string, string>();
  for (const c of [...initContainers.filter(x => x.restartPolicy === 'Always'), ...containers]) {
    for (const p of c.ports ?? []) {
      const key = `${p.containerPort}/${p.protocol ?? 'TCP'}`;
      const prev = ports.get(key);
      if (prev && prev !== c.name && !hotPair(prev, c.name)) {
        const from = [...sidecarMain, ...sidecarInit].find(x => x.c.name === c.name || x.c.name === prev)?.from;
        if (from) problems.push({ sidecarSet: from, problem: `${where}: containers "${prev}" and "${c.name}" both listen on port ${key} in the same pod; change one port` });
      }
      ports.set(key, c.name);
      if (p.name) {
        const prevName = portNames.get(p.name);
        if (prevName && prevName !== c.name && !hotPair(prevName, c.name)) {
          const from = [...sidecarMain, ...sidecarInit].find(x => x.c.name === c.name || x.c.name === prevName)?.from;
          if (from) problems.push({ sidecarSet: from, problem: `${where}: containers "${prevName}" and "${c.name}" both name a port "${p.name}", so a Service targetPort "${p.name}" is ambiguous; rename one port` });
        }
        portNames.set(p.name, c.name);
      }
    }
  }

  const spec: any = { ...pod.spec, containers };
  if (initContainers.length > 0) spec.initContainers = initContainers;
  if (volumes.length > 0) spec.volumes = volumes;
  if (pullSecrets.length > 0) spec.imagePullSecrets = pullSecrets;
  const metadata: any = { ...pod.metadata };
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  if (matched.length > 0) {
    const hot: Record<string, string> = {};
    for (const s of matched) {
      for (const c of s.spec.containers ?? []) {
        if (c.upgradeStrategy?.upgradeType !== 'HotUpgrade') continue;
        const [one, two] = podNames(c);
        hot[c.name] = one;
        Object.assign(annotations, {
          [`version.sidecarset.kruise.io/${one}`]: '1',
          [`versionalt.sidecarset.kruise.io/${one}`]: '0',
          [`version.sidecarset.kruise.io/${two}`]: '0',
          [`versionalt.sidecarset.kruise.io/${two}`]: '1',
        });
      }
    }
    if (Object.keys(hot).length > 0) annotations['kruise.io/sidecarset-working-hotupgrade-container'] = JSON.stringify(hot);
    annotations['kruise.io/sidecarset-injected-list'] = matched.map(s => s.name).sort().join(',');
    metadata.annotations = annotations;
  }
  const template = options.problemsOnly ? { metadata: {}, spec: {} } : cloneJson({ metadata, spec });
  return { workload: workloadJson, injectedBy: matched.map(s => s.name), template, problems };
}

/** Every object of the app that creates pods from a template (workloads and pods), in construct-path order. */
export function appWorkloads(scope: IConstruct): AppObject[] {
  return [..._oncePerRound(scope, 'workloads', () => allAppObjects(scope).filter(o => podTemplateOf(o.json) !== undefined))];
}
