/**
 * The Advanced DaemonSet webhooks (apps.kruise.io DaemonSet, v1beta1; the
 * v1alpha1 path applies the same rules): the mutating defaults, the
 * create-time validating rules that need no cluster state, and warnings.
 * Left out: immutable fields on update.
 */
import { podTemplateFieldWarnings, podTemplateReleaseRules } from './_pod-template-releases';
import {
  Json, RuleProblem, Rules, describe, imagePreDownloadRules, lifecycleRules, lifecycleWarnings,
  metadataRules, ownCopy, problemLines, selectorRules, templateRules, workloadTemplate,
} from './_workload';
import { AdmissionModule, ReleaseRule } from './types';
import { advice } from '../validation/advice';
import { fieldError, stricterProblem } from '../validation/field-error';
import { IntOrPercent, parseStrictPercent, parseUpstreamPercent } from '../validation/percent';
import { selectorProblems } from '../validation/selectors';


/** Advanced DaemonSet defaults D1-D6 (no template defaults are persisted, D7); the input is not changed. */
export function defaultAdvancedDaemonSet(manifest: Json): Json {
  const m: Json = { ...manifest };
  const s = ownCopy(m, 'spec');
  s.burstReplicas ??= 250;
  const u = ownCopy(s, 'updateStrategy');
  u.type ||= 'RollingUpdate';
  if (u.type === 'RollingUpdate') {
    const ru = ownCopy(u, 'rollingUpdate');
    ru.rollingUpdateType ||= 'Standard';
    if (ru.maxUnavailable === undefined && ru.maxSurge === undefined) {
      ru.maxUnavailable = 1;
      ru.maxSurge = 0;
    }
    // the webhook's Go types write a node selector requirement's key and operator back even when unset (no omitempty)
    const sel = ru.selector;
    if (sel !== null && typeof sel === 'object' && Array.isArray(sel.matchExpressions)) {
      ru.selector = {
        ...sel,
        matchExpressions: sel.matchExpressions.map((e: unknown) => (e !== null && typeof e === 'object' && !Array.isArray(e)
          ? { key: '', operator: '', ...e as Json } : e)),
      };
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
    r.add(at, v, silent ? stricterProblem('is not a non-negative integer or whole percentage', 'OpenKruise', 'silently reads it as 0') : 'is not a non-negative integer or whole percentage',
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
      // the v1alpha1 webhook rewrites Surging to Standard; this library judges v1beta1 semantics
      const rewritten = ru.rollingUpdateType === 'Surging' && String(manifest.apiVersion).endsWith('/v1alpha1');
      r.add(`${at}.rollingUpdateType`, ru.rollingUpdateType, rewritten
        ? stricterProblem('is not supported by apps.kruise.io/v1beta1', 'OpenKruise', 'its v1alpha1 webhook silently rewrites it to Standard')
        : 'is not supported by apps.kruise.io/v1beta1', 'use Standard (with maxSurge for a surging update) or InPlaceIfPossible');
    }
    if (ru.rollingUpdateType === 'InPlaceIfPossible' && ms !== 0) {
      r.add(`${at}.maxSurge`, ru.maxSurge, 'must be 0 with InPlaceIfPossible', 'remove maxSurge');
    }
    dsIntOrPercentRules(r, ru.partition, `${at}.partition`);
    for (const p of selectorProblems(ru.selector)) {
      r.add(`${at}.selector.${p.field}`, p.value, stricterProblem(p.problem, 'OpenKruise', 'the controller cannot convert the node selector and updates no node'), 'fix the node selector');
    }
  }
  if (s.revisionHistoryLimit !== undefined && !(Number.isInteger(s.revisionHistoryLimit) && s.revisionHistoryLimit >= 0)) {
    r.add('spec.revisionHistoryLimit', s.revisionHistoryLimit, 'must be 0 or more', 'use a non-negative number of revisions');
  }
  const burst = s.burstReplicas;
  const bp = parseUpstreamPercent(burst);
  if (!bp || bp.value <= 0) {
    r.add('spec.burstReplicas', burst, stricterProblem('is not a positive integer or whole percentage', 'OpenKruise', 'the controller would create no pods'), 'use e.g. 50 or 20%');
  }
  lifecycleRules(r, s.lifecycle, true);
  return r.out;
}

/** The pre-download annotation only CloneSets and Advanced StatefulSets read. */
const MIN_UPDATED_READY_PODS = 'apps.kruise.io/image-predownload-min-updated-ready-pods';

/** What an Advanced DaemonSet's configuration will do that users do not expect. */
export function advancedDaemonSetWarnings(manifest: Json): string[] {
  const out: string[] = [];
  const s: Json = manifest.spec ?? {};
  if (s.updateStrategy?.type === 'OnDelete' && s.updateStrategy.rollingUpdate !== undefined) {
    out.push(fieldError('spec.updateStrategy.rollingUpdate', s.updateStrategy.rollingUpdate, 'has no effect with type OnDelete (OpenKruise ignores it)', 'remove it, or use type RollingUpdate'));
  }
  const minReady = manifest.metadata?.annotations?.[MIN_UPDATED_READY_PODS];
  if (minReady !== undefined) {
    out.push(fieldError(`metadata.annotations[${JSON.stringify(MIN_UPDATED_READY_PODS)}]`, minReady, 'has no effect on an Advanced DaemonSet',
      advice('remove the annotation', 'drop minUpdatedReadyPods from imagePreDownload')));
  }
  out.push(...lifecycleWarnings(s.lifecycle));
  return out;
}


/**
 * The Advanced DaemonSet webhook's changes by release: up to 1.7 it held the
 * template to Kubernetes' read-only rule for GCE persistent disks of
 * replicated pods (its Kubernetes 1.28 libraries; 1.8's skip the rule, 1.9
 * dropped the call). A percentage partition is a schema change (1.9).
 */
const RELEASE_RULES: ReleaseRule[] = [{
  release: '1.8',
  change: 'accepts',
  what: 'a read-write gcePersistentDisk volume in spec.template',
  find: m => {
    const volumes: unknown[] = Array.isArray(m.spec?.template?.spec?.volumes) ? m.spec.template.spec.volumes : [];
    return volumes.flatMap((v: any, i) => (v && typeof v === 'object' && v.gcePersistentDisk && typeof v.gcePersistentDisk === 'object' && v.gcePersistentDisk.readOnly !== true
      ? [{
        field: `spec.template.spec.volumes[${i}].gcePersistentDisk.readOnly`,
        value: v.gcePersistentDisk.readOnly,
        problem: 'is not true for the pods of a DaemonSet, which run on many nodes (a GCE persistent disk mounts read-write on one machine only)',
        fix: advice('set readOnly: true', 'mount the disk read-only'),
      }]
      : []));
  },
}];

/** The Advanced DaemonSet webhooks. */
export const advancedDaemonSetAdmission: AdmissionModule = {
  group: 'apps.kruise.io',
  kind: 'DaemonSet',
  versions: ['v1alpha1', 'v1beta1'],
  defaults: m => defaultAdvancedDaemonSet(m),
  validate: m => problemLines(advancedDaemonSetProblems(m)),
  warnings: (m, ctx) => [...advancedDaemonSetWarnings(m), ...podTemplateFieldWarnings(workloadTemplate(m), ctx)],
  releaseRules: [...RELEASE_RULES, ...podTemplateReleaseRules(workloadTemplate)],
};
