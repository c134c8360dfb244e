/**
 * The admission rules of the three OpenKruise workloads (CloneSet, Advanced
 * StatefulSet, Advanced DaemonSet) that need no cluster state, run at synth
 * on the wire form of the object. As upstream does, the mutating-webhook
 * defaults are applied first (in memory only) and the rules see the
 * defaulted object. Each rule is written once; the shared ones (selector,
 * template, volume claim templates, lifecycle, priority, scatter) serve all
 * three kinds.
 */
import { dns1123LabelProblems, dns1123SubdomainProblems, labelValueProblems, labelsProblems, qualifiedNameProblems } from './names';
import {
  IntOrPercent, ParsedIntOrPercent, parseKruisePercent, parseStrictPercent, parseUpstreamPercent, scaled,
} from './percent';
import { TemplateProblem, defaultPodTemplate, parseQuantity, podTemplateProblems } from './pod-template';
import { LabelSelectorJson, isEmptySelector, selectorMatches, selectorProblems } from './selectors';

/** One rule violation: field path, value found, what is wrong, how to fix it. */
export type RuleProblem = TemplateProblem;

type Json = Record<string, any>;

const MAX_INT32 = 2147483647;
const clone = <T>(v: T): T => (v === undefined ? v : JSON.parse(JSON.stringify(v)));

class Rules {
  public readonly out: RuleProblem[] = [];
  public add(field: string, value: unknown, problem: string, fix: string): void {
    this.out.push({ field, value, problem, fix });
  }
  public addAll(problems: RuleProblem[]): void {
    this.out.push(...problems);
  }
}

/** The kind with its indefinite article, for messages. */
const article = (kind: string): string => `${/^[AEIOU]/.test(kind) ? 'an' : 'a'} ${kind}`;

const describe = (v: IntOrPercent): string => (typeof v === 'number' ? String(v) : JSON.stringify(v));

// --- shared rules -------------------------------------------------------------

/** OM(namespaced, NAMEFN): name, namespace, labels and annotations of the object. */
function metadataRules(r: Rules, meta: Json | undefined, nameRule: 'subdomain' | 'label', kind: string): void {
  const name = meta?.name;
  if (name !== undefined) {
    const problems = nameRule === 'label' ? dns1123LabelProblems(name) : dns1123SubdomainProblems(name);
    const fix = nameRule === 'label'
      ? `give the ${kind} a name of at most 63 lowercase letters, digits and '-' (no dots)`
      : `give the ${kind} a DNS subdomain name (lowercase letters, digits, '-' and '.')`;
    for (const p of problems) r.add('metadata.name', name, p, fix);
  }
  if (meta?.namespace !== undefined) {
    for (const p of dns1123LabelProblems(meta.namespace)) r.add('metadata.namespace', meta.namespace, p, 'use a valid namespace name');
  }
  for (const p of labelsProblems(meta?.labels)) {
    r.add(`metadata.labels[${JSON.stringify(p.key)}]`, p.key, p.problem, 'use a qualified key and a valid label value');
  }
  for (const k of Object.keys(meta?.annotations ?? {})) {
    for (const p of qualifiedNameProblems(k)) r.add(`metadata.annotations[${JSON.stringify(k)}]`, k, `key ${p}`, 'use a qualified annotation key');
  }
}

interface SelectorRuleOptions {
  /** A missing selector is reported as required. */
  readonly required: boolean;
  /** SEL-MATCH is skipped when the selector is empty (CloneSet, Advanced StatefulSet). */
  readonly skipMatchWhenEmpty: boolean;
}

/** SEL-VALID, SEL-NONEMPTY and SEL-MATCH of `spec.selector` against the template labels. */
function selectorRules(r: Rules, spec: Json, kind: string, o: SelectorRuleOptions): void {
  const sel: LabelSelectorJson | undefined = spec.selector;
  if (sel === undefined && o.required) {
    r.add('spec.selector', undefined, 'is required', `select the pods of the ${kind} (the construct does so unless 'select' is false)`);
  }
  for (const p of selectorProblems(sel)) r.add(`spec.selector.${p.field}`, p.value, p.problem, 'fix the selector');
  const empty = isEmptySelector(sel);
  if (empty) {
    r.add('spec.selector', sel, `is empty and would select every pod of the namespace; an empty selector is not valid for ${article(kind)}`,
      'keep the default selector or call select() with at least one label');
  }
  if (empty && o.skipMatchWhenEmpty) return;
  const labels = spec.template?.metadata?.labels ?? {};
  if (!selectorMatches(sel, labels)) {
    r.add('spec.template.metadata.labels', labels, `do not match spec.selector ${JSON.stringify(sel ?? null)}`,
      'add the selected labels to the pod metadata (podMetadata.addLabel) or select labels the pods carry');
  }
}

