/**
 * AdvancedCronJob admission (apps.kruise.io v1alpha1 and v1beta1; v1alpha1 is
 * converted to v1beta1 upstream and lacks only imageListPullJobTemplate, which
 * its schema refuses, so one set of rules serves both).
 *
 * Defaults: the pod-template defaults of jobTemplate and broadcastJobTemplate
 * (unless the TemplateNoDefaults gate is on); for an imageListPullJobTemplate
 * whose completionPolicy.type is empty, type Always, pullPolicy timeoutSeconds
 * 600 and backoffLimit 3, imagePullPolicy IfNotPresent (none of them when the
 * type is set); concurrencyPolicy Replace with an imageListPullJobTemplate,
 * else Allow; paused false; successfulJobsHistoryLimit 3;
 * failedJobsHistoryLimit 1; status cleared.
 *
 * Rules: metadata (the name a DNS-1123 label); spec.schedule non-empty and
 * valid for the standard parser of the Go cron library OpenKruise uses (see
 * below); no `TZ` in the schedule when spec.timeZone is set; exactly one of
 * jobTemplate, broadcastJobTemplate, imageListPullJobTemplate; the pod
 * template of a jobTemplate or broadcastJobTemplate as the API server checks
 * it; with an imageListPullJobTemplate, concurrencyPolicy Replace or Forbid,
 * the ImageListPullJob selector/images rules, completionPolicy.type Always,
 * activeDeadlineSeconds at most 86400 and at least pullPolicy.timeoutSeconds,
 * no ttlSecondsAfterFinished; startingDeadlineSeconds and the history limits
 * >= 0; spec.timeZone non-empty, not `Local`, and a known zone.
 *
 * Stricter than upstream (upstream admits the AdvancedCronJob and then every
 * child it creates is refused): a jobTemplate's pod restartPolicy must be
 * Never or OnFailure, as for any Job; a broadcastJobTemplate gets all the
 * BroadcastJob rules (restartPolicy, reserved pod labels, completionPolicy,
 * parallelism).
 *
 * Skipped: the update-only rules (metadata and the fields that may not
 * change). Nothing here needs cluster state.
 *
 * The schedule grammar (robfig/cron v3 `ParseStandard`): an optional
 * `TZ=<zone> ` or `CRON_TZ=<zone> ` prefix (the zone may be empty, `UTC` or
 * `Local`; a prefix with no space after it is refused), then a descriptor
 * (`@yearly`, `@annually`, `@monthly`, `@weekly`, `@daily`, `@midnight`,
 * `@hourly`, matched exactly, or `@every <Go duration>`), or exactly five
 * whitespace-separated fields. A field is a comma list (empty items are
 * dropped, so `1,,2` is `1,2` and a lone `,` selects nothing); an item is
 * `*` or `?` (anything after a `-` that follows them is ignored), a number,
 * a range `a-b`, each optionally `/step`; `a/step` means `a-max/step`;
 * numbers are decimal and may carry a `+` sign; month and day-of-week take
 * the three-letter English names in any case; day-of-week is 0-6.
 *
 * How this differs from the npm cron library it uses: croner (which computes
 * the runs, for the warning about a schedule that never runs) accepts more
 * than upstream: `L`, `W`, `#`, the `+` AND-modifier, `7` for Sunday, six-
 * and seven-field patterns, and fewer: empty list items, `+5`, `*-5`,
 * `5/10` (unless sloppy). So the grammar above is checked here, field by
 * field, and croner is given the normalized pattern only (numbers, `*`, `a-b`
 * and `/step`; a step longer than its range, which croner refuses, becomes
 * the range's start, which is what upstream selects). Days are combined as upstream does: when both day fields are
 * restricted, a day matching either runs (croner's default); `*`, `?`, `*\/1`
 * or a list containing them counts as unrestricted.
 *
 * With the TemplateNoDefaults gate on, upstream checks a jobTemplate's or
 * broadcastJobTemplate's pod template without defaults (so an unset
 * imagePullPolicy is refused); here it is always checked on a defaulted copy.
 *
 * Time zones are looked up in Node's ICU database, which differs from Go's:
 * the ICU-only legacy ids (PST, JST, IST, ... and SystemV/...) are refused,
 * as Go refuses them; a canonical zone name in the wrong case is refused (Go
 * matches case-sensitively), but a miscased alias (e.g. `us/eastern`) passes
 * here; a zone newer than Node's ICU data is refused here.
 */
