import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Chart, Testing, YamlOutputType } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  AdvancedStatefulSet, CloneSet, KruiseContext, KruiseControlPlane, KruiseDeployOrder, PersistentPodState, PodUnavailableBudget,
  SidecarSet, Warnings, WorkloadSpread,
} from '../../src';

const WAVE = 'argocd.argoproj.io/sync-wave';
const container = (name: string): kplus.ContainerProps => ({ name, image: `${name}:1.0`, securityContext: { ensureNonRoot: false } });

/** The files an app writes, and the kinds/names of each file in order. */
function written(build: (app: App) => void, yamlOutputType?: YamlOutputType): Record<string, string[]> {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'policy-order-'));
  const app = new App({ outdir, yamlOutputType });
  build(app);
  app.synth();
  const out: Record<string, string[]> = {};
  const walk = (dir: string, prefix: string) => {
    for (const f of fs.readdirSync(dir).sort()) {
      const p = path.join(dir, f);
      if (fs.statSync(p).isDirectory()) { walk(p, `${prefix}${f}/`); continue; }
      out[`${prefix}${f}`] = fs.readFileSync(p, 'utf-8').split(/^---$/m)
        .map(d => `${/^kind: (\S+)$/m.exec(d)?.[1]}/${/^ {2}name: (\S+)$/m.exec(d)?.[1]}`).filter(x => !x.startsWith('undefined'));
    }
  };
  walk(outdir, '');
  return out;
}

function logging(scope: Chart, name = 'logging-agent'): SidecarSet {
  return new SidecarSet(scope, name, {
    metadata: { name },
    selector: kplus.LabelSelector.of({ labels: { 'platform.io/logging': 'enabled' } }),
    containers: [{ name: name === 'logging-agent' ? 'log-agent' : `${name}-agent`, image: 'fluent/fluent-bit:3.1.9' }],
  });
}

function web(scope: Chart, name = 'web', labels: Record<string, string> = { 'platform.io/logging': 'enabled' }): kplus.Deployment {
  return new kplus.Deployment(scope, name, { metadata: { name }, podMetadata: { labels }, containers: [container(name)] });
}

describe('file order', () => {
  test('the chart of a SidecarSet is written before the charts of the workloads it selects, whatever their names', () => {
    expect(written(app => {
      web(new Chart(app, 'billing', { namespace: 'billing' }), 'api');
      logging(new Chart(app, 'platform'));
      web(new Chart(app, 'zoo', { namespace: 'zoo' }), 'tiger', { team: 'zoo' });
    })).toEqual({
      '0000-platform.k8s.yaml': ['SidecarSet/logging-agent'],
      '0001-billing.k8s.yaml': ['Deployment/api'],
      '0002-zoo.k8s.yaml': ['Deployment/tiger'],
    });
  });

  test('inside one chart, the policy object before the workload, even when the workload was written first', () => {
    expect(written(app => {
      const chart = new Chart(app, 'shop', { namespace: 'shop' });
      web(chart, 'web');
      const db = new AdvancedStatefulSet(chart, 'db', { metadata: { name: 'db' }, containers: [container('db')] });
      const api = new CloneSet(chart, 'api', { metadata: { name: 'api' }, containers: [container('api')] });
      new WorkloadSpread(chart, 'spread', { metadata: { name: 'api-spread' }, target: api, subsets: [{ name: 'a' }, { name: 'b' }] });
      new PodUnavailableBudget(chart, 'budget', { metadata: { name: 'db-budget' }, target: db, maxUnavailable: kplus.PercentOrAbsolute.absolute(1) });
      new PodUnavailableBudget(chart, 'web-budget', {
        metadata: { name: 'web-budget' }, selector: kplus.LabelSelector.of({ labels: { 'platform.io/logging': 'enabled' } }), maxUnavailable: kplus.PercentOrAbsolute.absolute(1),
      });
      new PersistentPodState(chart, 'state', { metadata: { name: 'db-state' }, target: db, requiredTopology: ['topology.kubernetes.io/zone'] });
      logging(chart);
    })['shop.k8s.yaml']).toEqual([
      // each workload after the policies that select it; the rest in construct order
      'SidecarSet/logging-agent', 'PodUnavailableBudget/web-budget', 'Deployment/web',
      'PodUnavailableBudget/db-budget', 'PersistentPodState/db-state', 'Service/db', 'StatefulSet/db',
      'WorkloadSpread/api-spread', 'CloneSet/api',
    ]);
  });

  test('with a control plane in the app: the control plane, then the policies, then the workloads', () => {
    const files = written(app => {
      web(new Chart(app, 'a-billing', { namespace: 'billing' }), 'api');
      logging(new Chart(app, 'b-platform'));
      new KruiseControlPlane(new Chart(app, 'c-kruise'), 'kruise');
    });
    expect(Object.keys(files)).toEqual(['0000-c-kruise.k8s.yaml', '0001-b-platform.k8s.yaml', '0002-a-billing.k8s.yaml']);
  });

  test('one folder per chart: the policies\' folder sorts first (a Flux Kustomization per folder)', () => {
    const files = written(app => {
      web(new Chart(app, 'billing', { namespace: 'billing' }), 'api');
      logging(new Chart(app, 'platform'));
    }, YamlOutputType.FOLDER_PER_CHART_FILE_PER_RESOURCE);
    expect(Object.keys(files)).toEqual(['0000-platform/SidecarSet.logging-agent.k8s.yaml', '0001-billing/Deployment.api.k8s.yaml']);
  });

  test('a policy of a context orders nothing: it is not the app\'s to apply', () => {
    const files = written(app => {
      const ctx = new KruiseContext(app, 'platform');
      logging(ctx);
      web(new Chart(app, 'billing', { namespace: 'billing' }), 'api');
    });
    expect(files).toEqual({ 'billing.k8s.yaml': ['Deployment/api'] });
  });

  test('a policy chart that depends on the workload\'s chart cannot come first: a warning says so', () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const app = Testing.app();
    const billing = new Chart(app, 'billing', { namespace: 'billing' });
    web(billing, 'api');
    const platform = new Chart(app, 'platform');
    logging(platform);
    platform.addDependency(billing);
    expect(Warnings.of(app)).toEqual([]);
    app.synthYaml();
    expect(Warnings.of(app)).toEqual([
      '[platform/logging-agent] SidecarSet "logging-agent" (apps.kruise.io/v1beta1) spec.selector: {"matchLabels":{"platform.io/logging":"enabled"}} selects the pods of Deployment "api" of chart \'billing\', '
      + 'but chart \'platform\' depends on chart \'billing\' (or contains it), so the SidecarSet cannot be applied first and pods created before it miss it; move the policies to a chart of their own',
    ]);
  });
});