interface TemplateRuleOptions {
  /** Names of the pod volumes added from volumeClaimTemplates. */
  readonly claimVolumes: string[];
  /** restartPolicy must be Always (only checked when set, since it defaults to Always). */
  readonly kind: string;
}

/** POD-TEMPLATE-VALID on the defaulted template, restartPolicy Always, activeDeadlineSeconds forbidden. */
function templateRules(r: Rules, spec: Json, o: TemplateRuleOptions): void {
  const t = defaultPodTemplate(spec.template);
  const ads = t.spec.activeDeadlineSeconds;
  if (ads !== undefined) {
    r.add('spec.template.spec.activeDeadlineSeconds', ads, `is forbidden for ${article(o.kind)}`, 'remove it (pods of a workload run until replaced)');
    delete t.spec.activeDeadlineSeconds;
  }
  if (t.spec.restartPolicy !== 'Always') {
    r.add('spec.template.spec.restartPolicy', t.spec.restartPolicy, `is not allowed for ${article(o.kind)}`, 'use RestartPolicy.ALWAYS (the default)');
  }
  r.addAll(podTemplateProblems(t, { path: 'spec.template', claimVolumes: o.claimVolumes }));
}

/** The names of the volume claim templates, checked: DNS-1123 labels, unique, no clash with template volumes. */
function volumeClaimTemplateRules(r: Rules, spec: Json): string[] {
  const templateVolumes = new Set<string>((spec.template?.spec?.volumes ?? []).map((v: Json) => v.name));
  const names: string[] = [];
  (spec.volumeClaimTemplates ?? []).forEach((vct: Json, i: number) => {
    const at = `spec.volumeClaimTemplates[${i}]`;
    const name = vct.metadata?.name;
    if (!name) {
      r.add(`${at}.metadata.name`, name, 'is required', 'name the claim template; containers mount it by this name');
      return;
    }
    for (const p of dns1123LabelProblems(name)) r.add(`${at}.metadata.name`, name, p, 'rename the claim template');
    if (templateVolumes.has(name)) {
      r.add(`${at}.metadata.name`, name, 'is also the name of a pod template volume (the pod would get two volumes of that name)', 'rename the claim template or the volume');
    }
    if (names.includes(name)) r.add(`${at}.metadata.name`, name, 'is used by another claim template', 'give every claim template its own name');
    names.push(name);
    const modes = vct.spec?.accessModes ?? [];
    if (modes.length === 0) r.add(`${at}.spec.accessModes`, vct.spec?.accessModes, 'is empty; the API server refuses such claims', 'give at least one access mode, e.g. ReadWriteOnce');
    const storage = vct.spec?.resources?.requests?.storage;
    const q = parseQuantity(storage);
    if (storage === undefined) r.add(`${at}.spec.resources.requests.storage`, storage, 'is required; the API server refuses such claims', 'request a storage size');
    else if (q === undefined || q <= 0) r.add(`${at}.spec.resources.requests.storage`, storage, 'is not a positive quantity', 'request a storage size such as 10Gi');
  });
  return names;
}

/** Lifecycle hooks: well-formed labels and finalizers, no empty hook; `forbidInPlaceUpdate` for DaemonSets. */
function lifecycleRules(r: Rules, lifecycle: Json | undefined, forbidInPlaceUpdate: boolean): void {
  if (!lifecycle) return;
  for (const hook of ['preDelete', 'inPlaceUpdate', 'preNormal']) {
    const h = lifecycle[hook];
    if (!h) continue;
    const at = `spec.lifecycle.${hook}`;
    if (hook === 'inPlaceUpdate' && forbidInPlaceUpdate) {
      r.add(at, h, 'is not supported for an Advanced DaemonSet', 'remove the inPlaceUpdate hook (use preDelete or preNormal)');
      continue;
    }
    const labels = h.labelsHandler ?? {};
    const finalizers: string[] = h.finalizersHandler ?? [];
    if (Object.keys(labels).length === 0 && finalizers.length === 0 && h.markPodNotReady !== true) {
      r.add(at, h, 'has neither labels, finalizers nor markPodNotReady, so it does nothing', 'give the hook a label or finalizer your controller removes, or drop it');
    }
    for (const [k, v] of Object.entries<string>(labels)) {
      for (const p of qualifiedNameProblems(k)) r.add(`${at}.labelsHandler[${JSON.stringify(k)}]`, k, `key ${p}`, 'use a qualified label key such as example.com/ready');
      for (const p of labelValueProblems(String(v))) r.add(`${at}.labelsHandler[${JSON.stringify(k)}]`, v, `value ${p}`, 'use a valid label value');
    }
    finalizers.forEach((f, i) => {
      for (const p of qualifiedNameProblems(f)) r.add(`${at}.finalizersHandler[${i}]`, f, p, 'use a qualified finalizer name such as example.com/drain');
    });
  }
}

