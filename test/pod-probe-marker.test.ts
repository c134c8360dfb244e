import { ApiObject, Duration, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { AdvancedStatefulSet, CloneSet, KruiseControlPlane, PodProbeMarker, PodProbeMarkerProbe, Warnings } from '../src';
import { synthFails as fails } from './util/synth-fails';
import { _registerGateSource } from '../src/validation/gates';

const db = kplus.LabelSelector.of({ labels: { app: 'db' } });
const primary: PodProbeMarkerProbe = {
  name: 'primary',
  containerName: 'db',
  probe: kplus.Probe.fromCommand(['/check-primary.sh'], { periodSeconds: Duration.seconds(10) }),
  whenSucceeded: { labels: { role: 'primary' } },
};

beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());
const synthPpm = (chart: any) => Testing.synth(chart).find((m: any) => m.kind === 'PodProbeMarker');

describe('PodProbeMarker', () => {
  test('renders the selector and the probes, at apps.kruise.io/v1alpha1', () => {
    const chart = Testing.chart();
    new PodProbeMarker(chart, 'probe', { selector: db, probes: [primary] });
    const manifests = Testing.synth(chart);
    expect(manifests).toHaveLength(1);
    const m = manifests[0];
    expect(m.apiVersion).toBe('apps.kruise.io/v1alpha1');
    expect(m.kind).toBe('PodProbeMarker');
    expect(m.spec).toEqual({
      selector: { matchLabels: { app: 'db' } },
      probes: [{
        name: 'primary',
        containerName: 'db',
        // failureThreshold 3 is what a cdk8s-plus probe writes
        probe: { exec: { command: ['/check-primary.sh'] }, periodSeconds: 10, failureThreshold: 3 },
        markerPolicy: [{ state: 'Succeeded', labels: { role: 'primary' } }],
      }],
    });
    expect(Warnings.of(chart)).toEqual([]);
  });

  test('renders every prop and probe kind field by field', () => {
    const chart = Testing.chart();
    const ppm = new PodProbeMarker(chart, 'probe', {
      metadata: { name: 'db-role', namespace: 'data' },
      selector: db,
      probes: [
        {
          name: 'primary',
          containerName: 'db',
          probe: kplus.Probe.fromCommand(['/check-primary.sh'], {
            initialDelaySeconds: Duration.seconds(5),
            periodSeconds: Duration.seconds(10),
            timeoutSeconds: Duration.seconds(2),
            successThreshold: 1,
            failureThreshold: 2,
          }),
          podConditionType: 'example.com/primary',
          whenSucceeded: { labels: { role: 'primary' }, annotations: { 'controller.kubernetes.io/pod-deletion-cost': '100' } },
          whenFailed: { labels: { role: 'replica' } },
        },
        {
          name: 'http', containerName: 'db', probe: kplus.Probe.fromHttpGet('/healthz', { port: 8008, scheme: kplus.ConnectionScheme.HTTPS }), podConditionType: 'example.com/http',
        },
        { name: 'tcp', containerName: 'db', probe: kplus.Probe.fromTcpSocket({ port: 5432 }), podConditionType: 'example.com/tcp' },
      ],
    });
    const m = synthPpm(chart);
    expect(m.metadata).toEqual({ name: 'db-role', namespace: 'data' });
    expect(m.spec.probes).toEqual([
      {
        name: 'primary',
        containerName: 'db',
        probe: { exec: { command: ['/check-primary.sh'] }, initialDelaySeconds: 5, periodSeconds: 10, timeoutSeconds: 2, successThreshold: 1, failureThreshold: 2 },
        podConditionType: 'example.com/primary',
        markerPolicy: [
          { state: 'Succeeded', labels: { role: 'primary' }, annotations: { 'controller.kubernetes.io/pod-deletion-cost': '100' } },
          { state: 'Failed', labels: { role: 'replica' } },
        ],
      },
      { name: 'http', containerName: 'db', probe: { httpGet: { path: '/healthz', port: 8008, scheme: 'HTTPS' }, failureThreshold: 3 }, podConditionType: 'example.com/http' },
      { name: 'tcp', containerName: 'db', probe: { tcpSocket: { port: 5432 }, failureThreshold: 3 }, podConditionType: 'example.com/tcp' },
    ]);
    expect(ppm.probes.map(p => p.name)).toEqual(['primary', 'http', 'tcp']);
    expect(ppm.resourceType).toBe('podprobemarkers');
    expect((ppm.node.defaultChild as ApiObject).kind).toBe('PodProbeMarker');
  });

  test('addProbe() after construction counts', () => {
    const chart = Testing.chart();
    const ppm = new PodProbeMarker(chart, 'probe', { selector: db });
    ppm.addProbe(primary);
    expect(synthPpm(chart).spec.probes.map((p: any) => p.name)).toEqual(['primary']);
  });

  describe('on a workload', () => {
    test('addProbeMarker() selects the workload\'s pods in its namespace; HTTP and TCP ports default to the container\'s; a second call adds to the same marker', () => {
      const chart = Testing.chart();
      const w = new AdvancedStatefulSet(chart, 'db', { metadata: { namespace: 'data' }, containers: [{ name: 'db', image: 'postgres:16.4', portNumber: 5432 }] });
      const first = w.addProbeMarker(primary);
      const second = w.addProbeMarker({ name: 'tcp', containerName: 'db', probe: kplus.Probe.fromTcpSocket(), podConditionType: 'example.com/tcp' });
      expect(second).toBe(first);
      expect(first.node.path).toBe('test/db/ProbeMarker');
      expect(first.target).toBe(w);
      const m = synthPpm(chart);
      expect(m.metadata.namespace).toBe('data');
      expect(m.spec.selector).toEqual({ matchLabels: w.matchLabels });
      expect(m.spec.probes[1].probe.tcpSocket).toEqual({ port: 5432 });
    });

    test('fails a probe in a container the workload does not have', () => {
      fails(chart => new CloneSet(chart, 'web', { containers: [{ name: 'web', image: 'nginx:1.27' }] }).addProbeMarker(primary),
        '[test/web/ProbeMarker] PodProbeMarker "test-web-probemarker-c8fa1d42" (apps.kruise.io/v1alpha1) spec.probes[0].containerName: "db" (probe "primary") is not a container of the pods of \'test/web\'; use one of ["web"]');
    });

    test('the pod selector is read at synth', () => {
      const chart = Testing.chart();
      const w = new CloneSet(chart, 'web', { select: false, podMetadata: { labels: { app: 'web' } }, containers: [{ name: 'db', image: 'x:1' }] });
      w.addProbeMarker(primary);
      w.select(kplus.LabelSelector.of({ labels: { app: 'web' } }));
      expect(synthPpm(chart).spec.selector).toEqual({ matchLabels: { app: 'web' } });
    });
  });

  describe('feature gates', () => {
    test('fails when the control plane of the app has PodProbeMarkerGate off', () => {
      fails(chart => {
        new KruiseControlPlane(chart, 'kruise', { featureGates: { PodProbeMarkerGate: false } });
        new PodProbeMarker(chart, 'probe', { selector: db, probes: [primary] });
      }, "[test/probe] PodProbeMarker \"test-probe-c81f83df\" (apps.kruise.io/v1alpha1) kind: \"PodProbeMarker\" needs the OpenKruise feature gate PodProbeMarkerGate, which is off in the control plane at 'test/kruise' "
        + "(the webhook refuses every PodProbeMarker then); set featureGates: { PodProbeMarkerGate: true } on the KruiseControlPlane at 'test/kruise'");
    });

    test('fails when KruiseDaemon is off', () => {
      const chart = Testing.chart();
      _registerGateSource(chart, { path: 'test/kruise', isEnabled: g => g !== 'KruiseDaemon', howToEnable: g => `set featureGates ${g}=true` });
      new PodProbeMarker(chart, 'probe', { selector: db, probes: [primary] });
      expect(() => Testing.synth(chart)).toThrow("[test/probe] PodProbeMarker \"test-probe-c81f83df\" (apps.kruise.io/v1alpha1) kind: \"PodProbeMarker\" needs the OpenKruise feature gate KruiseDaemon, which is off in the control plane at 'test/kruise' (the webhook refuses every PodProbeMarker then); set featureGates KruiseDaemon=true");
    });

    test('passes with the default control plane', () => {
      const chart = Testing.chart();
      new KruiseControlPlane(chart, 'kruise');
      new PodProbeMarker(chart, 'probe', { selector: db, probes: [primary] });
      expect(() => Testing.synth(chart)).not.toThrow();
    });
  });

  // Section 15 of the v1.9.0 webhook rules, through the construct. Rule 9 (one handler) holds for
  // every kplus.Probe; rule 17 (a state once per probe) holds for whenSucceeded/whenFailed; rule
  // 19 is update-only.
  describe('admission rules, through the construct', () => {
    const marker = (chart: any, probe: Partial<PodProbeMarkerProbe>, selector = db) => new PodProbeMarker(chart, 'probe', { selector, probes: [{ ...primary, ...probe }] });

    test('rules 2 and 3: the selector is valid and not empty', () => {
      fails(chart => marker(chart, {}, kplus.LabelSelector.of({})),
        '[test/probe] PodProbeMarker "test-probe-c81f83df" (apps.kruise.io/v1alpha1) spec.selector: {} is empty and would select every pod of the namespace; add matchLabels or matchExpressions');
      fails(chart => marker(chart, {}, kplus.LabelSelector.of({ expressions: [kplus.LabelExpression.in('app', [])] })),
        '[test/probe] PodProbeMarker "test-probe-c81f83df" (apps.kruise.io/v1alpha1) spec.selector.matchExpressions[0].values: [] must list at least one value for operator In; fix the selector');
    });

    test('rule 4: at least one probe', () => {
      fails(chart => new PodProbeMarker(chart, 'probe', { selector: db }),
        "[test/probe] PodProbeMarker \"test-probe-c81f83df\" (apps.kruise.io/v1alpha1) spec.probes: [] is empty, so the PodProbeMarker probes nothing; pass 'probes' or call addProbe()",
        '[test/probe] PodProbeMarker "test-probe-c81f83df" (apps.kruise.io/v1alpha1) spec.probes: [] is empty, so the PodProbeMarker probes nothing; pass \'probes\' or call addProbe()');
    });

    test('rules 5, 7 and 8: probe names without \'#\', not a reserved condition type, unique', () => {
      fails(chart => new PodProbeMarker(chart, 'probe', { selector: db, probes: [{ ...primary, name: 'a#b' }, { ...primary, name: 'Ready' }, primary, primary] }),
        '[test/probe] PodProbeMarker "test-probe-c81f83df" (apps.kruise.io/v1alpha1) spec.probes[0].name: "a#b" contains \'#\'; name the probe without \'#\'',
        '[test/probe] PodProbeMarker "test-probe-c81f83df" (apps.kruise.io/v1alpha1) spec.probes[1].name: "Ready" is a pod condition type that Kubernetes or OpenKruise owns; choose another probe name',
        '[test/probe] PodProbeMarker "test-probe-c81f83df" (apps.kruise.io/v1alpha1) spec.probes[3].name: "primary" is also the name of probes[2]; give every probe its own name');
    });

    test('rule 6: a container name', () => {
      fails(chart => marker(chart, { containerName: '' }), '[test/probe] PodProbeMarker "test-probe-c81f83df" (apps.kruise.io/v1alpha1) spec.probes[0].containerName: "" is required; name the container to probe');
    });

    test('rule 10: an exec command', () => {
      fails(chart => marker(chart, { probe: kplus.Probe.fromCommand([]) }), '[test/probe] PodProbeMarker "test-probe-c81f83df" (apps.kruise.io/v1alpha1) spec.probes[0].probe.exec.command: [] is empty; give the command to run in the container');
    });

    test('rule 11: an HTTP probe has a path and no host', () => {
      fails(chart => marker(chart, { probe: kplus.Probe.fromHttpGet('', { host: 'example.com' }) }),
        '[test/probe] PodProbeMarker "test-probe-c81f83df" (apps.kruise.io/v1alpha1) spec.probes[0].probe.httpGet.path: "" is required (nothing defaults it here); give the path to request, e.g. /healthz',
        '[test/probe] PodProbeMarker "test-probe-c81f83df" (apps.kruise.io/v1alpha1) spec.probes[0].probe.httpGet.host: "example.com" is not supported: the probe always targets the pod; remove host');
    });

    test('rules 12 and 13: a TCP probe has no host and a port in range', () => {
      fails(chart => marker(chart, { probe: kplus.Probe.fromTcpSocket({ host: 'example.com', port: 70000 }) }),
        '[test/probe] PodProbeMarker "test-probe-c81f83df" (apps.kruise.io/v1alpha1) spec.probes[0].probe.tcpSocket.host: "example.com" is not supported: the probe always targets the pod; remove host',
        '[test/probe] PodProbeMarker "test-probe-c81f83df" (apps.kruise.io/v1alpha1) spec.probes[0].probe.tcpSocket.port: 70000 is not a port number between 1 and 65535');
    });

    test('rule 14: no negative numbers', () => {
      fails(chart => marker(chart, { probe: kplus.Probe.fromCommand(['true'], { failureThreshold: -1 }) }),
        '[test/probe] PodProbeMarker "test-probe-c81f83df" (apps.kruise.io/v1alpha1) spec.probes[0].probe.failureThreshold: -1 is negative; use 0 or more');
    });

    test('rule 15: a condition type or marks', () => {
      fails(chart => marker(chart, { whenSucceeded: undefined }),
        '[test/probe] PodProbeMarker "test-probe-c81f83df" (apps.kruise.io/v1alpha1) spec.probes[0]: "primary" has neither a podConditionType nor a markerPolicy, so its result is not recorded; set podConditionType, markerPolicy or both');
    });

    test('rule 16: condition types are qualified names, each used once', () => {
      fails(chart => new PodProbeMarker(chart, 'probe', {
        selector: db,
        probes: [{ ...primary, podConditionType: 'bad type' }, { ...primary, name: 'b', podConditionType: 'example.com/x' }, { ...primary, name: 'c', podConditionType: 'example.com/x' }],
      }),
      '[test/probe] PodProbeMarker "test-probe-c81f83df" (apps.kruise.io/v1alpha1) spec.probes[0].podConditionType: "bad type" name part must consist of letters',
      '[test/probe] PodProbeMarker "test-probe-c81f83df" (apps.kruise.io/v1alpha1) spec.probes[2].podConditionType: "example.com/x" is also the podConditionType of probes[1]; give every probe its own condition type');
    });

    test('rule 18: marks have labels or annotations, valid as pod metadata', () => {
      fails(chart => marker(chart, { whenSucceeded: { labels: { 'bad key': 'x' } }, whenFailed: { annotations: { 'bad key': 'y' } } }),
        '[test/probe] PodProbeMarker "test-probe-c81f83df" (apps.kruise.io/v1alpha1) spec.probes[0].markerPolicy[0].labels["bad key"]: "bad key"',
        '[test/probe] PodProbeMarker "test-probe-c81f83df" (apps.kruise.io/v1alpha1) spec.probes[0].markerPolicy[1].annotations["bad key"]: "bad key" key name part must consist of letters');
    });
  });

  test('fails both or neither of selector and target', () => {
    const chart = Testing.chart();
    expect(() => new PodProbeMarker(chart, 'a', {})).toThrow("PodProbeMarker at 'test/a': set exactly one of 'selector' or 'target'");
  });
});
