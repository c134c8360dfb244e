import { Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { RESTARTS, build } from '../../examples/node-operations/main';

beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());

const docs = () => parseAllDocuments(build(Testing.app()).synthYaml()).map(d => d.toJSON());
const one = (all: any[], kind: string) => {
  const found = all.filter(d => d.kind === kind);
  expect(found).toHaveLength(1);
  return found[0];
};

test('the node-operations example writes each day-2 operation for the web CloneSet and the cache', () => {
  const all = docs();
  // the PersistentPodState before the StatefulSet it records the pods of
  expect(all.map(d => d.kind)).toEqual([
    'CloneSet', 'ImagePullJob', 'PodProbeMarker', 'ContainerRecreateRequest', 'ImageListPullJob', 'EphemeralJob', 'Service', 'PersistentPodState', 'StatefulSet',
  ]);
  const web = one(all, 'CloneSet');
  const webPods = web.spec.selector;

  const pull = one(all, 'ImagePullJob');
  expect(pull.spec).toEqual({
    image: 'nginxinc/nginx-unprivileged:1.27',
    podSelector: webPods,
    parallelism: 2,
    completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 3600 },
  });

  expect(one(all, 'ImageListPullJob').spec).toEqual({
    images: ['busybox:1.36', 'nicolaka/netshoot:v0.13'],
    selector: { matchLabels: { pool: 'web' } },
    parallelism: 5,
    completionPolicy: { type: 'Never' },
  });

  const marker = one(all, 'PodProbeMarker').spec;
  expect(marker.selector).toEqual(webPods);
  expect(marker.probes).toEqual([{
    name: 'cache-warm',
    containerName: 'web',
    probe: { httpGet: { path: '/cache/warm', port: 8080, scheme: 'HTTP' }, periodSeconds: 10, timeoutSeconds: 2, failureThreshold: 3 },
    podConditionType: 'example.com/cache-warm',
    markerPolicy: [
      { state: 'Succeeded', annotations: { 'controller.kubernetes.io/pod-deletion-cost': '100' } },
      { state: 'Failed', annotations: { 'controller.kubernetes.io/pod-deletion-cost': '-100' } },
    ],
  }]);

  expect(one(all, 'ContainerRecreateRequest').spec).toEqual({
    podName: RESTARTS[0].pod,
    containers: [{ name: 'web' }],
    strategy: { failurePolicy: 'Fail', unreadyGracePeriodSeconds: 10, minStartedSeconds: 10 },
    activeDeadlineSeconds: 300,
  });

  const debug = one(all, 'EphemeralJob').spec;
  expect(debug.selector).toEqual({ matchLabels: { app: 'web' } });
  expect(debug.replicas).toBe(1);
  expect(debug.template.ephemeralContainers).toEqual([{
    name: 'netshoot',
    image: 'nicolaka/netshoot:v0.13',
    targetContainerName: 'web',
    command: ['sleep', '3600'],
    imagePullPolicy: 'IfNotPresent',
    terminationMessagePolicy: 'File',
    stdin: true,
    tty: true,
  }]);

  const cache = one(all, 'StatefulSet');
  expect(one(all, 'PersistentPodState').spec).toEqual({
    targetRef: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: cache.metadata.name },
    requiredPersistentTopology: { nodeTopologyKeys: ['kubernetes.io/hostname'] },
  });
});

test('with no pending restart, no ContainerRecreateRequest is written', () => {
  const saved = RESTARTS.splice(0, RESTARTS.length);
  try {
    expect(docs().filter(d => d.kind === 'ContainerRecreateRequest')).toEqual([]);
  } finally {
    RESTARTS.push(...saved);
  }
});

test('the node-operations example output is deterministic', () => {
  expect(build(Testing.app()).synthYaml()).toEqual(build(Testing.app()).synthYaml());
});
