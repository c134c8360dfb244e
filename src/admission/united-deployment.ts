/**
 * UnitedDeployment admission (apps.kruise.io/v1alpha1).
 *
 * Defaults: revisionHistoryLimit 10; updateStrategy.type Manual, with an
 * empty manualUpdate; the pod-template defaults of a statefulSetTemplate only
 * (unless the TemplateNoDefaults gate is on); when subsets use min/max
 * replicas and none sets replicas, minReplicas 0 on every subset without one;
 * status cleared.
 *
 * Rules: metadata (the name a DNS subdomain); spec.replicas >= 0; the
 * selector required, valid and not empty; reserved rescheduling (Adaptive
 * with reserveUnschedulablePods) only with CloneSet or Deployment templates;
 * exactly one of statefulSetTemplate, advancedStatefulSetTemplate,
 * cloneSetTemplate, deploymentTemplate; the selector matches the workload
 * template labels (and, for the StatefulSet and Deployment templates, the pod
 * template labels); no replicas in a StatefulSet, Advanced StatefulSet or
 * Deployment template, no rolling-update partition in a StatefulSet one; the
 * pod template labels and annotations of a StatefulSet template; the pod
 * template of a Deployment template as the API server checks it, with
 * restartPolicy Always and no activeDeadlineSeconds. Per subset: a unique
 * DNS-1123 label name, a valid node selector term (invalid label values are
 * tolerated, as upstream does), valid tolerations, no replicas with the
 * Adaptive strategy, replicas/minReplicas/maxReplicas integers >= 0 or
 * percentages 0-100% (only when spec.replicas is set), minReplicas <=
 * maxReplicas. Across subsets: replicas and min/max replicas not mixed; with
 * min/max, spec.replicas set, one subset without maxReplicas and the minimums
 * adding up to at most the maximums; with replicas, a sum not above
 * spec.replicas and equal to it when every subset sets replicas, and every
 * subset setting replicas when spec.replicas is unset; manual-update
 * partitions naming existing subsets. Every subset-level message names the
 * subset.
 *
 * Stricter than upstream: a cloneSetTemplate gets the CloneSet rules, with the
 * UnitedDeployment's selector (upstream does not check it, and the CloneSet
 * webhook then refuses the subset workloads), and no partition (the
 * controller overwrites it with the subset's, as upstream refuses for the
 * StatefulSet templates); the selector needs matchLabels (the controller
 * adds the subset label to them and fails on a selector without any, so no
 * subset workload is ever created).
 *
 * Messages about subset replicas that do not add up name the subset to
 * change: the first whose replicas take the sum past spec.replicas, or the
 * last one when all set replicas and the sum falls short.
 *
 * Skipped: the update-only rules (template, subset node selector and
 * toleration immutability) and the delete protection, which need the stored
 * object or cluster state.
 */
import { PodTemplateAt, podTemplateFieldWarnings, podTemplateReleaseRules } from './_pod-template-releases';
import { goZeroValues } from './_workload';
import { cloneSetProblems } from './clone-set';
import { AdmissionContext, AdmissionModule, Manifest, ReleaseRule } from './types';
import { fieldError, stricterProblem } from '../validation/field-error';
import { cloneJson } from '../validation/json';
import { dns1123LabelProblems, dns1123SubdomainProblems, labelsProblems, objectMetaProblems, qualifiedNameProblems } from '../validation/names';
import { TemplateProblem, defaultPodTemplate, podTemplateDecodeProblems, podTemplateProblems, tolerationsProblems } from '../validation/pod-template';
import { LabelSelectorJson, isEmptySelector, selectorMatches, selectorProblems } from '../validation/selectors';
import { untypedObjectProblems } from '../validation/shape';

type Json = Record<string, any>;

const clone = cloneJson;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const present = (v: unknown): boolean => v !== undefined && v !== null;