/** priorityStrategy: exclusive forms, weights 0..100, non-empty selectors and keys. */
function priorityRules(r: Rules, ps: Json | undefined, at: string): void {
  if (!ps) return;
  const weights: Json[] = ps.weightPriority ?? [];
  const orders: Json[] = ps.orderPriority ?? [];
  if (weights.length > 0 && orders.length > 0) {
    r.add(at, ps, 'sets both weightPriority and orderPriority', 'use UpdatePriority.weighted() or UpdatePriority.ordered(), not both');
  }
  weights.forEach((w, i) => {
    const here = `${at}.weightPriority[${i}]`;
    if (!(Number.isInteger(w.weight) && w.weight >= 0 && w.weight <= 100)) r.add(`${here}.weight`, w.weight, 'is out of range', 'use a weight between 0 and 100');
    if (!w.matchSelector || isEmptySelector(w.matchSelector)) {
      r.add(`${here}.matchSelector`, w.matchSelector, 'is empty', 'select the pods this weight applies to');
    }
    for (const p of selectorProblems(w.matchSelector)) r.add(`${here}.matchSelector.${p.field}`, p.value, p.problem, 'fix the selector');
  });
  orders.forEach((o, i) => {
    if (!o.orderedKey) r.add(`${at}.orderPriority[${i}].orderedKey`, o.orderedKey, 'is empty', 'give the pod label key whose value orders the update');
  });
}

/** scatterStrategy: non-empty keys, unique (key, value) pairs. */
function scatterRules(r: Rules, terms: Json[] | undefined, at: string): void {
  const seen = new Set<string>();
  (terms ?? []).forEach((t, i) => {
    if (!t.key) r.add(`${at}[${i}].key`, t.key, 'is empty', 'give the pod label key to scatter by');
    const k = JSON.stringify([t.key, t.value]);
    if (seen.has(k)) r.add(`${at}[${i}]`, { key: t.key, value: t.value }, 'repeats another scatter term', 'list each key/value pair once');
    seen.add(k);
  });
}

/** Image pre-download annotations (§19): values the controller would ignore or the ImagePullJob webhook refuse. */
function imagePreDownloadRules(r: Rules, annotations: Json | undefined): void {
  const a = annotations ?? {};
  const par = a['apps.kruise.io/image-predownload-parallelism'];
  if (par !== undefined && !/^\d+$/.test(String(par))) {
    r.add('metadata.annotations["apps.kruise.io/image-predownload-parallelism"]', par,
      'is not a non-negative integer (OpenKruise ignores it or never creates the ImagePullJobs)', 'use a whole number of nodes, e.g. 5');
  }
  const to = a['apps.kruise.io/image-predownload-timeout-seconds'];
  if (to !== undefined && !(/^\d+$/.test(String(to)) && Number(to) > 0 && Number(to) <= MAX_INT32)) {
    r.add('metadata.annotations["apps.kruise.io/image-predownload-timeout-seconds"]', to,
      'is not a positive 32-bit number of seconds (OpenKruise falls back to 300)', 'use whole seconds, e.g. 600');
  }
  const min = a['apps.kruise.io/image-predownload-min-updated-ready-pods'];
  if (min !== undefined) {
    const v = /^\d+$/.test(String(min)) ? Number(min) : String(min);
    const p = parseUpstreamPercent(v);
    if (!p || p.value < 0) {
      r.add('metadata.annotations["apps.kruise.io/image-predownload-min-updated-ready-pods"]', min,
        'is not a non-negative integer or whole percentage (OpenKruise reads it as 0)', 'use e.g. 2 or 20%');
    }
  }
}

// --- CloneSet -----------------------------------------------------------------

/** CloneSet defaults D1-D8 (template defaults are applied by the template rules). */
export function defaultCloneSet(manifest: Json): Json {
  const m = clone(manifest);
  const s: Json = m.spec ??= {};
  s.replicas ??= 1;
  s.revisionHistoryLimit ??= 10;
  const u: Json = s.updateStrategy ??= {};
  u.type ||= 'ReCreate';
  if ((u.type === 'InPlaceIfPossible' || u.type === 'InPlaceOnly') && !u.inPlaceUpdateStrategy) u.inPlaceUpdateStrategy = {};
  u.partition ??= 0;
  u.maxUnavailable ??= '20%';
  u.maxSurge ??= 0;
  return m;
}

const CLONESET_TYPES = ['ReCreate', 'InPlaceIfPossible', 'InPlaceOnly'];

