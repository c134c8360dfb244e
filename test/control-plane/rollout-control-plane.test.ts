import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  CloneSet, KruiseControlPlane, KruiseRolloutControlPlane, KruiseRolloutControlPlaneProps, KruiseRolloutFeatureGate,
  Rollout, RolloutStrategy, RolloutTrafficRouting,
} from '../../src';

beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());

function synth(props?: KruiseRolloutControlPlaneProps): any[] {
  const chart = new Chart(Testing.app(), 'rollout');
  new KruiseRolloutControlPlane(chart, 'rollout', props);
  return Testing.synth(chart);
}
const find = (all: any[], kind: string, name?: string) => all.filter(m => m.kind === kind && (name === undefined || m.metadata.name === name));
const one = (all: any[], kind: string, name?: string) => {
  const hits = find(all, kind, name);
  if (hits.length !== 1) throw new Error(`${hits.length} ${kind} ${name ?? ''}`);
  return hits[0];
};
const container = (all: any[]) => one(all, 'Deployment').spec.template.spec.containers[0];
const pct = kplus.PercentOrAbsolute.percent;
const abs = kplus.PercentOrAbsolute.absolute;

function synthError(build: (app: App) => void): string {
  const app = Testing.app();
  build(app);
  try {
    for (const c of app.charts) Testing.synth(c);
    app.synth();
    return '';
  } catch (e: any) {
    return String(e.message);
  }
}

