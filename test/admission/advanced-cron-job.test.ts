import { advancedCronJobAdmission as mod, parseGoDuration, parseSchedule, timeZoneProblem } from '../../src/admission/advanced-cron-job';
import { asCreated, judgeManifest } from '../../src/admission/judge';
import { GATE_DEFAULTS } from '../../src/control-plane/_gates';
import { validateManifest } from '../../src/validation/schemas';
import { cases } from '../fixtures/admission/advanced-cron-job';
import { expectCase } from '../util/admission';

const gates = (on: Record<string, boolean> = {}) => ({ gate: (g: string) => on[g] ?? GATE_DEFAULTS[g] === true });
const ctx = gates();
const judge = (m: Record<string, any>) => mod.validate(mod.defaults!(m, ctx), ctx);
const caseOf = (id: string) => JSON.parse(JSON.stringify(cases.find(c => c.id === `AdvancedCronJob/${id}`)!.manifest));

describe.each(cases)('$id', c => {
  test('the manifest passes the schema', () => expect(validateManifest(asCreated(c.manifest)).filter(i => !i.missing)).toEqual([]));
  test('the module gives the case verdict, exactly', () => expect(judge(c.manifest)).toEqual(c.allowed ? [] : [c.message]));
  test('every entry path gives the same verdict', () => expectCase(c));
});

test('the cases cover both served versions, allowed and denied', () => {
  for (const v of mod.versions) {
    expect(cases.some(c => c.allowed && c.manifest.apiVersion === `apps.kruise.io/${v}`)).toBe(true);
    expect(cases.some(c => !c.allowed && c.manifest.apiVersion === `apps.kruise.io/${v}`)).toBe(true);
  }
});

test('v1alpha1 has no imageListPullJobTemplate: the schema refuses it before any rule', () => {
  const m = caseOf('v1beta1-image-list-template');
  m.apiVersion = 'apps.kruise.io/v1alpha1';
  expect(validateManifest(m).map(i => i.field)).toContain('spec.template.imageListPullJobTemplate');
});

