/**
 * The Advanced StatefulSet webhooks (apps.kruise.io StatefulSet; v1alpha1 is
 * converted to v1beta1 upstream, so both versions take the same rules): the
 * mutating defaults, the create-time validating rules that need no cluster
 * state, and the pod-template checks upstream skips for this kind (the API
 * server refuses the pods the controller would create from such a template).
 * Left out: immutable fields on update, StorageClass lookups for PVC resizing.
 */
import {
  Json, RuleProblem, Rules, goZeroValues, hasPreDownload, partitionWarnings, imagePreDownloadRules, lifecycleRules, lifecycleWarnings,
  metadataRules, ownCopy, preDownloadSkipped, priorityRules, problemLines, selectorRules, templateRules, volumeClaimTemplateRules,
} from './_workload';
import { AdmissionModule, ReleaseRule } from './types';
import { advice } from '../validation/advice';
import { fieldError } from '../validation/field-error';
import { IntOrPercent, parseStrictPercent, scaled } from '../validation/percent';
import { isObject } from '../validation/shape';


/** Options of the Advanced StatefulSet defaults. */
export interface AdvancedStatefulSetDefaultsOptions {
  /** The StatefulSetAutoDeletePVC gate (on by default). */
  readonly autoDeletePvc: boolean;
}