/** The four subset workload templates, in upstream's order. */
/** Why a cloneSetTemplate the UnitedDeployment webhook admits is refused: its subset CloneSets are. */
const CLONESET_TEMPLATE_REFUSED = 'the CloneSet webhook refuses every subset CloneSet created from it';

export const SUBSET_TEMPLATES = ['statefulSetTemplate', 'advancedStatefulSetTemplate', 'cloneSetTemplate', 'deploymentTemplate'];
const STATEFUL = ['statefulSetTemplate', 'advancedStatefulSetTemplate'];
const NO_MAX = 1000000;
const INT32_MAX = 2147483647;

/** UD-PCT: a subset replica count against spec.replicas (undefined when unset), or why it cannot be read. */
export function parseSubsetReplicas(value: unknown, udReplicas: number | undefined): { replicas: number } | { problem: string; fix: string } {
  if (typeof value === 'number') {
    if (value < 0) return { problem: 'is negative', fix: 'use 0 or more replicas' };
    return { replicas: value };
  }
  const text = String(value);
  if (udReplicas === undefined) {
    return { problem: 'is a string, which is only read as a percentage of spec.replicas, and spec.replicas is unset', fix: 'set spec.replicas, or give a number of replicas' };
  }
  if (!text.endsWith('%')) return { problem: 'is neither an integer nor a percentage', fix: 'use a number of replicas such as 3 or a percentage such as "40%"' };
  const body = text.slice(0, -1);
  if (!/^[+-]?\d+$/.test(body) || Math.abs(Number(body)) > INT32_MAX + (body.startsWith('-') ? 1 : 0)) {
    return { problem: 'is not a whole percentage', fix: 'use a whole percentage such as "40%"' };
  }
  const p = Number(body);
  if (p < 0 || p > 100) return { problem: 'is outside 0%-100%', fix: 'use a percentage from 0% to 100%' };
  return { replicas: Math.floor((udReplicas * p) / 100 + 0.5) };
}

// --- node selector terms (relaxed: label values are not checked) -------------------

function nodeSelectorTermProblems(term: Json, at: string, subset: string): TemplateProblem[] {
  const out: TemplateProblem[] = [];
  const add = (field: string, value: unknown, problem: string, fix: string) => out.push({ field, value, problem: `${problem} (subset ${subset})`, fix });
  (Array.isArray(term.matchExpressions) ? term.matchExpressions : []).forEach((e: Json, i: number) => {
    const here = `${at}.matchExpressions[${i}]`;
    const values: unknown[] = Array.isArray(e.values) ? e.values : [];
    switch (e.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) add(`${here}.values`, e.values, `must list at least one value for operator ${e.operator}`, 'add the node label values to match');
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) add(`${here}.values`, e.values, `must be empty for operator ${e.operator}`, 'remove the values');
        break;
      case 'Gt':
      case 'Lt':
        if (values.length !== 1) add(`${here}.values`, e.values, `must hold exactly one value for operator ${e.operator}`, 'give one integer to compare the node label with');
        break;
      default:
        add(`${here}.operator`, e.operator, 'is not a node selector operator', 'use In, NotIn, Exists, DoesNotExist, Gt or Lt');
    }
    for (const p of qualifiedNameProblems(String(e.key ?? ''))) add(`${here}.key`, e.key, p, 'use a node label key such as topology.kubernetes.io/zone');
  });
  (Array.isArray(term.matchFields) ? term.matchFields : []).forEach((f: Json, i: number) => {
    const here = `${at}.matchFields[${i}]`;
    if (f.key !== 'metadata.name') add(`${here}.key`, f.key, 'is not a node field this selector supports', 'use metadata.name');
    if (f.operator !== 'In' && f.operator !== 'NotIn') {
      add(`${here}.operator`, f.operator, 'is not supported for a node field', 'use In or NotIn');
    } else {
      const values: unknown[] = Array.isArray(f.values) ? f.values : [];
      if (values.length !== 1) add(`${here}.values`, f.values, `must hold exactly one node name for operator ${f.operator}`, 'give one node name');
      else for (const p of dns1123SubdomainProblems(String(values[0]))) add(`${here}.values[0]`, values[0], p, 'give a valid node name');
    }
  });
  return out;
}

