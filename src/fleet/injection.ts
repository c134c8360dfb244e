/**
 * What the OpenKruise pod webhook does with SidecarSets, as plain functions
 * over wire manifests: which SidecarSets select a pod, conflicts between two
 * SidecarSets (webhook-rules §4 rule 29), and the pod after injection with
 * its collisions. Shared by synth, `cdk8s-kruise check` and the fleet check.
 */
import { FleetProblemKind } from './fleet-types';
import { fieldError } from '../validation/field-error';
import { cloneJson } from '../validation/json';
import { describe, namespaceOf, podTemplateOf, templatePathOf } from '../validation/manifest';
import { LabelSelectorJson, selectorMatches, selectorsOverlap } from '../validation/selectors';

/** A SidecarSet as the injection reads it: its name and defaulted spec. */
export interface SidecarSetLike {
  readonly name: string;
  readonly spec: any;
  /**
   * Where it came from when that is not the app itself, as messages append
   * it after the name, e.g. `(context: platform/dist/platform.k8s.yaml)`.
   */
  readonly where?: string;
}

/** `SidecarSet "name"`, followed by where it came from when it is not the app's own. */
export function sidecarSetLabel(s: SidecarSetLike): string {
  return `SidecarSet "${s.name}"${s.where ? ` ${s.where}` : ''}`;
}

/** The labels of a namespace, as a namespace selector sees them. */
export type NamespaceLabels = (namespace: string) => Record<string, string>;