import { PodTemplateAt, podTemplateFieldWarnings, podTemplateReleaseRules } from './_pod-template-releases';
import { broadcastJobSpecProblems, defaultBroadcastJobSpec } from './broadcast-job';
import { imageListPullJobSpecProblems } from './image-list-pull-job';
import { omitEmptySelectorFields } from './image-pull-job';
import { AdmissionContext, AdmissionModule, Manifest } from './types';
import { fieldError } from '../validation/field-error';
import { cloneJson } from '../validation/json';
import { objectMetaProblems } from '../validation/names';
import { TemplateProblem, defaultPodTemplate, podTemplateProblems } from '../validation/pod-template';
import { untypedObjectProblems } from '../validation/shape';

type Json = Record<string, any>;

const clone = cloneJson;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const present = (v: unknown): boolean => v !== undefined && v !== null;

// --- time zones ---------------------------------------------------------------

/** Ids ICU knows that are not in the tz database (Go refuses them). */
const ICU_ONLY_ZONES = new Set([
  'ACT', 'AET', 'AGT', 'ART', 'AST', 'BET', 'BST', 'CAT', 'CNT', 'CST', 'CTT', 'EAT', 'ECT', 'IET', 'IST', 'JST', 'MIT', 'NET',
  'NST', 'PLT', 'PNT', 'PRT', 'PST', 'SST', 'VST', 'Canada/East-Saskatchewan', 'US/Pacific-New',
]);

let canonicalZones: Map<string, string> | undefined;

/** Lowercased canonical zone name -> its spelling. */
function canonicalZoneSpelling(): Map<string, string> {
  if (!canonicalZones) {
    canonicalZones = new Map();
    const supported: string[] = typeof (Intl as any).supportedValuesOf === 'function' ? (Intl as any).supportedValuesOf('timeZone') : [];
    for (const z of supported) canonicalZones.set(z.toLowerCase(), z);
  }
  return canonicalZones;
}

/** Why Go's `time.LoadLocation` would refuse `zone` (undefined when it loads). */
export function timeZoneProblem(zone: string): { problem: string; fix: string } | undefined {
  if (zone === '' || zone === 'UTC' || zone === 'Local') return undefined;
  const unknown = { problem: 'is not a time zone of the tz database', fix: 'use a tz database name such as Europe/Berlin, America/New_York or UTC' };
  if (ICU_ONLY_ZONES.has(zone) || zone.startsWith('SystemV/')) return unknown;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return unknown;
  }
  const spelled = resolved.toLowerCase() === zone.toLowerCase() ? resolved : canonicalZoneSpelling().get(zone.toLowerCase());
  if (spelled !== undefined && spelled !== zone) {
    return { problem: 'is spelled in the wrong case (zone names are case-sensitive)', fix: `write it as ${JSON.stringify(spelled)}` };
  }
  return undefined;
}

// --- Go durations ---------------------------------------------------------------

const DURATION_UNITS: Record<string, bigint> = {
  ns: 1n, us: 1000n, µs: 1000n, μs: 1000n, ms: 1000000n, s: 1000000000n, m: 60000000000n, h: 3600000000000n,
};
const MAX_DURATION = 2n ** 63n - 1n;