// --- templates ---------------------------------------------------------------------

function templateProblems(s: Json, sel: LabelSelectorJson | undefined, out: TemplateProblem[]): void {
  const t: Json = isObject(s.template) ? s.template : {};
  const kinds = SUBSET_TEMPLATES.filter(k => present(t[k]));
  if (kinds.length === 0) {
    out.push({ field: 'spec.template', value: s.template, problem: 'has no subset workload template', fix: `set exactly one of ${SUBSET_TEMPLATES.join(', ')}` });
  } else if (kinds.length > 1) {
    out.push({ field: 'spec.template', value: kinds, problem: 'has more than one subset workload template', fix: `keep exactly one of ${kinds.join(', ')}` });
  }
  const selText = JSON.stringify(sel ?? null);
  // upstream checks the first template present only, in this order
  const kind = ['statefulSetTemplate', 'advancedStatefulSetTemplate', 'deploymentTemplate', 'cloneSetTemplate'].find(k => isObject(t[k]));
  if (!kind) return;
  const at = `spec.template.${kind}`;
  const w: Json = t[kind];
  const ws: Json = isObject(w.spec) ? w.spec : {};
  if (kind === 'cloneSetTemplate') {
    // the UnitedDeployment webhook does not check a cloneSetTemplate: the CloneSet webhook refuses every subset CloneSet
    const subsets = CLONESET_TEMPLATE_REFUSED;
    out.push(...cloneSetTemplateProblems(w, sel, at).map(p => (/admits it, but/.test(p.problem) ? p : { ...p, problem: stricterProblem(p.problem, 'the UnitedDeployment webhook', subsets) })));
    const us: Json = isObject(ws.updateStrategy) ? ws.updateStrategy : {};
    if (present(us.partition)) {
      out.push({
        field: `${at}.spec.updateStrategy.partition`,
        value: us.partition,
        problem: stricterProblem('is not used', 'OpenKruise', 'the UnitedDeployment sets the partition of each subset CloneSet'),
        fix: 'remove it; use spec.updateStrategy.manualUpdate.partitions',
      });
    }
    return;
  }
  const labels = isObject(w.metadata) && isObject(w.metadata.labels) ? w.metadata.labels : {};
  if (sel && !selectorMatches(sel, labels)) {
    out.push({ field: `${at}.metadata.labels`, value: labels, problem: `do not match spec.selector ${selText}`, fix: 'add the selected labels to the workload template metadata' });
  }
  if (present(ws.replicas)) {
    out.push({ field: `${at}.spec.replicas`, value: ws.replicas, problem: 'is not used: the UnitedDeployment sets the replicas of each subset', fix: 'remove it; set spec.replicas and the subset replicas instead' });
  }
  const pod: Json = isObject(ws.template) ? ws.template : {};
  const podLabels = isObject(pod.metadata) && isObject(pod.metadata.labels) ? pod.metadata.labels : {};
  if (STATEFUL.includes(kind)) {
    // the mutating webhook decodes the whole UnitedDeployment into its Go types (a 400 when a field of the pod template has another type)
    const undecodable = podTemplateDecodeProblems(ws.template, `${at}.spec.template`, 'the UnitedDeployment webhook cannot decode it');
    if (undecodable.length > 0) {
      out.push(...undecodable);
      return;
    }
    const us: Json = isObject(ws.updateStrategy) ? ws.updateStrategy : {};
    if (us.type === 'RollingUpdate' && isObject(us.rollingUpdate) && present(us.rollingUpdate.partition)) {
      out.push({
        field: `${at}.spec.updateStrategy.rollingUpdate.partition`,
        value: us.rollingUpdate.partition,
        problem: 'is not used: the UnitedDeployment sets the partition of each subset',
        fix: 'remove it; use spec.updateStrategy.manualUpdate.partitions',
      });
    }
    if (sel && !isEmptySelector(sel) && !selectorMatches(sel, podLabels)) {
      out.push({ field: `${at}.spec.template.metadata.labels`, value: podLabels, problem: `do not match spec.selector ${selText}`, fix: 'add the selected labels to the pod template metadata' });
    }
    const meta: Json = isObject(pod.metadata) ? pod.metadata : {};
    for (const p of labelsProblems(meta.labels)) {
      out.push({ field: `${at}.spec.template.metadata.labels[${JSON.stringify(p.key)}]`, value: p.key, problem: p.problem, fix: 'use a qualified key and a valid label value' });
    }
    for (const k of Object.keys(isObject(meta.annotations) ? meta.annotations : {})) {
      for (const p of qualifiedNameProblems(k)) {
        out.push({ field: `${at}.spec.template.metadata.annotations[${JSON.stringify(k)}]`, value: k, problem: `key ${p}`, fix: 'use a qualified annotation key' });
      }
    }
    return;
  }
  // deploymentTemplate
  if (sel && !selectorMatches(sel, podLabels)) {
    out.push({ field: `${at}.spec.template.metadata.labels`, value: podLabels, problem: `do not match spec.selector ${selText}`, fix: 'add the selected labels to the pod template metadata' });
  }
  const d = defaultPodTemplate(pod);
  if (present(d.spec.activeDeadlineSeconds)) {
    out.push({ field: `${at}.spec.template.spec.activeDeadlineSeconds`, value: d.spec.activeDeadlineSeconds, problem: 'is forbidden for the pods of a Deployment', fix: 'remove it (pods of a workload run until replaced)' });
    delete d.spec.activeDeadlineSeconds;
  }
  if (d.spec.restartPolicy !== 'Always') {
    out.push({ field: `${at}.spec.template.spec.restartPolicy`, value: d.spec.restartPolicy, problem: 'is not allowed for the pods of a Deployment', fix: 'use Always (the default)' });
  }
  out.push(...podTemplateProblems(d, { path: `${at}.spec.template` }));
}