/** Advanced StatefulSet defaults D1-D6; the input is not changed. */
export function defaultAdvancedStatefulSet(manifest: Json, o: AdvancedStatefulSetDefaultsOptions = { autoDeletePvc: true }): Json {
  const m: Json = { ...manifest };
  const s = ownCopy(m, 'spec');
  s.podManagementPolicy ||= 'OrderedReady';
  const u = ownCopy(s, 'updateStrategy');
  u.type ||= 'RollingUpdate';
  if (u.type === 'RollingUpdate') {
    const ru = ownCopy(u, 'rollingUpdate');
    ru.partition ??= 0;
    ru.maxUnavailable ??= 1;
    ru.podUpdatePolicy ||= 'ReCreate';
    ru.minReadySeconds ??= 0;
    if (ru.unorderedUpdate !== null && typeof ru.unorderedUpdate === 'object') goZeroValues(ownCopy(ru, 'unorderedUpdate'));
  }
  if (o.autoDeletePvc) {
    const p = ownCopy(s, 'persistentVolumeClaimRetentionPolicy');
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
    r.add(at, v, `must be 1 with podManagementPolicy ${policy}`, advice('set spec.podManagementPolicy to Parallel, or remove maxUnavailable', 'use PodManagementPolicy.PARALLEL or drop maxUnavailable'));
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
      const gates: unknown = s.template?.spec?.readinessGates; // a list of anything else: reported by the pod template check
      if (!(Array.isArray(gates) && gates.some(g => isObject(g) && g.conditionType === 'InPlaceUpdateReady'))) {
        r.add('spec.template.spec.readinessGates', s.template?.spec?.readinessGates, `must contain InPlaceUpdateReady with podUpdatePolicy ${ru.podUpdatePolicy}`,
          advice('add { conditionType: InPlaceUpdateReady } to spec.template.spec.readinessGates', 'add { conditionType: InPlaceUpdateReady } (the AdvancedStatefulSet construct adds it for you)'));
      }
    }
    if (ru.unorderedUpdate !== undefined) {
      if (policy !== 'Parallel') r.add(`${at}.unorderedUpdate`, ru.unorderedUpdate, `is only allowed with podManagementPolicy Parallel, not ${policy}`, advice('set spec.podManagementPolicy to Parallel, or remove unorderedUpdate', 'use PodManagementPolicy.PARALLEL or an ordered update'));
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
  // the webhook checks neither the claim templates nor the pod spec of the template (labels and annotations only)
  const claims = volumeClaimTemplateRules(r, s, false);
  templateRules(r, s, { claimVolumes: claims, kind: 'Advanced StatefulSet', webhookChecksPodSpec: false });
  lifecycleRules(r, s.lifecycle, false);
  return r.out;
}

/** What an Advanced StatefulSet's configuration will do that users do not expect. */
export function advancedStatefulSetWarnings(manifest: Json): string[] {
  const out: string[] = [];
  const s: Json = manifest.spec ?? {};
  const u: Json = s.updateStrategy ?? {};
  const ru: Json = u.rollingUpdate ?? {};
  if (typeof ru.partition === 'number') {
    out.push(...partitionWarnings(ru.partition, { value: ru.partition, isPercent: false }, s.replicas, 'spec.updateStrategy.rollingUpdate.partition'));
  }
  if (hasPreDownload(manifest)) {
    const policy = ru.podUpdatePolicy ?? 'ReCreate';
    if ((u.type ?? 'RollingUpdate') === 'OnDelete' || policy === 'ReCreate') {
      out.push(preDownloadSkipped(manifest, 'unless the rolling update uses an in-place podUpdatePolicy', {
        manifest: 'set spec.updateStrategy.rollingUpdate.podUpdatePolicy to InPlaceIfPossible or InPlaceOnly',
        construct: 'use AdvancedStatefulSetUpdateStrategy.rollingUpdate({ podUpdatePolicy: PodUpdatePolicy.IN_PLACE_IF_POSSIBLE })',
      }));
    } else if ((s.replicas ?? 1) <= 3) {
      out.push(preDownloadSkipped(manifest, `for ${s.replicas ?? 1} replica(s) (it only pre-downloads for more than 3)`, { manifest: 'run more than 3 replicas', construct: 'run more than 3 replicas' }));
    }
  }
  // the API server keeps a null item of the list (undefined where a construct wrote it), and the webhook and the controller decode it as the integer 0
  if (Array.isArray(s.reserveOrdinals)) {
    s.reserveOrdinals.forEach((ro: unknown, i: number) => {
      if (ro === null || ro === undefined) {
        out.push(fieldError(`spec.reserveOrdinals[${i}]`, null, 'is read as ordinal 0 by OpenKruise (the null item is kept, and decodes as the integer 0), so pod 0 is never created',
          'write 0 if pod 0 is meant to be skipped, or remove the item'));
      }
    });
  }
  out.push(...lifecycleWarnings(s.lifecycle));
  return out;
}


/** The Advanced StatefulSet webhooks; the StatefulSetAutoDeletePVC gate decides the retention-policy defaults. */
/**
 * The Advanced StatefulSet webhook's changes by release: up to 1.7 it
 * refused a reserved ordinal listed twice (1.8 reads ranges as well and lets
 * repeats be); ranges and the PVC update strategy are schema changes (1.8).
 */
const RELEASE_RULES: ReleaseRule[] = [{
  release: '1.8',
  change: 'accepts',
  what: 'an ordinal listed twice in spec.reserveOrdinals',
  find: m => {
    const ros: unknown[] = Array.isArray(m.spec?.reserveOrdinals) ? m.spec.reserveOrdinals : [];
    const numbers = ros.filter((x): x is number => typeof x === 'number');
    return new Set(numbers).size !== numbers.length
      ? [{ field: 'spec.reserveOrdinals', value: ros, problem: 'lists an ordinal more than once', fix: 'list each reserved ordinal once' }]
      : [];
  },
}];

export const advancedStatefulSetAdmission: AdmissionModule = {
  group: 'apps.kruise.io',
  kind: 'StatefulSet',
  versions: ['v1alpha1', 'v1beta1'],
  defaults: (m, ctx) => defaultAdvancedStatefulSet(m, { autoDeletePvc: ctx.gate('StatefulSetAutoDeletePVC') }),
  validate: (m, ctx) => problemLines(advancedStatefulSetProblems(m, { autoDeletePvc: ctx.gate('StatefulSetAutoDeletePVC') })),
  warnings: m => advancedStatefulSetWarnings(m),
  releaseRules: RELEASE_RULES,
};
