import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Testing } from 'cdk8s';
import { build } from '../../examples/fleet-platform/main';

test('the platform writes its policies', () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-platform-'));
  build(new App({ outdir })).synth();
  expect(fs.readdirSync(outdir).sort()).toEqual(['policies.k8s.yaml']);
});

test('the policies: two cluster-wide SidecarSets and the payments budget, nothing app-specific', () => {
  const app = build(Testing.app());
  const policies = Testing.synth(app.charts.find(c => c.node.id === 'policies')!);
  expect(policies.map(o => [o.kind, o.metadata.namespace, o.metadata.name])).toEqual([
    ['SidecarSet', undefined, 'logging-agent'], ['SidecarSet', undefined, 'mesh-proxy'], ['PodUnavailableBudget', 'payments', 'critical-payments'],
  ]);
  const [logging, mesh, budget] = policies;
  expect(logging.spec.selector).toEqual({ matchLabels: { 'platform.io/logging': 'enabled' } });
  expect(logging.spec.containers.map((c: any) => [c.name, c.image, c.podInjectPolicy])).toEqual([['log-agent', 'fluent/fluent-bit:3.1.9', 'BeforeAppContainer']]);
  expect(mesh.spec.namespaceSelector).toEqual({ matchLabels: { 'platform.io/mesh': 'enabled' } });
  expect(mesh.spec.containers[0].upgradeStrategy).toEqual({ upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'openkruise/hotupgrade-sample:empty' });
  expect(budget.spec).toEqual({ selector: { matchLabels: { 'platform.io/tier': 'critical' } }, maxUnavailable: 1 });
});

test('LOG_AGENT_IMAGE bumps the log shipper (the platform\'s pull request)', () => {
  process.env.LOG_AGENT_IMAGE = 'fluent/fluent-bit:3.2.2';
  try {
    const app = build(Testing.app());
    const [logging] = Testing.synth(app.charts.find(c => c.node.id === 'policies')!);
    expect(logging.spec.containers[0].image).toBe('fluent/fluent-bit:3.2.2');
  } finally {
    delete process.env.LOG_AGENT_IMAGE;
  }
});
