import * as fs from 'fs';
import * as path from 'path';
import { Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { buildReferenceApp } from './reference-app';
import { Warnings } from '../../src';

/** Where the language smoke tests (test/smoke/run.sh) read the expected YAML. */
const EXPECTED_YAML = path.join(__dirname, '..', '..', 'dist', 'smoke', 'typescript.k8s.yaml');

const synth = () => buildReferenceApp(Testing.app()).synthYaml();

describe('the reference app of the language smoke tests', () => {

  const docs = parseAllDocuments(synth()).map(d => d.toJSON());
  const find = (kind: string, name: string) => {
    const found = docs.filter(d => d.kind === kind && d.metadata.name === name);
    expect(found).toHaveLength(1);
    return found[0];
  };

  test('installs the control plane: CRDs, kruise-manager and kruise-daemon', () => {
    expect(docs.filter(d => d.kind === 'CustomResourceDefinition')).toHaveLength(18);
    const manager = find('Deployment', 'kruise-controller-manager');
    expect(manager.metadata.namespace).toBe('kruise-system');
    expect(manager.spec.template.spec.containers[0].image).toBe('openkruise/kruise-manager:v1.9.1');
    expect(find('DaemonSet', 'kruise-daemon').metadata.namespace).toBe('kruise-system');
    expect(find('MutatingWebhookConfiguration', 'kruise-mutating-webhook-configuration').webhooks.length).toBeGreaterThan(0);
  });

  test('has a CloneSet with an in-place, partitioned update strategy', () => {
    const cloneSet = find('CloneSet', 'web');
    expect(cloneSet.apiVersion).toBe('apps.kruise.io/v1alpha1');
    expect(cloneSet.spec.replicas).toBe(4);
    expect(cloneSet.spec.updateStrategy).toEqual({
      type: 'InPlaceIfPossible',
      partition: '50%',
      maxUnavailable: 1,
      inPlaceUpdateStrategy: { gracePeriodSeconds: 10 },
    });
    const container = cloneSet.spec.template.spec.containers[0];
    expect(container.name).toBe('web');
    expect(container.image).toBe('nginxinc/nginx-unprivileged:1.27');
    expect(container.ports).toEqual([{ containerPort: 8080 }]);
    expect(container.securityContext).toEqual({
      allowPrivilegeEscalation: false, privileged: false, readOnlyRootFilesystem: false, runAsNonRoot: true,
    });
    expect(container.resources).toEqual({ limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } });
    expect(cloneSet.spec.template.metadata.labels.app).toBe('web');
  });

  test('has a SidecarSet injecting a log agent into the CloneSet pods', () => {
    const sidecarSet = find('SidecarSet', 'log-agent');
    expect(sidecarSet.apiVersion).toBe('apps.kruise.io/v1beta1');
    expect(sidecarSet.spec.selector).toEqual({ matchLabels: { app: 'web' } });
    expect(sidecarSet.spec.containers).toEqual([{ name: 'log-agent', image: 'fluent/fluent-bit:3.1', podInjectPolicy: 'AfterAppContainer' }]);
    expect(sidecarSet.spec.updateStrategy).toEqual({ type: 'RollingUpdate', maxUnavailable: 1 });
  });

  test('has a PodUnavailableBudget protecting the CloneSet', () => {
    const budget = find('PodUnavailableBudget', 'web-budget');
    expect(budget.apiVersion).toBe('policy.kruise.io/v1alpha1');
    expect(budget.spec).toEqual({
      targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web' },
      maxUnavailable: '25%',
    });
  });

  test('synthesizes without a warning', () => {
    const app = buildReferenceApp(Testing.app());
    app.synthYaml();
    expect(Warnings.of(app)).toEqual([]);
  });

  test('output is deterministic and is written for the language smoke tests', () => {
    const yaml = synth();
    expect(synth()).toEqual(yaml);
    fs.mkdirSync(path.dirname(EXPECTED_YAML), { recursive: true });
    fs.writeFileSync(EXPECTED_YAML, yaml);
    expect(fs.readFileSync(EXPECTED_YAML, 'utf-8')).toEqual(yaml);
  });
});