describe('KruiseRolloutControlPlane', () => {
  test('nothing the manager writes at runtime: no caBundle, no certificate Secret, webhooks and template annotation equal', () => {
    const all = synth();
    expect(JSON.stringify(all)).not.toContain('caBundle');
    expect(find(all, 'Secret')).toEqual([]);
    for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
      const c = one(all, kind);
      expect(JSON.parse(c.metadata.annotations.template)).toEqual(c.webhooks);
    }
    expect(one(all, 'MutatingWebhookConfiguration').webhooks.map((w: any) => w.name)).toEqual(['munifiedworload.kb.io', 'mdeployment.kb.io', 'mcloneset.kb.io', 'mdaemonset.kb.io']);
    expect(one(all, 'ValidatingWebhookConfiguration').webhooks[0]).toEqual({
      admissionReviewVersions: ['v1', 'v1beta1'],
      clientConfig: { service: { name: 'kruise-rollout-webhook-service', namespace: 'kruise-rollout', path: '/validate-rollouts-kruise-io-rollout', port: 443 } },
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      name: 'vrollout.kb.io',
      namespaceSelector: {},
      objectSelector: {},
      rules: [{ apiGroups: ['rollouts.kruise.io'], apiVersions: ['v1alpha1', 'v1beta1'], operations: ['CREATE', 'UPDATE'], resources: ['rollouts'], scope: '*' }],
      sideEffects: 'None',
      timeoutSeconds: 10,
    });
    expect(one(all, 'CustomResourceDefinition', 'rollouts.rollouts.kruise.io').spec.conversion).toEqual({
      strategy: 'Webhook',
      webhook: { clientConfig: { service: { name: 'kruise-rollout-webhook-service', namespace: 'kruise-rollout', path: '/convert', port: 443 } }, conversionReviewVersions: ['v1', 'v1beta1'] },
    });
    expect(one(all, 'CustomResourceDefinition', 'trafficroutings.rollouts.kruise.io').spec.conversion).toBeUndefined();
  });

  test('every option reaches its fields, and the namespace and manager name reach every reference', () => {
    const all = synth({
      namespace: 'progressive',
      managerName: 'rollouts',
      replicas: 3,
      imageRepository: 'registry.example.com/kruise-rollout',
      imageTag: 'v0.6.2-patched',
      imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
      imagePullSecrets: ['regcred'],
      serviceAccountAnnotations: { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::1:role/rollouts' },
      featureGates: { [KruiseRolloutFeatureGate.ROLLOUT_HISTORY]: true, [KruiseRolloutFeatureGate.ADVANCED_DEPLOYMENT]: false },
      logLevel: 2,
      webhookPort: 9443,
      healthPort: 9440,
      metricsBindAddress: ':9090',
      webhookObjectSelector: [kplus.LabelExpression.notIn('team', ['legacy'])],
      partitionPercentLimit: 80,
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'control', effect: 'NoSchedule' }],
      nodeSelector: { 'node-role.kubernetes.io/control-plane': '' },
      priorityClassName: 'system-cluster-critical',
      podDisruptionBudget: false,
      extraRules: [{ apiGroups: ['apisix.apache.org'], resources: ['apisixroutes'], verbs: ['get', 'list', 'watch', 'patch', 'update'] }],
    });
    const d = one(all, 'Deployment');
    expect(d.metadata).toEqual({ name: 'rollouts', namespace: 'progressive', labels: { 'control-plane': 'rollouts' } });
    expect(d.spec.replicas).toBe(3);
    expect(d.spec.template.spec.serviceAccountName).toBe('rollouts');
    expect(d.spec.template.spec.imagePullSecrets).toEqual([{ name: 'regcred' }]);
    expect(d.spec.template.spec.tolerations).toEqual([{ key: 'dedicated', operator: 'Equal', value: 'control', effect: 'NoSchedule' }]);
    expect(d.spec.template.spec.nodeSelector).toEqual({ 'node-role.kubernetes.io/control-plane': '' });
    expect(d.spec.template.spec.priorityClassName).toBe('system-cluster-critical');
    const c = container(all);
    expect(c.image).toBe('registry.example.com/kruise-rollout:v0.6.2-patched');
    expect(c.imagePullPolicy).toBe('IfNotPresent');
    expect(c.args).toEqual(['--leader-elect', '--health-probe-bind-address=:9440', '--metrics-bind-address=:9090', '--v=2', '--feature-gates=AdvancedDeployment=false,RolloutHistory=true', '--partition-percent-limit=80']);
    expect(c.env).toEqual([{ name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }, { name: 'WEBHOOK_PORT', value: '9443' }]);
    expect(c.ports).toEqual([{ containerPort: 9443, name: 'webhook-server', protocol: 'TCP' }]);
    expect(c.livenessProbe.httpGet.port).toBe(9440);
    expect(one(all, 'Service').spec).toEqual({ ports: [{ port: 443, targetPort: 9443 }], selector: { 'control-plane': 'rollouts' } });
    expect(one(all, 'ServiceAccount').metadata).toEqual({ name: 'rollouts', namespace: 'progressive', annotations: { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::1:role/rollouts' } });
    for (const b of [...find(all, 'RoleBinding'), ...find(all, 'ClusterRoleBinding')]) expect(b.subjects).toEqual([{ kind: 'ServiceAccount', name: 'rollouts', namespace: 'progressive' }]);
    expect(one(all, 'ClusterRole').rules.at(-1)).toEqual({ apiGroups: ['apisix.apache.org'], resources: ['apisixroutes'], verbs: ['get', 'list', 'watch', 'patch', 'update'] });
    expect(one(all, 'Namespace').metadata).toEqual({ name: 'progressive', labels: { 'control-plane': 'rollouts' } });
    expect(find(all, 'PodDisruptionBudget')).toEqual([]);
    const m = one(all, 'MutatingWebhookConfiguration');
    for (const w of m.webhooks) expect(w.clientConfig.service.namespace).toBe('progressive');
    expect(m.webhooks[1].objectSelector.matchExpressions).toEqual([
      { key: 'control-plane', operator: 'NotIn', values: ['rollouts'] },
      { key: 'rollouts.kruise.io/workload-type', operator: 'Exists' },
      { key: 'team', operator: 'NotIn', values: ['legacy'] },
    ]);
    expect(JSON.parse(m.metadata.annotations.template)[1].objectSelector).toEqual(m.webhooks[1].objectSelector);
    for (const name of ['rollouts.rollouts.kruise.io', 'batchreleases.rollouts.kruise.io']) {
      expect(one(all, 'CustomResourceDefinition', name).spec.conversion.webhook.clientConfig.service.namespace).toBe('progressive');
    }
  });

  test('no namespace and no CRDs when asked; the feature gates flag is left out when every gate is at its default... never, since the chart sets one', () => {
    const all = synth({ createNamespace: false, installCrds: false });
    expect(find(all, 'Namespace')).toEqual([]);
    expect(find(all, 'CustomResourceDefinition')).toEqual([]);
    expect(container(all).args).toContain('--feature-gates=AdvancedDeployment=true');
  });

  test('fails on values the manager would refuse or that cannot work, naming the prop', () => {
    const error = synthError(app => new KruiseRolloutControlPlane(new Chart(app, 'r'), 'rollout', {
      namespace: 'Kruise_Rollout',
      featureGates: { Canary: true },
      webhookPort: 8081,
      partitionPercentLimit: 0,
      metricsBindAddress: 'localhost',
      replicas: 1.5,
    }));
    expect(error).toBe([
      'Validation failed with the following errors:',
      '  [r/rollout] KruiseRolloutControlPlane namespace: "Kruise_Rollout" must consist of lowercase letters, digits and \'-\', starting and ending with a letter or digit; use a DNS-1123 label such as "kruise-rollout"',
      '  [r/rollout] KruiseRolloutControlPlane featureGates.Canary: true is not a feature gate of kruise-rollout-manager v0.6.2, which refuses to start with it; use one of AdvancedDeployment, RolloutHistory, AppendPodSelector',
      '  [r/rollout] KruiseRolloutControlPlane replicas: 1.5 must be an integer from 0 to 1000; use 2 or more replicas: every webhook has failure policy Fail',
      '  [r/rollout] KruiseRolloutControlPlane partitionPercentLimit: 0 must be an integer from 1 to 100; use a percentage such as 50',
      '  [r/rollout] KruiseRolloutControlPlane metricsBindAddress: "localhost" is not [host]:port; use e.g. "127.0.0.1:8080" or ":8080"',
      '  [r/rollout] KruiseRolloutControlPlane webhookPort/healthPort/metricsBindAddress: [8081,8081] must be different ports; give each endpoint its own port',
    ].join('\n'));
  });
});

/** A CloneSet with a Rollout in chart 'app'. */
function cloneSetRollout(app: App, steps = [{ replicas: abs(1), traffic: 10 }, { replicas: pct(100) }]): Chart {
  const chart = new Chart(app, 'app');
  const web = new CloneSet(chart, 'web', { metadata: { name: 'web' }, replicas: 4, containers: [{ image: 'nginx:1.27', portNumber: 80 }] });
  web.exposeViaService({ name: 'web' });
  web.rollout({ strategy: RolloutStrategy.canary({ steps, trafficRouting: RolloutTrafficRouting.ingress({ ingressName: 'web' }) }) });
  return chart;
}

describe('KruiseRolloutControlPlane and the Rollouts of its app', () => {
  test('a Rollout of an OpenKruise workload needs OpenKruise installed first', () => {
    expect(synthError(app => {
      cloneSetRollout(app);
      new KruiseRolloutControlPlane(new Chart(app, 'rollout'), 'rollout');
    })).toContain('[rollout/rollout] KruiseRolloutControlPlane openKruiseInstalledSeparately: (unset) is not set and the app has no KruiseControlPlane, but the Rollout at \'app/web/Rollout\' releases CloneSet "web" (apps.kruise.io/v1alpha1), '
      + 'an OpenKruise workload: kruise-rollout-manager only watches the OpenKruise kinds whose CRDs exist when it starts; add a KruiseControlPlane to the app (its chart is then applied first), '
      + 'or set openKruiseInstalledSeparately: true when OpenKruise is installed before Kruise Rollouts by other means');
    expect(synthError(app => {
      cloneSetRollout(app);
      new KruiseRolloutControlPlane(new Chart(app, 'rollout'), 'rollout', { openKruiseInstalledSeparately: true });
    })).toBe('');
    expect(synthError(app => {
      cloneSetRollout(app);
      new KruiseRolloutControlPlane(new Chart(app, 'rollout'), 'rollout');
      new KruiseControlPlane(new Chart(app, 'kruise'), 'kruise');
    })).toBe('');
    expect(synthError(app => {
      const chart = new Chart(app, 'app');
      const d = new kplus.Deployment(chart, 'api', { containers: [{ image: 'nginx:1.27' }] });
      Rollout.of(d, { strategy: RolloutStrategy.canary({ steps: [{ replicas: pct(50) }] }) });
      new KruiseRolloutControlPlane(new Chart(app, 'rollout'), 'rollout');
    })).toBe('');
  });

  test('the partition limit of the app\'s manager is the one the Rollouts are checked against', () => {
    const steps = [{ replicas: pct(70), traffic: 70 }];
    expect(synthError(app => cloneSetRollout(app, steps))).toContain('spec.strategy.canary.steps[0].replicas: "70%" is more than the 50% of the replicas');
    expect(synthError(app => {
      cloneSetRollout(app, steps);
      new KruiseRolloutControlPlane(new Chart(app, 'rollout'), 'rollout', { partitionPercentLimit: 80, openKruiseInstalledSeparately: true });
    })).toBe('');
    expect(synthError(app => {
      cloneSetRollout(app, steps);
      new KruiseRolloutControlPlane(new Chart(app, 'rollout'), 'rollout', { partitionPercentLimit: 60, openKruiseInstalledSeparately: true });
    })).toContain('[app/web/Rollout] Rollout "web" (rollouts.kruise.io/v1beta1) spec.strategy.canary.steps[0].replicas: "70%" is more than the 60% of the replicas a step that routes traffic may update in place');
  });

  test('a Deployment released in place needs the AdvancedDeployment gate the chart turns on', () => {
    const build = (gates: Record<string, boolean>) => (app: App) => {
      const d = new kplus.Deployment(new Chart(app, 'app'), 'api', { metadata: { name: 'api' }, containers: [{ image: 'nginx:1.27' }] });
      Rollout.of(d, { strategy: RolloutStrategy.canary({ steps: [{ replicas: pct(50) }] }) });
      new KruiseRolloutControlPlane(new Chart(app, 'rollout'), 'rollout', { featureGates: gates });
    };
    expect(synthError(build({}))).toBe('');
    expect(synthError(build({ AdvancedDeployment: false }))).toContain(
      '[app/api/Rollout] Rollout "api" (rollouts.kruise.io/v1beta1) spec.workloadRef: {"apiVersion":"apps/v1","kind":"Deployment","name":"api"} is a Deployment released in batches in place, which needs the Kruise Rollouts feature gate AdvancedDeployment, '
      + 'off in the control plane at \'rollout/rollout\' (the release would never progress); set featureGates: { AdvancedDeployment: true } on the KruiseRolloutControlPlane at \'rollout/rollout\', '
      + 'or release the Deployment with an extra canary Deployment (enableExtraWorkloadForCanary)');
  });

  test('deploy order: OpenKruise, then Kruise Rollouts, then the app; CRDs and the namespace first inside each', () => {
    const app = new App({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'rollout-order-')) });
    cloneSetRollout(app);
    new KruiseRolloutControlPlane(new Chart(app, 'b-rollout'), 'rollout', { argoCdSyncWaves: true });
    new KruiseControlPlane(new Chart(app, 'c-kruise'), 'kruise');
    app.synth();
    expect(fs.readdirSync(app.outdir).sort()).toEqual(['0000-c-kruise.k8s.yaml', '0001-b-rollout.k8s.yaml', '0002-app.k8s.yaml']);
    const text = fs.readFileSync(path.join(app.outdir, '0001-b-rollout.k8s.yaml'), 'utf-8');
    const kinds = text.split(/^---$/m).map(d => /^kind: (\S+)$/m.exec(d)?.[1]).filter(k => k);
    expect(kinds.slice(0, 5)).toEqual(['Namespace', 'CustomResourceDefinition', 'CustomResourceDefinition', 'CustomResourceDefinition', 'CustomResourceDefinition']);
    const all = Testing.synth(app.charts.find(c => c.node.id === 'b-rollout')!);
    for (const m of all) {
      expect(m.metadata.annotations?.['argocd.argoproj.io/sync-wave']).toBe(['Namespace', 'CustomResourceDefinition'].includes(m.kind) ? '-3' : '-2');
    }
  });
});
