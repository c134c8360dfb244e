import { broadcastJobAdmission as mod } from '../../src/admission/broadcast-job';
import { asCreated } from '../../src/admission/judge';
import { GATE_DEFAULTS } from '../../src/control-plane/_gates';
import { validateManifest } from '../../src/validation/schemas';
import { cases } from '../fixtures/admission/broadcast-job';
import { expectCase } from '../util/admission';

const gates = (on: Record<string, boolean> = {}) => ({ gate: (g: string) => on[g] ?? GATE_DEFAULTS[g] === true });
const ctx = gates();
const judge = (m: Record<string, any>) => mod.validate(mod.defaults!(m, ctx), ctx);

describe.each(cases)('$id', c => {
  test('the manifest passes the schema', () => expect(validateManifest(asCreated(c.manifest)).filter(i => !i.missing)).toEqual([]));
  test('the module gives the case verdict, exactly', () => expect(judge(c.manifest)).toEqual(c.allowed ? [] : [c.message]));
  test('every entry path gives the same verdict', () => expectCase(c));
});

test('the cases cover both served versions, allowed and denied, and say why when stricter', () => {
  for (const v of mod.versions) {
    expect(cases.some(c => c.allowed && c.manifest.apiVersion === `apps.kruise.io/${v}`)).toBe(true);
    expect(cases.some(c => !c.allowed && c.manifest.apiVersion === `apps.kruise.io/${v}`)).toBe(true);
  }
  for (const c of cases) if (c.stricter !== undefined) expect(c.stricter.length).toBeGreaterThan(20);
});

test('defaults: completion policy, parallelism, failure policy and the pod template, on a copy', () => {
  const input = JSON.parse(JSON.stringify(cases[0].manifest));
  delete input.spec.parallelism;
  delete input.spec.completionPolicy;
  input.status = { active: 1 };
  const before = JSON.stringify(input);
  const out = mod.defaults!(input, ctx);
  expect(JSON.stringify(input)).toBe(before);
  expect(out.status).toBeUndefined();
  expect(out.spec.completionPolicy).toEqual({ type: 'Always' });
  expect(out.spec.parallelism).toBe(2147483647);
  expect(out.spec.failurePolicy).toEqual({ type: 'FailFast' });
  expect(out.spec.template.spec.containers[0].imagePullPolicy).toBe('Always');
  expect(out.spec.template.spec.dnsPolicy).toBe('ClusterFirst');
});

test('defaults keep what the user set, and skip the pod template when TemplateNoDefaults is on', () => {
  const input = cases[2].manifest;
  const out = mod.defaults!(input, gates({ TemplateNoDefaults: true }));
  expect(out.spec.completionPolicy.type).toBe('Never');
  expect(out.spec.failurePolicy.type).toBe('Continue');
  expect(out.spec.template.spec.containers[0].imagePullPolicy).toBeUndefined();
  // the pod template is still checked on a defaulted copy
  expect(mod.validate(out, ctx)).toEqual([]);
});

test('a restartPolicy left unset is refused even when TemplateNoDefaults keeps it unset', () => {
  const input = JSON.parse(JSON.stringify(cases[0].manifest));
  delete input.spec.template.spec.restartPolicy;
  const noDefaults = gates({ TemplateNoDefaults: true });
  expect(mod.validate(mod.defaults!(input, noDefaults), noDefaults)).toEqual([
    'spec.template.spec.restartPolicy: (unset) is not allowed for the pods of a BroadcastJob, which run to completion; set restartPolicy to Never or OnFailure (it defaults to Always)',
  ]);
});

test('an empty reserved label is allowed, as upstream only refuses non-empty ones', () => {
  const input = JSON.parse(JSON.stringify(cases[0].manifest));
  input.spec.template.metadata = { labels: { 'broadcastjob-name': '' } };
  expect(judge(input)).toEqual([]);
});

test('a completion policy type that is neither Always nor Never is a warning, not an error', () => {
  const input = JSON.parse(JSON.stringify(cases[0].manifest));
  input.spec.completionPolicy = { type: 'Sometimes' };
  expect(judge(input)).toEqual([]);
  expect(mod.warnings!(mod.defaults!(input, ctx), ctx)).toEqual([
    'spec.completionPolicy.type: "Sometimes" is neither Always nor Never; OpenKruise admits it and runs the job as Always, but without timing activeDeadlineSeconds; use Always (finish once every node ran the pod) or Never (keep running on new nodes)',
  ]);
  expect(mod.warnings!(mod.defaults!(cases[0].manifest, ctx), ctx)).toEqual([]);
});

test('validate and warnings never throw on odd but schema-valid objects', () => {
  const odd = [
    { metadata: {}, spec: { template: {} } },
    { metadata: { generateName: 'check-' }, spec: { template: { metadata: {}, spec: {} } } },
    { spec: { template: { metadata: { labels: {} } }, completionPolicy: {}, failurePolicy: {} } },
    { metadata: { name: 'x' }, spec: { template: { spec: { containers: [{ name: 'a' }] } }, parallelism: '' } },
    {},
  ];
  for (const o of odd) {
    const m = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'BroadcastJob', ...o };
    expect(() => mod.validate(m, ctx)).not.toThrow();
    expect(() => mod.warnings!(m, ctx)).not.toThrow();
    expect(() => judge(m)).not.toThrow();
    expect(judge(m).length).toBeGreaterThan(0);
  }
});
