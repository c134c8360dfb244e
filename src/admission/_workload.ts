/**
 * The pieces of admission shared by the three OpenKruise workloads
 * (CloneSet, Advanced StatefulSet, Advanced DaemonSet): metadata, selector,
 * pod template, volume claim templates, lifecycle hooks, update priorities,
 * scatter and image pre-download annotations. Each rule is written once here
 * and called by the kind modules beside this file.
 */
import type { PodTemplates } from './_pod-template-releases';
import { advice } from '../validation/advice';
import { fieldError, stricterProblem } from '../validation/field-error';
import { cloneJson } from '../validation/json';
import { dns1123LabelProblems, dns1123SubdomainProblems, labelValueProblems, labelsProblems, qualifiedNameProblems } from '../validation/names';
import { IntOrPercent, parseUpstreamPercent } from '../validation/percent';
import { TemplateProblem, defaultedTemplateView, parseQuantity, podTemplateProblems } from '../validation/pod-template';
import { isEmptySelector, LabelSelectorJson, selectorMatches, selectorProblems } from '../validation/selectors';
import { eachObject, isObject, listShapeProblem } from '../validation/shape';

/** One rule violation: field path, value found, what is wrong, how to fix it. */
export type RuleProblem = TemplateProblem;

export type Json = Record<string, any>;

export const MAX_INT32 = 2147483647;
/** A copy sharing nothing with `v` (wire data). */
export const clone = cloneJson;

/**
 * Copy-on-write defaulting: `parent[key]` replaced by a shallow copy of it
 * (`{}` when unset), returned for the defaults to write into. Defaults built
 * this way copy only the objects they change, never the input.
 */
export function ownCopy(parent: Json, key: string): Json {
  const copy: Json = { ...parent[key] };
  parent[key] = copy;
  return copy;
}

/**
 * The fields of an update strategy the webhook's Go types write back even
 * when unset (they have no `omitempty`), so the webhook's patch adds them
 * before the API server checks the required fields: an update priority
 * term's weight (0), matchSelector ({}) and orderedKey (''), a scatter
 * term's key and value (''). `strategy` is the defaults' own copy; the
 * lists are replaced, never changed.
 */
export function goZeroValues(strategy: Json | undefined): void {
  if (!strategy || typeof strategy !== 'object') return;
  const items = (v: unknown, zero: Json): Json[] | undefined => (Array.isArray(v)
    ? v.map(x => (x !== null && typeof x === 'object' && !Array.isArray(x)
      ? { ...x, ...Object.fromEntries(Object.entries(zero).filter(([k]) => x[k] === undefined)) } : x)) : undefined);
  const ps = strategy.priorityStrategy;
  if (ps !== null && typeof ps === 'object' && !Array.isArray(ps)) {
    const copy: Json = { ...ps };
    if (Array.isArray(ps.weightPriority)) copy.weightPriority = items(ps.weightPriority, { weight: 0, matchSelector: {} });
    if (Array.isArray(ps.orderPriority)) copy.orderPriority = items(ps.orderPriority, { orderedKey: '' });
    strategy.priorityStrategy = copy;
  }
  if (Array.isArray(strategy.scatterStrategy)) strategy.scatterStrategy = items(strategy.scatterStrategy, { key: '', value: '' });
}

/** Collects the problems of one object. */
export class Rules {
  public readonly out: RuleProblem[] = [];
  public add(field: string, value: unknown, problem: string, fix: string): void {
    this.out.push({ field, value, problem, fix });
  }
  public addAll(problems: RuleProblem[]): void {
    this.out.push(...problems);
  }
}

/** The problems as report lines. */
export function problemLines(problems: RuleProblem[]): string[] {
  return problems.map(p => fieldError(p.field, p.value, p.problem, p.fix));
}

/** The kind with its indefinite article, for messages. */
export const article = (kind: string): string => `${/^[AEIOU]/.test(kind) ? 'an' : 'a'} ${kind}`;

/** An int-or-percent as written in messages. */
export const describe = (v: IntOrPercent): string => (typeof v === 'number' ? String(v) : JSON.stringify(v));


