/**
 * The CloneSet webhooks (apps.kruise.io/v1alpha1): the mutating defaults and
 * the create-time validating rules that need no cluster state, plus the
 * warnings for what the controller silently does. Rules left out (they need
 * the live object or the cluster): immutable fields on update, InPlaceOnly
 * diffs between revisions, podsToDelete naming pods the CloneSet owns.
 */
import { openKruiseHas, podTemplateFieldWarnings, podTemplateReleaseRules } from './_pod-template-releases';
import {
  Json, MAX_INT32, goZeroValues, RuleProblem, Rules, describe, hasPreDownload, imagePreDownloadRules,
  partitionWarnings, lifecycleRules, lifecycleWarnings, metadataRules, ownCopy, preDownloadSkipped, priorityRules, problemLines,
  scatterRules, selectorRules, templateRules, volumeClaimTemplateRules, workloadTemplate,
} from './_workload';
import { AdmissionContext, AdmissionModule, ReleaseRule } from './types';
import { advice } from '../validation/advice';
import { fieldError, stricterProblem } from '../validation/field-error';
import { dns1123SubdomainProblems } from '../validation/names';
import { parseKruisePercent, parseLegacyPercent, ParsedIntOrPercent, parseUpstreamPercent, scaled } from '../validation/percent';


const INT_OR_PERCENT_FIX = () => advice('use an integer or a percentage such as "20%"', 'use PercentOrAbsolute.absolute(n) or PercentOrAbsolute.percent(p)');