/** The CloneSet rules on a cloneSetTemplate, as the subset CloneSets will meet them (the UD's selector, no name). */
function cloneSetTemplateProblems(w: Json, sel: LabelSelectorJson | undefined, at: string): TemplateProblem[] {
  const meta: Json = isObject(w.metadata) ? clone(w.metadata) : {};
  delete meta.generateName;
  const child: Manifest = {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { ...meta, name: 'subset' },
    spec: { ...(isObject(w.spec) ? clone(w.spec) : {}), selector: clone(sel), replicas: 1 },
  };
  return cloneSetProblems(child)
    // the name, selector and replicas of the subset CloneSets are the UnitedDeployment's
    .filter(p => !/^(metadata\.name|spec\.selector|spec\.replicas)\b/.test(p.field))
    // with no usable selector of its own, the UnitedDeployment's selector rules say what is wrong
    .filter(p => sel !== undefined || !(p.field === 'spec.template.metadata.labels' && p.problem.startsWith('do not match')))
    .map(p => ({ ...p, field: `${at}.${p.field}` }));
}

// --- subsets ---------------------------------------------------------------------

function subsetProblems(s: Json, out: TemplateProblem[]): void {
  const topology: Json = isObject(s.topology) ? s.topology : {};
  const subsets: Json[] = (Array.isArray(topology.subsets) ? topology.subsets : []).map((x: unknown) => (isObject(x) ? x : {}));
  const udReplicas = typeof s.replicas === 'number' ? s.replicas : undefined;
  const names = new Map<string, number>();
  const who = (sub: Json, i: number) => (typeof sub.name === 'string' && sub.name !== '' ? JSON.stringify(sub.name) : `#${i}`);
  let sumReplicas = 0;
  let sumMin = 0;
  let sumMax = 0;
  let countReplicas = 0;
  let countMax = 0;
  let unreadable = false;
  const replicasList: number[] = [];
  subsets.forEach((sub, i) => {
    const at = `spec.topology.subsets[${i}]`;
    const name = who(sub, i);
    const add = (field: string, value: unknown, problem: string, fix: string) => out.push({ field, value, problem: `${problem} (subset ${name})`, fix });
    if (typeof sub.name !== 'string' || sub.name === '') {
      add(`${at}.name`, sub.name, 'is required', 'name the subset; its workloads are named after it');
    } else {
      const first = names.get(sub.name);
      if (first !== undefined) add(`${at}.name`, sub.name, `is also the name of subsets[${first}]`, 'give every subset its own name');
      else names.set(sub.name, i);
      for (const p of dns1123LabelProblems(sub.name)) add(`${at}.name`, sub.name, p, 'use a DNS-1123 label such as zone-a');
    }
    if (isObject(sub.nodeSelectorTerm)) out.push(...nodeSelectorTermProblems(sub.nodeSelectorTerm, `${at}.nodeSelectorTerm`, name));
    if (Array.isArray(sub.tolerations)) {
      for (const p of tolerationsProblems(sub.tolerations, at)) out.push({ ...p, problem: `${p.problem} (subset ${name})` });
    }
    const read = (f: 'replicas' | 'minReplicas' | 'maxReplicas', unset: number): number => {
      if (!present(sub[f])) return unset;
      const r = parseSubsetReplicas(sub[f], udReplicas);
      if ('problem' in r) {
        add(`${at}.${f}`, sub[f], r.problem, r.fix);
        unreadable = true;
        return 0;
      }
      return r.replicas;
    };
    const replicas = read('replicas', 0);
    if (present(sub.replicas)) countReplicas++;
    sumReplicas += replicas;
    replicasList.push(replicas);
    const min = read('minReplicas', 0);
    if (present(sub.maxReplicas)) countMax++;
    const max = read('maxReplicas', NO_MAX);
    sumMin += min;
    sumMax += max;
    if (min > max) {
      add(`${at}.minReplicas`, sub.minReplicas, `comes to ${min} replicas, more than maxReplicas (${max})`, 'lower minReplicas or raise maxReplicas');
    }
  });
  // a negative spec.replicas, or a subset value that cannot be read, is reported on its own; sums would only repeat it
  if ((udReplicas !== undefined && udReplicas < 0) || unreadable) return;
  const usesReplicas = subsets.some(x => present(x.replicas));
  const usesCapacity = subsets.some(x => present(x.minReplicas) || present(x.maxReplicas));
  if (usesReplicas && usesCapacity) {
    const mixed = subsets.filter(x => present(x.replicas)).map((x, i) => who(x, i));
    out.push({
      field: 'spec.topology.subsets',
      value: subsets.map(x => x.name),
      problem: `mix replicas (set on ${mixed.join(', ')}) with minReplicas/maxReplicas`,
      fix: 'use either replicas on the subsets, or minReplicas/maxReplicas',
    });
    return;
  }
  if (usesCapacity) {
    if (udReplicas === undefined) {
      out.push({ field: 'spec.replicas', value: undefined, problem: 'is required when subsets set minReplicas or maxReplicas', fix: 'set the total number of replicas' });
    }
    if (countMax >= subsets.length) {
      out.push({
        field: 'spec.topology.subsets',
        value: subsets.map(x => x.name),
        problem: 'all set maxReplicas, so replicas above the maximums have nowhere to go',
        fix: 'leave maxReplicas unset on at least one subset',
      });
    }
    if (sumMin > sumMax) {
      out.push({ field: 'spec.topology.subsets', value: subsets.map(x => x.name), problem: `have minReplicas adding up to ${sumMin}, more than their maxReplicas (${sumMax})`, fix: 'lower the minimums or raise the maximums' });
    }
    return;
  }
  if (udReplicas !== undefined) {
    const named = subsets.map((x, i) => ({ at: i, name: who(x, i), raw: x.replicas, replicas: replicasList[i] }));
    const terms = (upTo: number) => named.slice(0, upTo + 1).filter(x => present(x.raw))
      .map(x => `${x.name} ${typeof x.raw === 'string' ? `${x.raw}=${x.replicas}` : x.replicas}`).join(' + ');
    if (sumReplicas > udReplicas) {
      let running = 0;
      const over = named.find(x => (running += x.replicas) > udReplicas)!;
      const before = running - over.replicas;
      out.push({
        field: `spec.topology.subsets[${over.at}].replicas`,
        value: over.raw,
        problem: `takes the subset replicas to ${running} (${terms(over.at)}), more than spec.replicas (${udReplicas}) (subset ${over.name})`,
        fix: `give subset ${over.name} at most ${Math.max(0, udReplicas - before)} replicas${sumReplicas !== running ? ` (the subsets after it ask for ${sumReplicas - running} more)` : ''}, or raise spec.replicas to ${sumReplicas}`,
      });
    } else if (countReplicas > 0 && countReplicas === subsets.length && sumReplicas !== udReplicas) {
      const last = named[named.length - 1];
      out.push({
        field: `spec.topology.subsets[${last.at}].replicas`,
        value: last.raw,
        problem: `leaves ${udReplicas - sumReplicas} of spec.replicas (${udReplicas}) to no subset: every subset sets replicas and they add up to ${sumReplicas} (${terms(last.at)}) (subset ${last.name})`,
        fix: `give subset ${last.name} ${last.replicas + udReplicas - sumReplicas} replicas, or leave its replicas unset so that it takes the rest`,
      });
    }
  } else if (countReplicas !== subsets.length) {
    const missing = subsets.map((x, i) => (present(x.replicas) ? undefined : who(x, i))).filter(x => x !== undefined);
    out.push({
      field: 'spec.replicas',
      value: undefined,
      problem: `must be set unless every subset sets replicas, and ${missing.join(', ')} do${missing.length === 1 ? 'es' : ''} not`,
      fix: 'set spec.replicas, or give every subset a number of replicas',
    });
  }
}

