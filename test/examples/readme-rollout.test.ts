import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart, Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { CloneSet, KruiseControlPlane, KruiseRolloutControlPlane, RolloutPause, RolloutStrategy, RolloutTrafficRouting } from '../../src';

beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());

// The README's Rollout section, as written there.
test('the README Rollout example synthesizes into three ordered files', () => {
  const app = new App({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'readme-rollout-')) });
  new KruiseControlPlane(new Chart(app, 'kruise'), 'kruise');
  new KruiseRolloutControlPlane(new Chart(app, 'kruise-rollout'), 'rollout');
  const shop = new Chart(app, 'shop');
  const web = new CloneSet(shop, 'web', { replicas: 4, containers: [{ image: 'nginx:1.27', portNumber: 80 }] });
  const service = web.exposeViaService({ name: 'web' });
  const ingress = new kplus.Ingress(shop, 'ingress', { metadata: { name: 'web' } });
  ingress.addRule('/', kplus.IngressBackend.fromService(service));
  web.rollout({
    strategy: RolloutStrategy.canary({
      steps: [
        { replicas: kplus.PercentOrAbsolute.absolute(1), traffic: 20, pause: RolloutPause.manual() },
        { replicas: kplus.PercentOrAbsolute.percent(50), traffic: 50, pause: RolloutPause.after(Duration.minutes(10)) },
        { replicas: kplus.PercentOrAbsolute.percent(100) },
      ],
      trafficRouting: RolloutTrafficRouting.ingress({ ingress }),
    }),
  });
  app.synth();
  expect(fs.readdirSync(app.outdir).sort()).toEqual(['0000-kruise.k8s.yaml', '0001-kruise-rollout.k8s.yaml', '0002-shop.k8s.yaml']);
  const shopYaml = fs.readFileSync(path.join(app.outdir, '0002-shop.k8s.yaml'), 'utf-8');
  expect(shopYaml).toContain('kind: Rollout');
  expect(shopYaml).toContain('traffic: 20%');
});
