import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Chart, Include, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { KruiseContext, KruiseControlPlane, KruiseInclude, KruiseValidation, kruise } from '../../src';

/**
 * The app-wide checks judge every object however it was written: YAML read
 * with KruiseInclude or cdk8s Include, the kruise L1, a raw ApiObject, a
 * context object. The same lines the L2 constructs got.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kruise-app-wide-'));
const write = (name: string, docs: object[]) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, docs.map(d => JSON.stringify(d)).join('\n---\n'));
  return file;
};
const sidecarSet = (name: string, labels: Record<string, string>, container = 'logtail') => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'SidecarSet',
  metadata: { name },
  spec: { selector: { matchLabels: labels }, containers: [{ name: container, image: `${name}:1` }] },
});
const budget = (name: string, target: string) => ({
  apiVersion: 'policy.kruise.io/v1alpha1',
  kind: 'PodUnavailableBudget',
  metadata: { name, namespace: 'shop' },
  spec: { targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: target }, maxUnavailable: 1 },
});
const spread = (name: string, target: string) => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'WorkloadSpread',
  metadata: { name, namespace: 'shop' },
  spec: { targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: target }, subsets: [{ name: 'a', maxReplicas: 1 }, { name: 'b' }] },
});
const podState = (name: string, target: string) => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'PersistentPodState',
  metadata: { name, namespace: 'shop' },
  spec: { targetRef: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: target }, requiredPersistentTopology: { nodeTopologyKeys: ['kubernetes.io/hostname'] } },
});

function synthError(app: App): string {
  try {
    app.synth();
  } catch (e: any) {
    return e.message;
  }
  return '';
}

const CONFLICT = (me: string, other: string, at: string) => `SidecarSet "${me}" (apps.kruise.io/v1alpha1${at}) spec: "${other}" is another SidecarSet`;

describe('SidecarSet conflicts (rule 29), however the SidecarSets were written', () => {
  test('two SidecarSets included as YAML that inject logtail into the same pods fail synth, naming both', () => {
    const file = write('two-sidecarsets.yaml', [sidecarSet('logs-a', { app: 'shop' }), sidecarSet('logs-b', { app: 'shop' })]);
    const app = Testing.app();
    new KruiseInclude(new Chart(app, 'platform'), 'logs', { url: file });
    expect(synthError(app)).toContain(`[platform/logs/logs-a-sidecarset] ${CONFLICT('logs-a', 'logs-b', `; ${file}, document 1`)} (at 'platform/logs/logs-b-sidecarset') whose selectors and namespaces can match the same pods, and both inject the container "logtail"; OpenKruise refuses the second one applied; rename, or make the selectors or namespaceSelectors disjoint`);
  });

  test('with cdk8s Include, once KruiseValidation is on', () => {
    const file = write('include.yaml', [sidecarSet('logs-a', { app: 'shop' }), sidecarSet('logs-b', { app: 'shop' })]);
    const app = Testing.app();
    KruiseValidation.enable(app);
    new Include(new Chart(app, 'platform'), 'logs', { url: file });
    const error = synthError(app);
    expect(error).toContain(`[platform/logs/logs-a-sidecarset] ${CONFLICT('logs-a', 'logs-b', '')} (at 'platform/logs/logs-b-sidecarset') whose selectors`);
    expect(error.match(/is another SidecarSet/g)).toHaveLength(1);
  });

  test('a raw ApiObject and a kruise L1 SidecarSet', () => {
    const app = Testing.app();
    KruiseValidation.enable(app);
    const chart = new Chart(app, 'c');
    new ApiObject(chart, 'raw', sidecarSet('raw', { app: 'shop' }));
    new kruise.KubeSidecarSet(chart, 'typed', { metadata: { name: 'typed' }, spec: { selector: { matchLabels: { app: 'shop' } }, containers: [{ name: 'logtail', image: 'x:1' }] } });
    expect(synthError(app)).toContain(`[c/raw] ${CONFLICT('raw', 'typed', '')} (at 'c/typed') whose selectors and namespaces can match the same pods, and both inject the container "logtail"`);
  });

  test('an included SidecarSet against a context one is reported by the app\'s', () => {
    const platform = write('platform.yaml', [sidecarSet('platform-logs', { app: 'shop' })]);
    const own = write('own.yaml', [sidecarSet('team-logs', { app: 'shop' })]);
    const app = Testing.app();
    new KruiseContext(app, 'platform', { manifests: [platform] });
    new KruiseInclude(new Chart(app, 'team'), 'logs', { url: own });
    const origin = path.relative(process.cwd(), platform);
    expect(synthError(app)).toContain(`[team/logs/team-logs-sidecarset] ${CONFLICT('team-logs', 'platform-logs', `; ${own}, document 1`)} (context: ${origin}) whose selectors`);
  });

  test('an included SidecarSet whose sidecar takes the name of an app container is reported by the SidecarSet', () => {
    const file = write('collide.yaml', [sidecarSet('logs', { app: 'shop' }, 'web')]);
    const app = Testing.app();
    const chart = new Chart(app, 'shop');
    new KruiseInclude(chart, 'logs', { url: file });
    new kplus.Deployment(chart, 'web', { metadata: { name: 'web' }, podMetadata: { labels: { app: 'shop' } }, containers: [{ name: 'web', image: 'nginx:1.27', portNumber: 8080 }] });
    expect(synthError(app)).toContain('[shop/logs/logs-sidecarset] SidecarSet "logs" (apps.kruise.io/v1alpha1; ' + file + ', document 1) spec.containers[0].name: "web" is also the name of a container of the pods of Deployment "web" at \'shop/web\', so OpenKruise silently replaces that container with the sidecar; rename one of them');
  });
});

describe('budgets, spreads and pod states of one workload, however written', () => {
  test('two included PodUnavailableBudgets with one target', () => {
    const file = write('budgets.yaml', [budget('a', 'web'), budget('b', 'web')]);
    const app = Testing.app();
    new KruiseInclude(new Chart(app, 'shop'), 'budgets', { url: file });
    const error = synthError(app);
    expect(error).toContain(`[shop/budgets/a-podunavailablebudget-shop] PodUnavailableBudget "a" (policy.kruise.io/v1alpha1; ${file}, document 1) spec.targetRef: {"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet","name":"web"} is also the target of PodUnavailableBudget "b" at 'shop/budgets/b-podunavailablebudget-shop', which OpenKruise refuses; keep one budget per workload`);
    expect(error.match(/is also the target/g)).toHaveLength(1);
  });

  test('two raw WorkloadSpreads with one target', () => {
    const app = Testing.app();
    KruiseValidation.enable(app);
    const chart = new Chart(app, 'shop');
    new ApiObject(chart, 'one', spread('one', 'web'));
    new ApiObject(chart, 'two', spread('two', 'web'));
    expect(synthError(app)).toContain('[shop/one] WorkloadSpread "one" (apps.kruise.io/v1alpha1) spec.targetRef: {"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet","name":"web"} is also the target of WorkloadSpread "two" at \'shop/two\', which OpenKruise refuses; keep one WorkloadSpread per workload');
  });

  test('two L1 PersistentPodStates with one target', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'shop');
    new kruise.KubePersistentPodState(chart, 'one', podState('one', 'db') as any);
    new kruise.KubePersistentPodState(chart, 'two', podState('two', 'db') as any);
    expect(synthError(app)).toContain('[shop/one] PersistentPodState "one" (apps.kruise.io/v1alpha1) spec.targetRef: {"apiVersion":"apps.kruise.io/v1beta1","kind":"StatefulSet","name":"db"} is also the target of PersistentPodState "two" at \'shop/two\', which OpenKruise refuses; keep one PersistentPodState per workload');
  });
});

describe('feature gates of the app\'s control plane, however the object was written', () => {
  test('an included WorkloadSpread with the WorkloadSpread gate off', () => {
    const file = write('spread.yaml', [spread('one', 'web')]);
    const app = Testing.app();
    new KruiseControlPlane(new Chart(app, 'infra'), 'kruise', { featureGates: { WorkloadSpread: false } });
    new KruiseInclude(new Chart(app, 'shop'), 'spread', { url: file });
    expect(synthError(app)).toContain(`[shop/spread/one-workloadspread-shop] WorkloadSpread "one" (apps.kruise.io/v1alpha1; ${file}, document 1) kind: "WorkloadSpread" needs the OpenKruise feature gate WorkloadSpread, which is off in the control plane at 'infra/kruise' (the webhook refuses every WorkloadSpread then); set featureGates: { WorkloadSpread: true } on the KruiseControlPlane at 'infra/kruise'`);
  });

  test('a raw ImagePullJob with ImagePullJobGate off', () => {
    const app = Testing.app();
    new KruiseControlPlane(new Chart(app, 'infra'), 'kruise', { featureGates: { ImagePullJobGate: false } });
    new ApiObject(new Chart(app, 'nodes'), 'pull', {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'ImagePullJob',
      metadata: { name: 'pull', namespace: 'default' },
      spec: { image: 'nginx:1.27', completionPolicy: { type: 'Never' } },
    });
    expect(synthError(app)).toContain('[nodes/pull] ImagePullJob "pull" (apps.kruise.io/v1beta1) kind: "ImagePullJob" needs the OpenKruise feature gate ImagePullJobGate, which is off in the control plane at \'infra/kruise\' (the webhook refuses every ImagePullJob then); set featureGates: { ImagePullJobGate: true } on the KruiseControlPlane at \'infra/kruise\'');
  });
});
