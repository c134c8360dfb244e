import { ApiObject, Duration, Testing } from 'cdk8s';
import { parse } from 'yaml';
import {
  AdvancedDaemonSet, CloneSet, ContainerRecreateFailurePolicy, ContainerRecreateRequest, KruiseControlPlane, Warnings,
} from '../src';
import { synthFails as fails } from './util/synth-fails';

beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());
const synthCrr = (chart: any) => Testing.synth(chart).find((m: any) => m.kind === 'ContainerRecreateRequest');

describe('ContainerRecreateRequest', () => {
  test('renders the pod and its containers only, at apps.kruise.io/v1alpha1', () => {
    const chart = Testing.chart();
    new ContainerRecreateRequest(chart, 'restart', { podName: 'web-7xk2p', containers: ['web'] });
    const manifests = Testing.synth(chart);
    expect(manifests).toHaveLength(1);
    expect(manifests[0].apiVersion).toBe('apps.kruise.io/v1alpha1');
    expect(manifests[0].kind).toBe('ContainerRecreateRequest');
    expect(manifests[0].spec).toEqual({ podName: 'web-7xk2p', containers: [{ name: 'web' }] });
    expect(Warnings.of(chart)).toEqual([]);
  });

  test('renders every prop field by field', () => {
    const chart = Testing.chart();
    const crr = new ContainerRecreateRequest(chart, 'restart', {
      metadata: { name: 'restart-web-7xk2p', namespace: 'shop' },
      podName: 'web-7xk2p',
      containers: ['web', 'proxy'],
      strategy: {
        failurePolicy: ContainerRecreateFailurePolicy.IGNORE,
        orderedRecreate: true,
        forceRecreate: true,
        terminationGracePeriod: Duration.seconds(20),
        unreadyGracePeriod: Duration.seconds(10),
        minStarted: Duration.seconds(5),
      },
      activeDeadline: Duration.minutes(5),
    });
    const m = synthCrr(chart);
    expect(m.metadata).toEqual({ name: 'restart-web-7xk2p', namespace: 'shop' });
    expect(m.spec).toEqual({
      podName: 'web-7xk2p',
      containers: [{ name: 'web' }, { name: 'proxy' }],
      strategy: {
        failurePolicy: 'Ignore', orderedRecreate: true, forceRecreate: true, terminationGracePeriodSeconds: 20, unreadyGracePeriodSeconds: 10, minStartedSeconds: 5,
      },
      activeDeadlineSeconds: 300,
    });
    expect(crr.podName).toBe('web-7xk2p');
    expect(crr.containers).toEqual(['web', 'proxy']);
    expect(crr.strategy?.failurePolicy).toBe(ContainerRecreateFailurePolicy.IGNORE);
    expect(crr.resourceType).toBe('containerrecreaterequests');
    expect((crr.node.defaultChild as ApiObject).kind).toBe('ContainerRecreateRequest');
  });

  test('a time to live is written, with a warning: a GitOps sync would create the request again and restart again', () => {
    const chart = Testing.chart();
    new ContainerRecreateRequest(chart, 'restart', { podName: 'web-7xk2p', containers: ['web'], ttlAfterFinished: Duration.hours(1) });
    expect(synthCrr(chart).spec.ttlSecondsAfterFinished).toBe(3600);
    expect(Warnings.of(chart)).toEqual([
      '[test/restart] ContainerRecreateRequest "test-restart-c82a890f" (apps.kruise.io/v1alpha1) ttlAfterFinished: "3600 seconds" makes OpenKruise delete the finished request, '
      + 'and a GitOps tool that syncs this manifest then creates it again, which restarts the containers again; leave ttlAfterFinished unset and remove the request from the source once it finished',
    ]);
  });

  test('fails when the control plane of the app has KruiseDaemon off', () => {
    fails(chart => {
      new KruiseControlPlane(chart, 'kruise', { featureGates: { KruiseDaemon: false } });
      new ContainerRecreateRequest(chart, 'restart', { podName: 'web-7xk2p', containers: ['web'] });
    }, "[test/restart] ContainerRecreateRequest \"test-restart-c82a890f\" (apps.kruise.io/v1alpha1) kind: \"ContainerRecreateRequest\" needs the OpenKruise feature gate KruiseDaemon, which is off in the control plane at 'test/kruise' "
      + "(the webhook refuses every ContainerRecreateRequest then); set featureGates: { KruiseDaemon: true } on the KruiseControlPlane at 'test/kruise'");
  });

  // Section 12 of the v1.9.0 webhook rules, through the construct. Rules 2-4 are update-only and
  // 11-13, 16 need the live pod and node. Rules 8 and 9 (negative grace periods) cannot be written
  // (cdk8s refuses a negative Duration), nor rules 10 (the failure policy is an enum) and 15
  // (preStop, ports and status are not props).
  describe('admission rules, through the construct', () => {
    test('rule 5: a pod name (and one that can name a pod)', () => {
      fails(chart => new ContainerRecreateRequest(chart, 'restart', { podName: '', containers: ['web'] }),
        '[test/restart] ContainerRecreateRequest "test-restart-c82a890f" (apps.kruise.io/v1alpha1) spec.podName: "" is required; name the pod whose containers to recreate (in the same namespace)');
      fails(chart => new ContainerRecreateRequest(chart, 'restart', { podName: 'Web_7xk2p', containers: ['web'] }),
        '[test/restart] ContainerRecreateRequest "test-restart-c82a890f" (apps.kruise.io/v1alpha1) spec.podName: "Web_7xk2p" must consist of lowercase letters');
    });

    test('rule 6: at least one container', () => {
      fails(chart => new ContainerRecreateRequest(chart, 'restart', { podName: 'web-7xk2p', containers: [] }),
        '[test/restart] ContainerRecreateRequest "test-restart-c82a890f" (apps.kruise.io/v1alpha1) spec.containers: [] is empty; list the containers to recreate by name');
    });

    test('rule 7: a deadline of at least 3 seconds', () => {
      fails(chart => new ContainerRecreateRequest(chart, 'restart', { podName: 'web-7xk2p', containers: ['web'], activeDeadline: Duration.seconds(2) }),
        '[test/restart] ContainerRecreateRequest "test-restart-c82a890f" (apps.kruise.io/v1alpha1) spec.activeDeadlineSeconds: 2 is less than 3; give the recreation at least 3 seconds, or remove the deadline');
    });

    test('rule 14: each container once', () => {
      fails(chart => new ContainerRecreateRequest(chart, 'restart', { podName: 'web-7xk2p', containers: ['web', 'web'] }),
        '[test/restart] ContainerRecreateRequest "test-restart-c82a890f" (apps.kruise.io/v1alpha1) spec.containers[1].name: "web" is also listed as containers[0]; list every container once');
    });
  });

  test('fails a grace period that is not whole seconds, naming the construct and the prop', () => {
    fails(chart => new ContainerRecreateRequest(chart, 'restart', { podName: 'web-7xk2p', containers: ['web'], strategy: { unreadyGracePeriod: Duration.millis(1500) } }),
      '[test/restart] ContainerRecreateRequest "test-restart-c82a890f" (apps.kruise.io/v1alpha1) strategy.unreadyGracePeriod: "1.5 seconds" is not a whole number of seconds; use Duration.seconds(2)');
  });
});