/** The names rule 29 compares: injected containers and init containers, volumes, pod annotations patched other than Retain. */
export function conflictKeys(s: SidecarSetLike): string[] {
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
 * SidecarSets indexed by what their pod selector requires, so that a
 * workload meets only the SidecarSets that can select its pods: a required
 * label value (matchLabels, or an `In` expression) or a required key
 * (`Exists`); SidecarSets whose selector requires neither are candidates for
 * every pod. The exact match is still decided by `sidecarSetSelects`.
 */
export class SidecarSetIndex<S extends SidecarSetLike = SidecarSetLike> {
  /** label key -> label value -> the SidecarSets requiring that value (each under one key only). */
  private readonly byLabel = new Map<string, Map<string, S[]>>();
  private readonly byKey = new Map<string, S[]>();
  private readonly always: S[] = [];

  constructor(sets: S[]) {
    const add = <K>(m: Map<K, S[]>, k: K, s: S) => {
      const list = m.get(k);
      if (list) list.push(s); else m.set(k, [s]);
    };
    const values = (key: string) => {
      let m = this.byLabel.get(key);
      if (!m) this.byLabel.set(key, m = new Map());
      return m;
    };
    for (const s of sets) {
      const sel = s.spec.selector as LabelSelectorJson | undefined;
      const labels = Object.entries(sel?.matchLabels ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      const exprIn = (sel?.matchExpressions ?? []).find(e => e.operator === 'In' && (e.values ?? []).length > 0);
      const exprExists = (sel?.matchExpressions ?? []).find(e => e.operator === 'Exists');
      if (labels.length > 0) add(values(labels[0][0]), String(labels[0][1]), s);
      else if (exprIn) for (const v of new Set(exprIn.values)) add(values(exprIn.key), String(v), s);
      else if (exprExists) add(this.byKey, exprExists.key, s);
      else this.always.push(s);
    }
  }

  /**
   * The SidecarSets that may select a pod with these labels, each once: a
   * SidecarSet is filed under one key, and a pod has one value per key.
   */
  public candidates(labels: Record<string, string> | undefined): S[] {
    const out = this.always.length > 0 ? [...this.always] : [];
    if (!labels) return out;
    for (const k in labels) {
      if (!Object.prototype.hasOwnProperty.call(labels, k)) continue;
      const byValue = this.byLabel.get(k);
      const sets = byValue?.get(String(labels[k]));
      if (sets) for (const s of sets) out.push(s);
      const keyed = this.byKey.get(k);
      if (keyed) for (const s of keyed) out.push(s);
    }
    return out;
  }
}

const canonical = (v: any): string => JSON.stringify(v, (_k, x) => (x && typeof x === 'object' && !Array.isArray(x)
  ? Object.keys(x).sort().reduce((r: any, k) => { r[k] = x[k]; return r; }, {}) : x));

/** Rule 29: why `a` and `b` conflict (empty when they can coexist). */
export function sidecarSetConflicts(a: SidecarSetLike, b: SidecarSetLike): string[] {
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
export function sidecarSetSelects(nsLabels: NamespaceLabels, s: SidecarSetLike, workloadJson: any): boolean {
  const pod = podTemplateOf(workloadJson);
  if (!pod || !s.spec.selector) return false;
  const ns = namespaceOf(workloadJson);
  if (s.spec.namespaceSelector && !selectorMatches(s.spec.namespaceSelector, nsLabels(ns))) return false;
  return selectorMatches(s.spec.selector, pod.metadata.labels ?? {});
}

/** Whether the pod webhook injects `s` into the pods of a workload: selected, not paused, not in kube-system. */
export function injects(nsLabels: NamespaceLabels, s: SidecarSetLike, workloadJson: any): boolean {
  return !s.spec.injectionStrategy?.paused && namespaceOf(workloadJson) !== 'kube-system' && sidecarSetSelects(nsLabels, s, workloadJson);
}

/** Why two SidecarSets conflict (rule 29), as a line: `a` names the one reporting, `b` the other with where it is. */
export function sidecarSetConflictLine(a: string, b: string, why: string[]): string {
  return `${a} conflicts with ${b}: their selectors and namespaces can match the same pods and ${why.join(', ')}; OpenKruise refuses the second one applied. Rename, or make the selectors or namespaceSelectors disjoint`;
}


/** One injection problem: the SidecarSet, what happens, and the line that says it. */
export interface InjectionProblem<S extends SidecarSetLike = SidecarSetLike> {
  /** Name of the SidecarSet the problem is charged to. */
  readonly sidecarSet: string;
  /** That SidecarSet. */
  readonly from: S;
  /** What is wrong (one of the injection kinds of `FleetProblemKind`). */
  readonly kind: FleetProblemKind;
  /** `Kind "name": <detail>`. */
  readonly problem: string;
  /** What is wrong and the fix, without the workload. */
  readonly detail: string;
  /** The other side when it is another SidecarSet or a container of one, else undefined (the app's container, volume or port). */
  readonly other?: S;
  /**
   * The line the SidecarSet reports, `field: value problem; fix` about its
   * own field, naming the workload as `workload` says it (e.g.
   * `Deployment "web" at 'shop/web'`).
   */
  readonly sidecarSetLine: (workload: string) => string;
  /**
   * The line the workload reports when the SidecarSet is not the app's own:
   * `field: value problem; fix` about the workload's field.
   */
  readonly workloadLine: string;
}

/** One side of an injection problem: the field of that object, its value, and what is wrong with it. */
interface ProblemSide {
  readonly field: string;
  readonly value: unknown;
  readonly problem: string;
}

/** The result of injecting the app's SidecarSets into one workload's pod. */
export interface InjectionResult<S extends SidecarSetLike = SidecarSetLike> {
  readonly workload: any;
  readonly injectedBy: string[];
  /** The SidecarSets injected, in the order the webhook applies them. */
  readonly injected: S[];
  /** The pod's container names after injection, in order. */
  readonly containerNames: string[];
  /** The pod's init container names after injection, in order. */
  readonly initContainerNames: string[];
  /**
   * Whether the order of the containers is fixed: false when sidecars of two
   * SidecarSets go on the same side of the app containers. OpenKruise v1.9.0
   * injects the SidecarSets in the order it lists them from its cache, which
   * is not a fixed order (unless the EnableSortSidecarContainerByName gate is
   * on); `containerNames` then lists them by SidecarSet name.
   */
  readonly sidecarOrderFixed: boolean;
  readonly template: { metadata: any; spec: any };
  readonly problems: Array<InjectionProblem<S>>;
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
function buildSidecar(c: any, pod: any, isInit: boolean, namesOnly: boolean): any[] {
  const hotUpgrade = c.upgradeStrategy?.upgradeType === 'HotUpgrade' && (!isInit || c.restartPolicy === 'Always');
  // the checks read only names, ports and restart policies: no copy of the container
  if (namesOnly) return (hotUpgrade ? podNames(c) : [c.name]).map(name => ({ name, ports: c.ports, restartPolicy: c.restartPolicy }));
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
  if (!hotUpgrade) return [built];
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
  /**
   * Only the problems and the container names are wanted (the app-wide and
   * fleet checks): sidecars are not copied, the template is not assembled.
   */
  readonly problemsOnly?: boolean;
}

/**
 * Inject every SidecarSet of `sidecarSets` that selects `workloadJson` into
 * its pod template, in SidecarSet name order, and report collisions with the
 * app's own containers, volumes and ports. `workloadJson` is only read (it
 * may be the render the output writes); the template returned is a copy.
 */
export function injectInto<S extends SidecarSetLike>(nsLabels: NamespaceLabels, workloadJson: any, sidecarSets: S[],
  options: InjectOptions = {}): InjectionResult<S> | undefined {
  const tpl = podTemplateOf(workloadJson);
  if (!tpl) return undefined;
  const pod = { metadata: tpl.metadata ?? {}, spec: tpl.spec ?? {} };
  const namesOnly = options.problemsOnly === true;
  const matched = sidecarSets
    .filter(s => injects(nsLabels, s, workloadJson))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const byName = new Map<string, S>(matched.map(s => [s.name, s]));
  const problems: Array<InjectionProblem<S>> = [];
  const appMain: any[] = pod.spec.containers ?? [];
  const appInit: any[] = pod.spec.initContainers ?? [];
  const appVolumes: any[] = pod.spec.volumes ?? [];
  let whereText: string | undefined;
  const where = () => (whereText ??= describe(workloadJson)); // the workload's name for a problem, built for the first one
  const tplAt = templatePathOf(workloadJson);
  const label = (name: string) => sidecarSetLabel(byName.get(name)!);
  const labelsSide = (problem: string): ProblemSide => ({ field: `${tplAt.metadata}.labels`, value: pod.metadata.labels ?? {}, problem });

  /**
   * One problem, charged to SidecarSet `fromName`: `what` and `fix` as the fleet check says them, and
   * each side's field (the SidecarSet's, which names the workload through `w`, and the workload's).
   */
  const problem = (fromName: string, kind: FleetProblemKind, what: string, fix: string,
    sides: { sidecar: (w: string) => ProblemSide; workload: ProblemSide }, otherName?: string) => {
    const detail = `${what}; ${fix}`;
    // the lines are written when asked for: the fleet check reads `detail` of most
    problems.push({
      sidecarSet: fromName,
      from: byName.get(fromName)!,
      kind,
      get problem() { return `${where()}: ${detail}`; },
      detail,
      other: otherName === undefined ? undefined : byName.get(otherName),
      sidecarSetLine: (w: string) => {
        const side = sides.sidecar(w);
        return fieldError(side.field, side.value, side.problem, fix);
      },
      get workloadLine() { return fieldError(sides.workload.field, sides.workload.value, sides.workload.problem, fix); },
    });
  };

  // patchPodMetadata
  const annotations: Record<string, string> = namesOnly ? {} : { ...(pod.metadata.annotations ?? {}) };
  for (const s of namesOnly ? [] : matched) {
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

  /** A sidecar as the pod gets it (`c`), from SidecarSet `from`, whose container `at` (`spec.containers[0]`) is named `name`. */
  type Sidecar = { c: any; policy: string; from: string; at: string; name: string };
  const sidecarMain: Sidecar[] = [];
  const sidecarInit: Sidecar[] = [];
  const sidecarVolumes: Array<{ v: any; from: string; at: string }> = [];
  const secrets: any[] = [];
  for (const s of matched) {
    const volumes = new Map<string, [any, number]>((s.spec.volumes ?? []).map((v: any, i: number) => [v.name, [v, i]]));
    const useVolumes = (c: any) => {
      for (const m of [...(c.volumeMounts ?? []), ...(c.volumeDevices ?? [])]) {
        const v = volumes.get(m.name);
        if (v) sidecarVolumes.push({ v: v[0], from: s.name, at: `spec.volumes[${v[1]}]` });
      }
    };
    (s.spec.initContainers ?? []).forEach((c: any, i: number) => {
      useVolumes(c);
      for (const b of buildSidecar(c, pod, true, namesOnly)) sidecarInit.push({ c: b, policy: c.podInjectPolicy, from: s.name, at: `spec.initContainers[${i}]`, name: c.name });
    });
    secrets.push(...(s.spec.imagePullSecrets ?? []));
    (s.spec.containers ?? []).forEach((c: any, i: number) => {
      useVolumes(c);
      for (const b of buildSidecar(c, pod, false, namesOnly)) sidecarMain.push({ c: b, policy: c.podInjectPolicy, from: s.name, at: `spec.containers[${i}]`, name: c.name });
    });
  }

  // collisions with the app's own containers: upstream silently replaces the app container
  const indexOf = (list: any[], name: string) => list.findIndex(c => c.name === name);
  /** The SidecarSet's side of a sidecar whose pod container name is taken in the pod. */
  const alsoNamed = (x: Sidecar, what: string) => (x.name === x.c.name ? 'is also the name of' : `becomes the sidecar ${what} "${x.c.name}", which is also the name of`);
  const sidecarNamed = (x: Sidecar, what: string, taken: string, then: string) => (w: string): ProblemSide => ({
    field: `${x.at}.name`, value: x.name, problem: `${alsoNamed(x, what)} ${taken} of the pods of ${w}, ${then}`,
  });
  for (const x of sidecarMain) {
    const { c, from } = x;
    const main = indexOf(appMain, c.name);
    if (main >= 0) {
      problem(from, FleetProblemKind.REPLACES_APP_CONTAINER, `sidecar container "${c.name}" has the name of an app container, which OpenKruise silently replaces with the sidecar`, 'rename one of them', {
        sidecar: sidecarNamed(x, 'container', 'a container', 'so OpenKruise silently replaces that container with the sidecar'),
        workload: { field: `${tplAt.spec}.containers[${main}].name`, value: c.name, problem: `is also the name of the sidecar container "${c.name}" of ${label(from)}, which OpenKruise silently puts in its place` },
      });
    }
    const init = indexOf(appInit, c.name);
    if (init >= 0) {
      problem(from, FleetProblemKind.NAME_IN_OTHER_LIST, `sidecar container "${c.name}" has the name of an app init container, which the API server refuses`, 'rename one of them', {
        sidecar: sidecarNamed(x, 'container', 'an init container', 'so the API server refuses the pods'),
        workload: { field: `${tplAt.spec}.initContainers[${init}].name`, value: c.name, problem: `is also the name of the sidecar container "${c.name}" of ${label(from)}, so the API server refuses the pods` },
      });
    }
  }
  for (const x of sidecarInit) {
    const { c, from } = x;
    const init = indexOf(appInit, c.name);
    if (init >= 0) {
      problem(from, FleetProblemKind.REPLACES_APP_INIT_CONTAINER, `sidecar init container "${c.name}" has the name of an app init container, which OpenKruise silently replaces with the sidecar`, 'rename one of them', {
        sidecar: sidecarNamed(x, 'init container', 'an init container', 'so OpenKruise silently replaces that init container with the sidecar'),
        workload: { field: `${tplAt.spec}.initContainers[${init}].name`, value: c.name, problem: `is also the name of the sidecar init container "${c.name}" of ${label(from)}, which OpenKruise silently puts in its place` },
      });
    }
    const main = indexOf(appMain, c.name);
    if (main >= 0) {
      problem(from, FleetProblemKind.NAME_IN_OTHER_LIST, `sidecar init container "${c.name}" has the name of an app container, which the API server refuses`, 'rename one of them', {
        sidecar: sidecarNamed(x, 'init container', 'a container', 'so the API server refuses the pods'),
        workload: { field: `${tplAt.spec}.containers[${main}].name`, value: c.name, problem: `is also the name of the sidecar init container "${c.name}" of ${label(from)}, so the API server refuses the pods` },
      });
    }
  }
  const seenSidecar = new Map<string, string>();
  for (const x of [...sidecarInit, ...sidecarMain]) {
    const { c, from } = x;
    const prev = seenSidecar.get(c.name);
    if (prev && prev !== from) {
      problem(from, FleetProblemKind.INJECTED_TWICE, `sidecar "${c.name}" is injected by both ${label(prev)} and ${label(from)}`, 'rename one of them', {
        sidecar: w => ({ field: `${x.at}.name`, value: x.name, problem: `${alsoNamed(x, 'container')} a sidecar ${label(prev)} injects into the pods of ${w}` }),
        workload: labelsSide(`select the pods for ${label(prev)} and ${label(from)}, which both inject a sidecar "${c.name}"`),
      }, prev);
    }
    seenSidecar.set(c.name, from);
  }
  for (const { v, from, at } of sidecarVolumes) {
    const j = appVolumes.findIndex(a => a.name === v.name);
    if (j >= 0 && canonical(appVolumes[j]) !== canonical(v)) {
      problem(from, FleetProblemKind.VOLUME, `sidecar volume "${v.name}" has the name of a different app volume; OpenKruise keeps the app's volume, so the sidecar mounts the wrong data`, 'rename one of them', {
        sidecar: w => ({ field: `${at}.name`, value: v.name, problem: `is also the name of a different volume of the pods of ${w}, and OpenKruise keeps the pod's volume, so the sidecar mounts the wrong data` }),
        workload: { field: `${tplAt.spec}.volumes[${j}].name`, value: v.name, problem: `is also the name of a different volume of ${label(from)}, and OpenKruise keeps this one, so its sidecar mounts the wrong data` },
      });
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
  const initSorted = [...sidecarInit].sort((a, b) => (a.c.name < b.c.name ? -1 : a.c.name > b.c.name ? 1 : 0));
  const containers = merge(appMain, sidecarMain);
  const initContainers = merge(appInit, initSorted);

  // ports: every container shares the pod's network namespace
  const sidecars = [...sidecarMain, ...sidecarInit];
  const hotPair = (a: string, b: string) => a !== b && a.replace(/-[12]$/, '') === b.replace(/-[12]$/, '') && sidecarMain.some(x => x.c.name === a) && sidecarMain.some(x => x.c.name === b);
  /** Where a pod container comes from: a sidecar, or the app's container at `at`. */
  const originOf = (name: string): { sidecar?: Sidecar; at: string } => {
    const sidecar = sidecars.find(x => x.c.name === name);
    if (sidecar) return { sidecar, at: sidecar.at };
    const main = indexOf(appMain, name);
    return { at: main >= 0 ? `${tplAt.spec}.containers[${main}]` : `${tplAt.spec}.initContainers[${indexOf(appInit, name)}]` };
  };
  /**
   * A clash of ports between two containers of the pod (`field` of the port: containerPort or name),
   * charged to the first sidecar of the two: `clash` says what the other has (`a port (TCP)`),
   * `both` what the two do (`both listen on port 8080/TCP`), `then` why that is wrong.
   */
  type Clash = { field: string; value: unknown; what: string; clash: string; both: string; then: string; fix: string };
  const portClash = (kind: FleetProblemKind, a: [string, number], b: [string, number], x: Clash) => {
    const first = sidecars.find(y => y.c.name === a[0] || y.c.name === b[0]);
    if (!first) return;
    const [mine, theirs] = first.c.name === a[0] ? [a, b] : [b, a];
    const other = originOf(theirs[0]);
    const otherSet = other.sidecar && other.sidecar.from !== first.from ? other.sidecar.from : undefined;
    const otherSays = (w: string) => (other.sidecar === undefined ? `the container "${theirs[0]}" of the pods of ${w}`
      : otherSet === undefined ? `its sidecar "${theirs[0]}" in the pods of ${w}` : `the sidecar "${theirs[0]}" of ${label(otherSet)} in the pods of ${w}`);
    problem(first.from, kind, x.what, x.fix, {
      sidecar: w => ({ field: `${first.at}.ports[${mine[1]}].${x.field}`, value: x.value, problem: `is also ${x.clash} of ${otherSays(w)}${x.then}` }),
      workload: other.sidecar === undefined
        ? { field: `${other.at}.ports[${theirs[1]}].${x.field}`, value: x.value, problem: `is also ${x.clash} of the sidecar "${mine[0]}" of ${label(first.from)}${x.then}` }
        : labelsSide(`select the pods for ${label(first.from)}${otherSet ? ` and ${label(otherSet)}` : ''}, whose sidecars "${mine[0]}" and "${theirs[0]}" ${x.both}${x.then}`),
    }, otherSet);
  };
  const ports = new Map<string, [string, number]>();
  const portNames = new Map<string, [string, number]>();
  for (const c of [...initContainers.filter(y => y.restartPolicy === 'Always'), ...containers]) {
    (c.ports ?? []).forEach((p: any, k: number) => {
      const protocol = p.protocol ?? 'TCP';
      const key = `${p.containerPort}/${protocol}`;
      const prev = ports.get(key);
      if (prev && prev[0] !== c.name && !hotPair(prev[0], c.name)) {
        portClash(FleetProblemKind.PORT, prev, [c.name, k], {
          field: 'containerPort',
          value: p.containerPort,
          what: `containers "${prev[0]}" and "${c.name}" both listen on port ${key} in the same pod`,
          clash: `a port (${protocol})`,
          both: `both listen on port ${key}`,
          then: ', and the containers of a pod share its network',
          fix: 'change one port',
        });
      }
      ports.set(key, [c.name, k]);
      if (p.name) {
        const prevName = portNames.get(p.name);
        if (prevName && prevName[0] !== c.name && !hotPair(prevName[0], c.name)) {
          portClash(FleetProblemKind.PORT_NAME, prevName, [c.name, k], {
            field: 'name',
            value: p.name,
            what: `containers "${prevName[0]}" and "${c.name}" both name a port "${p.name}", so a Service targetPort "${p.name}" is ambiguous`,
            clash: 'the name of a port',
            both: `both name a port "${p.name}"`,
            then: `, so a Service targetPort "${p.name}" is ambiguous`,
            fix: 'rename one port',
          });
        }
        portNames.set(p.name, [c.name, k]);
      }
    });
  }

  const sides = new Map<boolean, Set<string>>();
  for (const { c, policy, from } of sidecarMain) {
    if (containerOf(appMain, c.name)) continue;
    const before = policy === 'BeforeAppContainer';
    sides.set(before, (sides.get(before) ?? new Set()).add(from));
  }
  const base = {
    workload: workloadJson,
    sidecarOrderFixed: [...sides.values()].every(x => x.size <= 1),
    injectedBy: matched.map(s => s.name),
    injected: matched,
    containerNames: containers.map(c => c.name),
    initContainerNames: initContainers.map(c => c.name),
    problems,
  };
  if (namesOnly) return { ...base, template: { metadata: {}, spec: {} } };

  const volumes = mergeByKey(appVolumes, sidecarVolumes.map(x => x.v), v => v.name);
  const pullSecrets = mergeByKey(pod.spec.imagePullSecrets ?? [], secrets, s => s.name);
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
  return { ...base, template: cloneJson({ metadata, spec }) };
}