/** OM(namespaced, NAMEFN): name, namespace, labels and annotations of the object. */
export function metadataRules(r: Rules, meta: Json | undefined, nameRule: 'subdomain' | 'label', kind: string): void {
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

export interface SelectorRuleOptions {
  /** A missing selector is reported as required. */
  readonly required: boolean;
  /** SEL-MATCH is skipped when the selector is empty (CloneSet, Advanced StatefulSet). */
  readonly skipMatchWhenEmpty: boolean;
}

/** SEL-VALID, SEL-NONEMPTY and SEL-MATCH of `spec.selector` against the template labels. */
export function selectorRules(r: Rules, spec: Json, kind: string, o: SelectorRuleOptions): void {
  const sel: LabelSelectorJson | undefined = spec.selector;
  if (sel === undefined && o.required) {
    r.add('spec.selector', undefined, 'is required', advice('select the pods by labels of spec.template.metadata.labels, e.g. matchLabels: {app: web}',
      `select the pods of the ${kind} (the construct does so unless 'select' is false)`));
  }
  // a required selector that is missing: "is required" says it all (a second line about labels not matching nothing would only repeat it)
  if ((sel === undefined || sel === null) && o.required) return;
  for (const p of selectorProblems(sel)) r.add(`spec.selector.${p.field}`, p.value, p.problem, 'fix the selector');
  const empty = isEmptySelector(sel);
  if (empty) {
    r.add('spec.selector', sel, `is empty and would select every pod of the namespace; an empty selector is not valid for ${article(kind)}`,
      advice('give it matchLabels or matchExpressions', 'keep the default selector or call select() with at least one label'));
  }
  if (empty && o.skipMatchWhenEmpty) return;
  const labels = spec.template?.metadata?.labels ?? {};
  if (!selectorMatches(sel, labels)) {
    r.add('spec.template.metadata.labels', labels, `do not match spec.selector ${JSON.stringify(sel ?? null)}`,
      advice('add the selected labels to the labels of the pod template, or select labels the pods carry',
        'add the selected labels to the pod metadata (podMetadata.addLabel) or select labels the pods carry'));
  }
}

export interface TemplateRuleOptions {
  /** Names of the pod volumes added from volumeClaimTemplates. */
  readonly claimVolumes: string[];
  /** restartPolicy must be Always (only checked when set, since it defaults to Always). */
  readonly kind: string;
  /**
   * The kind's webhook checks the pod spec of the template (CloneSet,
   * Advanced DaemonSet); without it (Advanced StatefulSet: labels and
   * annotations only) the pod checks are stricter than the webhook.
   * @default true
   */
  readonly webhookChecksPodSpec?: boolean;
}

/** What the API server does with the pods a controller creates from a template the webhook admitted. */
const POD_REFUSED = 'the API server refuses every pod the controller creates from the template';

/** The pod template of a workload (`spec.template`), for the pod-template release rules. */
export const workloadTemplate: PodTemplates = m => [{ template: defaultedTemplateView(m.spec?.template), specPath: 'spec.template.spec' }];

/** POD-TEMPLATE-VALID on the defaulted template, restartPolicy Always, activeDeadlineSeconds forbidden. */
export function templateRules(r: Rules, spec: Json, o: TemplateRuleOptions): void {
  let t = defaultedTemplateView(spec.template);
  if (!isObject(t) || !isObject(t.spec)) {
    r.addAll(podTemplateProblems(t, { path: 'spec.template', claimVolumes: o.claimVolumes })); // reports the shape
    return;
  }
  const ads = t.spec.activeDeadlineSeconds;
  if (ads !== undefined) {
    r.add('spec.template.spec.activeDeadlineSeconds', ads, `is forbidden for ${article(o.kind)}`, 'remove it (pods of a workload run until replaced)');
    // the pod rules then judge the template without it (the view is shared: a copy of what changes)
    const { activeDeadlineSeconds: _ads, ...rest } = t.spec;
    t = { ...t, spec: rest };
  }
  if (t.spec.restartPolicy !== 'Always') {
    r.add('spec.template.spec.restartPolicy', t.spec.restartPolicy, `is not allowed for ${article(o.kind)}`, advice('set it to Always or leave it out (Always is the default)', 'use RestartPolicy.ALWAYS (the default)'));
  }
  const found = podTemplateProblems(t, { path: 'spec.template', claimVolumes: o.claimVolumes });
  if (o.webhookChecksPodSpec === false) {
    const webhook = `the ${o.kind} webhook`;
    // what does not decode fails the webhook itself; labels and annotations it checks
    const own = (p: RuleProblem) => p.field.startsWith('spec.template.metadata') || /admits it, but|cannot decode|does not decode/.test(p.problem);
    r.addAll(found.map(p => (own(p) ? p : { ...p, problem: stricterProblem(p.problem, webhook, POD_REFUSED) })));
  } else {
    r.addAll(found);
  }
}

/** What the API server does with a claim the controller creates from a template the webhook admitted. */
const CLAIM_REFUSED = 'the API server refuses every claim the controller creates from the template';

/**
 * The names of the volume claim templates, checked: DNS-1123 labels, unique,
 * no clash with template volumes (`namesChecked`: the kind's webhook checks
 * the names, as the CloneSet webhook does by checking them as pod volumes;
 * else these are stricter than the webhook). Access modes and the storage
 * request no webhook checks: stricter on purpose.
 */
export function volumeClaimTemplateRules(r: Rules, spec: Json, namesChecked = true): string[] {
  const names_ = (problem: string) => (namesChecked ? problem : stricterProblem(problem, 'OpenKruise', CLAIM_REFUSED));
  const templateVolumes = new Set<string>();
  eachObject(spec.template?.spec?.volumes, v => templateVolumes.add(v.name)); // a list of anything else: reported by the pod template check
  const names: string[] = [];
  const shape = listShapeProblem(spec.volumeClaimTemplates);
  if (shape) r.add('spec.volumeClaimTemplates', spec.volumeClaimTemplates, shape.problem, shape.fix);
  eachObject(spec.volumeClaimTemplates, (vct: Json, i: number) => {
    const at = `spec.volumeClaimTemplates[${i}]`;
    const name = vct.metadata?.name;
    if (!name) {
      r.add(`${at}.metadata.name`, name, names_('is required'), 'name the claim template; containers mount it by this name');
      return;
    }
    for (const p of dns1123LabelProblems(name)) r.add(`${at}.metadata.name`, name, names_(p), 'rename the claim template');
    if (templateVolumes.has(name)) {
      r.add(`${at}.metadata.name`, name, names_('is also the name of a pod template volume (the pod would get two volumes of that name)'), 'rename the claim template or the volume');
    }
    if (names.includes(name)) r.add(`${at}.metadata.name`, name, names_('is used by another claim template'), 'give every claim template its own name');
    names.push(name);
    const modes = vct.spec?.accessModes ?? [];
    if (modes.length === 0) r.add(`${at}.spec.accessModes`, vct.spec?.accessModes, stricterProblem('is empty', 'OpenKruise', CLAIM_REFUSED), 'give at least one access mode, e.g. ReadWriteOnce');
    const storage = vct.spec?.resources?.requests?.storage;
    const q = parseQuantity(storage);
    if (storage === undefined) r.add(`${at}.spec.resources.requests.storage`, storage, stricterProblem('is required', 'OpenKruise', CLAIM_REFUSED), 'request a storage size');
    else if (q === undefined || q <= 0) r.add(`${at}.spec.resources.requests.storage`, storage, stricterProblem('is not a positive quantity', 'OpenKruise', CLAIM_REFUSED), 'request a storage size such as 10Gi');
  });
  return names;
}

/** Lifecycle hooks: well-formed labels and finalizers, no empty hook; `forbidInPlaceUpdate` for DaemonSets. */
export function lifecycleRules(r: Rules, lifecycle: Json | undefined, forbidInPlaceUpdate: boolean): void {
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
      r.add(at, h, stricterProblem('has neither labels, finalizers nor markPodNotReady', 'OpenKruise', 'the hook does nothing'), 'give the hook a label or finalizer your controller removes, or drop it');
    }
    const onPods = 'the API server refuses it on every pod the hook marks';
    for (const [k, v] of Object.entries<string>(labels)) {
      for (const p of qualifiedNameProblems(k)) r.add(`${at}.labelsHandler[${JSON.stringify(k)}]`, k, stricterProblem(`key ${p}`, 'OpenKruise', onPods), 'use a qualified label key such as example.com/ready');
      for (const p of labelValueProblems(String(v))) r.add(`${at}.labelsHandler[${JSON.stringify(k)}]`, v, stricterProblem(`value ${p}`, 'OpenKruise', onPods), 'use a valid label value');
    }
    finalizers.forEach((f, i) => {
      for (const p of qualifiedNameProblems(f)) r.add(`${at}.finalizersHandler[${i}]`, f, stricterProblem(p, 'OpenKruise', onPods), 'use a qualified finalizer name such as example.com/drain');
    });
  }
}

