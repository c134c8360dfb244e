import { asCreated, moduleErrors } from '../../src/admission/judge';
import { parseSubsetReplicas, unitedDeploymentAdmission as mod } from '../../src/admission/united-deployment';
import { GATE_DEFAULTS } from '../../src/control-plane/_gates';
import { validateManifest } from '../../src/validation/schemas';
import { cases } from '../fixtures/admission/united-deployment';
import { expectCase } from '../util/admission';

const gates = (on: Record<string, boolean> = {}) => ({ gate: (g: string) => on[g] ?? GATE_DEFAULTS[g] === true });
const ctx = gates();
const judge = (m: Record<string, any>) => moduleErrors(mod, mod.defaults ? mod.defaults(m, ctx) : m, ctx);
const caseOf = (id: string) => JSON.parse(JSON.stringify(cases.find(c => c.id === `UnitedDeployment/${id}`)!.manifest));

describe.each(cases)('$id', c => {
  test('the manifest passes the schema', () => expect(validateManifest(asCreated(c.manifest)).filter(i => !i.missing)).toEqual([]));
  test('the module gives the case verdict, exactly', () => expect(judge(c.manifest)).toEqual(c.allowed ? [] : [c.message]));
  test('every entry path gives the same verdict', () => expectCase(c));
});

test('every subset-level message names the subset', () => {
  for (const c of cases) {
    if (!c.allowed && /^spec\.topology\.subsets\[\d+\]/.test(c.message!)) expect(c.message).toMatch(/\(subset ("[^"]+"|#\d+)\)/);
  }
});

describe('defaults', () => {
  test('revision history, Manual update strategy, status cleared; the input is not changed', () => {
    const input = { ...caseOf('clone-set-percent-subset'), status: { replicas: 1 } };
    const before = JSON.stringify(input);
    const out = mod.defaults!(input, ctx);
    expect(JSON.stringify(input)).toBe(before);
    expect(out.status).toBeUndefined();
    expect(out.spec.revisionHistoryLimit).toBe(10);
    expect(out.spec.updateStrategy).toEqual({ type: 'Manual', manualUpdate: {} });
    // a CloneSet template is not defaulted
    expect(out.spec.template.cloneSetTemplate.spec.template.spec.containers[0].imagePullPolicy).toBeUndefined();
  });

  test('only a StatefulSet template gets the pod-template defaults, unless TemplateNoDefaults is on', () => {
    const m = caseOf('stateful-set-replicas-add-up');
    expect(mod.defaults!(m, ctx).spec.template.statefulSetTemplate.spec.template.spec.containers[0].imagePullPolicy).toBe('Always');
    expect(mod.defaults!(m, gates({ TemplateNoDefaults: true })).spec.template.statefulSetTemplate.spec.template.spec.dnsPolicy).toBeUndefined();
  });

  test('capacity mode: minReplicas 0 on the subsets without one', () => {
    const out = mod.defaults!(caseOf('adaptive-capacity-deployment'), ctx);
    expect(out.spec.topology.subsets.map((s: any) => s.minReplicas)).toEqual([2, 0]);
    expect(mod.defaults!(caseOf('clone-set-percent-subset'), ctx).spec.topology.subsets[1].minReplicas).toBeUndefined();
  });
});

test.each([
  [3, 10, { replicas: 3 }],
  ['50%', 5, { replicas: 3 }],
  ['25%', 6, { replicas: 2 }],
  ['0%', 6, { replicas: 0 }],
  ['100%', 7, { replicas: 7 }],
  ['+10%', 10, { replicas: 1 }],
])('subset replicas %j of %j read as upstream rounds them (half up)', (v, total, expected) => {
  expect(parseSubsetReplicas(v, total)).toEqual(expected);
});

test('a subset with min above max and minimums above the maximums are both reported', () => {
  const m = caseOf('clone-set-percent-subset');
  m.spec.topology.subsets = [{ name: 'zone-a', minReplicas: 5, maxReplicas: 4 }, { name: 'zone-b', minReplicas: 1, maxReplicas: 1 }];
  expect(judge(m)).toEqual([
    'spec.topology.subsets[0].minReplicas: 5 comes to 5 replicas, more than maxReplicas (4) (subset "zone-a"); lower minReplicas or raise maxReplicas',
    'spec.topology.subsets: ["zone-a","zone-b"] all set maxReplicas, so replicas above the maximums have nowhere to go; leave maxReplicas unset on at least one subset',
    'spec.topology.subsets: ["zone-a","zone-b"] have minReplicas adding up to 6, more than their maxReplicas (5); lower the minimums or raise the maximums',
  ]);
});

test('an unnamed subset is named by its index', () => {
  const m = caseOf('clone-set-percent-subset');
  m.spec.topology.subsets = [{ name: '', replicas: -1 }];
  expect(judge(m)).toEqual([
    'spec.topology.subsets[0].name: "" is required (subset #0); name the subset; its workloads are named after it',
    'spec.topology.subsets[0].replicas: -1 is negative (subset #0); use 0 or more replicas',
  ]);
});

test('validate never throws on odd but schema-valid objects', () => {
  const odd = [
    { spec: { selector: { matchLabels: { a: 'b' } } } },
    { metadata: {}, spec: { selector: {}, template: { statefulSetTemplate: {} }, topology: {} } },
    { spec: { selector: { matchLabels: { a: 'b' } }, template: { deploymentTemplate: { spec: {} } }, topology: { subsets: [{ name: 'a' }], scheduleStrategy: { type: 'Adaptive' } } } },
    { spec: { selector: { matchLabels: { a: 'b' } }, template: { cloneSetTemplate: { spec: { selector: {}, template: {} } } }, topology: { subsets: [{ name: 'a', nodeSelectorTerm: {} }] } } },
    { spec: { selector: { matchLabels: { a: 'b' } }, template: { advancedStatefulSetTemplate: { spec: { selector: {}, template: {} } } }, updateStrategy: { manualUpdate: {} } } },
    {},
  ];
  for (const o of odd) {
    const m = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'UnitedDeployment', ...o };
    expect(() => mod.validate(m, ctx)).not.toThrow();
    expect(() => judge(m)).not.toThrow();
  }
});