/** A Go duration (`time.ParseDuration`) in nanoseconds, or a phrase saying why it is not one. */
export function parseGoDuration(text: string): { nanos: bigint } | { problem: string } {
  let s = text;
  let negative = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return { nanos: 0n };
  if (s === '') return { problem: 'is not a duration' };
  let total = 0n;
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?/.exec(s)!;
    const [whole, frac] = [m[1], m[2]];
    if (whole === '' && (frac === undefined || frac === '')) return { problem: 'is not a duration' };
    s = s.slice(m[0].length);
    const u = /^[^\d.]*/.exec(s)![0];
    if (u === '') return { problem: 'has a number without a unit' };
    const unit = DURATION_UNITS[u];
    if (unit === undefined) return { problem: `has the unknown unit ${JSON.stringify(u)} (use ns, us, ms, s, m or h)` };
    s = s.slice(u.length);
    let v = BigInt(whole === '' ? '0' : whole) * unit;
    if (frac) v += (BigInt(frac) * unit) / 10n ** BigInt(frac.length);
    total += v;
    if (total > MAX_DURATION + (negative ? 1n : 0n)) return { problem: 'is longer than the longest Go duration (about 292 years)' };
  }
  return { nanos: negative ? -total : total };
}

// --- the schedule ---------------------------------------------------------------

interface CronField {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly names?: Record<string, number>;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const CRON_FIELDS: CronField[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: Object.fromEntries(MONTHS.map((n, i) => [n, i + 1])) },
  { name: 'day-of-week', min: 0, max: 6, names: Object.fromEntries(DAYS.map((n, i) => [n, i])) },
];
const DESCRIPTORS = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'];
// the characters Go's strings.Fields / TrimSpace treat as white space
const GO_SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;
const goTrim = (s: string): string => s.replace(new RegExp(`^${GO_SPACE.source}`), '').replace(new RegExp(`${GO_SPACE.source}$`), '');

/** A schedule as upstream reads it. */
export interface ParsedSchedule {
  /** Why upstream refuses it: the problem and the fix. */
  readonly error?: { problem: string; fix: string };
  /** The five fields normalized for croner (`undefined` for a field that selects nothing). */
  readonly pattern?: Array<string | undefined>;
  /** The interval of an `@every` schedule, in nanoseconds. */
  readonly everyNanos?: bigint;
}

const FIELD_FIX = 'use numbers, *, ranges a-b, steps /n and comma lists (minute 0-59, hour 0-23, day-of-month 1-31, month 1-12 or JAN-DEC, day-of-week 0-6 or SUN-SAT)';

/** One field: the normalized croner field (undefined when it selects nothing), or the problem. */
function normalizeField(text: string, f: CronField): { value: string | undefined } | { problem: string } {
  const items = text.split(',').filter(x => x !== '');
  const out: string[] = [];
  let star = false;
  const number = (token: string, what: string): number | string => {
    const named = f.names?.[token.toLowerCase()];
    if (named !== undefined && what !== 'step') return named;
    if (!/^\+?\d+$/.test(token)) {
      return `has ${JSON.stringify(token)} as a ${what} in the ${f.name} field, which is not a number${f.names && what !== 'step' ? ' or a three-letter name' : ''}`;
    }
    return Number(token);
  };
  for (const item of items) {
    const slashes = item.split('/');
    if (slashes.length > 2) return { problem: `has ${JSON.stringify(item)} in the ${f.name} field, with more than one '/'` };
    const bounds = slashes[0].split('-');
    let start: number;
    let end: number;
    const isStar = bounds[0] === '*' || bounds[0] === '?';
    if (isStar) {
      start = f.min;
      end = f.max;
    } else {
      if (bounds.length > 2) return { problem: `has ${JSON.stringify(item)} in the ${f.name} field, with more than one '-'` };
      const a = number(bounds[0], 'value');
      if (typeof a === 'string') return { problem: a };
      start = a;
      end = a;
      if (bounds.length === 2) {
        const b = number(bounds[1], 'value');
        if (typeof b === 'string') return { problem: b };
        end = b;
      }
    }
    let step = 1;
    if (slashes.length === 2) {
      const s = number(slashes[1], 'step');
      if (typeof s === 'string') return { problem: s };
      step = s;
      if (bounds.length === 1) end = f.max;
    }
    if (start < f.min) return { problem: `has ${JSON.stringify(item)} in the ${f.name} field, which starts below ${f.min}` };
    if (end > f.max) return { problem: `has ${JSON.stringify(item)} in the ${f.name} field, which goes above ${f.max}` };
    if (start > end) return { problem: `has ${JSON.stringify(item)} in the ${f.name} field, a range that starts after it ends` };
    if (step === 0) return { problem: `has ${JSON.stringify(item)} in the ${f.name} field, with a step of 0` };
    if (isStar && step === 1) star = true;
    // a step past the end selects the start alone (croner refuses such steps)
    if (step > end - start) out.push(`${start}`);
    else out.push(step === 1 ? `${start}-${end}` : `${start}-${end}/${step}`);
  }
  if (star) return { value: '*' };
  return { value: out.length === 0 ? undefined : out.join(',') };
}