/** CloneSet rules 1-19 (create-time), on the defaulted object, plus the whole-percent rule for the budgets. */
export function cloneSetProblems(manifest: Json): RuleProblem[] {
  const r = new Rules();
  const m = defaultCloneSet(manifest);
  const s: Json = m.spec;
  metadataRules(r, m.metadata, 'subdomain', 'CloneSet');
  imagePreDownloadRules(r, m.metadata?.annotations);
  const replicas: number = s.replicas;
  if (!(Number.isInteger(replicas) && replicas >= 0)) r.add('spec.replicas', replicas, 'must be 0 or more', 'use a non-negative number of replicas');
  selectorRules(r, s, 'CloneSet', { required: true, skipMatchWhenEmpty: true });
  const claims = volumeClaimTemplateRules(r, s);
  templateRules(r, s, { claimVolumes: claims, kind: 'CloneSet' });

  const toDelete: string[] = s.scaleStrategy?.podsToDelete ?? [];
  const dups = [...new Set(toDelete.filter((n, i) => toDelete.indexOf(n) !== i))];
  if (dups.length > 0) r.add('spec.scaleStrategy.podsToDelete', dups, 'are listed more than once', 'list each pod once');
  const smu = s.scaleStrategy?.maxUnavailable;
  if (smu !== undefined && !parseUpstreamPercent(smu)) {
    r.add('spec.scaleStrategy.maxUnavailable', smu, 'is not an integer or a whole percentage (the controller reads it as 0)', 'use e.g. 2 or 20%');
  }

  const u: Json = s.updateStrategy;
  if (!CLONESET_TYPES.includes(u.type)) {
    r.add('spec.updateStrategy.type', u.type, 'is not supported by the CloneSet webhook', `use one of ${CLONESET_TYPES.join(', ')} (CloneSetUpdateStrategy.recreate/inPlaceIfPossible/inPlaceOnly)`);
  }
  const partition = parseKruisePercent(u.partition);
  if (!partition) {
    r.add('spec.updateStrategy.partition', u.partition, 'is not an integer or a percentage', 'use PercentOrAbsolute.absolute(n) or PercentOrAbsolute.percent(p)');
  } else if (scaled(partition, replicas, true) < 0) {
    r.add('spec.updateStrategy.partition', u.partition, 'is negative', 'use 0 or more pods (or percent)');
  }
  priorityRules(r, u.priorityStrategy, 'spec.updateStrategy.priorityStrategy');
  scatterRules(r, u.scatterStrategy, 'spec.updateStrategy.scatterStrategy');
  const budget = (field: 'maxUnavailable' | 'maxSurge'): ParsedIntOrPercent | undefined => {
    const v = u[field];
    const at = `spec.updateStrategy.${field}`;
    if (!parseKruisePercent(v)) {
      r.add(at, v, 'is not an integer or a percentage', 'use PercentOrAbsolute.absolute(n) or PercentOrAbsolute.percent(p)');
      return undefined;
    }
    const p = parseUpstreamPercent(v);
    if (!p) {
      r.add(at, v, 'is not a whole percentage; the webhook admits it but the CloneSet controller reads it as 0', 'use a whole percentage such as 12% or 13%, or an absolute number');
    }
    return p;
  };
  const maxUnavailable = budget('maxUnavailable');
  const maxSurge = budget('maxSurge');
  if (maxSurge && u.type === 'InPlaceOnly' && scaled(maxSurge, replicas, true) > 0) {
    r.add('spec.updateStrategy.maxSurge', u.maxSurge, 'must be 0 with InPlaceOnly', 'remove maxSurge or use inPlaceIfPossible()');
  }
  if (maxUnavailable && maxSurge && replicas > 0 && scaled(maxUnavailable, replicas, true) < 1 && scaled(maxSurge, replicas, true) < 1) {
    r.add('spec.updateStrategy.maxUnavailable', u.maxUnavailable, `and maxSurge ${describe(u.maxSurge)} are both below one pod, so the update could never proceed`,
      'allow at least one unavailable or one surge pod');
  }
  const pds = s.progressDeadlineSeconds;
  if (pds !== undefined) {
    if (!(Number.isInteger(pds) && pds >= 0)) {r.add('spec.progressDeadlineSeconds', pds, 'must be 0 or more', 'use a non-negative deadline');} else if (pds !== MAX_INT32 && pds <= (s.minReadySeconds ?? 0)) {
      r.add('spec.progressDeadlineSeconds', pds, `must be greater than minReadySeconds (${s.minReadySeconds ?? 0})`, 'raise progressDeadline above minReady');
    }
  }
  lifecycleRules(r, s.lifecycle, false);
  return r.out;
}

// --- Advanced StatefulSet -----------------------------------------------------