/** CloneSet defaults D1-D8 (template defaults are applied by the template rules); the input is not changed. */
export function defaultCloneSet(manifest: Json): Json {
  const m: Json = { ...manifest };
  const s = ownCopy(m, 'spec');
  s.replicas ??= 1;
  s.revisionHistoryLimit ??= 10;
  const u = ownCopy(s, 'updateStrategy');
  u.type ||= 'ReCreate';
  if ((u.type === 'InPlaceIfPossible' || u.type === 'InPlaceOnly') && !u.inPlaceUpdateStrategy) u.inPlaceUpdateStrategy = {};
  goZeroValues(u);
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
  // the webhook looks every name up (pkg/webhook/cloneset/validating/validation.go:120 of v1.9.1): no pod has a name that is
  // no DNS subdomain (a null item decodes as "")
  (Array.isArray(toDelete) ? toDelete : []).forEach((n: unknown, i: number) => {
    const name = n === null ? '' : n;
    if (typeof name === 'string' && dns1123SubdomainProblems(name).length > 0) {
      r.add(`spec.scaleStrategy.podsToDelete[${i}]`, n, 'is not a pod name, so the CloneSet webhook finds no such pod and refuses it', 'name a pod of this CloneSet, or remove the item');
    }
  });
  const smu = s.scaleStrategy?.maxUnavailable;
  if (smu !== undefined && !parseUpstreamPercent(smu)) {
    r.add('spec.scaleStrategy.maxUnavailable', smu, stricterProblem('is not an integer or a whole percentage', 'OpenKruise', 'the controller reads it as 0'), 'use e.g. 2 or 20%');
  }

  const u: Json = s.updateStrategy;
  if (!CLONESET_TYPES.includes(u.type)) {
    r.add('spec.updateStrategy.type', u.type, 'is not supported by the CloneSet webhook', advice(`use one of ${CLONESET_TYPES.join(', ')}`, `use one of ${CLONESET_TYPES.join(', ')} (CloneSetUpdateStrategy.recreate/inPlaceIfPossible/inPlaceOnly)`));
  }
  const partition = parseKruisePercent(u.partition);
  if (!partition) {
    r.add('spec.updateStrategy.partition', u.partition, 'is not an integer or a percentage', INT_OR_PERCENT_FIX());
  } else if (scaled(partition, replicas, true) < 0) {
    r.add('spec.updateStrategy.partition', u.partition, 'is negative', 'use 0 or more pods (or percent)');
  }
  priorityRules(r, u.priorityStrategy, 'spec.updateStrategy.priorityStrategy');
  scatterRules(r, u.scatterStrategy, 'spec.updateStrategy.scatterStrategy');
  const budget = (field: 'maxUnavailable' | 'maxSurge'): ParsedIntOrPercent | undefined => {
    const v = u[field];
    const at = `spec.updateStrategy.${field}`;
    if (!parseKruisePercent(v)) {
      // before 1.9 the webhook reads a string without % as a percentage (1.9 refuses it: RELEASE_RULES)
      const legacy = legacyBudget(v);
      if (legacy) return legacy;
      r.add(at, v, 'is not an integer or a percentage', INT_OR_PERCENT_FIX());
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
    r.add('spec.updateStrategy.maxSurge', u.maxSurge, 'must be 0 with InPlaceOnly', advice('remove maxSurge, or use type InPlaceIfPossible', 'remove maxSurge or use inPlaceIfPossible()'));
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

/** What a CloneSet's configuration will do that users do not expect. */
export function cloneSetWarnings(manifest: Json): string[] {
  const out: string[] = [];
  const s: Json = manifest.spec ?? {};
  const u: Json = s.updateStrategy ?? {};
  const replicas: number = s.replicas ?? 1;
  const partition = u.partition === undefined ? undefined : parseKruisePercent(u.partition);
  if (partition) out.push(...partitionWarnings(u.partition, partition, s.replicas, 'spec.updateStrategy.partition'));
  // Without spec.replicas (an autoscaler sets them) the split depends on the live count: nothing to say.
  if (partition && partition.value > 0 && s.replicas !== undefined) {
    if (partition.isPercent && partition.value < 100) {
      let kept = Math.min(Math.max(scaled(partition, replicas, true), 0), replicas);
      if (replicas > 1 && kept === replicas) kept = replicas - 1;
      const exact = (partition.value * replicas) / 100;
      if (kept !== exact) {
        out.push(fieldError('spec.updateStrategy.partition', u.partition, `is rounded up: with ${replicas} replicas it keeps ${kept} pod(s) at the old revision and updates ${replicas - kept} `
          + '(below 100% at least one pod is always updated)', advice(`set partition to ${kept} to state the split exactly`, `use PercentOrAbsolute.absolute(${kept}) to state the split exactly`)));
      }
    }
  }
  const surge = u.maxSurge === undefined ? undefined : parseKruisePercent(u.maxSurge);
  if (u.type === 'InPlaceIfPossible' && surge && scaled(surge, replicas, true) > 0) {
    out.push(fieldError('spec.updateStrategy.maxSurge', u.maxSurge, 'with InPlaceIfPossible still creates surge pods during every update, even when all pods could be updated in place',
      'drop maxSurge for a pure in-place rollout'));
  }
  if ((s.scaleStrategy?.podsToDelete ?? []).length > 0) {
    out.push(fieldError('spec.scaleStrategy.podsToDelete', s.scaleStrategy.podsToDelete, 'names pods to delete, but OpenKruise only accepts names of pods this CloneSet already owns, '
      + 'so the first apply of a new CloneSet with podsToDelete is refused', advice('add them once the CloneSet runs', 'add them (podsToDelete or deletePods()) once the CloneSet runs')));
  }
  if (hasPreDownload(manifest)) {
    if ((u.type ?? 'ReCreate') === 'ReCreate') {
      out.push(preDownloadSkipped(manifest, 'with the ReCreate update strategy (it only serves in-place updates)',
        { manifest: 'set spec.updateStrategy.type to InPlaceIfPossible or InPlaceOnly', construct: 'use CloneSetUpdateStrategy.inPlaceIfPossible() or inPlaceOnly()' }));
    } else if (replicas <= 3) {
      out.push(preDownloadSkipped(manifest, `for ${replicas} replica(s) (it only pre-downloads for more than 3)`, { manifest: 'run more than 3 replicas', construct: 'run more than 3 replicas' }));
    }
  }
  out.push(...lifecycleWarnings(s.lifecycle));
  return out;
}


/**
 * A maxUnavailable or maxSurge that only the webhook before 1.9 reads:
 * apimachinery's deprecated GetValueFromIntOrPercent takes every '%' out and
 * reads the whole number left as a percentage (`"1"` is 1%), and so does the
 * controller of those releases; 1.9 reads a string only when it ends in '%'.
 */
function legacyBudget(v: unknown): ParsedIntOrPercent | undefined {
  return typeof v === 'string' && !parseKruisePercent(v) ? parseLegacyPercent(v) : undefined;
}

const BUDGETS = ['maxUnavailable', 'maxSurge'] as const;

/** What a target before 1.9 admits in the budgets and reads otherwise than written. */
function legacyBudgetWarnings(manifest: Json, ctx: AdmissionContext): string[] {
  if (openKruiseHas(ctx, '1.9')) return [];
  return BUDGETS.flatMap(f => {
    const v = manifest.spec?.updateStrategy?.[f];
    const p = legacyBudget(v);
    return p ? [fieldError(`spec.updateStrategy.${f}`, v, `is a string without %, which OpenKruise before 1.9 reads as ${p.value}% of the replicas, not as ${p.value} pod(s), `
      + 'and which OpenKruise 1.9 refuses', advice(`write ${p.value} for pods or "${p.value}%" for a percentage`, `use PercentOrAbsolute.absolute(${p.value}) or percent(${p.value})`))] : [];
  });
}

/**
 * The CloneSet webhook's changes by release: before 1.9 it parsed
 * maxUnavailable and maxSurge with apimachinery's deprecated parser, which
 * takes whole numbers only and reads a string without % as a percentage; 1.9
 * scales a fractional percentage (which the controller then reads as 0:
 * refused on every release, by the rules above, as of no use) and refuses a
 * string without %.
 */
const RELEASE_RULES: ReleaseRule[] = [{
  release: '1.9',
  change: 'refuses',
  what: 'a string without % in spec.updateStrategy.maxUnavailable or maxSurge, which OpenKruise before 1.9 reads as a percentage',
  find: m => BUDGETS.flatMap(f => {
    const v = m.spec?.updateStrategy?.[f];
    return legacyBudget(v) ? [{ field: `spec.updateStrategy.${f}`, value: v, problem: 'is not an integer or a percentage', fix: INT_OR_PERCENT_FIX() }] : [];
  }),
}, {
  release: '1.9',
  change: 'accepts',
  what: 'a fractional percentage in spec.updateStrategy.maxUnavailable or maxSurge',
  find: m => (['maxUnavailable', 'maxSurge'] as const).flatMap(f => {
    const v = m.spec?.updateStrategy?.[f];
    return typeof v === 'string' && parseKruisePercent(v) && !parseUpstreamPercent(v)
      ? [{ field: `spec.updateStrategy.${f}`, value: v, problem: 'is not a whole percentage', fix: 'use a whole percentage such as 12% or 13%, or an absolute number' }]
      : [];
  }),
}];

/** The CloneSet webhooks. */
export const cloneSetAdmission: AdmissionModule = {
  group: 'apps.kruise.io',
  kind: 'CloneSet',
  versions: ['v1alpha1'],
  defaults: m => defaultCloneSet(m),
  validate: m => problemLines(cloneSetProblems(m)),
  warnings: (m, ctx) => [...cloneSetWarnings(m), ...legacyBudgetWarnings(m, ctx), ...podTemplateFieldWarnings(workloadTemplate(m), ctx)],
  releaseRules: [...RELEASE_RULES, ...podTemplateReleaseRules(workloadTemplate)],
};
