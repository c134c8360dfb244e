import { planGates } from '../../src/plan/gates';
import { analyzeTemplate, inPlaceOnlyViolation, qosClass, storedTemplate } from '../../src/plan/template';

const gates = (g: Record<string, boolean> = {}) => planGates(g, 'featureGates');
const tpl = (containers: any[], metadata: any = { labels: { app: 'a' } }, extra: any = {}) => ({ metadata, spec: { containers, ...extra } });
const run = (a: any, b: any, g: Record<string, boolean> = {}) => analyzeTemplate(storedTemplate(a, true), storedTemplate(b, true), gates(g), 'spec.template');

describe('in place: container image', () => {
  test('a replaced image of a regular container is in place and named', () => {
    const r = run(tpl([{ name: 'app', image: 'busybox:1.36' }]), tpl([{ name: 'app', image: 'busybox:1.37' }]));
    expect(r.blocking).toBeUndefined();
    expect(r.images).toEqual([{ container: 'app', oldImage: 'busybox:1.36', newImage: 'busybox:1.37' }]);
  });
  test('an init container image is not in place', () => {
    const r = run(tpl([{ name: 'app', image: 'p' }], undefined, { initContainers: [{ name: 'init', image: 'busybox:1.36' }] }),
      tpl([{ name: 'app', image: 'p' }], undefined, { initContainers: [{ name: 'init', image: 'busybox:1.37' }] }));
    expect(r.blocking?.field).toBe('spec.template.spec.initContainers[0].image');
    expect(r.images).toEqual([]);
  });
});