/** Options of the Advanced StatefulSet defaults. */
export interface AdvancedStatefulSetDefaultsOptions {
  /** The StatefulSetAutoDeletePVC gate (on by default). */
  readonly autoDeletePvc: boolean;
}

/** Advanced StatefulSet defaults D1-D6. */
export function defaultAdvancedStatefulSet(manifest: Json, o: AdvancedStatefulSetDefaultsOptions = { autoDeletePvc: true }): Json {
  const m = clone(manifest);
  const s: Json = m.spec ??= {};
  s.podManagementPolicy ||= 'OrderedReady';
  const u: Json = s.updateStrategy ??= {};
  u.type ||= 'RollingUpdate';
  if (u.type === 'RollingUpdate') {
    const ru: Json = u.rollingUpdate ??= {};
    ru.partition ??= 0;
    ru.maxUnavailable ??= 1;
    ru.podUpdatePolicy ||= 'ReCreate';
    ru.minReadySeconds ??= 0;
  }
  if (o.autoDeletePvc) {
    const p: Json = s.persistentVolumeClaimRetentionPolicy ??= {};
    p.whenDeleted ||= 'Retain';
    p.whenScaled ||= 'Retain';
  }
  s.replicas ??= 1;
  s.revisionHistoryLimit ??= 10;
  return m;
}

/** Rule 4/9: an Advanced StatefulSet maxUnavailable. */
function stsMaxUnavailableRules(r: Rules, v: IntOrPercent, at: string, policy: string): void {
  const strict = parseStrictPercent(v);
  if (!strict) {
    r.add(at, v, 'is not a non-negative integer or a whole percentage', 'use e.g. 2 or 50%');
    return;
  }
  if (scaled(strict, 1, true) < 1) {
    r.add(at, v, 'must allow at least one pod', 'use 1 or more (or a positive percentage)');
  } else if (policy !== 'Parallel' && v !== 1) {
    r.add(at, v, `must be 1 with podManagementPolicy ${policy}`, 'use PodManagementPolicy.PARALLEL or drop maxUnavailable');
  }
}

const RETENTION = ['Retain', 'Delete'];
const POD_UPDATE_POLICIES = ['ReCreate', 'InPlaceIfPossible', 'InPlaceOnly'];

