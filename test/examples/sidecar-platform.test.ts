import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, ApiObject, Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { build } from '../../examples/sidecar-platform/main';
import { SidecarSet } from '../../src';

beforeAll(() => { jest.spyOn(console, 'warn').mockImplementation(() => undefined); });

test('the platform publishes two SidecarSets; the app charts carry none', () => {
  const app = build(Testing.app());
  const [platform, shop, billing] = app.charts.map(c => Testing.synth(c));
  expect(platform.map(o => [o.kind, o.metadata.name])).toEqual([['SidecarSet', 'logging-agent'], ['SidecarSet', 'mesh-proxy']]);
  expect(platform[0].spec.containers[0].shareVolumePolicy).toEqual({ type: 'enabled' });
  expect(platform[0].spec.containers[0].transferEnv).toEqual([{ sourceContainerNameFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['platform.io/main-container']" } }, envNames: ['APP_NAME'] }]);
  expect(platform[1].spec.namespaceSelector).toEqual({ matchLabels: { 'platform.io/mesh': 'enabled' } });
  expect(platform[1].spec.containers[0].upgradeStrategy).toEqual({ upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'openkruise/hotupgrade-sample:empty' });
  expect(shop.some(o => o.kind === 'SidecarSet')).toBe(false);
  expect(billing.some(o => o.kind === 'SidecarSet')).toBe(false);
});

test('the injection preview shows each app pod as it will run', () => {
  const app = build(Testing.app());
  const web = app.node.findAll().find(c => c.node.path === 'shop/web')!;
  const api = app.node.findAll().find(c => c.node.path === 'billing/api')!;
  const shop = SidecarSet.previewInjection(web);
  expect(shop.injectedBy).toEqual(['logging-agent', 'mesh-proxy']);
  expect(shop.containerNames).toEqual(['log-agent', 'web', 'mesh-proxy-1', 'mesh-proxy-2']);
  expect(shop.initContainerNames).toEqual(['mesh-init']);
  expect(shop.volumeNames).toEqual(['app-logs', 'log-agent-buffer']);
  const agent = shop.podTemplate.spec.containers[0];
  expect(agent.env).toEqual([{ name: 'IS_INJECTED', value: 'true' }, { name: 'APP_NAME', value: 'shop-web' }]);
  expect(agent.volumeMounts).toEqual([{ mountPath: '/buffer', name: 'log-agent-buffer' }, { mountPath: '/var/log/app', name: 'app-logs' }]);
  const billing = SidecarSet.previewInjection(api);
  expect(billing.injectedBy).toEqual(['logging-agent']);
  expect(billing.containerNames).toEqual(['log-agent', 'api']);
  expect(ApiObject.of(web).kind).toBe('Deployment');
});

test('synth writes the previews next to the YAML', () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'sidecar-platform-'));
  build(new App({ outdir })).synth();
  // the SidecarSets' chart first: a pod created before its SidecarSet never gets the sidecars
  expect(fs.readdirSync(outdir).sort()).toEqual(['0000-platform.k8s.yaml', '0001-shop.k8s.yaml', '0002-billing.k8s.yaml', 'injection-preview']);
  expect(fs.readdirSync(path.join(outdir, 'injection-preview'))).toEqual(['Deployment.billing.api.yaml', 'Deployment.shop.web.yaml']);
  const doc = parseAllDocuments(fs.readFileSync(path.join(outdir, 'injection-preview', 'Deployment.shop.web.yaml'), 'utf8'))[0].toJSON();
  expect(doc.workload).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web', path: 'shop/web' });
  expect(doc.template.spec.containers.map((c: any) => c.name)).toEqual(['log-agent', 'web', 'mesh-proxy-1', 'mesh-proxy-2']);
});

test('the output is deterministic', () => {
  expect(build(Testing.app()).synthYaml()).toEqual(build(Testing.app()).synthYaml());
});