test('a policy that depends on the workload it selects cannot come first: a warning says so', () => {
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const app = Testing.app();
  const shop = new Chart(app, 'shop');
  const w = web(shop);
  logging(shop).node.addDependency(w);
  app.synthYaml();
  expect(Warnings.of(app)).toEqual([
    '[shop/logging-agent] SidecarSet "logging-agent" (apps.kruise.io/v1beta1) spec.selector: {"matchLabels":{"platform.io/logging":"enabled"}} selects the pods of Deployment "web", and the two depend on each other in chart \'shop\', so the SidecarSet cannot be written before the pods it selects; remove the dependency of the SidecarSet',
  ]);
});

describe('Argo CD sync waves', () => {
  test('KruiseDeployOrder.argoCdSyncWaves: policies wave -1, before the workloads (0), also policies added later; a wave the user set is kept', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'shop', { namespace: 'shop' });
    const first = logging(chart, 'first');
    first.apiObject.metadata.addAnnotation(WAVE, '-5');
    logging(chart, 'second');
    KruiseDeployOrder.argoCdSyncWaves(app);
    logging(chart, 'third');
    const db = new AdvancedStatefulSet(chart, 'db', { metadata: { name: 'db' }, containers: [container('db')] });
    new PodUnavailableBudget(chart, 'budget', { metadata: { name: 'db-budget' }, target: db, maxUnavailable: kplus.PercentOrAbsolute.absolute(1) });
    web(chart);
    const waves = Testing.synth(chart).map(m => [m.kind, m.metadata.name, m.metadata.annotations?.[WAVE]]);
    expect(waves).toEqual(expect.arrayContaining([
      ['SidecarSet', 'first', '-5'], ['SidecarSet', 'second', '-1'], ['SidecarSet', 'third', '-1'], ['PodUnavailableBudget', 'db-budget', '-1'],
      ['StatefulSet', 'db', undefined], ['Deployment', 'web', undefined], ['Service', 'db', undefined],
    ]));
    expect(KruiseDeployOrder.POLICY_SYNC_WAVE).toBe('-1');
  });

  test('a control plane with argoCdSyncWaves puts the app\'s policies between itself and the workloads', () => {
    const app = Testing.app();
    new KruiseControlPlane(new Chart(app, 'kruise'), 'kruise', { argoCdSyncWaves: true });
    const shop = new Chart(app, 'shop', { namespace: 'shop' });
    logging(shop);
    web(shop);
    const waves = Testing.synth(shop).map(m => [m.kind, m.metadata.annotations?.[WAVE]]);
    expect(waves).toEqual([['SidecarSet', '-1'], ['Deployment', undefined]]);
    const cp = Testing.synth(app.charts.find(c => c.node.id === 'kruise')!);
    expect(new Set(cp.map(m => m.metadata.annotations?.[WAVE]))).toEqual(new Set(['-3', '-2']));
  });

  test('without waves asked for, no annotation', () => {
    const app = Testing.app();
    const shop = new Chart(app, 'shop');
    logging(shop);
    expect(Testing.synth(shop)[0].metadata.annotations).toBeUndefined();
    expect(ApiObject.of(shop.node.findChild('logging-agent')).metadata.toJson().annotations).toBeUndefined();
  });
});
