import { Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { build } from '../../examples/batch-jobs/main';

beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());

const docs = () => parseAllDocuments(build(Testing.app()).synthYaml()).map(d => d.toJSON());

test('the batch example runs a nightly BroadcastJob on every node and a one-off registry check', () => {
  const all = docs();
  expect(all.map(d => `${d.apiVersion} ${d.kind}`)).toEqual(['apps.kruise.io/v1beta1 AdvancedCronJob', 'apps.kruise.io/v1beta1 BroadcastJob']);
  const [acj, bj] = all;

  expect(acj.metadata.name).toBe('log-prune');
  const { template, ...schedule } = acj.spec;
  expect(schedule).toEqual({
    schedule: '0 3 * * *',
    timeZone: 'Europe/Berlin',
    concurrencyPolicy: 'Forbid',
    startingDeadlineSeconds: 1800,
    successfulJobsHistoryLimit: 3,
    failedJobsHistoryLimit: 3,
  });
  const nightly = template.broadcastJobTemplate.spec;
  expect(nightly.parallelism).toBe(10);
  expect(nightly.completionPolicy).toEqual({ type: 'Always', activeDeadlineSeconds: 3600, ttlSecondsAfterFinished: 21600 });
  expect(nightly.failurePolicy).toEqual({ type: 'Continue', restartLimit: 2 });
  const pod = nightly.template.spec;
  expect(pod.restartPolicy).toBe('Never');
  expect(pod.tolerations).toEqual([{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists' }]);
  expect(pod.volumes).toEqual([{ name: 'app-logs', hostPath: { path: '/var/log/app', type: 'DirectoryOrCreate' } }]);
  expect(pod.containers[0].volumeMounts).toEqual([{ name: 'app-logs', mountPath: '/host/var/log/app' }]);
  expect(pod.containers[0].securityContext.runAsUser).toBe(0);

  expect(bj.metadata.name).toBe('registry-check');
  expect(Object.keys(bj.spec).sort()).toEqual(['completionPolicy', 'failurePolicy', 'template']);
  expect(bj.spec.completionPolicy).toEqual({ type: 'Always', activeDeadlineSeconds: 600, ttlSecondsAfterFinished: 3600 });
  expect(bj.spec.failurePolicy).toEqual({ type: 'Continue' });
  expect(bj.spec.template.spec.restartPolicy).toBe('Never');
  expect(bj.spec.template.spec.containers[0].securityContext.runAsUser).toBe(100);
});

test('the batch example output is deterministic', () => {
  expect(build(Testing.app()).synthYaml()).toEqual(build(Testing.app()).synthYaml());
});