describe('recreateContainers() and recreateContainersCommand() on a workload', () => {
  const workload = (chart: any) => new CloneSet(chart, 'web', {
    metadata: { namespace: 'shop' },
    initContainers: [{ name: 'migrate', image: 'web:1' }],
    containers: [{ name: 'web', image: 'web:1' }, { name: 'proxy', image: 'envoy:1' }],
  });

  test('a request in the workload\'s namespace for every container of the workload, by default', () => {
    const chart = Testing.chart();
    const crr = workload(chart).recreateContainers('web-7xk2p', { strategy: { orderedRecreate: true } });
    expect(crr.node.path).toBe('test/web/Recreate-web-7xk2p');
    const m = synthCrr(chart);
    expect(m.metadata.namespace).toBe('shop');
    expect(m.spec).toEqual({ podName: 'web-7xk2p', containers: [{ name: 'web' }, { name: 'proxy' }], strategy: { orderedRecreate: true } });
  });

  test('the container names are checked against the workload at synth: not init containers, not unknown ones', () => {
    fails(chart => workload(chart).recreateContainers('web-7xk2p', { containers: ['migrate', 'sidecar'] }),
      '[test/web/Recreate-web-7xk2p] ContainerRecreateRequest "test-web-recreate-web-7xk2p-c83ccda0" (apps.kruise.io/v1alpha1) spec.containers[0].name: "migrate" is an init container of the pods of \'test/web\', '
      + 'which OpenKruise cannot restart (it looks the container up among the pod\'s running containers); name one of ["web","proxy"]',
      '[test/web/Recreate-web-7xk2p] ContainerRecreateRequest "test-web-recreate-web-7xk2p-c83ccda0" (apps.kruise.io/v1alpha1) spec.containers[1].name: "sidecar" is no container of the pods of \'test/web\'; '
      + 'name one of ["web","proxy"]');
  });

  test('a container added after the request counts', () => {
    const chart = Testing.chart();
    const agent = new AdvancedDaemonSet(chart, 'agent', { containers: [{ name: 'agent', image: 'agent:1' }] });
    agent.recreateContainers('agent-x2c9d', { containers: ['agent', 'exporter'] });
    agent.addContainer({ name: 'exporter', image: 'exporter:1' });
    expect(synthCrr(chart).spec.containers).toEqual([{ name: 'agent' }, { name: 'exporter' }]);
  });

  test('the kubectl command creates the request with a generated name, so it can run again', () => {
    const chart = Testing.chart();
    const cmd = workload(chart).recreateContainersCommand('web-7xk2p', {
      containers: ['web'], strategy: { unreadyGracePeriod: Duration.seconds(10), failurePolicy: ContainerRecreateFailurePolicy.IGNORE },
    });
    const lines = cmd.split('\n');
    expect(lines[0]).toBe("kubectl create -f - <<'EOF'");
    expect(lines[lines.length - 1]).toBe('EOF');
    expect(parse(lines.slice(1, -1).join('\n'))).toEqual({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'ContainerRecreateRequest',
      metadata: { generateName: 'web-7xk2p-', namespace: 'shop' },
      spec: { podName: 'web-7xk2p', containers: [{ name: 'web' }], strategy: { failurePolicy: 'Ignore', unreadyGracePeriodSeconds: 10 } },
    });
    // nothing is added to the app
    expect(Testing.synth(chart).map((m: any) => m.kind)).toEqual(['CloneSet']);
  });

  test('the command refuses containers the workload does not have, and a workload without containers', () => {
    const chart = Testing.chart();
    expect(() => workload(chart).recreateContainersCommand('web-7xk2p', { containers: ['db'] })).toThrow(
      'recreateContainersCommand() at \'test/web\': "db" is no container of the pods of \'test/web\'; name one of ["web","proxy"]');
    expect(() => new CloneSet(chart, 'empty').recreateContainersCommand('x')).toThrow(
      "recreateContainersCommand() at 'test/empty': no container to restart: the workload has none yet; add its containers first, or name them");
  });

  test('the command names the construct when a Duration is not whole seconds', () => {
    const chart = Testing.chart();
    expect(() => workload(chart).recreateContainersCommand('web-7xk2p', { activeDeadline: Duration.millis(3500) })).toThrow(
      "recreateContainersCommand() at 'test/web': 'activeDeadline' (3.5 seconds) is not a whole number of seconds; use Duration.seconds(4)");
  });
});
