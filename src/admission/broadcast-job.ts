/**
 * BroadcastJob admission (apps.kruise.io v1alpha1 and v1beta1; v1alpha1 is
 * converted to v1beta1 upstream and the two schemas are the same, so one set
 * of rules serves both).
 *
 * Defaults: the pod-template defaults (unless the TemplateNoDefaults gate is
 * on), completionPolicy.type Always, parallelism 2147483647, failurePolicy.type
 * FailFast, status cleared.
 *
 * Rules: object metadata (the name a DNS-1123 label: upstream allows only
 * letters, digits and '-', the API server only lowercase); with
 * completionPolicy Never, no ttlSecondsAfterFinished and no
 * activeDeadlineSeconds; the pod restartPolicy Never or OnFailure (it
 * defaults to Always, so it must be set); no preset `broadcastjob-name` /
 * `broadcastjob-controller-uid` pod labels; the pod template as the API
 * server checks it.
 *
 * Stricter than upstream: `spec.parallelism` must be an integer >= 0 or an
 * integer percentage; upstream admits any value, but the controller fails
 * every reconcile on a string that is not `<int>%` and runs no pod for a
 * negative value.
 *
 * Skipped: nothing in this kind needs cluster state; upstream has no
 * update-only rule.
 */
import { podTemplateFieldWarnings, podTemplateReleaseRules } from './_pod-template-releases';
import { targetHas } from './_release';
import { workloadTemplate } from './_workload';
import { AdmissionContext, AdmissionModule, Manifest } from './types';
import { fieldError, stricterProblem } from '../validation/field-error';
import { cloneJson } from '../validation/json';
import { objectMetaProblems } from '../validation/names';
import { parseUpstreamPercent } from '../validation/percent';
import { TemplateProblem, defaultPodTemplate, defaultedTemplateView, podTemplateProblems } from '../validation/pod-template';

type Json = Record<string, any>;

const clone = cloneJson;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The pod labels the BroadcastJob controller sets on its pods. */
export const BROADCAST_JOB_RESERVED_LABELS = ['broadcastjob-name', 'broadcastjob-controller-uid'];

/** Problem lines from problems. */
export const toLines = (problems: TemplateProblem[]): string[] => problems.map(p => fieldError(p.field, p.value, p.problem, p.fix));

/**
 * The BroadcastJob defaults on a spec, in place (the caller passes a copy):
 * also used for the broadcastJobTemplate of an AdvancedCronJob, whose
 * children the BroadcastJob webhook defaults.
 */
export function defaultBroadcastJobSpec(spec: Json, injectTemplateDefaults: boolean): void {
  if (injectTemplateDefaults) spec.template = defaultPodTemplate(spec.template);
  if (!isObject(spec.completionPolicy)) spec.completionPolicy = {};
  spec.completionPolicy.type ||= 'Always';
  spec.parallelism ??= 2147483647;
  if (!isObject(spec.failurePolicy)) spec.failurePolicy = {};
  spec.failurePolicy.type ||= 'FailFast';
}

/**
 * The BroadcastJob rules of a (defaulted) spec found at `at` (e.g. `spec`, or
 * `spec.template.broadcastJobTemplate.spec` inside an AdvancedCronJob).
 */
export function broadcastJobSpecProblems(spec: Json | undefined, at: string): TemplateProblem[] {
  const out: TemplateProblem[] = [];
  const add = (field: string, value: unknown, problem: string, fix: string) => out.push({ field, value, problem, fix });
  const s: Json = isObject(spec) ? spec : {};
  const cp: Json = isObject(s.completionPolicy) ? s.completionPolicy : {};
  if (cp.type === 'Never') {
    for (const f of ['ttlSecondsAfterFinished', 'activeDeadlineSeconds']) {
      if (cp[f] !== undefined && cp[f] !== null) {
        add(`${at}.completionPolicy.${f}`, cp[f], 'only works with completionPolicy type Always (a Never job never finishes)',
          `remove ${f}, or use completionPolicy type Always`);
      }
    }
  }
  const p = s.parallelism;
  if (p !== undefined && p !== null) {
    const parsed = typeof p === 'number' || typeof p === 'string' ? parseUpstreamPercent(p) : undefined;
    if (!parsed) {
      add(`${at}.parallelism`, p, stricterProblem('is neither an integer nor an integer percentage', 'OpenKruise', 'the controller fails on every reconcile'),
        'use a number of pods such as 10, or a percentage of the nodes such as "50%"');
    } else if (parsed.value < 0) {
      add(`${at}.parallelism`, p, stricterProblem('is negative', 'OpenKruise', 'the job never runs a pod'), 'use 0 or more (unset means no limit)');
    }
  }
  const template: Json = isObject(s.template) ? s.template : {};
  const podSpec: Json = isObject(template.spec) ? template.spec : {};
  const rp = podSpec.restartPolicy;
  if (rp !== 'Never' && rp !== 'OnFailure') {
    add(`${at}.template.spec.restartPolicy`, rp, 'is not allowed for the pods of a BroadcastJob, which run to completion',
      'set restartPolicy to Never or OnFailure (it defaults to Always)');
  }
  const labels: Json = isObject(template.metadata) && isObject(template.metadata.labels) ? template.metadata.labels : {};
  for (const key of BROADCAST_JOB_RESERVED_LABELS) {
    const v = labels[key];
    if (v !== undefined && v !== null && v !== '') {
      add(`${at}.template.metadata.labels[${JSON.stringify(key)}]`, v, 'is set by the BroadcastJob controller and may not be preset',
        'remove the label from the pod template');
    }
  }
  out.push(...podTemplateProblems(defaultedTemplateView(template), { path: `${at}.template` }));
  return out;
}

function defaults(manifest: Manifest, ctx: AdmissionContext): Manifest {
  const m = clone(manifest);
  if (!isObject(m.spec)) m.spec = {};
  defaultBroadcastJobSpec(m.spec, !ctx.gate('TemplateNoDefaults'));
  // the release's change: before 1.9 the webhook gave a pod template without a restartPolicy OnFailure (it has one
  // already unless the TemplateNoDefaults gate kept the pod defaults out); 1.9's v1beta1 defaults dropped that
  if (!targetHas(ctx, 'openkruise', '1.9') && isObject(m.spec.template)) {
    if (!isObject(m.spec.template.spec)) m.spec.template.spec = {};
    m.spec.template.spec.restartPolicy ||= 'OnFailure';
  }
  delete m.status;
  return m;
}

function validate(manifest: Manifest): string[] {
  return toLines([
    ...objectMetaProblems(manifest.metadata, 'label', 'BroadcastJob'),
    ...broadcastJobSpecProblems(manifest.spec, 'spec'),
  ]);
}

function warnings(manifest: Manifest): string[] {
  const cp = manifest.spec?.completionPolicy;
  const type = isObject(cp) ? cp.type : undefined;
  if (type === undefined || type === 'Always' || type === 'Never') return [];
  return [fieldError('spec.completionPolicy.type', type, 'is neither Always nor Never; OpenKruise admits it and runs the job as Always, but without timing activeDeadlineSeconds',
    'use Always (finish once every node ran the pod) or Never (keep running on new nodes)')];
}

/** The BroadcastJob webhooks. */
export const broadcastJobAdmission: AdmissionModule = {
  group: 'apps.kruise.io',
  kind: 'BroadcastJob',
  versions: ['v1alpha1', 'v1beta1'],
  defaults,
  validate,
  warnings: (m, ctx) => [...warnings(m), ...podTemplateFieldWarnings(workloadTemplate(m), ctx)],
  releaseRules: podTemplateReleaseRules(workloadTemplate),
};
