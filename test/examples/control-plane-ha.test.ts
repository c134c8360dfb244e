import { Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { build } from '../../examples/control-plane-ha/main';

const docs = () => parseAllDocuments(build(Testing.app()).synthYaml()).map(d => d.toJSON());

test('the HA example: mirror registry, host network, cert-manager, custom namespace', () => {
  const all = docs();
  expect(all.some(m => m.metadata?.namespace === 'kruise-system' || m.metadata?.name === 'kruise-system')).toBe(false);
  const ns = all.find(m => m.kind === 'Namespace' && m.metadata.name === 'openkruise');
  expect(ns.metadata.labels['control-plane']).toBe('openkruise');

  const d = all.find(m => m.kind === 'Deployment');
  expect(d.metadata.namespace).toBe('openkruise');
  expect(d.spec.replicas).toBe(3);
  const pod = d.spec.template.spec;
  expect(pod.hostNetwork).toBe(true);
  expect(pod.priorityClassName).toBe('system-cluster-critical');
  expect(pod.nodeSelector).toEqual({ 'node.kubernetes.io/pool': 'system' });
  const c = pod.containers[0];
  expect(c.image).toBe('openkruise-registry.cn-shanghai.cr.aliyuncs.com/openkruise/kruise-manager:v1.9.1');
  expect(c.imagePullPolicy).toBe('IfNotPresent');
  expect(c.args).toContain('--leader-election-namespace=openkruise');
  expect(c.args).toContain('--logging-format=json');
  expect(c.args).toContain('--feature-gates=DeletionProtectionForCRDCascadingGate=true,EnableExternalCerts=true,ImagePullJobGate=true,'
    + 'PodUnavailableBudgetUpdateGate=true,ResourceDistributionGate=true,ResourcesDeletionProtection=true');
  expect(c.resources).toEqual({ limits: { cpu: '500m', memory: '1Gi' }, requests: { cpu: '200m', memory: '512Mi' } });

  const ds = all.find(m => m.kind === 'DaemonSet');
  expect(ds.spec.template.spec.containers[0].image).toBe(c.image);
  expect(ds.spec.template.spec.containers[0].env.map((e: any) => e.name)).toEqual(['NODE_NAME', 'HTTPS_PROXY', 'NO_PROXY']);

  const mutating = all.find(m => m.kind === 'MutatingWebhookConfiguration');
  expect(mutating.metadata.annotations['cert-manager.io/inject-ca-from']).toBe('openkruise/kruise-webhook-cert');
  expect(mutating.webhooks.every((w: any) => w.timeoutSeconds === 10 && w.clientConfig.service.namespace === 'openkruise')).toBe(true);
  const sts = all.find(m => m.kind === 'CustomResourceDefinition' && m.metadata.name === 'statefulsets.apps.kruise.io');
  expect(sts.metadata.annotations).toEqual({ 'cert-manager.io/inject-ca-from': 'openkruise/kruise-webhook-cert' });
  expect(sts.spec.conversion.webhook.clientConfig.service.namespace).toBe('openkruise');
  const cert = all.find(m => m.kind === 'Certificate');
  expect(cert.spec.dnsNames).toEqual(['kruise-webhook-service.openkruise.svc', 'kruise-webhook-service.openkruise.svc.cluster.local']);
  expect(cert.spec.secretName).toBe('kruise-webhook-certs');
  expect(all.find(m => m.kind === 'Issuer').spec).toEqual({ selfSigned: {} });
  expect(all.filter(m => m.kind === 'Secret')).toEqual([]);
});

test('the HA example output is deterministic', () => {
  expect(build(Testing.app()).synthYaml()).toEqual(build(Testing.app()).synthYaml());
});
