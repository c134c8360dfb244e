import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { CloneSet, KruiseControlPlane, Warnings } from '../../src';

const image = 'nginxinc/nginx-unprivileged:1.27';

const PUB_SPEC = { selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 };

function outdir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-order-'));
}

function files(app: App): string[] {
  app.synth();
  return fs.readdirSync(app.outdir).sort();
}

function kindsOf(app: App, file: string): string[] {
  const text = fs.readFileSync(path.join(app.outdir, file), 'utf8');
  return text.split(/^---$/m).map(d => /^kind: (\S+)$/m.exec(d)?.[1]).filter((k): k is string => k !== undefined);
}

describe('deploy order', () => {
  test('a chart with an L2 OpenKruise workload comes after the control plane chart', () => {
    const app = new App({ outdir: outdir() });
    const api = new Chart(app, 'api');
    new CloneSet(api, 'web', { containers: [{ image, portNumber: 8080 }] });
    new KruiseControlPlane(new Chart(app, 'kruise'), 'ControlPlane');
    expect(files(app)).toEqual(['0000-kruise.k8s.yaml', '0001-api.k8s.yaml']);
  });

  test('a raw object of policy.kruise.io counts, a chart without OpenKruise objects is not ordered', () => {
    const app = new App({ outdir: outdir() });
    const raw = new Chart(app, 'a-raw');
    new ApiObject(raw, 'pub', { apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodUnavailableBudget', metadata: { name: 'pub', namespace: 'default' }, spec: PUB_SPEC });
    const plain = new Chart(app, 'b-plain');
    new kplus.ConfigMap(plain, 'cm', { data: { a: 'b' } });
    const cpChart = new Chart(app, 'kruise');
    new KruiseControlPlane(cpChart, 'ControlPlane');
    app.synth();
    expect(raw.node.dependencies).toEqual([cpChart]);
    expect(plain.node.dependencies).toEqual([]);
    expect(cpChart.node.dependencies).toEqual([]);
    const list = fs.readdirSync(app.outdir);
    const index = (name: string) => list.findIndex(f => f.endsWith(`-${name}.k8s.yaml`));
    expect(index('kruise')).toBeGreaterThanOrEqual(0);
    expect(index('kruise')).toBeLessThan(index('a-raw'));
  });

  test('OpenKruise objects in the control plane chart add no dependency of the chart on itself', () => {
    const app = new App({ outdir: outdir() });
    const chart = new Chart(app, 'all');
    new CloneSet(chart, 'web', { containers: [{ image }] });
    new KruiseControlPlane(chart, 'ControlPlane');
    expect(files(app)).toEqual(['all.k8s.yaml']);
    expect(chart.node.dependencies).toEqual([]);
    const kinds = kindsOf(app, 'all.k8s.yaml');
    // CloneSet was created first, yet follows the Namespaces and CRDs
    expect(kinds.indexOf('CloneSet')).toBeGreaterThan(kinds.lastIndexOf('CustomResourceDefinition'));
  });

  test('each OpenKruise chart depends on every control plane chart', () => {
    const app = new App({ outdir: outdir() });
    const cpA = new Chart(app, 'kruise-a');
    new KruiseControlPlane(cpA, 'ControlPlane');
    const cpB = new Chart(app, 'kruise-b');
    new KruiseControlPlane(cpB, 'ControlPlane', { namespace: 'kruise-b', createDaemonConfigNamespace: false });
    const api = new Chart(app, 'api');
    new ApiObject(api, 'cs', {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      metadata: { name: 'cs', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'cs' } },
        template: { metadata: { labels: { app: 'cs' } }, spec: { containers: [{ name: 'main', image }] } },
      },
    });
    app.synthYaml();
    expect(api.node.dependencies).toEqual([cpA, cpB]);
    expect(cpA.node.dependencies).toEqual([]);
    expect(cpB.node.dependencies).toEqual([]);
  });

  test('an app without a control plane is not changed', () => {
    const app = new App({ outdir: outdir() });
    const api = new Chart(app, 'api');
    new CloneSet(api, 'web', { containers: [{ image }] });
    new Chart(app, 'other');
    expect(files(app)).toEqual(['api.k8s.yaml', 'other.k8s.yaml']);
  });

  test('in the control plane chart, Namespaces and CRDs come first, before objects created earlier', () => {
    const app = new App({ outdir: outdir() });
    const chart = new Chart(app, 'kruise');
    new kplus.ConfigMap(chart, 'early', { data: { a: 'b' } });
    new KruiseControlPlane(chart, 'ControlPlane');
    new kplus.ConfigMap(chart, 'late', { data: { a: 'b' } });
    expect(files(app)).toEqual(['kruise.k8s.yaml']);
    const kinds = kindsOf(app, 'kruise.k8s.yaml');
    expect(kinds.slice(0, 20)).toEqual([
      'Namespace', 'Namespace', ...Array(18).fill('CustomResourceDefinition'),
    ]);
    expect(kinds.slice(20)).not.toContain('Namespace');
    expect(kinds.slice(20)).not.toContain('CustomResourceDefinition');
    expect(kinds.filter(k => k === 'ConfigMap')).toHaveLength(2);
    expect(kinds).toContain('Deployment');
    expect(kinds).toContain('ValidatingWebhookConfiguration');
  });

  test('a control plane chart that depends on a chart of OpenKruise objects cannot come first: the first of those objects warns, once', () => {
    const app = new App({ outdir: outdir() });
    const api = new Chart(app, 'api');
    const web = new CloneSet(api, 'web', { metadata: { name: 'web' }, containers: [{ image, portNumber: 8080 }] });
    new CloneSet(api, 'worker', { metadata: { name: 'worker' }, containers: [{ image }] });
    const cpChart = new Chart(app, 'kruise');
    new KruiseControlPlane(cpChart, 'ControlPlane');
    cpChart.addDependency(api);
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    app.synth();
    warn.mockRestore();
    expect(api.node.dependencies).toEqual([]);
    expect(Warnings.of(app)).toEqual([
      `[${web.node.path}] CloneSet "web" (apps.kruise.io/v1alpha1) kind: "CloneSet" needs the KruiseControlPlane at 'kruise/ControlPlane' installed first, but the control plane's chart 'kruise' `
      + "depends on chart 'api' (or contains it), so the manifests of chart 'api' cannot be ordered after the control plane; apply the control plane first yourself, "
      + 'or move the OpenKruise objects to a chart the control plane chart does not depend on',
    ]);
  });

  test('the order survives Testing.synth of the control plane chart alone', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'kruise');
    new kplus.ConfigMap(chart, 'early', { data: { a: 'b' } });
    new KruiseControlPlane(chart, 'ControlPlane');
    const kinds = Testing.synth(chart).map(m => m.kind);
    expect(kinds[0]).toBe('Namespace');
    expect(kinds.indexOf('ConfigMap')).toBeGreaterThan(kinds.lastIndexOf('CustomResourceDefinition'));
  });
});