/** Parse a schedule as the robfig/cron v3 standard parser does (the time-zone prefix included). */
export function parseSchedule(schedule: string): ParsedSchedule {
  if (schedule === '') return { error: { problem: 'is empty', fix: 'give a cron schedule such as "0 3 * * *" or "@daily"' } };
  let rest = schedule;
  if (rest.startsWith('TZ=') || rest.startsWith('CRON_TZ=')) {
    const space = rest.indexOf(' ');
    const prefix = rest.startsWith('TZ=') ? 'TZ' : 'CRON_TZ';
    if (space < 0) {
      return { error: { problem: `has a ${prefix}= prefix with nothing after it`, fix: `write "${prefix}=<zone> <schedule>", or set spec.timeZone` } };
    }
    const zone = rest.slice(rest.indexOf('=') + 1, space);
    const z = timeZoneProblem(zone);
    if (z) return { error: { problem: `has the zone ${JSON.stringify(zone)} in its ${prefix}= prefix, which ${z.problem}`, fix: z.fix } };
    rest = goTrim(rest.slice(space));
  }
  if (rest.startsWith('@')) {
    if (DESCRIPTORS.includes(rest)) return { pattern: undefined };
    if (rest.startsWith('@every ')) {
      const text = rest.slice('@every '.length);
      const d = parseGoDuration(text);
      if ('problem' in d) {
        return { error: { problem: `has the interval ${JSON.stringify(text)} after @every, which ${d.problem}`, fix: 'use a Go duration such as 90s, 15m or 1h30m' } };
      }
      return { everyNanos: d.nanos };
    }
    return { error: { problem: `uses the unknown descriptor ${JSON.stringify(rest)}`, fix: `use one of ${DESCRIPTORS.join(', ')} or "@every <duration>"` } };
  }
  const fields = rest.split(GO_SPACE).filter(x => x !== '');
  if (fields.length !== 5) {
    return {
      error: {
        problem: `has ${fields.length} field${fields.length === 1 ? '' : 's'}, not 5`,
        fix: 'give minute, hour, day-of-month, month and day-of-week (there is no seconds or year field)',
      },
    };
  }
  const pattern: Array<string | undefined> = [];
  for (let i = 0; i < 5; i++) {
    const r = normalizeField(fields[i], CRON_FIELDS[i]);
    if ('problem' in r) return { error: { problem: r.problem, fix: FIELD_FIX } };
    pattern.push(r.value);
  }
  return { pattern };
}

interface CronJobRunner { nextRun(from?: Date): Date | null }
type CronConstructor = new (pattern: string, options: Record<string, unknown>) => CronJobRunner;