describe('defaults', () => {
  test('job template: pod defaults, Allow, history limits, paused; the input is not changed', () => {
    const input = caseOf('v1beta1-job-template');
    input.status = { active: [] };
    delete input.spec.concurrencyPolicy;
    const before = JSON.stringify(input);
    const out = mod.defaults!(input, ctx);
    expect(JSON.stringify(input)).toBe(before);
    expect(out.status).toBeUndefined();
    expect(out.spec).toMatchObject({ concurrencyPolicy: 'Allow', paused: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
    expect(out.spec.template.jobTemplate.spec.template.spec).toMatchObject({ restartPolicy: 'OnFailure', dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler' });
    expect(out.spec.template.jobTemplate.spec.template.spec.containers[0].imagePullPolicy).toBe('Always');
  });

  test('TemplateNoDefaults leaves the pod template alone', () => {
    const out = mod.defaults!(caseOf('v1beta1-job-template'), gates({ TemplateNoDefaults: true }));
    expect(out.spec.template.jobTemplate.spec.template.spec.dnsPolicy).toBeUndefined();
  });

  test('image list template: Replace, and the pull defaults only when the completion type is empty', () => {
    const out = mod.defaults!(caseOf('v1beta1-image-list-template'), ctx);
    expect(out.spec.concurrencyPolicy).toBe('Replace');
    expect(out.spec.template.imageListPullJobTemplate.spec).toMatchObject({
      completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 }, imagePullPolicy: 'IfNotPresent',
    });
    const typed = caseOf('v1beta1-image-list-template');
    typed.spec.template.imageListPullJobTemplate.spec.completionPolicy = { type: 'Always', activeDeadlineSeconds: 300 };
    const kept = mod.defaults!(typed, ctx).spec.template.imageListPullJobTemplate.spec;
    expect(kept.pullPolicy).toBeUndefined();
    expect(kept.imagePullPolicy).toBeUndefined();
    // no timeout was defaulted, so a short deadline is admitted, as upstream does
    expect(judge(typed)).toEqual([]);
  });
});

describe('the schedule parser', () => {
  test.each([
    ['* * * * ?', ['*', '*', '*', '*', '*']],
    ['+5 1,,13 ? jan-Mar */1', ['5', '1,13', '*', '1-3', '*']],
    ['5/20 */2 1 * *', ['5-59/20', '0-23/2', '1', '*', '*']],
    ['*-7 3 * * sun,SAT', ['*', '3', '*', '*', '0,6']],
    ['0 0 * * 1-5,*', ['0', '0', '*', '*', '*']],
    ['0\t0  1 * *', ['0', '0', '1', '*', '*']],
    [', * * * *', [undefined, '*', '*', '*', '*']],
    ['*/100 0 1-31/40 3/12 0-6/7', ['0', '0', '1', '3', '0']],
  ])('%j reads as upstream reads it', (text, pattern) => {
    expect(parseSchedule(text)).toEqual({ pattern });
  });

  test.each(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly', 'TZ=UTC @hourly', 'CRON_TZ=Local  @daily', 'TZ= * * * * *'])(
    '%j is accepted', text => expect(parseSchedule(text).error).toBeUndefined());

  test.each(['@daily ', ' @daily', 'tz=UTC * * * * *', 'TZ=UTC\t* * * * *', '* * * *', '1-2-3 * * * *', '-5 * * * *', '*/-1 * * * *', '99999999999999999999 * * * *'])(
    '%j is refused', text => expect(parseSchedule(text).error).toBeDefined());

  test('Go durations: units, fractions, signs and overflow', () => {
    expect(parseGoDuration('1h30m')).toEqual({ nanos: 5400000000000n });
    expect(parseGoDuration('1.5s')).toEqual({ nanos: 1500000000n });
    expect(parseGoDuration('.5ms')).toEqual({ nanos: 500000n });
    expect(parseGoDuration('-2m')).toEqual({ nanos: -120000000000n });
    expect(parseGoDuration('1\u00b5s')).toEqual({ nanos: 1000n });
    expect(parseGoDuration('0')).toEqual({ nanos: 0n });
    expect(parseGoDuration('2562047h')).toEqual({ nanos: 2562047n * 3600000000000n });
    expect(parseGoDuration('2562048h')).toEqual({ problem: 'is longer than the longest Go duration (about 292 years)' });
    expect(parseGoDuration('.s')).toEqual({ problem: 'is not a duration' });
    expect(parseGoDuration('')).toEqual({ problem: 'is not a duration' });
    expect(parseGoDuration('5')).toEqual({ problem: 'has a number without a unit' });
    expect(parseGoDuration('1w')).toEqual({ problem: 'has the unknown unit "w" (use ns, us, ms, s, m or h)' });
  });

  test('time zones: the tz database, case-sensitive, without the ICU-only ids', () => {
    for (const z of ['Europe/Berlin', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5', 'US/Eastern', 'EST', 'UTC', 'Local', '']) expect(timeZoneProblem(z)).toBeUndefined();
    for (const z of ['JST', 'IST', 'SystemV/EST5', 'Mars/Olympus', '+01:00']) expect(timeZoneProblem(z)?.problem).toBe('is not a time zone of the tz database');
    expect(timeZoneProblem('etc/gmt+5')?.fix).toBe('write it as "Etc/GMT+5"');
  });
});

describe('warnings', () => {
  const warn = (schedule: string) => {
    const m = caseOf('v1beta1-job-template');
    m.spec.schedule = schedule;
    const d = mod.defaults!(m, ctx);
    expect(mod.validate(d, ctx)).toEqual([]);
    return mod.warnings!(d, ctx);
  };
  test('a schedule no day matches', () => {
    expect(warn('0 0 30 2 *')).toEqual([
      'spec.schedule: "0 0 30 2 *" matches no time (e.g. a day that the month never has), so no job is ever created; fix the day-of-month and month fields',
    ]);
    expect(warn(', 0 * * *')).toHaveLength(1);
  });
  test('both day fields restricted: either one matching runs, as upstream combines them', () => {
    expect(warn('0 0 30 2 MON')).toEqual([]);
    expect(warn('0 0 31 2 */2')).toEqual([]);
    expect(warn('0 0 31 2 */1')).toHaveLength(1);
    // a day field that selects nothing leaves the other day field to decide, or matches nothing when the other is *
    expect(warn('0 0 30 * ,')).toEqual([]);
    expect(warn('0 0 , * 1')).toEqual([]);
    expect(warn('0 0 30 2 ,')).toHaveLength(1);
    expect(warn('0 0 , * *')).toHaveLength(1);
  });
  test('a leap day runs, and an @every under a second runs every second', () => {
    expect(warn('0 0 29 2 *')).toEqual([]);
    expect(warn('@every 500ms')).toEqual([
      'spec.schedule: "@every 500ms" has an @every interval under one second; OpenKruise runs it every second; use an interval of 1s or more',
    ]);
    expect(warn('@every 1s')).toEqual([]);
    expect(warn('@weekly')).toEqual([]);
    expect(warn('*/100 0 1-31/40 3/12 *')).toEqual([]);
  });
});

test('validate and warnings never throw on odd but schema-valid objects', () => {
  const odd = [
    { spec: { schedule: '* * * * *', template: {} } },
    { metadata: {}, spec: { schedule: '@daily', template: { jobTemplate: {} } } },
    { spec: { schedule: '@daily', template: { jobTemplate: { spec: {} } }, timeZone: 'UTC' } },
    { spec: { schedule: 'x', template: { broadcastJobTemplate: {} } } },
    { spec: { schedule: 'TZ=', template: { broadcastJobTemplate: { spec: { template: {} } } } } },
    { spec: { schedule: '@every', template: { imageListPullJobTemplate: {} } } },
    { spec: { schedule: '0 0 * * *', template: { imageListPullJobTemplate: { spec: { images: [], selector: {}, podSelector: {} } } } } },
    {},
  ];
  for (const o of odd) {
    const m = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'AdvancedCronJob', ...o };
    expect(() => mod.validate(m, ctx)).not.toThrow();
    expect(() => mod.warnings!(m, ctx)).not.toThrow();
    expect(() => judge(m)).not.toThrow();
    expect(() => mod.warnings!(mod.defaults!(m, ctx), ctx)).not.toThrow();
    expect(judge(m).length).toBeGreaterThan(0);
  }
});

describe('concurrencyPolicy: the schema\'s enum is met after the mutating webhook', () => {
  const withPolicy = (id: string, concurrencyPolicy: string) => {
    const m = caseOf(id);
    m.spec.concurrencyPolicy = concurrencyPolicy;
    return judgeManifest(m, ctx).errors;
  };
  test('an empty one is the default by then (Allow, or Replace with an image list template)', () => {
    expect(withPolicy('v1beta1-job-template', '')).toEqual([]);
    expect(withPolicy('v1beta1-image-list-template', '')).toEqual([]);
  });
  test('any other value outside the enum is refused', () => {
    expect(withPolicy('v1beta1-job-template', 'Sometimes')).toEqual(['spec.concurrencyPolicy: "Sometimes" is not an allowed value; use one of "Allow", "Forbid", "Replace"']);
  });
});