/** Advanced StatefulSet rules 1-19 (create-time) on the defaulted object, plus the pod-template checks upstream skips. */
export function advancedStatefulSetProblems(manifest: Json, o: AdvancedStatefulSetDefaultsOptions = { autoDeletePvc: true }): RuleProblem[] {
  const r = new Rules();
  const m = defaultAdvancedStatefulSet(manifest, o);
  const s: Json = m.spec;
  metadataRules(r, m.metadata, 'label', 'Advanced StatefulSet');
  imagePreDownloadRules(r, m.metadata?.annotations);
  const policy = s.podManagementPolicy;
  if (!['OrderedReady', 'Parallel'].includes(policy)) r.add('spec.podManagementPolicy', policy, 'is not supported', 'use OrderedReady or Parallel');
  (s.reserveOrdinals ?? []).forEach((ro: IntOrPercent, i: number) => {
    const at = `spec.reserveOrdinals[${i}]`;
    if (typeof ro === 'number') {
      if (!(Number.isInteger(ro) && ro >= 0)) r.add(at, ro, 'must be a non-negative ordinal', 'use 0 or more');
      return;
    }
    const mm = /^(\d+)-(\d+)$/.exec(ro);
    if (!mm) r.add(at, ro, 'is not an ordinal range', 'use a range such as "3-5"');
    else if (Number(mm[1]) > Number(mm[2])) r.add(at, ro, 'starts after it ends', 'write the range as <start>-<end> with start <= end');
  });
  if (s.scaleStrategy?.maxUnavailable !== undefined) stsMaxUnavailableRules(r, s.scaleStrategy.maxUnavailable, 'spec.scaleStrategy.maxUnavailable', policy);
  const u: Json = s.updateStrategy;
  if (!['RollingUpdate', 'OnDelete'].includes(u.type)) r.add('spec.updateStrategy.type', u.type, 'is not supported', 'use RollingUpdate or OnDelete');
  if (u.type === 'OnDelete' && u.rollingUpdate !== undefined) {
    r.add('spec.updateStrategy.rollingUpdate', u.rollingUpdate, 'is only allowed with type RollingUpdate', 'remove rollingUpdate or use a rolling update');
  }
  const ru: Json | undefined = u.type === 'RollingUpdate' ? u.rollingUpdate : undefined;
  if (ru) {
    const at = 'spec.updateStrategy.rollingUpdate';
    if (!(Number.isInteger(ru.partition) && ru.partition >= 0)) r.add(`${at}.partition`, ru.partition, 'must be 0 or more', 'use a non-negative ordinal');
    if (!(Number.isInteger(ru.minReadySeconds) && ru.minReadySeconds >= 0 && ru.minReadySeconds <= 300)) {
      r.add(`${at}.minReadySeconds`, ru.minReadySeconds, 'is out of range', 'use 0 to 300 seconds');
    }
    stsMaxUnavailableRules(r, ru.maxUnavailable, `${at}.maxUnavailable`, policy);
    if (!POD_UPDATE_POLICIES.includes(ru.podUpdatePolicy)) r.add(`${at}.podUpdatePolicy`, ru.podUpdatePolicy, 'is not supported', `use one of ${POD_UPDATE_POLICIES.join(', ')}`);
    if (ru.podUpdatePolicy === 'InPlaceIfPossible' || ru.podUpdatePolicy === 'InPlaceOnly') {
      const gates: Json[] = s.template?.spec?.readinessGates ?? [];
      if (!gates.some(g => g.conditionType === 'InPlaceUpdateReady')) {
        r.add('spec.template.spec.readinessGates', s.template?.spec?.readinessGates, `must contain InPlaceUpdateReady with podUpdatePolicy ${ru.podUpdatePolicy}`,
          'add { conditionType: InPlaceUpdateReady } (the AdvancedStatefulSet construct adds it for you)');
      }
    }
    if (ru.unorderedUpdate !== undefined) {
      if (policy !== 'Parallel') r.add(`${at}.unorderedUpdate`, ru.unorderedUpdate, `is only allowed with podManagementPolicy Parallel, not ${policy}`, 'use PodManagementPolicy.PARALLEL or an ordered update');
      priorityRules(r, ru.unorderedUpdate.priorityStrategy, `${at}.unorderedUpdate.priorityStrategy`);
    }
  }
  const ret = s.persistentVolumeClaimRetentionPolicy;
  if (ret !== undefined) {
    for (const f of ['whenDeleted', 'whenScaled']) {
      if (!RETENTION.includes(ret[f])) r.add(`spec.persistentVolumeClaimRetentionPolicy.${f}`, ret[f], 'is not supported', 'use Retain or Delete');
    }
  }
  if (!(Number.isInteger(s.replicas) && s.replicas >= 0)) r.add('spec.replicas', s.replicas, 'must be 0 or more', 'use a non-negative number of replicas');
  selectorRules(r, s, 'Advanced StatefulSet', { required: true, skipMatchWhenEmpty: true });
  const claims = volumeClaimTemplateRules(r, s);
  templateRules(r, s, { claimVolumes: claims, kind: 'Advanced StatefulSet' });
  lifecycleRules(r, s.lifecycle, false);
  return r.out;
}

// --- Advanced DaemonSet -------------------------------------------------------

/** Advanced DaemonSet defaults D1-D6 (no template defaults are persisted, D7). */
export function defaultAdvancedDaemonSet(manifest: Json): Json {
  const m = clone(manifest);
  const s: Json = m.spec ??= {};
  s.burstReplicas ??= 250;
  const u: Json = s.updateStrategy ??= {};
  u.type ||= 'RollingUpdate';
  if (u.type === 'RollingUpdate') {
    const ru: Json = u.rollingUpdate ??= {};
    ru.rollingUpdateType ||= 'Standard';
    if (ru.maxUnavailable === undefined && ru.maxSurge === undefined) {
      ru.maxUnavailable = 1;
      ru.maxSurge = 0;
    }
  }
  s.revisionHistoryLimit ??= 10;
  return m;
}

/** The numeric value the DaemonSet webhook reads from a budget: strict percentages give their number, other strings their integer or 0. */
function dsNumeric(v: IntOrPercent | undefined): number {
  if (v === undefined) return 0;
  if (typeof v === 'number') return v;
  const p = parseStrictPercent(v);
  if (p) return p.value;
  return /^[+-]?\d+$/.test(v) ? Number(v) : 0;
}

/** A DaemonSet int-or-percent (maxUnavailable, maxSurge, partition): PCT-STRICT and at most 100%. */
function dsIntOrPercentRules(r: Rules, v: IntOrPercent | undefined, at: string): void {
  if (v === undefined) return;
  const p = parseStrictPercent(v);
  if (!p) {
    const silent = typeof v === 'string' && dsNumeric(v) === 0;
    r.add(at, v, silent ? 'is not a non-negative integer or whole percentage, and OpenKruise silently reads it as 0' : 'is not a non-negative integer or whole percentage',
      'use e.g. 2 or 10%');
  } else if (p.isPercent && p.value > 100) {
    r.add(at, v, 'is more than 100%', 'use at most 100%');
  }
}

