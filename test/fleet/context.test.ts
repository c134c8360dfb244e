import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, ApiObject, Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import {
  AdvancedStatefulSet, CloneSet, InjectionPreview, KruiseContext, KruiseControlPlane, KruiseFeatureGate, PersistentPodState,
  PodUnavailableBudget, Rollout, RolloutStrategy, SidecarInjectPolicy, SidecarSet, WorkloadSpread,
} from '../../src';

const PLATFORM = 'test/fleet/fixtures/platform/platform.k8s.yaml';
const CONTROL_PLANE = 'test/fleet/fixtures/control-plane/kruise.k8s.yaml';
const LIVE = 'test/fleet/fixtures/live/prod-eu.json';

beforeAll(() => { jest.spyOn(console, 'warn').mockImplementation(() => undefined); });

/** Synth errors of an app (the lines of cdk8s's "Validation failed" message), or [] when it synthesizes. */
function errorsOf(app: App): string[] {
  try {
    app.synthYaml();
    return [];
  } catch (e: any) {
    const msg = String(e.message);
    if (!msg.startsWith('Validation failed with the following errors:')) throw e;
    return msg.split('\n').slice(1).map(l => l.trim());
  }
}

const app = () => Testing.app();
const container = (name: string, extra: Partial<kplus.ContainerProps> = {}): kplus.ContainerProps => ({
  name, image: `${name}:1.0`, securityContext: { ensureNonRoot: false }, ...extra,
});

describe('reading a context', () => {
  test('keeps what the checks read, from every file of a folder, and names each object\'s file', () => {
    const a = app();
    const ctx = new KruiseContext(a, 'platform', { manifests: [path.dirname(PLATFORM), CONTROL_PLANE] });
    const kinds = ctx.manifests.map(m => `${m.kind}/${m.metadata.name}`);
    // the ConfigMap takes part in no check: left out
    expect(kinds).toEqual([
      'Namespace/payments', 'SidecarSet/logging-agent', 'SidecarSet/mesh-proxy', 'PodUnavailableBudget/payments-critical',
      'WorkloadSpread/api-zones', 'PersistentPodState/ledger-state', 'Rollout/checkout-release', 'Deployment/kruise-controller-manager',
    ]);
    expect(KruiseContext.attachedTo(a)).toEqual([ctx]);
    expect(KruiseContext.attachedTo(new Chart(a, 'other'))).toEqual([ctx]);
  });

  test('live state: status and server-owned metadata are dropped', () => {
    const ctx = new KruiseContext(app(), 'prod', { liveState: [LIVE] });
    const [ns, sidecars] = ctx.manifests;
    expect(ns).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'billing', labels: { 'kubernetes.io/metadata.name': 'billing', 'platform.io/mesh': 'enabled' } },
      spec: { finalizers: ['kubernetes'] },
    });
    expect(sidecars.status).toBeUndefined();
    expect(sidecars.metadata).toEqual({ name: 'tracing' });
  });

  test('a missing file, bad YAML and a document that is no object fail with the file and the fix', () => {
    expect(() => new KruiseContext(app(), 'c', { manifests: ['no/such/dist'] })).toThrow(
      "KruiseContext at 'c': manifests 'no/such/dist' does not exist; pass a synth output folder (e.g. dist) or a manifest file");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'context-'));
    fs.writeFileSync(path.join(dir, 'bad.yaml'), 'kind: [\n');
    expect(() => new KruiseContext(app(), 'c', { manifests: [dir] })).toThrow(/^KruiseContext at 'c': .*bad\.yaml:\d+: not valid YAML/);
    fs.writeFileSync(path.join(dir, 'bad.yaml'), '- 1\n');
    expect(() => new KruiseContext(app(), 'c', { manifests: [dir] })).toThrow(/^KruiseContext at 'c': .*bad\.yaml: a document is a list, not a Kubernetes object/);
    expect(() => new KruiseContext(app(), 'c', { liveState: [path.join(dir, 'none.json')] })).toThrow(/^KruiseContext at 'c': cannot read '.*none\.json' \(ENOENT\)/);
  });
});