/** Whether the five normalized fields ever match a time (within the next 5 years, as upstream searches). */
function everRuns(fields: Array<string | undefined>): boolean {
  const pattern = [...fields];
  if (pattern[0] === undefined || pattern[1] === undefined || pattern[3] === undefined) return false;
  // a day field that selects nothing counts as restricted: with the other day field restricted
  // too, that one alone decides (either may match); with the other unrestricted, no day matches
  const [dom, dow] = [pattern[2], pattern[4]];
  if (dom === undefined && (dow === undefined || dow === '*')) return false;
  if (dow === undefined && dom === '*') return false;
  if (dom === undefined) pattern[2] = '*';
  if (dow === undefined) pattern[4] = '*';
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Cron } = require('croner') as { Cron: CronConstructor };
  const from = new Date(Date.UTC(2024, 0, 1));
  let next: Date | null;
  try {
    next = new Cron(pattern.join(' '), { paused: true, timezone: 'UTC', mode: '5-part', domAndDow: false }).nextRun(from);
  } catch {
    // the pattern is upstream-valid (checked above); a croner refusal must not stop synth, and warns of nothing
    return true;
  }
  return next !== null && next.getTime() - from.getTime() <= 5 * 366 * 24 * 3600 * 1000;
}

// --- the AdvancedCronJob ---------------------------------------------------------

const TEMPLATE_KINDS = ['jobTemplate', 'broadcastJobTemplate', 'imageListPullJobTemplate'];

/** What happens to a template the child's admission refuses: the AdvancedCronJob itself is stored. */
const CHILD_REFUSED = (child: string) => `the cluster admits the AdvancedCronJob, then refuses every ${child} it creates from this template when the schedule fires, so none ever runs`;
const MAX_ACTIVE_DEADLINE = 86400;

function defaults(manifest: Manifest, ctx: AdmissionContext): Manifest {
  const m = clone(manifest);
  if (!isObject(m.spec)) m.spec = {};
  const s = m.spec;
  const t: Json = isObject(s.template) ? s.template : {};
  const injectTemplate = !ctx.gate('TemplateNoDefaults');
  for (const k of ['jobTemplate', 'broadcastJobTemplate']) {
    if (injectTemplate && isObject(t[k])) {
      if (!isObject(t[k].spec)) t[k].spec = {};
      t[k].spec.template = defaultPodTemplate(t[k].spec.template);
    }
  }
  const ilpj = t.imageListPullJobTemplate;
  if (isObject(ilpj)) {
    if (!isObject(ilpj.spec)) ilpj.spec = {};
    const is = ilpj.spec;
    omitEmptySelectorFields(is);
    if (!isObject(is.completionPolicy)) is.completionPolicy = {};
    if (!is.completionPolicy.type) {
      is.completionPolicy.type = 'Always';
      if (!isObject(is.pullPolicy)) is.pullPolicy = {};
      is.pullPolicy.timeoutSeconds ??= 600;
      is.pullPolicy.backoffLimit ??= 3;
      is.imagePullPolicy ||= 'IfNotPresent';
    }
  }
  s.concurrencyPolicy ||= isObject(ilpj) ? 'Replace' : 'Allow';
  s.paused ??= false;
  s.successfulJobsHistoryLimit ??= 3;
  s.failedJobsHistoryLimit ??= 1;
  delete m.status;
  return m;
}

function scheduleProblems(s: Json, out: TemplateProblem[]): void {
  const schedule = s.schedule;
  if (typeof schedule !== 'string') {
    out.push({ field: 'spec.schedule', value: schedule, problem: 'is required', fix: 'give a cron schedule such as "0 3 * * *" or "@daily"' });
    return;
  }
  const parsed = parseSchedule(schedule);
  if (parsed.error) out.push({ field: 'spec.schedule', value: schedule, problem: parsed.error.problem, fix: parsed.error.fix });
  if (present(s.timeZone) && schedule.includes('TZ')) {
    out.push({ field: 'spec.schedule', value: schedule, problem: 'contains "TZ" while spec.timeZone is set', fix: 'give the zone once: drop the TZ=/CRON_TZ= prefix or spec.timeZone' });
  }
  if (present(s.timeZone)) {
    const tz = String(s.timeZone);
    if (tz === '') {
      out.push({ field: 'spec.timeZone', value: tz, problem: 'is empty', fix: 'name a tz database zone such as Europe/Berlin, or remove timeZone' });
    } else if (tz.toLowerCase() === 'local') {
      out.push({ field: 'spec.timeZone', value: tz, problem: 'is not an explicit zone (it would mean the zone of the controller)', fix: 'name a tz database zone such as Europe/Berlin, or remove timeZone' });
    } else {
      const z = timeZoneProblem(tz);
      if (z) out.push({ field: 'spec.timeZone', value: tz, problem: z.problem, fix: z.fix });
    }
  }
}

