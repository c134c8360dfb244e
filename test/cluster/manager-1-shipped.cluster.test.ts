/**
 * The control plane as shipped, run by the released kruise-manager v1.9.1:
 * our Deployment's command line and environment, our ServiceAccount's token
 * (our RBAC is all it has), our webhook configurations called by the API
 * server through our webhook Service. With the defaults and with every option
 * the tier can run, the manager becomes ready and takes the lease, writes the
 * caBundle of each of our webhooks and conversion webhooks, serves every
 * webhook we declare, and never logs a forbidden request, an ignored webhook
 * or an unknown kind.
 */
import { App, Chart, Duration } from 'cdk8s';
import { Kube } from './kube';
import { Managers, ManagerProcess, defaultsSynth, probeWebhooks, runControlPlane, testNamespace, unpatched } from './manager';
import { Synth, synthApp } from './sources';
import * as lib from '../../src';

/**
 * Every option of the control plane that changes what kruise-manager does and
 * that a process on 127.0.0.1 can run. Left out: the certificate modes that
 * need cert-manager or an outside issuer (no cert-manager here), and what only
 * a kubelet reads (image, resources, scheduling, hostNetwork): the tier does
 * not run the Pod, it runs the Pod's command.
 */
function everyOptionSynth(): Synth {
  return synthApp('KruiseControlPlane (every option the tier runs)', (app: App) => {
    new lib.KruiseControlPlane(new Chart(app, 'kruise'), 'kruise', {
      namespace: 'openkruise',
      createNamespace: true,
      createDaemonConfigNamespace: true,
      roleListGroups: ['apps', 'apps.kruise.io', 'batch', 'policy.kruise.io'],
      featureGates: { [lib.KruiseFeatureGate.WORKLOAD_SPREAD]: true, [lib.KruiseFeatureGate.CLONE_SET_SHORT_HASH]: true },
      enableKubeCacheMutationDetector: true,
      webhookTimeout: Duration.seconds(10),
      crdDeletionProtection: lib.DeletionProtection.ALWAYS,
      namespaceDeletionProtection: lib.DeletionProtection.ALWAYS,
      validateEphemeralJobs: true,
      manager: {
        logLevel: 2,
        logFormat: lib.LogFormat.JSON,
        syncPeriod: Duration.minutes(10),
        restConfigQps: 50,
        restConfigBurst: 100,
        enablePprof: true,
        pprofAddress: 'localhost:8090',
      },
    });
    return app;
  });
}

/** Log lines that must never appear, each with what it means. */
const NEVER: Array<[RegExp, string]> = [
  // RBAC denials name the manager's user; a pod refused for a missing default ServiceAccount is not one
  [/forbidden: User "system:serviceaccount:/i, 'a request our RBAC does not allow'],
  [/Ignore webhook in configuration/, 'a webhook path kruise-manager does not serve'],
  [/Not found kind/, 'a kind kruise-manager does not know'],
];

let kube: Kube;

beforeAll(async () => {
  kube = new Kube();
  await testNamespace(kube, 'shipped');
});

afterAll(() => kube.close());

describe.each([
  ['defaults', defaultsSynth],
  ['every option the tier runs', everyOptionSynth],
])('kruise-manager v1.9.1 runs the control plane as shipped: %s', (_name, make) => {
  let s: Synth;
  let managers: Managers;
  let leader: ManagerProcess;

  beforeAll(async () => {
    s = make();
    ({ managers, leader } = await runControlPlane(kube, s));
  });

  afterAll(async () => {
    if (managers) await managers.stopAll();
  });

  test('the manager runs our command line with our ServiceAccount token, is ready and holds the lease', async () => {
    const ns = managers.spec.namespace;
    const lease = (await kube.request('GET', `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases/kruise-manager`)).body;
    expect({ holder: typeof lease?.spec?.holderIdentity, leader: leader.isLeader() }).toEqual({ holder: 'string', leader: true });
    const deployment = s.objects.find(m => m.kind === 'Deployment')!;
    for (const arg of deployment.spec.template.spec.containers[0].args) {
      if (/^--(metrics-addr|health-probe-addr|pprof-addr)=/.test(arg)) continue;
      expect(leader.commandLine).toContain(arg);
    }
    expect(leader.env.KUBECONFIG).toMatch(/kruise-manager\.kubeconfig$/);
  });

  test('the API server calls our webhooks: a dry-run CloneSet comes back with the defaults only the webhook sets', async () => {
    const probe = await probeWebhooks(kube, 'shipped');
    expect(probe).toEqual({ status: 201, message: undefined, terminationMessagePath: '/dev/termination-log' });
  });

  test('the live webhook configurations hold exactly our webhooks, each with the caBundle the manager wrote', async () => {
    for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
      const ours = s.objects.find(m => m.kind === kind)!;
      const live = (await kube.get(ours)).body;
      const names = (w: any[]) => w.map(h => h.name);
      expect({ kind, webhooks: names(live.webhooks) }).toEqual({ kind, webhooks: names(ours.webhooks) });
    }
    const mutating = s.objects.find(m => m.kind === 'MutatingWebhookConfiguration')!.webhooks.length;
    const validating = s.objects.find(m => m.kind === 'ValidatingWebhookConfiguration')!.webhooks.length;
    // chart 1.9.1's webhooks: the 24 of 1.9.0-alpha.3 and vephemeraljobs.kb.io
    if (_name === 'defaults') expect({ mutating, validating }).toEqual({ mutating: 12, validating: 25 });
    expect(await unpatched(kube, s)).toEqual([]);
  });

  test('every conversion webhook CRD of ours was patched with the manager\'s caBundle', async () => {
    const conversions = s.objects.filter(m => m.kind === 'CustomResourceDefinition' && m.spec?.conversion?.strategy === 'Webhook');
    expect(conversions.length).toBeGreaterThan(0);
    for (const crd of conversions) {
      const live = (await kube.get(crd)).body;
      // eslint-disable-next-line @stylistic/max-len
      expect({ crd: crd.metadata.name, service: live.spec.conversion.webhook.clientConfig.service, caBundle: !!live.spec.conversion.webhook.clientConfig.caBundle })
        .toEqual({ crd: crd.metadata.name, service: crd.spec.conversion.webhook.clientConfig.service, caBundle: true });
    }
  });

  test('after 30 s of running: no forbidden request, no ignored webhook, no unknown kind in the log; still running', async () => {
    await new Promise(r => setTimeout(r, 30_000));
    for (const [pattern, meaning] of NEVER) {
      const lines = leader.lines(pattern);
      expect({ pattern: String(pattern), meaning, lines: lines.slice(0, 20) }).toEqual({ pattern: String(pattern), meaning, lines: [] });
    }
    expect({ running: leader.running, exitCode: leader.exitCode }).toEqual({ running: true, exitCode: null });
  });
});