describe('argoCdSyncWaves', () => {
  const WAVE = 'argocd.argoproj.io/sync-wave';

  test('off by default: no sync-wave annotation anywhere', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'kruise');
    new KruiseControlPlane(chart, 'ControlPlane');
    for (const m of Testing.synth(chart)) {
      expect(m.metadata.annotations?.[WAVE]).toBeUndefined();
    }
  });

  test('Namespaces and CRDs wave -3, the rest of the control plane -2, app objects untouched', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'kruise');
    new KruiseControlPlane(chart, 'ControlPlane', { argoCdSyncWaves: true });
    const api = new Chart(app, 'api');
    new CloneSet(api, 'web', { containers: [{ image }] });
    const manifests = Testing.synth(chart);
    const waveOf = (kind: string, name: string) => {
      const hit = manifests.filter(m => m.kind === kind && m.metadata.name === name);
      expect(hit).toHaveLength(1);
      return hit[0].metadata.annotations[WAVE];
    };
    expect(waveOf('Namespace', 'kruise-system')).toBe('-3');
    expect(waveOf('Namespace', 'kruise-daemon-config')).toBe('-3');
    expect(waveOf('CustomResourceDefinition', 'clonesets.apps.kruise.io')).toBe('-3');
    expect(waveOf('CustomResourceDefinition', 'podunavailablebudgets.policy.kruise.io')).toBe('-3');
    expect(waveOf('Deployment', 'kruise-controller-manager')).toBe('-2');
    expect(waveOf('Service', 'kruise-webhook-service')).toBe('-2');
    expect(waveOf('ServiceAccount', 'kruise-manager')).toBe('-2');
    expect(waveOf('DaemonSet', 'kruise-daemon')).toBe('-2');
    expect(waveOf('ValidatingWebhookConfiguration', 'kruise-validating-webhook-configuration')).toBe('-2');
    expect(waveOf('MutatingWebhookConfiguration', 'kruise-mutating-webhook-configuration')).toBe('-2');
    for (const m of manifests) {
      const first = m.kind === 'Namespace' || m.kind === 'CustomResourceDefinition';
      expect([m.kind, m.metadata.name, m.metadata.annotations?.[WAVE]]).toEqual([m.kind, m.metadata.name, first ? '-3' : '-2']);
    }
    for (const m of Testing.synth(api)) {
      expect(m.metadata.annotations?.[WAVE]).toBeUndefined();
    }
  });
});