describe('context objects are never written', () => {
  test('the output holds the app\'s objects only, whatever the output type', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'context-out-'));
    const a = new App({ outdir });
    new KruiseContext(a, 'platform', { manifests: [PLATFORM] });
    const chart = new Chart(a, 'billing', { namespace: 'billing' });
    new kplus.Deployment(chart, 'api', { metadata: { name: 'api' }, containers: [container('api')] });
    a.synth();
    expect(fs.readdirSync(outdir)).toEqual(['billing.k8s.yaml']);
    const text = fs.readFileSync(path.join(outdir, 'billing.k8s.yaml'), 'utf-8');
    expect(text).not.toMatch(/SidecarSet|PodUnavailableBudget|payments/);
    expect(a.synthYaml()).toEqual(text);
  });
});

describe('the app\'s workloads meet the context\'s SidecarSets', () => {
  test('a collision with a policy the app does not own fails the app\'s synth under its workload, naming the file', () => {
    const a = app();
    new KruiseContext(a, 'platform', { manifests: [PLATFORM] });
    const chart = new Chart(a, 'billing', { namespace: 'billing' });
    new kplus.Deployment(chart, 'api', {
      metadata: { name: 'api' },
      podMetadata: { labels: { 'platform.io/logging': 'enabled' } },
      containers: [container('log-agent'), container('api')],
    });
    expect(errorsOf(a)).toEqual([
      `[billing/api] Deployment "api" (apps/v1) spec.template.spec.containers[0].name: "log-agent" is also the name of the sidecar container "log-agent" of SidecarSet "logging-agent" (context: ${PLATFORM}), `
      + 'which OpenKruise silently puts in its place; rename one of them',
    ]);
  });

  test('port and volume collisions name the context SidecarSet', () => {
    const a = app();
    new KruiseContext(a, 'platform', { manifests: [PLATFORM] });
    const chart = new Chart(a, 'billing', { namespace: 'billing' });
    const buffer = kplus.Volume.fromConfigMap(chart, 'cm', kplus.ConfigMap.fromConfigMapName(chart, 'settings', 'settings'), { name: 'log-agent-buffer' });
    new kplus.Deployment(chart, 'api', {
      metadata: { name: 'api' },
      podMetadata: { labels: { 'platform.io/logging': 'enabled' } },
      containers: [container('api', { ports: [{ number: 2020 }], volumeMounts: [{ path: '/settings', volume: buffer }] })],
    });
    expect(errorsOf(a)).toEqual([
      `[billing/api] Deployment "api" (apps/v1) spec.template.spec.volumes[0].name: "log-agent-buffer" is also the name of a different volume of SidecarSet "logging-agent" (context: ${PLATFORM}), `
      + 'and OpenKruise keeps this one, so its sidecar mounts the wrong data; rename one of them',
      `[billing/api] Deployment "api" (apps/v1) spec.template.spec.containers[0].ports[0].containerPort: 2020 is also a port (TCP) of the sidecar "log-agent" of SidecarSet "logging-agent" (context: ${PLATFORM}), `
      + 'and the containers of a pod share its network; change one port',
    ]);
  });

  test('the injection preview includes the context\'s sidecars; a context Namespace\'s labels decide a namespace selector', () => {
    const a = app();
    new KruiseContext(a, 'platform', { manifests: [PLATFORM] });
    const chart = new Chart(a, 'payments', { namespace: 'payments' });
    const web = new kplus.Deployment(chart, 'web', {
      metadata: { name: 'web' },
      podMetadata: { labels: { 'platform.io/logging': 'enabled', 'platform.io/mesh': 'enabled' } },
      containers: [container('web')],
    });
    const p = InjectionPreview.of(web);
    expect(p.injectedBy).toEqual(['logging-agent', 'mesh-proxy']);
    expect(p.containerNames).toEqual(['log-agent', 'web', 'mesh-proxy-1', 'mesh-proxy-2']);
    expect(p.containerOrderFixed).toBe(true);
    expect(errorsOf(a)).toEqual([]);
  });

  test('live state: a Namespace of the cluster and its SidecarSets', () => {
    const a = app();
    new KruiseContext(a, 'prod', { liveState: [LIVE] });
    new KruiseContext(a, 'platform', { manifests: [PLATFORM] });
    const chart = new Chart(a, 'billing', { namespace: 'billing' });
    const api = new kplus.Deployment(chart, 'api', {
      metadata: { name: 'api' },
      podMetadata: { labels: { 'platform.io/mesh': 'enabled', 'platform.io/tracing': 'enabled' } },
      containers: [container('api', { ports: [{ number: 4317, name: 'grpc' }] })],
    });
    // billing carries the mesh label in the cluster only
    expect(InjectionPreview.of(api).containerNames).toEqual(['api', 'mesh-proxy-1', 'mesh-proxy-2', 'tracer']);
    expect(InjectionPreview.of(api).containerOrderFixed).toBe(false);
    expect(errorsOf(a)).toEqual([
      `[billing/api] Deployment "api" (apps/v1) spec.template.spec.containers[0].ports[0].containerPort: 4317 is also a port (TCP) of the sidecar "tracer" of SidecarSet "tracing" (context: ${LIVE}), `
      + 'and the containers of a pod share its network; change one port',
    ]);
  });

  test('the app\'s own SidecarSet conflicts with a context SidecarSet: reported once, by the app\'s', () => {
    const a = app();
    new KruiseContext(a, 'platform', { manifests: [PLATFORM] });
    new SidecarSet(new Chart(a, 'team'), 'agent', {
      metadata: { name: 'team-agent' },
      selector: kplus.LabelSelector.of({ labels: { 'platform.io/logging': 'enabled' } }),
      containers: [{ name: 'log-agent', image: 'vector:0.40' }],
    });
    expect(errorsOf(a)).toEqual([
      `[team/agent] SidecarSet "team-agent" (apps.kruise.io/v1beta1) spec: "logging-agent" is another SidecarSet (context: ${PLATFORM}) whose selectors and namespaces can match the same pods, and both inject the container "log-agent"; OpenKruise refuses the second one applied; rename, or make the selectors or namespaceSelectors disjoint`,
    ]);
  });

  test('an object the app writes itself replaces the context\'s copy', () => {
    const a = app();
    new KruiseContext(a, 'platform', { manifests: [PLATFORM] });
    new SidecarSet(new Chart(a, 'platform'), 'logging', {
      metadata: { name: 'logging-agent' },
      selector: kplus.LabelSelector.of({ labels: { 'platform.io/logging': 'enabled' } }),
      containers: [{ name: 'log-agent', image: 'fluent/fluent-bit:3.2.0' }],
    });
    expect(errorsOf(a)).toEqual([]);
  });

  test('an app SidecarSet reports its collisions with a context\'s workloads (a platform repository checking app outputs)', () => {
    const a = app();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apps-'));
    const outdir = path.join(dir, 'shop-dist');
    const shop = new App({ outdir });
    new kplus.Deployment(new Chart(shop, 'shop', { namespace: 'shop' }), 'web', {
      metadata: { name: 'web' },
      podMetadata: { labels: { 'platform.io/logging': 'enabled' } },
      containers: [container('log-agent')],
    });
    shop.synth();
    const ctx = new KruiseContext(a, 'apps', { manifests: [outdir] });
    new SidecarSet(new Chart(a, 'platform'), 'logging', {
      metadata: { name: 'logging-agent' },
      selector: kplus.LabelSelector.of({ labels: { 'platform.io/logging': 'enabled' } }),
      containers: [{ name: 'log-agent', image: 'fluent/fluent-bit:3.2.0' }],
    });
    const origin = path.relative(process.cwd(), path.join(outdir, 'shop.k8s.yaml'));
    expect(ctx.manifests.map(m => m.kind)).toEqual(['Deployment']);
    expect(errorsOf(a)).toEqual([
      `[platform/logging] SidecarSet "logging-agent" (apps.kruise.io/v1beta1) spec.containers[0].name: "log-agent" is also the name of a container of the pods of Deployment "web" (context: ${origin}), `
      + 'so OpenKruise silently replaces that container with the sidecar; rename one of them',
    ]);
  });
});