const UNTYPED_OBJECTS = [
  ...SUBSET_TEMPLATES.flatMap(k => [`spec.template.${k}.metadata`, `spec.template.${k}.spec`, `spec.template.${k}.spec.template`]),
];

/** The UnitedDeployment rules of a defaulted object, as problems. */
export function unitedDeploymentProblems(manifest: Manifest): TemplateProblem[] {
  // the CRD leaves these untyped; the webhook decodes them into Go structs
  const undecodable = untypedObjectProblems(manifest, UNTYPED_OBJECTS);
  if (undecodable.length > 0) return undecodable;
  const out: TemplateProblem[] = [...objectMetaProblems(manifest.metadata, 'subdomain', 'UnitedDeployment')];
  const s: Json = isObject(manifest.spec) ? manifest.spec : {};
  // a subset's patch is raw JSON to the webhook (runtime.RawExtension): anything decodes, but only an object patches the subset's workload
  const subsetList: unknown[] = isObject(s.topology) && Array.isArray(s.topology.subsets) ? s.topology.subsets : [];
  subsetList.forEach((sub, i) => {
    const patch = isObject(sub) ? sub.patch : undefined;
    if (patch !== undefined && patch !== null && !isObject(patch)) {
      out.push({
        field: `spec.topology.subsets[${i}].patch`,
        value: patch,
        problem: stricterProblem('is not an object', 'OpenKruise', 'the controller cannot merge it into the subset\'s workload, so the subset is never created'),
        fix: 'give the patch as an object, e.g. {metadata: {labels: {zone: a}}}',
      });
    }
  });
  if (typeof s.replicas === 'number' && s.replicas < 0) out.push({ field: 'spec.replicas', value: s.replicas, problem: 'is negative', fix: 'use 0 or more replicas' });
  const sel: LabelSelectorJson | undefined = isObject(s.selector) ? s.selector : undefined;
  if (!sel) {
    out.push({ field: 'spec.selector', value: s.selector, problem: 'is required', fix: 'select the pods of the UnitedDeployment by their labels' });
  } else {
    for (const p of selectorProblems(sel)) out.push({ field: `spec.selector.${p.field}`, value: p.value, problem: p.problem, fix: 'fix the selector' });
    if (isEmptySelector(sel)) {
      out.push({ field: 'spec.selector', value: sel, problem: 'is empty and would select every pod of the namespace', fix: 'add matchLabels or matchExpressions' });
    } else if (selectorProblems(sel).length === 0 && (!isObject(sel.matchLabels) || Object.keys(sel.matchLabels).length === 0)) {
      out.push({
        field: 'spec.selector.matchLabels',
        value: sel.matchLabels,
        problem: stricterProblem('is empty', 'OpenKruise', 'the UnitedDeployment controller adds the subset label to matchLabels and fails on a selector without any, so no subset workload is created'),
        fix: 'select the pods by at least one label in matchLabels',
      });
    }
  }
  const topology: Json = isObject(s.topology) ? s.topology : {};
  const strategy: Json = isObject(topology.scheduleStrategy) ? topology.scheduleStrategy : {};
  const t: Json = isObject(s.template) ? s.template : {};
  const reserve = strategy.type === 'Adaptive' && isObject(strategy.adaptive) && strategy.adaptive.reserveUnschedulablePods === true;
  const stateful = STATEFUL.filter(k => present(t[k]));
  if (reserve && stateful.length > 0) {
    out.push({
      field: 'spec.topology.scheduleStrategy.adaptive.reserveUnschedulablePods',
      value: true,
      problem: `only works with stateless subsets (CloneSet or Deployment), not with a ${stateful[0]}`,
      fix: 'turn it off, or use a cloneSetTemplate or deploymentTemplate',
    });
  }
  const selectorUsable = sel && selectorProblems(sel).length === 0 ? sel : undefined;
  templateProblems(s, selectorUsable, out);
  subsetProblems(s, out);
  const subsetNames = new Set((Array.isArray(topology.subsets) ? topology.subsets : []).map((x: Json) => x?.name));
  const partitions = isObject(s.updateStrategy) && isObject(s.updateStrategy.manualUpdate) && isObject(s.updateStrategy.manualUpdate.partitions)
    ? s.updateStrategy.manualUpdate.partitions : {};
  for (const key of Object.keys(partitions)) {
    if (!subsetNames.has(key)) {
      out.push({
        field: `spec.updateStrategy.manualUpdate.partitions[${JSON.stringify(key)}]`,
        value: partitions[key],
        problem: `is the partition of ${JSON.stringify(key)}, which is not a subset`,
        fix: `use one of the subset names ${JSON.stringify([...subsetNames])}`,
      });
    }
  }
  return out;
}

