import { ApiObject, Chart, Testing } from 'cdk8s';
import { KruiseValidation } from '../../src';

const cloneSet = (spec: Record<string, unknown>) => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'web' },
  spec,
});

const validSpec = { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } } };

test('a raw ApiObject of a Kruise group is validated once validation is enabled', () => {
  const chart = Testing.chart();
  KruiseValidation.enable(chart);
  new ApiObject(chart, 'raw', cloneSet({ ...validSpec, replicas: -1.5, scaleStrategy: { podsToDelete: 'web-0' } }));
  expect(() => Testing.synth(chart)).toThrow([
    'Validation failed with the following errors:',
    '  [test/raw] CloneSet "web" (apps.kruise.io/v1alpha1) spec.replicas: -1.5 is not an integer; give an integer',
    '  [test/raw] CloneSet "web" (apps.kruise.io/v1alpha1) spec.scaleStrategy.podsToDelete: "web-0" is not an array; give an array',
  ].join('\n'));
});

test('validation enabled from one chart covers every chart of the app', () => {
  const app = Testing.app();
  const a = new Chart(app, 'a');
  const b = new Chart(app, 'b');
  KruiseValidation.enable(a);
  new ApiObject(b, 'raw', cloneSet({ template: {} }));
  expect(() => app.synth()).toThrow('[b/raw] CloneSet "web" (apps.kruise.io/v1alpha1) spec.selector: (unset) is required; set selector');
});

test('valid raw objects synthesize unchanged', () => {
  const chart = Testing.chart();
  KruiseValidation.enable(chart);
  new ApiObject(chart, 'raw', cloneSet({ ...validSpec, replicas: 2 }));
  expect(Testing.synth(chart)[0].spec.replicas).toBe(2);
});

test('objects of other groups are left alone', () => {
  const chart = Testing.chart();
  KruiseValidation.enable(chart);
  new ApiObject(chart, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: 1 } });
  new ApiObject(chart, 'other', { apiVersion: 'apps.example.io/v1', kind: 'CloneSet', spec: { replicas: 'x' } });
  expect(Testing.synth(chart)).toHaveLength(2);
});

test('fails for a Kruise kind at a version upstream does not serve, naming the served versions', () => {
  const chart = Testing.chart();
  KruiseValidation.enable(chart);
  new ApiObject(chart, 'raw', { apiVersion: 'apps.kruise.io/v1', kind: 'CloneSet', metadata: { name: 'web' }, spec: validSpec });
  expect(() => Testing.synth(chart)).toThrow(
    '[test/raw] CloneSet "web" (apps.kruise.io/v1) apiVersion: "apps.kruise.io/v1" is not a version CloneSet is served as; use apps.kruise.io/v1alpha1',
  );
});

test('fails for a kind the Kruise group does not have, listing the kinds it has', () => {
  const chart = Testing.chart();
  KruiseValidation.enable(chart);
  new ApiObject(chart, 'raw', { apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodDisruptionBudget', metadata: { name: 'x' } });
  expect(() => Testing.synth(chart)).toThrow(
    'kind: "PodDisruptionBudget" is not a kind of policy.kruise.io; use one of PodUnavailableBudget',
  );
});

test('raw objects are not validated when nothing enabled validation', () => {
  const chart = Testing.chart();
  new ApiObject(chart, 'raw', cloneSet({ replicas: 'x' }));
  expect(Testing.synth(chart)[0].spec.replicas).toBe('x');
});
