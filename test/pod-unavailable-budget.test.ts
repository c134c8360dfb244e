import { Chart, JsonPatch, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { AdvancedStatefulSet, PodUnavailableBudget, PodUnavailableBudgetOperation, Warnings } from '../src';
import { _registerGateSource } from '../src/validation/gates';

const sel = (labels: Record<string, string>) => kplus.LabelSelector.of({ labels });
beforeAll(() => { jest.spyOn(console, 'warn').mockImplementation(() => undefined); });

const find = (chart: Chart) => Testing.synth(chart).find(o => o.kind === 'PodUnavailableBudget');
const deployment = (chart: Chart, name = 'web') => new kplus.Deployment(chart, name, { metadata: { name }, containers: [{ image: 'nginx:1.27' }] });

test('renders a target workload, maxUnavailable and the protect annotations field by field, in the target\'s namespace', () => {
  const app = Testing.app();
  const chart = new Chart(app, 'c');
  const ns = new Chart(app, 'shop', { namespace: 'shop' });
  const web = deployment(ns);
  const pub = new PodUnavailableBudget(chart, 'pub', {
    metadata: { name: 'web-pub', labels: { team: 'shop' } },
    target: web,
    maxUnavailable: kplus.PercentOrAbsolute.percent(25),
    protectOperations: [
      PodUnavailableBudgetOperation.DELETE, PodUnavailableBudgetOperation.EVICT,
      PodUnavailableBudgetOperation.UPDATE, PodUnavailableBudgetOperation.RESIZE,
    ],
    protectTotalReplicas: 10,
  });
  const m = find(chart);
  expect(m.apiVersion).toBe('policy.kruise.io/v1alpha1');
  expect(m.metadata).toEqual({
    name: 'web-pub',
    namespace: 'shop',
    labels: { team: 'shop' },
    annotations: { 'kruise.io/pub-protect-operations': 'DELETE,EVICT,UPDATE,RESIZE', 'pub.kruise.io/protect-total-replicas': '10' },
  });
  expect(m.spec).toEqual({ targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxUnavailable: '25%' });
  expect(pub.maxUnavailable?.value).toBe('25%');
});

test('renders a selector with minAvailable, and a raw targetRef', () => {
  const chart = Testing.chart();
  const a = new PodUnavailableBudget(chart, 'a', { selector: sel({ app: 'web' }), minAvailable: kplus.PercentOrAbsolute.absolute(2) });
  new PodUnavailableBudget(chart, 'b', { targetRef: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs' }, maxUnavailable: kplus.PercentOrAbsolute.absolute(0) });
  const [ma, mb] = Testing.synth(chart);
  expect(ma.spec).toEqual({ selector: { matchLabels: { app: 'web' } }, minAvailable: 2 });
  expect(mb.spec).toEqual({ targetRef: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs' }, maxUnavailable: 0 });
  expect(a.minAvailable?.value).toBe(2);
});

test('fails with neither maxUnavailable nor minAvailable, or both (rule 7)', () => {
  const chart = Testing.chart();
  new PodUnavailableBudget(chart, 'none', { selector: sel({ app: 'web' }) });
  expect(() => Testing.synth(chart)).toThrow('[test/none] PodUnavailableBudget "test-none-c85ca4cd" (policy.kruise.io/v1alpha1) spec.maxUnavailable: (unset) and spec.minAvailable are both unset; set exactly one of maxUnavailable or minAvailable');
  const c2 = Testing.chart();
  new PodUnavailableBudget(c2, 'both', { selector: sel({ app: 'web' }), maxUnavailable: kplus.PercentOrAbsolute.absolute(1), minAvailable: kplus.PercentOrAbsolute.absolute(1) });
  expect(() => Testing.synth(c2)).toThrow('[test/both] PodUnavailableBudget "test-both-c8465b14" (policy.kruise.io/v1alpha1) spec.minAvailable: 1 is set together with spec.maxUnavailable');
});

test('fails with neither selector nor target, or both, or an empty selector (rules 4, 6)', () => {
  const chart = Testing.chart();
  new PodUnavailableBudget(chart, 'none', { maxUnavailable: kplus.PercentOrAbsolute.absolute(1) });
  expect(() => Testing.synth(chart)).toThrow('[test/none] PodUnavailableBudget "test-none-c85ca4cd" (policy.kruise.io/v1alpha1) spec: {"maxUnavailable":1} has neither a selector nor a targetRef; set target, targetRef or selector');
  const c2 = Testing.chart();
  new PodUnavailableBudget(c2, 'both', { selector: kplus.LabelSelector.of({}), target: deployment(c2), maxUnavailable: kplus.PercentOrAbsolute.absolute(1) });
  const err = () => Testing.synth(c2);
  expect(err).toThrow('[test/both] PodUnavailableBudget "test-both-c8465b14" (policy.kruise.io/v1alpha1) spec.selector: {} is set together with spec.targetRef; use either a target or a selector');
  expect(err).toThrow('spec.selector: {} is empty and would select every pod of the namespace');
});

test('fails on a bad targetRef (rule 5), bad values (rule 8) and bad annotations (rules 2-3)', () => {
  const chart = Testing.chart();
  new PodUnavailableBudget(chart, 'p', { targetRef: { apiVersion: 'a/b/c', kind: '', name: 'x' }, maxUnavailable: kplus.PercentOrAbsolute.percent(150) })
    .apiObject.addJsonPatch(JsonPatch.add('/metadata/annotations', { 'kruise.io/pub-protect-operations': 'DELETE, EVICT', 'pub.kruise.io/protect-total-replicas': 'ten' }));
  const err = () => Testing.synth(chart);
  expect(err).toThrow('spec.targetRef.kind: "" is empty; name the target completely');
  expect(err).toThrow('spec.targetRef.apiVersion: "a/b/c" is not group/version');
  expect(err).toThrow('spec.maxUnavailable: "150%" is more than 100%; use at most 100%');
  expect(err).toThrow('metadata.annotations["kruise.io/pub-protect-operations"]: "DELETE, EVICT" has the item " EVICT", which is not an operation');
  expect(err).toThrow('metadata.annotations["pub.kruise.io/protect-total-replicas"]: "ten" is not a 32-bit integer');
  const c2 = Testing.chart();
  new PodUnavailableBudget(c2, 'q', { selector: sel({ a: 'b' }), minAvailable: kplus.PercentOrAbsolute.absolute(-1) });
  expect(() => Testing.synth(c2)).toThrow('spec.minAvailable: -1 is not a non-negative integer or an integer percentage');
});

test('fails when two budgets of the app target the same workload or have loosely overlapping selectors (rule 10)', () => {
  const chart = Testing.chart();
  const web = deployment(chart);
  new PodUnavailableBudget(chart, 'a', { target: web, maxUnavailable: kplus.PercentOrAbsolute.absolute(1) });
  new PodUnavailableBudget(chart, 'b', { target: web, maxUnavailable: kplus.PercentOrAbsolute.absolute(2) });
  new PodUnavailableBudget(chart, 'c', { selector: sel({ app: 'x' }), maxUnavailable: kplus.PercentOrAbsolute.absolute(1) });
  new PodUnavailableBudget(chart, 'd', { selector: kplus.LabelSelector.of({ expressions: [kplus.LabelExpression.in('app', ['x', 'y'])] }), maxUnavailable: kplus.PercentOrAbsolute.absolute(1) });
  new PodUnavailableBudget(chart, 'e', { selector: sel({ app: 'x', tier: 'db' }), maxUnavailable: kplus.PercentOrAbsolute.absolute(1) });
  let message = '';
  try { Testing.synth(chart); } catch (e) { message = String(e); }
  expect(message).toContain('[test/a] PodUnavailableBudget "test-a-c8988b32" (policy.kruise.io/v1alpha1) spec.targetRef: {"apiVersion":"apps/v1","kind":"Deployment","name":"web"} is also the target of PodUnavailableBudget "test-b-');
  expect(message).toContain("at 'test/b', which OpenKruise refuses; keep one budget per workload");
  expect(message).toContain('[test/c] PodUnavailableBudget "test-c-c8ee0f6d" (policy.kruise.io/v1alpha1) spec.selector: {"matchLabels":{"app":"x"}} overlaps the selector of PodUnavailableBudget');
  expect(message).not.toContain('[test/e]');
  expect(message.match(/is also the target/g)).toHaveLength(1);
});

test('fails when the budget is not in the target\'s namespace', () => {
  const app = Testing.app();
  const shop = new Chart(app, 'shop', { namespace: 'shop' });
  const web = deployment(shop);
  new PodUnavailableBudget(shop, 'pub', { metadata: { namespace: 'other' }, target: web, maxUnavailable: kplus.PercentOrAbsolute.absolute(1) });
  expect(() => app.synth()).toThrow('[shop/pub] PodUnavailableBudget "shop-pub-c8f3b549" (policy.kruise.io/v1alpha1) metadata.namespace: "other" differs from the namespace of the target Deployment "web" (shop), so the budget protects nothing');
});

test('warns when the target is a kind upstream cannot protect', () => {
  const chart = Testing.chart();
  const job = new kplus.Job(chart, 'job', { metadata: { name: 'job' }, containers: [{ image: 'busybox:1.36' }] });
  new PodUnavailableBudget(chart, 'pub', { target: job, maxUnavailable: kplus.PercentOrAbsolute.absolute(1) });
  expect(Warnings.of(chart)).toEqual(['[test/pub] PodUnavailableBudget "test-pub-c84f1553" (policy.kruise.io/v1alpha1) spec.targetRef: {"apiVersion":"batch/v1","kind":"Job","name":"job"} names a kind without a scale subresource OpenKruise can read, so the budget protects no pod; use a selector on its pod labels instead']);
});

test('fails when both PUB feature gates are off in the app\'s control plane', () => {
  const source = (on: string[]) => ({ path: 'test/kruise', isEnabled: (g: string) => on.includes(g), howToEnable: (g: string) => `set featureGates ${g}=true` });
  const bad = Testing.chart();
  _registerGateSource(bad, source([]));
  new PodUnavailableBudget(bad, 'pub', { selector: sel({ a: 'b' }), maxUnavailable: kplus.PercentOrAbsolute.absolute(1) });
  expect(() => Testing.synth(bad)).toThrow("[test/pub] PodUnavailableBudget \"test-pub-c84f1553\" (policy.kruise.io/v1alpha1) kind: \"PodUnavailableBudget\" needs one of the OpenKruise feature gates PodUnavailableBudgetDeleteGate or PodUnavailableBudgetUpdateGate, all off in the control plane at 'test/kruise'; set featureGates PodUnavailableBudgetDeleteGate=true");
  const ok = Testing.chart();
  _registerGateSource(ok, source(['PodUnavailableBudgetDeleteGate']));
  new PodUnavailableBudget(ok, 'pub', { selector: sel({ a: 'b' }), maxUnavailable: kplus.PercentOrAbsolute.absolute(1) });
  expect(() => Testing.synth(ok)).not.toThrow();
});

test('fails on an invalid selector and a fractional percentage (rules 6, 8)', () => {
  const chart = Testing.chart();
  new PodUnavailableBudget(chart, 'p', { selector: sel({ 'bad key': 'x' }), maxUnavailable: kplus.PercentOrAbsolute.percent(12.5) });
  const err = () => Testing.synth(chart);
  expect(err).toThrow('[test/p] PodUnavailableBudget "test-p-c89faae5" (policy.kruise.io/v1alpha1) spec.selector.matchLabels["bad key"]: "bad key" key name part must consist of');
  expect(err).toThrow('[test/p] PodUnavailableBudget "test-p-c89faae5" (policy.kruise.io/v1alpha1) spec.maxUnavailable: "12.5%" is not a non-negative integer or an integer percentage; use PercentOrAbsolute.absolute(n) or PercentOrAbsolute.percent(n) with n >= 0');
});

test('protect() on an Advanced StatefulSet targets it with minAvailable', () => {
  const chart = Testing.chart();
  const sts = new AdvancedStatefulSet(chart, 'db', { metadata: { name: 'db', namespace: 'data' }, containers: [{ image: 'postgres:17', portNumber: 5432 }] });
  const pub = sts.protect({ minAvailable: kplus.PercentOrAbsolute.percent(50), protectOperations: [PodUnavailableBudgetOperation.EVICT] });
  const m = find(chart);
  expect(pub.node.path).toBe('test/db/Budget');
  expect(m.metadata.namespace).toBe('data');
  expect(m.metadata.annotations).toEqual({ 'kruise.io/pub-protect-operations': 'EVICT' });
  expect(m.spec).toEqual({ targetRef: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'db' }, minAvailable: '50%' });
  expect(Warnings.of(chart)).toEqual([]);
});