function defaults(manifest: Manifest, ctx: AdmissionContext): Manifest {
  const m = clone(manifest);
  if (!isObject(m.spec)) m.spec = {};
  const s = m.spec;
  s.revisionHistoryLimit ??= 10;
  if (!isObject(s.updateStrategy)) s.updateStrategy = {};
  s.updateStrategy.type ||= 'Manual';
  if (s.updateStrategy.type === 'Manual' && !isObject(s.updateStrategy.manualUpdate)) s.updateStrategy.manualUpdate = {};
  // a workload template's pod template is a Go struct, no pointer (PodTemplateSpec): one left out comes back as an empty one
  for (const k of SUBSET_TEMPLATES) {
    const w = isObject(s.template) ? s.template[k] : undefined;
    if (isObject(w) && isObject(w.spec) && w.spec.template === undefined) w.spec.template = { metadata: {}, spec: {} };
  }
  const sts = isObject(s.template) ? s.template.statefulSetTemplate : undefined;
  if (isObject(sts) && !ctx.gate('TemplateNoDefaults')) {
    if (!isObject(sts.spec)) sts.spec = {};
    sts.spec.template = defaultPodTemplate(sts.spec.template);
  }
  // the workload templates decode into the workloads' Go types, which write some unset fields back
  const cs = isObject(s.template) ? s.template.cloneSetTemplate : undefined;
  if (isObject(cs) && isObject(cs.spec) && isObject(cs.spec.updateStrategy)) goZeroValues(cs.spec.updateStrategy);
  const asts = isObject(s.template) ? s.template.advancedStatefulSetTemplate : undefined;
  const unordered = isObject(asts) && isObject(asts.spec) ? asts.spec.updateStrategy?.rollingUpdate?.unorderedUpdate : undefined;
  if (isObject(unordered)) goZeroValues(unordered);
  const subsets: unknown[] = isObject(s.topology) && Array.isArray(s.topology.subsets) ? s.topology.subsets : [];
  const objects = subsets.filter(isObject);
  if (objects.some(x => present(x.minReplicas) || present(x.maxReplicas)) && !objects.some(x => present(x.replicas))) {
    for (const x of objects) x.minReplicas ??= 0;
  }
  delete m.status;
  return m;
}