/** priorityStrategy: exclusive forms, weights 0..100, non-empty selectors and keys. */
export function priorityRules(r: Rules, ps: Json | undefined, at: string): void {
  if (!ps) return;
  const weights: Json[] = ps.weightPriority ?? [];
  const orders: Json[] = ps.orderPriority ?? [];
  if (weights.length > 0 && orders.length > 0) {
    r.add(at, ps, 'sets both weightPriority and orderPriority', advice('keep one of them', 'use UpdatePriority.weighted() or UpdatePriority.ordered(), not both'));
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
export function scatterRules(r: Rules, terms: Json[] | undefined, at: string): void {
  const seen = new Set<string>();
  (terms ?? []).forEach((t, i) => {
    if (!t.key) r.add(`${at}[${i}].key`, t.key, 'is empty', 'give the pod label key to scatter by');
    const k = JSON.stringify([t.key, t.value]);
    if (seen.has(k)) r.add(`${at}[${i}]`, { key: t.key, value: t.value }, 'repeats another scatter term', 'list each key/value pair once');
    seen.add(k);
  });
}

/** Image pre-download annotations (§19): values the controller would ignore or the ImagePullJob webhook refuse. */
export function imagePreDownloadRules(r: Rules, annotations: Json | undefined): void {
  const a = annotations ?? {};
  const par = a['apps.kruise.io/image-predownload-parallelism'];
  if (par !== undefined && !/^\d+$/.test(String(par))) {
    r.add('metadata.annotations["apps.kruise.io/image-predownload-parallelism"]', par,
      stricterProblem('is not a non-negative integer', 'OpenKruise', 'ignores it or never creates the ImagePullJobs'), 'use a whole number of nodes, e.g. 5');
  }
  const to = a['apps.kruise.io/image-predownload-timeout-seconds'];
  if (to !== undefined && !(/^\d+$/.test(String(to)) && Number(to) > 0 && Number(to) <= MAX_INT32)) {
    r.add('metadata.annotations["apps.kruise.io/image-predownload-timeout-seconds"]', to,
      stricterProblem('is not a positive 32-bit number of seconds', 'OpenKruise', 'falls back to 300'), 'use whole seconds, e.g. 600');
  }
  const min = a['apps.kruise.io/image-predownload-min-updated-ready-pods'];
  if (min !== undefined) {
    const v = /^\d+$/.test(String(min)) ? Number(min) : String(min);
    const p = parseUpstreamPercent(v);
    if (!p || p.value < 0) {
      r.add('metadata.annotations["apps.kruise.io/image-predownload-min-updated-ready-pods"]', min,
        stricterProblem('is not a non-negative integer or whole percentage', 'OpenKruise', 'reads it as 0'), 'use e.g. 2 or 20%');
    }
  }
}


/**
 * A partition that holds back every pod for good: above 100%, or above
 * spec.replicas (when set; an autoscaler's count is not known at synth).
 * 100% and a partition equal to the replicas pause an update on purpose;
 * more is accepted upstream but never lets one pod update.
 */
export function partitionWarnings(written: unknown, partition: { value: number; isPercent: boolean }, replicas: unknown, at: string): string[] {
  if (partition.isPercent && partition.value > 100) {
    return [fieldError(at, written, 'is above 100%, so it holds back every pod and no update ever rolls out',
      'use at most "100%" (which pauses the update on purpose), or lower it to let pods update')];
  }
  if (!partition.isPercent && typeof replicas === 'number' && partition.value > replicas) {
    return [fieldError(at, written, `is above spec.replicas (${replicas}), so it holds back every pod and no update ever rolls out`,
      `use at most ${replicas} (which pauses the update on purpose), or lower it to let pods update`)];
  }
  return [];
}

export function lifecycleWarnings(lifecycle: Json | undefined): string[] {
  return lifecycle?.preNormal?.markPodNotReady === true
    ? [fieldError('spec.lifecycle.preNormal.markPodNotReady', true, 'has no effect: OpenKruise honours markPodNotReady on the preDelete and inPlaceUpdate hooks only',
      'remove it, or set markPodNotReady on the preDelete or inPlaceUpdate hook')]
    : [];
}

/** The image pre-download annotations of a workload (empty when it asks for none). */
export function preDownloadAnnotations(manifest: Json): string[] {
  return Object.keys(manifest.metadata?.annotations ?? {}).filter(k => k.startsWith('apps.kruise.io/image-predownload-'));
}

export function hasPreDownload(manifest: Json): boolean {
  return preDownloadAnnotations(manifest).length > 0;
}

/**
 * A warning about the image pre-download a workload asks for and OpenKruise
 * skips: `why` says when it skips, `otherwise` how else to get it.
 */
export function preDownloadSkipped(manifest: Json, why: string, otherwise: { manifest: string; construct: string }): string {
  return fieldError('metadata.annotations', preDownloadAnnotations(manifest), `ask for image pre-download, which OpenKruise skips ${why}`,
    advice(`remove them${otherwise.manifest ? `, or ${otherwise.manifest}` : ''}`, `drop imagePreDownload${otherwise.construct ? `, or ${otherwise.construct}` : ''}`));
}
