import { ApiObject, Duration, JsonPatch, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { EphemeralJob, EphemeralContainerProps, Warnings } from '../src';
import { synthFails as fails } from './util/synth-fails';

const web = kplus.LabelSelector.of({ labels: { app: 'web' } });
const debuggerProps: EphemeralContainerProps = { name: 'debugger', image: 'busybox:1.36', command: ['sleep', '3600'] };

beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());
const synthJob = (chart: any) => Testing.synth(chart).find((m: any) => m.kind === 'EphemeralJob');

describe('EphemeralJob', () => {
  test('renders the selector and the containers, with the two fields the webhook requires, at apps.kruise.io/v1alpha1', () => {
    const chart = Testing.chart();
    new EphemeralJob(chart, 'debug', { selector: web, containers: [debuggerProps] });
    const manifests = Testing.synth(chart);
    expect(manifests).toHaveLength(1);
    const m = manifests[0];
    expect(m.apiVersion).toBe('apps.kruise.io/v1alpha1');
    expect(m.kind).toBe('EphemeralJob');
    expect(m.spec).toEqual({
      selector: { matchLabels: { app: 'web' } },
      template: {
        ephemeralContainers: [{
          name: 'debugger', image: 'busybox:1.36', command: ['sleep', '3600'], imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File',
        }],
      },
    });
    expect(Warnings.of(chart)).toEqual([]);
  });

  test('renders every prop field by field', () => {
    const chart = Testing.chart();
    const job = new EphemeralJob(chart, 'debug', {
      metadata: { name: 'debug-web', namespace: 'shop' },
      selector: web,
      replicas: 2,
      parallelism: 1,
      activeDeadline: Duration.hours(1),
      ttlAfterFinished: Duration.minutes(10),
      paused: true,
      containers: [{
        name: 'debugger',
        image: 'nicolaka/netshoot:v0.13',
        targetContainerName: 'web',
        command: ['sleep'],
        args: ['3600'],
        workingDir: '/tmp',
        envVariables: { TARGET: kplus.EnvValue.fromValue('web') },
        envFrom: [kplus.Env.fromConfigMap(kplus.ConfigMap.fromConfigMapName(chart, 'cm', 'debug-env'))],
        volumeMounts: [{ volumeName: 'data', path: '/data', readOnly: true }],
        imagePullPolicy: kplus.ImagePullPolicy.ALWAYS,
        securityContext: { ensureNonRoot: false, user: 0, capabilities: { add: [kplus.Capability.NET_ADMIN] } },
        stdin: true,
        tty: true,
      }],
    });
    const m = synthJob(chart);
    expect(m.metadata).toEqual({ name: 'debug-web', namespace: 'shop' });
    const { template, ...rest } = m.spec;
    expect(rest).toEqual({
      selector: { matchLabels: { app: 'web' } }, replicas: 2, parallelism: 1, activeDeadlineSeconds: 3600, ttlSecondsAfterFinished: 600, paused: true,
    });
    expect(template.ephemeralContainers).toEqual([{
      name: 'debugger',
      image: 'nicolaka/netshoot:v0.13',
      targetContainerName: 'web',
      command: ['sleep'],
      args: ['3600'],
      workingDir: '/tmp',
      env: [{ name: 'TARGET', value: 'web' }],
      envFrom: [{ configMapRef: { name: 'debug-env' } }],
      volumeMounts: [{ name: 'data', mountPath: '/data', readOnly: true }],
      imagePullPolicy: 'Always',
      terminationMessagePolicy: 'File',
      securityContext: {
        allowPrivilegeEscalation: false, privileged: false, readOnlyRootFilesystem: true, runAsNonRoot: false, runAsUser: 0, capabilities: { add: ['NET_ADMIN'] },
      },
      stdin: true,
      tty: true,
    }]);
    expect(job.replicas).toBe(2);
    expect(job.parallelism).toBe(1);
    expect(job.resourceType).toBe('ephemeraljobs');
  });

  test.each([
    ['busybox:1.36', 'IfNotPresent'],
    ['busybox', 'Always'],
    ['busybox:latest', 'Always'],
    ['registry.example.com:5000/tools/busybox', 'Always'],
    ['registry.example.com:5000/tools/busybox:1.36', 'IfNotPresent'],
    [`busybox@sha256:${'a'.repeat(64)}`, 'IfNotPresent'],
  ])('an unset pull policy for %s is the Kubernetes default, %s', (image, policy) => {
    const chart = Testing.chart();
    new EphemeralJob(chart, 'debug', { selector: web, containers: [{ name: 'debugger', image }] });
    expect(synthJob(chart).spec.template.ephemeralContainers[0].imagePullPolicy).toBe(policy);
  });

  test('writes the apiVersion of a field selector, which a pod gets from its defaults and the EphemeralJob webhook requires', () => {
    const chart = Testing.chart();
    new EphemeralJob(chart, 'debug', {
      selector: web,
      containers: [{ ...debuggerProps, envVariables: { POD: kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.POD_NAME) } }],
    });
    expect(synthJob(chart).spec.template.ephemeralContainers[0].env).toEqual([{ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } } }]);
  });

  test('addContainer() after construction counts; containers returns a copy', () => {
    const chart = Testing.chart();
    const job = new EphemeralJob(chart, 'debug', { selector: web });
    job.containers.push({ name: 'ignored', image: 'x:1' });
    job.addContainer(debuggerProps);
    expect(synthJob(chart).spec.template.ephemeralContainers.map((c: any) => c.name)).toEqual(['debugger']);
    expect((job.node.defaultChild as ApiObject).kind).toBe('EphemeralJob');
  });

  // Section 16 of the v1.9.0 webhook rules, through the construct. Rules 1 (the container must
  // decode), 5 and 6 (terminationMessagePolicy and imagePullPolicy set: the construct writes them)
  // and 9 to 11 (ports, probes, resources, lifecycle, subPath: the props have none) cannot be
  // broken with the props; a JSON patch shows the rules still hold.
  describe('admission rules, through the construct', () => {
    test('rule 2: container names are DNS-1123 labels', () => {
      fails(chart => new EphemeralJob(chart, 'debug', { selector: web, containers: [{ ...debuggerProps, name: 'Debug_1' }] }),
        '[test/debug] EphemeralJob "test-debug-c81a43ae" (apps.kruise.io/v1alpha1) spec.template.ephemeralContainers[0].name: "Debug_1" must consist of lowercase letters, digits and \'-\', starting and ending with a letter or digit; '
        + 'rename the ephemeral container, e.g. debugger');
    });

    test('rule 3: container names are unique', () => {
      fails(chart => new EphemeralJob(chart, 'debug', { selector: web, containers: [debuggerProps, { ...debuggerProps, image: 'alpine:3.20' }] }),
        '[test/debug] EphemeralJob "test-debug-c81a43ae" (apps.kruise.io/v1alpha1) spec.template.ephemeralContainers[1].name: "debugger" is also the name of ephemeralContainers[0]; give every ephemeral container its own name');
    });

    test('rule 4: an image, without surrounding whitespace', () => {
      fails(chart => new EphemeralJob(chart, 'debug', { selector: web, containers: [{ name: 'a', image: '' }, { name: 'b', image: ' busybox:1.36' }] }),
        '[test/debug] EphemeralJob "test-debug-c81a43ae" (apps.kruise.io/v1alpha1) spec.template.ephemeralContainers[0].image: "" is required; give the image to run, e.g. busybox:1.36',
        '[test/debug] EphemeralJob "test-debug-c81a43ae" (apps.kruise.io/v1alpha1) spec.template.ephemeralContainers[1].image: " busybox:1.36" has leading or trailing whitespace; remove the spaces around the image name');
    });

    test('rule 7: environment variable names', () => {
      fails(chart => new EphemeralJob(chart, 'debug', { selector: web, containers: [{ ...debuggerProps, envVariables: { '1TARGET': kplus.EnvValue.fromValue('x') } }] }),
        '[test/debug] EphemeralJob "test-debug-c81a43ae" (apps.kruise.io/v1alpha1) spec.template.ephemeralContainers[0].env[0].name: "1TARGET" must consist of letters, digits, \'_\', \'-\' or \'.\', and must not start with a digit');
    });

    test('rule 8: the security context (privileged with the cdk8s-plus default allowPrivilegeEscalation false)', () => {
      fails(chart => new EphemeralJob(chart, 'debug', { selector: web, containers: [{ ...debuggerProps, securityContext: { privileged: true } }] }),
        '[test/debug] EphemeralJob "test-debug-c81a43ae" (apps.kruise.io/v1alpha1) spec.template.ephemeralContainers[0].securityContext.allowPrivilegeEscalation: false cannot be false when privileged is true; drop one of the two settings');
    });

    test('rules 9 and 11 hold for what a JSON patch adds', () => {
      fails(chart => {
        const job = new EphemeralJob(chart, 'debug', { selector: web, containers: [{ ...debuggerProps, volumeMounts: [{ volumeName: 'data', path: '/data' }] }] });
        ApiObject.of(job).addJsonPatch(
          JsonPatch.add('/spec/template/ephemeralContainers/0/ports', [{ containerPort: 8080 }]),
          JsonPatch.add('/spec/template/ephemeralContainers/0/volumeMounts/0/subPath', 'logs'),
        );
      },
      '[test/debug] EphemeralJob "test-debug-c81a43ae" (apps.kruise.io/v1alpha1) spec.template.ephemeralContainers[0].ports: [{"containerPort":8080}] is not allowed in an ephemeral container; remove ports',
      '[test/debug] EphemeralJob "test-debug-c81a43ae" (apps.kruise.io/v1alpha1) spec.template.ephemeralContainers[0].volumeMounts[0].subPath: "logs" is not allowed in an ephemeral container; mount the whole volume: remove subPath');
    });
  });

  describe('errors of the construct', () => {
    test('fails an empty selector, which would pick every pod of the namespace', () => {
      expect(() => new EphemeralJob(Testing.chart(), 'debug', { selector: kplus.LabelSelector.of({}), containers: [debuggerProps] })).toThrow(
        "EphemeralJob at 'test/debug': 'selector' is empty, so every pod of the namespace would get the containers; select the pods by their labels");
    });

    test.each([['replicas', { replicas: 1.5 }], ['parallelism', { parallelism: -1 }]])('fails a %s that is not a whole number of pods', (prop, o) => {
      expect(() => new EphemeralJob(Testing.chart(), 'debug', { selector: web, containers: [debuggerProps], ...o })).toThrow(
        `EphemeralJob at 'test/debug': '${prop}' (${Object.values(o)[0]}) must be a whole number of pods, 0 or more`);
    });

    test('fails a job without a container', () => {
      fails(chart => new EphemeralJob(chart, 'debug', { selector: web }),
        "[test/debug] EphemeralJob \"test-debug-c81a43ae\" (apps.kruise.io/v1alpha1) spec.template.ephemeralContainers: [] is empty, so the EphemeralJob adds no container; pass 'containers' or call addContainer()");
    });

    test('fails a time to live that is not whole seconds, naming the construct and the prop', () => {
      fails(chart => new EphemeralJob(chart, 'debug', { selector: web, containers: [debuggerProps], ttlAfterFinished: Duration.millis(500) }),
        '[test/debug] EphemeralJob "test-debug-c81a43ae" (apps.kruise.io/v1alpha1) ttlAfterFinished: "0.5 seconds" is not a whole number of seconds; use Duration.seconds(1)');
    });
  });
});