/**
 * The UnitedDeployment webhook's changes by release: 1.9 refuses a subset's
 * replicas under the Adaptive schedule strategy (1.8 took them). The
 * strategy itself came with 1.8 and its fields changed in 1.9 (schema).
 */
const RELEASE_RULES: ReleaseRule[] = [{
  release: '1.9',
  change: 'refuses',
  what: 'spec.topology.subsets[].replicas with the Adaptive schedule strategy',
  find: m => {
    const topology = isObject(m.spec?.topology) ? m.spec.topology : {};
    if (!isObject(topology.scheduleStrategy) || topology.scheduleStrategy.type !== 'Adaptive') return [];
    const subsets: unknown[] = Array.isArray(topology.subsets) ? topology.subsets : [];
    return subsets.flatMap((sub: any, i) => (isObject(sub) && present(sub.replicas)
      ? [{
        field: `spec.topology.subsets[${i}].replicas`,
        value: sub.replicas,
        problem: `is not used with the Adaptive schedule strategy (subset ${typeof sub.name === 'string' && sub.name !== '' ? JSON.stringify(sub.name) : `#${i}`})`,
        fix: 'use minReplicas and maxReplicas instead',
      }]
      : []));
  },
}];

/**
 * The pod templates of a UnitedDeployment that meet the pod-template rules:
 * a deploymentTemplate's, which its webhook judges, and a cloneSetTemplate's,
 * which the webhook of every subset CloneSet judges.
 */
function subsetPodTemplates(m: Manifest): PodTemplateAt[] {
  const t: Json = isObject(m.spec?.template) ? m.spec.template : {};
  return (['deploymentTemplate', 'cloneSetTemplate'] as const).filter(k => isObject(t[k]))
    .map(k => ({
      template: defaultPodTemplate(isObject(t[k].spec) ? t[k].spec.template : undefined),
      specPath: `spec.template.${k}.spec.template.spec`,
      ...(k === 'cloneSetTemplate' ? { stricter: { who: 'the UnitedDeployment webhook', why: CLONESET_TEMPLATE_REFUSED } } : {}),
    }));
}

/** The UnitedDeployment webhooks. */
export const unitedDeploymentAdmission: AdmissionModule = {
  group: 'apps.kruise.io',
  kind: 'UnitedDeployment',
  versions: ['v1alpha1'],
  defaults,
  validate: m => unitedDeploymentProblems(m).map(p => fieldError(p.field, p.value, p.problem, p.fix)),
  warnings: (m, ctx) => podTemplateFieldWarnings(subsetPodTemplates(m), ctx),
  releaseRules: [...RELEASE_RULES, ...podTemplateReleaseRules(subsetPodTemplates)],
};
