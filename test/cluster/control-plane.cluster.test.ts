/**
 * The control plane on a real API server: all 18 CRDs become Established,
 * every other object is accepted, and GitOps re-applies (server-side and
 * client-side) keep what kruise-manager writes at runtime: the caBundle of
 * every webhook and conversion webhook, and the certificate Secret's data.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Applied, Kube, Manifest, applyAll, changedObjects, clusterEnv, describeObject } from './kube';
import { rejections, proveSynth } from './prove';
import { Synth, certManagerStandIns, modelCrds, synthApp } from './sources';
import * as lib from '../../src';
import { KINDS, crdName } from '../../src/api';

/** What kruise-manager writes as it starts (its own CA and serving certificate). */
const RUNTIME_MANAGER = 'kruise-manager';
// The API server checks that a conversion caBundle is PEM: use the cluster's own CA.
const pem = (f: string) => fs.readFileSync(path.join(clusterEnv().dir, f)).toString('base64');
const CA_BUNDLE = pem('ca.crt');
const CERT_DATA: Record<string, string> = {
  'ca-cert.pem': CA_BUNDLE,
  'ca-key.pem': pem('ca.key'),
  'cert.pem': pem('apiserver.crt'),
  'key.pem': pem('apiserver.key'),
};

/** The control plane with its defaults, synthesized. */
function controlPlaneSynth(): Synth {
  return synthApp('KruiseControlPlane (defaults)', (app: App) => {
    new lib.KruiseControlPlane(new Chart(app, 'kruise'), 'kruise');
    return app;
  });
}

/** Every option of the control plane set (other than its defaults), with the certificates of `certificates`. */
function everyOptionSynth(certificates: lib.WebhookCertificates): Synth {
  return synthApp('KruiseControlPlane (every option)', (app: App) => {
    new lib.KruiseControlPlane(new Chart(app, 'kruise'), 'kruise', {
      namespace: 'openkruise',
      createNamespace: true,
      createDaemonConfigNamespace: true,
      installCrds: true,
      roleListGroups: ['apps', 'apps.kruise.io', 'batch'],
      featureGates: { [lib.KruiseFeatureGate.WORKLOAD_SPREAD]: true, [lib.KruiseFeatureGate.CLONE_SET_SHORT_HASH]: true },
      imageRepository: 'registry.example.com/openkruise/kruise-manager',
      imageTag: 'v1.9.0',
      imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
      imagePullSecrets: ['registry-credentials'],
      enableKubeCacheMutationDetector: true,
      serviceAccountAnnotations: { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::123456789012:role/kruise' },
      webhookTimeout: Duration.seconds(10),
      certificates,
      crdDeletionProtection: lib.DeletionProtection.ALWAYS,
      namespaceDeletionProtection: lib.DeletionProtection.ALWAYS,
      validateEphemeralJobs: true,
      manager: {
        replicas: 3,
        logLevel: 2,
        logFormat: lib.LogFormat.JSON,
        syncPeriod: Duration.minutes(10),
        resources: {
          cpu: { request: kplus.Cpu.millis(200), limit: kplus.Cpu.units(1) },
          memory: { request: Size.mebibytes(256), limit: Size.gibibytes(1) },
        },
        hostNetwork: true,
        nodeSelector: { 'node-role.kubernetes.io/control-plane': '' },
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }] }],
          },
        },
        tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }],
        priorityClassName: 'system-cluster-critical',
        webhookPort: 9876,
        metricsPort: 8081,
        healthPort: 8001,
        restConfigQps: 50,
        restConfigBurst: 100,
        enablePprof: true,
        pprofAddress: 'localhost:8090',
        podDisruptionBudget: true,
      },
      daemon: {
        logLevel: 2,
        port: 10331,
        enablePprof: true,
        pprofAddress: 'localhost:10332',
        socketLocation: '/run/containerd',
        socketFile: 'containerd.sock',
        nodeSelector: { 'kubernetes.io/os': 'linux' },
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'node.kubernetes.io/instance-type', operator: 'Exists' }] }],
            },
          },
        },
        skipVirtualKubeletNodes: true,
        resources: {
          cpu: { request: kplus.Cpu.millis(10), limit: kplus.Cpu.millis(100) },
          memory: { request: Size.mebibytes(32), limit: Size.mebibytes(256) },
        },
        extraEnv: { HTTPS_PROXY: kplus.EnvValue.fromValue('http://proxy.example.com:3128'), NO_PROXY: kplus.EnvValue.fromValue('.svc,.cluster.local') },
        credentialProvider: {
          configMapName: 'credential-provider', hostPath: '/etc/kubernetes/credential-provider', awsCredentialsDir: '/root/.aws',
        },
        privileged: true,
        priorityClassName: 'system-node-critical',
        restConfigQps: 20,
        restConfigBurst: 40,
      },
    });
    return app;
  });
}