describe('template defaults are not changes', () => {
  test('explicit imagePullPolicy Always, terminationMessage*, port protocol and probe defaults compare equal', () => {
    const a = tpl([{ name: 'app', image: 'p:1', ports: [{ containerPort: 80 }], readinessProbe: { httpGet: { port: 80 } } }]);
    const b = tpl([{
      name: 'app',
      image: 'p:1',
      imagePullPolicy: 'Always',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      ports: [{ containerPort: 80, protocol: 'TCP' }],
      readinessProbe: { httpGet: { port: 80, path: '/', scheme: 'HTTP' }, periodSeconds: 10, timeoutSeconds: 1 },
    }], undefined, { dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', schedulerName: 'default-scheduler', terminationGracePeriodSeconds: 30 });
    expect(run(a, b).ops).toEqual([]);
  });
  test('a non-default imagePullPolicy is a change that forces recreate', () => {
    const r = run(tpl([{ name: 'app', image: 'p:1' }]), tpl([{ name: 'app', image: 'p:1', imagePullPolicy: 'IfNotPresent' }]));
    expect(r.blocking?.field).toBe('spec.template.spec.containers[0].imagePullPolicy');
    expect(r.blocking?.why).toContain('"Always" -> "IfNotPresent"');
  });
  test('without defaults (Advanced DaemonSet, TemplateNoDefaults) an explicit default is an added field', () => {
    const r = analyzeTemplate(storedTemplate(tpl([{ name: 'app', image: 'p:1' }]), false),
      storedTemplate(tpl([{ name: 'app', image: 'p:1', imagePullPolicy: 'Always' }]), false), gates(), 'spec.template');
    expect(r.blocking?.field).toBe('spec.template.spec.containers[0].imagePullPolicy');
  });
  test('quantities compare by value, and the null creationTimestamp of live templates is dropped', () => {
    const a = { metadata: { labels: { app: 'a' }, creationTimestamp: null }, spec: { containers: [{ name: 'app', image: 'p', resources: { limits: { cpu: '1', memory: '1Gi' } } }] } };
    const b = tpl([{ name: 'app', image: 'p', resources: { limits: { cpu: '1000m', memory: '1024Mi' } } }]);
    expect(run(a, b).ops).toEqual([]);
  });
  test('empty lists and maps are what Go omits: env: [] equals no env', () => {
    expect(run(tpl([{ name: 'app', image: 'p', env: [] }]), tpl([{ name: 'app', image: 'p' }])).ops).toEqual([]);
  });
});

describe('in place: metadata and env from metadata', () => {
  const env = [{ name: 'V', valueFrom: { fieldRef: { fieldPath: "metadata.annotations['rev']" } } }];
  test('a changed annotation read by a container restarts that container only', () => {
    const a = tpl([{ name: 'app', image: 'p', env }, { name: 'other', image: 'p' }], { labels: { app: 'a' }, annotations: { rev: '1' } });
    const b = tpl([{ name: 'app', image: 'p', env }, { name: 'other', image: 'p' }], { labels: { app: 'a' }, annotations: { rev: '2' } });
    const r = run(a, b);
    expect(r.blocking).toBeUndefined();
    expect(r.metadataChanged).toBe(true);
    expect(r.envRestarts).toEqual(['app']);
  });
  test('with InPlaceUpdateEnvFromMetadata off the container keeps the old value, and the plan says so', () => {
    const a = tpl([{ name: 'app', image: 'p', env }], { labels: { app: 'a' }, annotations: { rev: '1' } });
    const b = tpl([{ name: 'app', image: 'p', env }], { labels: { app: 'a' }, annotations: { rev: '2' } });
    const r = run(a, b, { InPlaceUpdateEnvFromMetadata: false });
    expect(r.envRestarts).toEqual([]);
    expect(r.envNotRefreshed).toEqual([expect.stringContaining('InPlaceUpdateEnvFromMetadata gate is off')]);
  });
  test('KruiseDaemon off turns InPlaceUpdateEnvFromMetadata off (kruise-manager start-up rule)', () => {
    expect(gates({ KruiseDaemon: false }).isEnabled('InPlaceUpdateEnvFromMetadata')).toBe(false);
  });
  test('a whole new annotations map is applied without restarting readers', () => {
    const a = tpl([{ name: 'app', image: 'p', env }]);
    const b = tpl([{ name: 'app', image: 'p', env }], { labels: { app: 'a' }, annotations: { rev: '2' } });
    const r = run(a, b);
    expect(r.envRestarts).toEqual([]);
    expect(r.envNotRefreshed[0]).toContain('had no annotations before');
  });
  test('an env var with a literal value does not count as reading metadata', () => {
    const lit = [{ name: 'V', value: 'x', valueFrom: { fieldRef: { fieldPath: "metadata.labels['v']" } } }];
    const r = run(tpl([{ name: 'app', image: 'p', env: lit }], { labels: { app: 'a', v: '1' } }), tpl([{ name: 'app', image: 'p', env: lit }], { labels: { app: 'a', v: '2' } }));
    expect(r.envRestarts).toEqual([]);
  });
});

describe('in place: cpu/memory (InPlaceWorkloadVerticalScaling)', () => {
  const res = (cpu: string) => tpl([{ name: 'app', image: 'p', resources: { requests: { cpu, memory: '32Mi' }, limits: { cpu: '1', memory: '64Mi' } } }]);
  test('gate off: recreate, and the reason names the gate', () => {
    const r = run(res('100m'), res('200m'));
    expect(r.blocking?.field).toBe('spec.template.spec.containers[0].resources.requests.cpu');
    expect(r.blocking?.why).toContain('InPlaceWorkloadVerticalScaling');
  });
  test('gate on: resized in place', () => {
    const r = run(res('100m'), res('200m'), { InPlaceWorkloadVerticalScaling: true });
    expect(r.blocking).toBeUndefined();
    expect(r.resized).toEqual(['app']);
  });
  test('gate on: a resource other than cpu/memory is not in place', () => {
    const e = (n: string) => tpl([{ name: 'app', image: 'p', resources: { limits: { 'ephemeral-storage': n } } }]);
    expect(run(e('1Gi'), e('2Gi'), { InPlaceWorkloadVerticalScaling: true }).blocking?.why).toContain('only cpu and memory');
  });
  test('QoS classes', () => {
    expect(qosClass({ containers: [{ name: 'a' }] })).toBe('BestEffort');
    expect(qosClass({ containers: [{ resources: { limits: { cpu: '1', memory: '1Gi' } } }] })).toBe('Guaranteed');
    expect(qosClass({ containers: [{ resources: { requests: { cpu: '1' } } }] })).toBe('Burstable');
  });
});

describe('InPlaceOnly webhook paths', () => {
  const ops = (p: any[]) => [{ op: 'replace' as const, path: p, from: 'a', value: 'b' }];
  test('CloneSet: only /containers/<n>/image exactly', () => {
    expect(inPlaceOnlyViolation(ops(['spec', 'containers', 0, 'image']), 'exact')).toBeUndefined();
    expect(inPlaceOnlyViolation(ops(['spec', 'containers', 0, 'imagePullPolicy']), 'exact')).toBeDefined();
    expect(inPlaceOnlyViolation(ops(['metadata', 'labels', 'x']), 'exact')).toBeUndefined();
  });
  test('Advanced StatefulSet: anywhere in the path, so imagePullPolicy slips through', () => {
    expect(inPlaceOnlyViolation(ops(['spec', 'containers', 0, 'imagePullPolicy']), 'substring')).toBeUndefined();
    expect(inPlaceOnlyViolation(ops(['spec', 'containers', 0, 'command', 0]), 'substring')).toBeDefined();
  });
});
