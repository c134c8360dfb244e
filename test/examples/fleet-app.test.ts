import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { parseAllDocuments } from 'yaml';
import { build } from '../../examples/fleet-app/main';
import { build as buildPlatform } from '../../examples/fleet-platform/main';
import { InjectionPreview, KruiseContext } from '../../src';

let platformDist: string;
beforeAll(() => {
  // the platform repository's synth output, as the app's CI checks it out
  platformDist = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-platform-dist-'));
  buildPlatform(new App({ outdir: platformDist })).synth();
  process.env.PLATFORM_DIST = platformDist;
});
afterAll(() => { delete process.env.PLATFORM_DIST; });

const kindsIn = (text: string) => parseAllDocuments(text).map(d => d.toJSON()).filter(x => x).map((o: any) => `${o.kind}/${o.metadata.name}`);

test('the app\'s output holds its own objects only: no context object is ever written', () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-app-'));
  const app = build(new App({ outdir }));
  app.synth();
  expect(fs.readdirSync(outdir)).toEqual(['payments.k8s.yaml']);
  const written = kindsIn(fs.readFileSync(path.join(outdir, 'payments.k8s.yaml'), 'utf-8'));
  expect(written).toEqual([
    'Namespace/payments', 'WorkloadSpread/payments-api', 'CloneSet/payments-api', 'PodUnavailableBudget/ledger-workers', 'CloneSet/ledger-worker',
  ]);
  // everything the context read: none of it in the output
  const [context] = KruiseContext.attachedTo(app);
  const read = context.manifests.map(o => `${o.kind}/${o.metadata.name}`);
  expect(read).toEqual(['SidecarSet/logging-agent', 'SidecarSet/mesh-proxy', 'PodUnavailableBudget/critical-payments']);
  for (const r of read) expect(written).not.toContain(r);
});

test('the app sees the platform\'s sidecars in its pods', () => {
  const app = build(Testing.app());
  const api = app.node.findAll().find(c => c.node.path === 'payments/api')!;
  expect(InjectionPreview.of(api).containerNames).toEqual(['log-agent', 'api', 'mesh-proxy-1', 'mesh-proxy-2']);
  const ledger = app.node.findAll().find(c => c.node.path === 'payments/ledger')!;
  expect(InjectionPreview.of(ledger).containerNames).toEqual(['log-agent', 'worker']);
});

test('a collision with a platform policy the app does not own fails the app\'s synth, naming the platform\'s file', () => {
  const app = build(Testing.app());
  const chart = app.charts.find(c => c.node.id === 'payments') as Chart;
  new kplus.Deployment(chart, 'exporter', {
    metadata: { name: 'exporter' },
    podMetadata: { labels: { 'platform.io/logging': 'enabled' } },
    containers: [{ name: 'exporter', image: 'exporter:1.0', ports: [{ number: 2020 }], securityContext: { ensureNonRoot: false } }],
  });
  const file = path.relative(process.cwd(), path.join(platformDist, 'policies.k8s.yaml'));
  expect(() => app.synthYaml()).toThrow(
    `[payments/exporter] Deployment "exporter" (apps/v1) spec.template.spec.containers[0].ports[0].containerPort: 2020 is also a port (TCP) of the sidecar "log-agent" of SidecarSet "logging-agent" (context: ${file}), `
    + 'and the containers of a pod share its network; change one port');
});

test('the output is deterministic', () => {
  expect(build(Testing.app()).synthYaml()).toEqual(build(Testing.app()).synthYaml());
});