/** Advanced DaemonSet rules 1-19 (create-time, v1beta1) on the defaulted object. */
export function advancedDaemonSetProblems(manifest: Json): RuleProblem[] {
  const r = new Rules();
  const m = defaultAdvancedDaemonSet(manifest);
  const s: Json = m.spec;
  metadataRules(r, m.metadata, 'subdomain', 'Advanced DaemonSet');
  imagePreDownloadRules(r, m.metadata?.annotations);
  selectorRules(r, s, 'Advanced DaemonSet', { required: false, skipMatchWhenEmpty: false });
  templateRules(r, s, { claimVolumes: [], kind: 'Advanced DaemonSet' });
  if (s.minReadySeconds !== undefined && !(Number.isInteger(s.minReadySeconds) && s.minReadySeconds >= 0)) {
    r.add('spec.minReadySeconds', s.minReadySeconds, 'must be 0 or more', 'use a non-negative number of seconds');
  }
  const u: Json = s.updateStrategy;
  if (!['RollingUpdate', 'OnDelete'].includes(u.type)) r.add('spec.updateStrategy.type', u.type, 'is not supported', 'use RollingUpdate or OnDelete');
  const ru: Json | undefined = u.rollingUpdate;
  if (u.type === 'RollingUpdate' && ru) {
    const at = 'spec.updateStrategy.rollingUpdate';
    const mu = dsNumeric(ru.maxUnavailable);
    const ms = dsNumeric(ru.maxSurge);
    if (ru.maxUnavailable !== undefined && (mu !== 0 || typeof ru.maxUnavailable === 'string')) dsIntOrPercentRules(r, ru.maxUnavailable, `${at}.maxUnavailable`);
    if (ru.maxSurge !== undefined && (ms !== 0 || typeof ru.maxSurge === 'string')) dsIntOrPercentRules(r, ru.maxSurge, `${at}.maxSurge`);
    if (mu !== 0 && ms !== 0) {
      r.add(`${at}.maxSurge`, ru.maxSurge, `is not allowed with a non-zero maxUnavailable (${describe(ru.maxUnavailable)})`, 'use rollingUpdate({ maxUnavailable }) or surging({ maxSurge }), not both');
    } else if (mu === 0 && ms === 0) {
      r.add(`${at}.maxUnavailable`, ru.maxUnavailable ?? 0, 'cannot be 0 when maxSurge is 0', 'allow at least one unavailable pod, or surge with surging({ maxSurge })');
    }
    if (!['Standard', 'InPlaceIfPossible'].includes(ru.rollingUpdateType)) {
      r.add(`${at}.rollingUpdateType`, ru.rollingUpdateType, 'is not supported by apps.kruise.io/v1beta1', 'use Standard (with maxSurge for a surging update) or InPlaceIfPossible');
    }
    if (ru.rollingUpdateType === 'InPlaceIfPossible' && ms !== 0) {
      r.add(`${at}.maxSurge`, ru.maxSurge, 'must be 0 with InPlaceIfPossible', 'remove maxSurge');
    }
    dsIntOrPercentRules(r, ru.partition, `${at}.partition`);
    for (const p of selectorProblems(ru.selector)) r.add(`${at}.selector.${p.field}`, p.value, p.problem, 'fix the node selector');
  }
  if (s.revisionHistoryLimit !== undefined && !(Number.isInteger(s.revisionHistoryLimit) && s.revisionHistoryLimit >= 0)) {
    r.add('spec.revisionHistoryLimit', s.revisionHistoryLimit, 'must be 0 or more', 'use a non-negative number of revisions');
  }
  const burst = s.burstReplicas;
  const bp = parseUpstreamPercent(burst);
  if (!bp || bp.value <= 0) {
    r.add('spec.burstReplicas', burst, 'is not a positive integer or whole percentage (the controller would create no pods)', 'use e.g. 50 or 20%');
  }
  lifecycleRules(r, s.lifecycle, true);
  return r.out;
}

// --- warnings -----------------------------------------------------------------

const ROLLBACK = 'raising the partition later holds back pods that have not updated yet, but never rolls updated pods back to the old revision; to roll back, revert the pod template';

function lifecycleWarnings(lifecycle: Json | undefined): string[] {
  return lifecycle?.preNormal?.markPodNotReady === true
    ? ['spec.lifecycle.preNormal.markPodNotReady has no effect: OpenKruise honours markPodNotReady on the preDelete and inPlaceUpdate hooks only']
    : [];
}

const VCT_WARNING = 'spec.volumeClaimTemplates: changing a claim template never reaches existing pods in place; only pods created afterwards (scale-out or recreation) get claims from the new template';