/** A platform team's policy library, as an app repository installs it. */
class LoggingPolicy extends Construct {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new SidecarSet(this, 'Resource', {
      metadata: { name: 'logging-agent' },
      selector: kplus.LabelSelector.of({ labels: { 'platform.io/logging': 'enabled' } }),
      containers: [{ name: 'log-agent', image: 'fluent/fluent-bit:3.1.9', injectPolicy: SidecarInjectPolicy.BEFORE_APP_CONTAINER }],
    });
  }
}

describe('a policy library instantiated under a context', () => {
  test('its objects take part in the checks, named by their construct path, and are not written', () => {
    const a = app();
    const ctx = new KruiseContext(a, 'platform-policies');
    new LoggingPolicy(ctx, 'logging');
    new kplus.Deployment(new Chart(a, 'shop', { namespace: 'shop' }), 'web', {
      metadata: { name: 'web' },
      podMetadata: { labels: { 'platform.io/logging': 'enabled' } },
      containers: [container('log-agent')],
    });
    expect(ctx.node.scope).not.toBe(a);
    expect(a.charts.map(c => c.node.path)).toEqual(['shop']);
    expect(errorsOf(a)).toEqual([
      '[shop/web] Deployment "web" (apps/v1) spec.template.spec.containers[0].name: "log-agent" is also the name of the sidecar container "log-agent" of SidecarSet "logging-agent" (context: platform-policies/logging/Resource), which OpenKruise silently puts in its place; rename one of them',
    ]);
  });

  test('the library\'s own problems are not the app\'s: a context SidecarSet is neither judged nor validated', () => {
    const a = app();
    const ctx = new KruiseContext(a, 'platform-policies');
    new SidecarSet(ctx, 'empty', { metadata: { name: 'empty' }, selector: kplus.LabelSelector.of({ labels: { x: 'y' } }) });
    new kplus.Deployment(new Chart(a, 'shop'), 'web', { containers: [container('web')] });
    expect(errorsOf(a)).toEqual([]);
  });
});