function imageListTemplateProblems(s: Json, tpl: Json, out: TemplateProblem[]): void {
  const at = 'spec.template.imageListPullJobTemplate.spec';
  const is: Json = isObject(tpl.spec) ? tpl.spec : {};
  if (s.concurrencyPolicy !== 'Replace' && s.concurrencyPolicy !== 'Forbid') {
    out.push({
      field: 'spec.concurrencyPolicy',
      value: s.concurrencyPolicy,
      problem: 'is not allowed with an imageListPullJobTemplate',
      fix: 'use Replace (the default here) or Forbid',
    });
  }
  out.push(...imageListPullJobSpecProblems(is, at, { completionPolicy: false, admittedBy: 'the AdvancedCronJob webhook' }));
  const cp: Json = isObject(is.completionPolicy) ? is.completionPolicy : {};
  if (cp.type !== 'Always') {
    out.push({ field: `${at}.completionPolicy.type`, value: cp.type, problem: 'must be Always for the pull jobs of an AdvancedCronJob', fix: 'use Always or leave it unset' });
  }
  const ads = cp.activeDeadlineSeconds;
  if (typeof ads === 'number') {
    if (ads > MAX_ACTIVE_DEADLINE) {
      out.push({ field: `${at}.completionPolicy.activeDeadlineSeconds`, value: ads, problem: `is more than ${MAX_ACTIVE_DEADLINE} (one day)`, fix: `use at most ${MAX_ACTIVE_DEADLINE} seconds` });
    }
    const timeout = isObject(is.pullPolicy) ? is.pullPolicy.timeoutSeconds : undefined;
    if (typeof timeout === 'number' && timeout > ads) {
      out.push({
        field: `${at}.completionPolicy.activeDeadlineSeconds`,
        value: ads,
        problem: `is less than pullPolicy.timeoutSeconds (${timeout}), so the job can time out before one pull does`,
        fix: `use at least ${timeout} seconds, or lower pullPolicy.timeoutSeconds`,
      });
    }
  }
  if (present(cp.ttlSecondsAfterFinished)) {
    out.push({
      field: `${at}.completionPolicy.ttlSecondsAfterFinished`,
      value: cp.ttlSecondsAfterFinished,
      problem: 'is not supported in an AdvancedCronJob (the history limits decide how long finished jobs stay)',
      fix: 'remove it; use successfulJobsHistoryLimit and failedJobsHistoryLimit',
    });
  }
}