/** What a CloneSet's configuration will do that users do not expect. */
export function cloneSetWarnings(manifest: Json): string[] {
  const out: string[] = [];
  const s: Json = manifest.spec ?? {};
  const u: Json = s.updateStrategy ?? {};
  const replicas: number = s.replicas ?? 1;
  const partition = u.partition === undefined ? undefined : parseKruisePercent(u.partition);
  if (partition && partition.value > 0) {
    out.push(`spec.updateStrategy.partition ${describe(u.partition)}: ${ROLLBACK}`);
    if (partition.isPercent && partition.value < 100) {
      let kept = Math.min(Math.max(scaled(partition, replicas, true), 0), replicas);
      if (replicas > 1 && kept === replicas) kept = replicas - 1;
      const exact = (partition.value * replicas) / 100;
      if (kept !== exact) out.push(`spec.updateStrategy.partition ${describe(u.partition)} is rounded up: with ${replicas} replicas it keeps ${kept} pod(s) at the old revision and updates ${replicas - kept}; below 100% at least one pod is always updated`);
    }
  }
  const surge = u.maxSurge === undefined ? undefined : parseKruisePercent(u.maxSurge);
  if (u.type === 'InPlaceIfPossible' && surge && scaled(surge, replicas, true) > 0) {
    out.push(`spec.updateStrategy.maxSurge ${describe(u.maxSurge)} with InPlaceIfPossible still creates surge pods during every update, even when all pods could be updated in place; drop maxSurge for a pure in-place rollout`);
  }
  if ((s.volumeClaimTemplates ?? []).length > 0) out.push(VCT_WARNING);
  if ((s.scaleStrategy?.podsToDelete ?? []).length > 0) {
    out.push('spec.scaleStrategy.podsToDelete: OpenKruise only accepts names of pods this CloneSet already owns, so the first apply of a new CloneSet with podsToDelete is refused; add them once the CloneSet runs');
  }
  if (hasPreDownload(manifest)) {
    if ((u.type ?? 'ReCreate') === 'ReCreate') out.push('image pre-download is skipped with the ReCreate update strategy; it only serves in-place updates');
    else if (replicas <= 3) out.push(`image pre-download is skipped for ${replicas} replica(s); OpenKruise only pre-downloads for more than 3`);
  }
  out.push(...lifecycleWarnings(s.lifecycle));
  return out;
}

/** What an Advanced StatefulSet's configuration will do that users do not expect. */
export function advancedStatefulSetWarnings(manifest: Json): string[] {
  const out: string[] = [];
  const s: Json = manifest.spec ?? {};
  const u: Json = s.updateStrategy ?? {};
  const ru: Json = u.rollingUpdate ?? {};
  if ((ru.partition ?? 0) > 0) out.push(`spec.updateStrategy.rollingUpdate.partition ${ru.partition}: ${ROLLBACK}`);
  if ((s.volumeClaimTemplates ?? []).length > 0 && s.volumeClaimUpdateStrategy?.type !== 'OnPodRollingUpdate') out.push(VCT_WARNING);
  if (hasPreDownload(manifest)) {
    const policy = ru.podUpdatePolicy ?? 'ReCreate';
    if ((u.type ?? 'RollingUpdate') === 'OnDelete' || policy === 'ReCreate') {
      out.push('image pre-download is skipped unless the rolling update uses an in-place podUpdatePolicy');
    } else if ((s.replicas ?? 1) <= 3) {
      out.push(`image pre-download is skipped for ${s.replicas ?? 1} replica(s); OpenKruise only pre-downloads for more than 3`);
    }
  }
  out.push(...lifecycleWarnings(s.lifecycle));
  return out;
}

/** What an Advanced DaemonSet's configuration will do that users do not expect. */
export function advancedDaemonSetWarnings(manifest: Json): string[] {
  const out: string[] = [];
  const s: Json = manifest.spec ?? {};
  const ru: Json = s.updateStrategy?.rollingUpdate ?? {};
  if (ru.partition !== undefined && dsNumeric(ru.partition) > 0) out.push(`spec.updateStrategy.rollingUpdate.partition ${describe(ru.partition)}: ${ROLLBACK}`);
  if (s.updateStrategy?.type === 'OnDelete' && s.updateStrategy.rollingUpdate !== undefined) {
    out.push('spec.updateStrategy.rollingUpdate has no effect with type OnDelete; OpenKruise ignores it');
  }
  if (manifest.metadata?.annotations?.['apps.kruise.io/image-predownload-min-updated-ready-pods'] !== undefined) {
    out.push('the image-predownload-min-updated-ready-pods annotation has no effect on an Advanced DaemonSet');
  }
  out.push(...lifecycleWarnings(s.lifecycle));
  return out;
}

function hasPreDownload(manifest: Json): boolean {
  return Object.keys(manifest.metadata?.annotations ?? {}).some(k => k.startsWith('apps.kruise.io/image-predownload-'));
}