describe('the other app-wide checks see context objects', () => {
  test('PodUnavailableBudget: a selector overlapping a context budget\'s', () => {
    const a = app();
    new KruiseContext(a, 'platform', { manifests: [PLATFORM] });
    const chart = new Chart(a, 'payments', { namespace: 'payments' });
    new PodUnavailableBudget(chart, 'pub', {
      metadata: { name: 'payments-api' },
      selector: kplus.LabelSelector.of({ labels: { 'platform.io/tier': 'critical' } }),
      maxUnavailable: kplus.PercentOrAbsolute.absolute(1),
    });
    expect(errorsOf(a)).toEqual([
      `[payments/pub] PodUnavailableBudget "payments-api" (policy.kruise.io/v1alpha1) spec.selector: {"matchLabels":{"platform.io/tier":"critical"}} overlaps the selector of PodUnavailableBudget "payments-critical" (context: ${PLATFORM}), which OpenKruise refuses; make the selectors use different keys or disjoint values`,
    ]);
  });

  test('WorkloadSpread: a second one for the same workload', () => {
    const a = app();
    new KruiseContext(a, 'platform', { manifests: [PLATFORM] });
    const chart = new Chart(a, 'payments', { namespace: 'payments' });
    const api = new CloneSet(chart, 'api', { metadata: { name: 'api' }, containers: [container('api')] });
    new WorkloadSpread(chart, 'spread', {
      target: api,
      subsets: [{ name: 'a' }, { name: 'b' }],
    });
    expect(errorsOf(a)).toEqual([
      `[payments/spread] WorkloadSpread "payments-spread-c82557a2" (apps.kruise.io/v1alpha1) spec.targetRef: {"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet","name":"api"} is also the target of WorkloadSpread "api-zones" (context: ${PLATFORM}), which OpenKruise refuses; keep one WorkloadSpread per workload`,
    ]);
  });

  test('PersistentPodState: a second one for the same StatefulSet', () => {
    const a = app();
    new KruiseContext(a, 'platform', { manifests: [PLATFORM] });
    const chart = new Chart(a, 'payments', { namespace: 'payments' });
    const ledger = new AdvancedStatefulSet(chart, 'ledger', { metadata: { name: 'ledger' }, containers: [container('ledger')] });
    new PersistentPodState(chart, 'state', { target: ledger, requiredTopology: ['topology.kubernetes.io/zone'] });
    expect(errorsOf(a)).toEqual([
      `[payments/state] PersistentPodState "payments-state-c86b19c1" (apps.kruise.io/v1alpha1) spec.targetRef: {"apiVersion":"apps.kruise.io/v1beta1","kind":"StatefulSet","name":"ledger"} is also the target of PersistentPodState "ledger-state" (context: ${PLATFORM}), which OpenKruise refuses; keep one PersistentPodState per workload`,
    ]);
  });

  test('Rollout: a second Rollout of the same workload', () => {
    const a = app();
    new KruiseContext(a, 'platform', { manifests: [PLATFORM] });
    const chart = new Chart(a, 'payments', { namespace: 'payments' });
    const checkout = new kplus.Deployment(chart, 'checkout', { metadata: { name: 'checkout' }, containers: [container('checkout')] });
    Rollout.of(checkout, { strategy: RolloutStrategy.canary({ steps: [{ replicas: kplus.PercentOrAbsolute.percent(50) }] }) });
    expect(errorsOf(a)).toEqual([
      `[payments/checkout/Rollout] Rollout "checkout" (rollouts.kruise.io/v1beta1) spec.workloadRef: {"apiVersion":"apps/v1","kind":"Deployment","name":"checkout"} is also released by Rollout "checkout-release" (context: ${PLATFORM}), and a workload can have one Rollout only; keep one Rollout per workload (merge their steps)`,
    ]);
  });

  test('feature gates: the control plane of the cluster, read from the platform\'s output', () => {
    const a = app();
    new KruiseContext(a, 'platform', { manifests: [CONTROL_PLANE] });
    const chart = new Chart(a, 'payments', { namespace: 'payments' });
    const api = new CloneSet(chart, 'api', { metadata: { name: 'api' }, containers: [container('api')] });
    new WorkloadSpread(chart, 'spread', { target: api, subsets: [{ name: 'a' }, { name: 'b' }] });
    expect(errorsOf(a)).toEqual([
      `[payments/spread] WorkloadSpread "payments-spread-c82557a2" (apps.kruise.io/v1alpha1) kind: "WorkloadSpread" needs the OpenKruise feature gate WorkloadSpread, which is off in the control plane (context: ${CONTROL_PLANE}) `
      + '(the webhook refuses every WorkloadSpread then); that control plane is not this app\'s: ask its owners to turn WorkloadSpread on, or stop using the kind',
    ]);
  });

  test('feature gates: a control plane construct under a context', () => {
    const a = app();
    const ctx = new KruiseContext(a, 'cluster');
    new KruiseControlPlane(ctx, 'kruise', { featureGates: { [KruiseFeatureGate.POD_UNAVAILABLE_BUDGET_DELETE_GATE]: false } });
    const chart = new Chart(a, 'payments', { namespace: 'payments' });
    new PodUnavailableBudget(chart, 'pub', { selector: kplus.LabelSelector.of({ labels: { app: 'api' } }), maxUnavailable: kplus.PercentOrAbsolute.absolute(1) });
    expect(errorsOf(a)).toEqual([
      '[payments/pub] PodUnavailableBudget "payments-pub-c8694099" (policy.kruise.io/v1alpha1) kind: "PodUnavailableBudget" needs one of the OpenKruise feature gates PodUnavailableBudgetDeleteGate or PodUnavailableBudgetUpdateGate, all off in the control plane (context: cluster/kruise); that control plane is not this app\'s: ask its owners to turn PodUnavailableBudgetDeleteGate on, or stop using the kind',
    ]);
    // and the control plane's objects (CRDs, webhooks, the manager) are not written
    expect(a.charts.map(c => c.node.path)).toEqual(['payments']);
  });
});

test('the injection preview files are written for the app\'s own workloads only', () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'context-preview-'));
  const a = new App({ outdir });
  const appsDist = fs.mkdtempSync(path.join(os.tmpdir(), 'context-apps-'));
  const other = new App({ outdir: appsDist });
  new kplus.Deployment(new Chart(other, 'shop'), 'web', { metadata: { name: 'web' }, podMetadata: { labels: { 'platform.io/logging': 'enabled' } }, containers: [container('web')] });
  other.synth();
  new KruiseContext(a, 'ctx', { manifests: [appsDist, PLATFORM] });
  new kplus.Deployment(new Chart(a, 'billing'), 'api', { metadata: { name: 'api' }, podMetadata: { labels: { 'platform.io/logging': 'enabled' } }, containers: [container('api')] });
  InjectionPreview.writeAtSynth(a);
  a.synth();
  expect(fs.readdirSync(path.join(outdir, 'injection-preview'))).toEqual(['Deployment.default.api.yaml']);
  expect(ApiObject.of(a.node.findAll().find(c => c.node.path === 'billing/api')!).kind).toBe('Deployment');
});