const isWebhookConfiguration = (m: Manifest) => m.kind === 'MutatingWebhookConfiguration' || m.kind === 'ValidatingWebhookConfiguration';
const hasConversionWebhook = (m: Manifest) => m.kind === 'CustomResourceDefinition' && m.spec?.conversion?.strategy === 'Webhook';
const isCertSecret = (m: Manifest) => m.kind === 'Secret' && /webhook-cert/.test(m.metadata.name);

let kube: Kube;
let synth: Synth;

beforeAll(() => {
  kube = new Kube();
  synth = controlPlaneSynth();
});

afterAll(async () => {
  // Leave the cluster as the other files expect it: no conversion webhook
  // (no manager serves one) and no webhook configurations.
  for (const m of synth.objects.filter(hasConversionWebhook)) {
    await kube.mergePatch(m, { spec: { conversion: { strategy: 'None', webhook: null } } }, 'cluster-tier');
  }
  for (const m of synth.objects.filter(isWebhookConfiguration)) await kube.delete(m);
  kube.close();
});

describe('KruiseControlPlane (defaults)', () => {
  let first: Applied[];

  test('is applied with server-side apply: every object accepted', async () => {
    first = await applyAll(kube, synth.objects);
    expect(rejections(first)).toEqual([]);
    expect(first.length).toBe(synth.objects.length);
  });

  test('installs all 18 CRDs of the model, and every one is Established', async () => {
    const crds = synth.objects.filter(m => m.kind === 'CustomResourceDefinition').map(m => m.metadata.name).sort();
    expect(crds).toEqual(KINDS.map(crdName).sort());
    for (const name of crds) {
      const crd = await kube.waitEstablished(name, 30_000);
      const names = crd.status.conditions.filter((c: any) => c.status === 'True').map((c: any) => c.type);
      expect(names).toEqual(expect.arrayContaining(['Established', 'NamesAccepted']));
    }
  });

  test('its CRDs are the model\'s CRDs (same versions and schemas)', () => {
    const model = new Map(modelCrds().map(m => [m.metadata.name, m]));
    for (const crd of synth.objects.filter(m => m.kind === 'CustomResourceDefinition')) {
      expect(crd.spec.versions).toEqual(model.get(crd.metadata.name)!.spec.versions);
    }
  });

  test('emits webhook configurations, conversion webhooks and the certificate Secret without runtime values', () => {
    const webhooks = synth.objects.filter(isWebhookConfiguration);
    expect(webhooks.map(m => m.kind).sort()).toEqual(['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']);
    for (const w of webhooks) for (const h of w.webhooks) expect(h.clientConfig.caBundle).toBeUndefined();
    const conversions = synth.objects.filter(hasConversionWebhook);
    expect(conversions.length).toBeGreaterThan(0);
    for (const c of conversions) expect(c.spec.conversion.webhook.clientConfig.caBundle).toBeUndefined();
    const secrets = synth.objects.filter(isCertSecret);
    expect(secrets.length).toBe(1);
    expect(secrets[0].data).toBeUndefined();
  });

  test('applying the same synth again changes nothing', async () => {
    const again = await applyAll(kube, controlPlaneSynth().objects);
    expect(rejections(again)).toEqual([]);
    expect(changedObjects(first, again)).toEqual([]);
  });
});

describe.each([
  ['WebhookCertificates.certManager()', () => everyOptionSynth(lib.WebhookCertificates.certManager({
    issuerName: 'platform-ca', issuerKind: lib.CertManagerIssuerKind.CLUSTER_ISSUER, certificateName: 'kruise-webhook', createCertificate: true,
  }))],
  ['WebhookCertificates.certManager() with its own Issuer', () => everyOptionSynth(lib.WebhookCertificates.certManager())],
  ['WebhookCertificates.external()', () => everyOptionSynth(lib.WebhookCertificates.external({ annotations: { 'example.com/inject-ca': 'true' } }))],
])('KruiseControlPlane with every option set, %s', (_name, make) => {
  proveSynth(() => kube, make, async () => {
    const standIns = await applyAll(kube, certManagerStandIns(), { fieldManager: 'cluster-tier' });
    expect(rejections(standIns)).toEqual([]);
  });

  test('all 18 CRDs are Established', async () => {
    const crds = make().objects.filter(m => m.kind === 'CustomResourceDefinition');
    expect(crds.length).toBe(18);
    for (const crd of crds) await kube.waitEstablished(crd.metadata.name, 30_000);
  });
});

/** The control plane with cert-manager certificates: cainjector writes the caBundles, cert-manager the Secret. */
function certManagerSynth(): Synth {
  return synthApp('KruiseControlPlane (cert-manager)', (app: App) => {
    new lib.KruiseControlPlane(new Chart(app, 'kruise'), 'kruise', { certificates: lib.WebhookCertificates.certManager() });
    return app;
  });
}