/** The AdvancedCronJob rules of a defaulted object, as problems. */
export function advancedCronJobProblems(manifest: Manifest): TemplateProblem[] {
  // the CRD leaves these untyped; the webhook decodes them into Go structs
  const undecodable = untypedObjectProblems(manifest, [
    'spec.template.jobTemplate', 'spec.template.jobTemplate.metadata', 'spec.template.jobTemplate.spec', 'spec.template.jobTemplate.spec.template',
    'spec.template.broadcastJobTemplate.spec.template',
  ]);
  if (undecodable.length > 0) return undecodable;
  const out: TemplateProblem[] = [...objectMetaProblems(manifest.metadata, 'label', 'AdvancedCronJob')];
  const s: Json = isObject(manifest.spec) ? manifest.spec : {};
  scheduleProblems(s, out);
  const t: Json = isObject(s.template) ? s.template : {};
  const kinds = TEMPLATE_KINDS.filter(k => present(t[k]));
  if (kinds.length === 0) {
    out.push({ field: 'spec.template', value: t, problem: 'has no job template', fix: 'set exactly one of jobTemplate, broadcastJobTemplate or imageListPullJobTemplate' });
  } else if (kinds.length > 1) {
    out.push({ field: 'spec.template', value: kinds, problem: 'has more than one job template', fix: `keep exactly one of ${kinds.join(', ')}` });
  }
  if (isObject(t.jobTemplate)) {
    const at = 'spec.template.jobTemplate.spec.template';
    const pod = defaultPodTemplate(isObject(t.jobTemplate.spec) ? t.jobTemplate.spec.template : undefined);
    const rp = isObject(t.jobTemplate.spec?.template?.spec) ? t.jobTemplate.spec.template.spec.restartPolicy : undefined;
    if (rp !== 'Never' && rp !== 'OnFailure') {
      out.push({ field: `${at}.spec.restartPolicy`, value: rp, problem: `is not allowed for the pods of a Job, which run to completion: ${CHILD_REFUSED('Job')}`, fix: 'set restartPolicy to Never or OnFailure (it defaults to Always)' });
    }
    out.push(...podTemplateProblems(pod, { path: at }));
  }
  if (isObject(t.broadcastJobTemplate)) {
    const spec = clone(isObject(t.broadcastJobTemplate.spec) ? t.broadcastJobTemplate.spec : {});
    defaultBroadcastJobSpec(spec, false);
    // the AdvancedCronJob webhook does not judge the template: say what the cluster does with it
    // (what does not decode into its Go types fails the AdvancedCronJob webhook itself, which decodes the whole object)
    out.push(...broadcastJobSpecProblems(spec, 'spec.template.broadcastJobTemplate.spec')
      .map(p => (/cannot decode|does not decode/.test(p.problem) ? p : { ...p, problem: `${p.problem}: ${CHILD_REFUSED('BroadcastJob')}` })));
  }
  if (isObject(t.imageListPullJobTemplate)) imageListTemplateProblems(s, t.imageListPullJobTemplate, out);
  for (const f of ['startingDeadlineSeconds', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit']) {
    if (typeof s[f] === 'number' && s[f] < 0) out.push({ field: `spec.${f}`, value: s[f], problem: 'is negative', fix: 'use 0 or more' });
  }
  return out;
}

function warnings(manifest: Manifest): string[] {
  const schedule = manifest.spec?.schedule;
  if (typeof schedule !== 'string') return [];
  const parsed = parseSchedule(schedule);
  if (parsed.everyNanos !== undefined && parsed.everyNanos < 1000000000n) {
    return [fieldError('spec.schedule', schedule, 'has an @every interval under one second; OpenKruise runs it every second', 'use an interval of 1s or more')];
  }
  if (parsed.pattern && !everRuns(parsed.pattern)) {
    return [fieldError('spec.schedule', schedule, 'matches no time (e.g. a day that the month never has), so no job is ever created', 'fix the day-of-month and month fields')];
  }
  return [];
}

/** The pod templates of an AdvancedCronJob's job or BroadcastJob template, which its webhook judges. */
function cronJobTemplates(m: Manifest): PodTemplateAt[] {
  const t: Json = isObject(m.spec?.template) ? m.spec.template : {};
  return (['jobTemplate', 'broadcastJobTemplate'] as const).filter(k => isObject(t[k]))
    .map(k => ({ template: defaultPodTemplate(isObject(t[k].spec) ? t[k].spec.template : undefined), specPath: `spec.template.${k}.spec.template.spec` }));
}

/** The AdvancedCronJob webhooks. */
export const advancedCronJobAdmission: AdmissionModule = {
  group: 'apps.kruise.io',
  kind: 'AdvancedCronJob',
  versions: ['v1alpha1', 'v1beta1'],
  defaults,
  validate: m => advancedCronJobProblems(m).map(p => fieldError(p.field, p.value, p.problem, p.fix)),
  warnings: (m, ctx) => [...warnings(m), ...podTemplateFieldWarnings(cronJobTemplates(m), ctx)],
  releaseRules: podTemplateReleaseRules(cronJobTemplates),
};