describe.each([
  ['self-managed certificates (the default): kruise-manager writes them', controlPlaneSynth],
  ['cert-manager certificates: cainjector writes the caBundles', certManagerSynth],
])('GitOps safety, %s: re-applying the control plane keeps what is written at runtime', (_name, make) => {
  let s: Synth;

  beforeAll(async () => {
    s = make();
    const standIns = await applyAll(kube, certManagerStandIns(), { fieldManager: 'cluster-tier' });
    expect(rejections(standIns)).toEqual([]);
    const applied = await applyAll(kube, s.objects);
    expect(rejections(applied)).toEqual([]);
    await writeRuntimeValues(s);
  });

  test('the runtime values are in place before any re-apply', async () => {
    expect(await runtimeValueProblems(s)).toEqual([]);
  });

  test('server-side apply of the same YAML keeps them, and changes nothing at all', async () => {
    const before = await storedVersions(s);
    const again = await applyAll(kube, make().objects);
    expect(rejections(again)).toEqual([]);
    expect(await runtimeValueProblems(s)).toEqual([]);
    expect(await storedVersions(s)).toEqual(before);
  });

  test('client-side apply (kubectl apply) of the same YAML keeps them, twice in a row', async () => {
    const file = writeYaml(s);
    try {
      for (let round = 1; round <= 2; round++) {
        const r = kube.kubectl(['apply', '--validate=strict', '-f', file]);
        // The first client-side apply onto server-side-applied objects warns
        // that the last-applied annotation is missing (and adds it); nothing else may be said.
        const said = r.stderr.split('\n').filter(l => l.trim() !== '' && !/missing the kubectl.kubernetes.io\/last-applied-configuration annotation/.test(l));
        expect({ round, status: r.status, said }).toEqual({ round, status: 0, said: [] });
        expect(await runtimeValueProblems(s)).toEqual([]);
      }
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });

  test('server-side apply after client-side apply still keeps them', async () => {
    const again = await applyAll(kube, make().objects);
    expect(rejections(again)).toEqual([]);
    expect(await runtimeValueProblems(s)).toEqual([]);
  });
});

/** Write the runtime values the way kruise-manager does: read, set, update. */
async function writeRuntimeValues(s: Synth) {
  for (const m of s.objects) {
    if (!isWebhookConfiguration(m) && !hasConversionWebhook(m) && !isCertSecret(m)) continue;
    const live = (await kube.get(m)).body;
    if (isWebhookConfiguration(m)) {
      for (const h of live.webhooks) h.clientConfig.caBundle = CA_BUNDLE;
    } else if (hasConversionWebhook(m)) {
      live.spec.conversion.webhook.clientConfig.caBundle = CA_BUNDLE;
    } else {
      live.data = { ...CERT_DATA };
    }
    const res = await kube.request('PUT', `${await kube.pathOf(m)}?fieldManager=${RUNTIME_MANAGER}`, live);
    const outcome = { object: describeObject(m), status: res.status, message: res.body?.message };
    expect(outcome).toEqual({ object: describeObject(m), status: 200, message: undefined });
  }
}

/** Every runtime value that is missing or changed, as one line each. */
async function runtimeValueProblems(s: Synth): Promise<string[]> {
  const out: string[] = [];
  for (const m of s.objects) {
    if (isWebhookConfiguration(m)) {
      const live = (await kube.get(m)).body;
      for (const h of live.webhooks) if (h.clientConfig.caBundle !== CA_BUNDLE) out.push(`${describeObject(m)} webhook ${h.name}: caBundle lost`);
    } else if (hasConversionWebhook(m)) {
      const live = (await kube.get(m)).body;
      if (live.spec.conversion?.webhook?.clientConfig?.caBundle !== CA_BUNDLE) out.push(`${describeObject(m)}: conversion caBundle lost`);
    } else if (isCertSecret(m)) {
      const live = (await kube.get(m)).body;
      if (JSON.stringify(live.data) !== JSON.stringify(CERT_DATA)) out.push(`${describeObject(m)}: data lost (${JSON.stringify(Object.keys(live.data ?? {}))})`);
    }
  }
  return out;
}

async function storedVersions(s: Synth): Promise<string[]> {
  const out: string[] = [];
  for (const m of s.objects) out.push(`${describeObject(m)} rv=${(await kube.get(m)).body.metadata.resourceVersion}`);
  return out;
}

function writeYaml(s: Synth): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tier-yaml-'));
  const file = path.join(dir, 'control-plane.yaml');
  fs.writeFileSync(file, Object.values(s.files).join('---\n'));
  return file;
}
