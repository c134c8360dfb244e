import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Chart, JsonPatch, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  AdvancedDaemonSet, AdvancedStatefulSet, CloneSet, InjectionPreview, SidecarEnvTransfer, SidecarInjectPolicy, SidecarSet,
  SidecarSetInjectionRevision, SidecarSetPatchPolicy, SidecarSetRevisionPolicy, SidecarSetUpdateStrategy, SidecarUpgradeStrategy,
  KruiseControlPlane, KruiseValidation, Warnings, kruise,
} from '../src';
import { allowPodMetadataPatches } from './util/whitelist';
import { defaultedSidecarSetSpec, sidecarSetErrors } from '../src/admission/sidecar-set';
import { _registerGateSource } from '../src/validation/gates';

beforeAll(() => { jest.spyOn(console, 'warn').mockImplementation(() => undefined); });

const sel = (labels: Record<string, string>) => kplus.LabelSelector.of({ labels });
const find = (chart: Chart, kind: string, name?: string) =>
  Testing.synth(chart).find(o => o.kind === kind && (name === undefined || o.metadata.name === name));

function minimal(chart: Chart, id = 'log', props: Partial<ConstructorParameters<typeof SidecarSet>[2]> = {}): SidecarSet {
  return new SidecarSet(chart, id, {
    metadata: { name: id },
    selector: sel({ logging: 'on' }),
    containers: [{ name: `${id}-agent`, image: 'fluent-bit:3.1' }],
    ...props,
  });
}

describe('SidecarSet rendering', () => {
  test('renders every prop field by field, through the v1beta1 L1', () => {
    const chart = Testing.chart();
    allowPodMetadataPatches(chart);
    const logs = kplus.Volume.fromEmptyDir(chart, 'logs', 'logs');
    const extra = kplus.Volume.fromEmptyDir(chart, 'extra', 'extra');
    const pull = kplus.Secret.fromSecretName(chart, 'pull', 'registry-creds');
    const ss = new SidecarSet(chart, 'log', {
      metadata: { name: 'logging', labels: { team: 'platform' } },
      selector: kplus.LabelSelector.of({ labels: { logging: 'on' }, expressions: [kplus.LabelExpression.exists('app')] }),
      namespaceSelector: sel({ env: 'prod' }),
      containers: [{
        name: 'log-agent',
        image: 'fluent-bit:3.1',
        portNumber: 2020,
        envVariables: { MODE: kplus.EnvValue.fromValue('tail') },
        volumeMounts: [{ path: '/var/log/app', volume: logs }],
        resources: { cpu: { request: kplus.Cpu.millis(50) } },
        injectPolicy: SidecarInjectPolicy.AFTER_APP_CONTAINER,
        shareVolumes: true,
        shareVolumeDevices: false,
        transferEnv: [
          SidecarEnvTransfer.fromContainer('web', ['APP_NAME', 'APP_ENV']),
          SidecarEnvTransfer.fromContainerInLabel('log.io/source', ['LOG_LEVEL']),
          SidecarEnvTransfer.fromContainerInAnnotation('log.io/source', ['LOG_FORMAT']),
        ],
        upgradeStrategy: SidecarUpgradeStrategy.cold(),
      }],
      initContainers: [{ name: 'init-logs', image: 'busybox:1.36', command: ['sh', '-c', 'true'], injectPolicy: SidecarInjectPolicy.BEFORE_APP_CONTAINER }],
      volumes: [extra],
      imagePullSecrets: [pull],
      patchPodMetadata: [{ annotations: { 'logging.io/enabled': 'true' }, policy: SidecarSetPatchPolicy.OVERWRITE }],
      injectionPaused: false,
      injectionRevision: SidecarSetInjectionRevision.fromCustomVersion('v2', SidecarSetRevisionPolicy.PARTIAL),
      updateStrategy: SidecarSetUpdateStrategy.rollingUpdate({
        maxUnavailable: kplus.PercentOrAbsolute.percent(10),
        paused: true,
        selector: sel({ canary: 'true' }),
        scatter: [{ key: 'zone', value: 'a' }],
      }),
      revisionHistoryLimit: 5,
      customVersion: 'v3',
    });
    const m = find(chart, 'SidecarSet');
    expect(m.apiVersion).toBe('apps.kruise.io/v1beta1');
    expect(m.metadata).toEqual({ name: 'logging', labels: { team: 'platform' } });
    expect(m.spec.selector).toEqual({ matchLabels: { logging: 'on' }, matchExpressions: [{ key: 'app', operator: 'Exists' }] });
    expect(m.spec.namespaceSelector).toEqual({ matchLabels: { env: 'prod' } });
    expect(m.spec.containers).toEqual([{
      name: 'log-agent',
      image: 'fluent-bit:3.1',
      ports: [{ containerPort: 2020 }],
      env: [{ name: 'MODE', value: 'tail' }],
      volumeMounts: [{ mountPath: '/var/log/app', name: 'logs' }],
      resources: { requests: { cpu: '50m' } },
      // cdk8s-plus's startup probe for a port, with the successThreshold OpenKruise does not default for a sidecar
      startupProbe: { failureThreshold: 3, successThreshold: 1, tcpSocket: { port: 2020 } },
      podInjectPolicy: 'AfterAppContainer',
      shareVolumePolicy: { type: 'enabled' },
      shareVolumeDevicePolicy: { type: 'disabled' },
      transferEnv: [
        { sourceContainerName: 'web', envNames: ['APP_NAME', 'APP_ENV'] },
        { sourceContainerNameFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['log.io/source']" } }, envNames: ['LOG_LEVEL'] },
        { sourceContainerNameFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.annotations['log.io/source']" } }, envNames: ['LOG_FORMAT'] },
      ],
      upgradeStrategy: { upgradeType: 'ColdUpgrade' },
    }]);
    expect(m.spec.initContainers).toEqual([{ name: 'init-logs', image: 'busybox:1.36', command: ['sh', '-c', 'true'], podInjectPolicy: 'BeforeAppContainer' }]);
    expect(m.spec.volumes).toEqual([{ name: 'logs', emptyDir: {} }, { name: 'extra', emptyDir: {} }]);
    expect(m.spec.imagePullSecrets).toEqual([{ name: 'registry-creds' }]);
    expect(m.spec.patchPodMetadata).toEqual([{ annotations: { 'logging.io/enabled': 'true' }, patchPolicy: 'Overwrite' }]);
    expect(m.spec.injectionStrategy).toEqual({ paused: false, revision: { customVersion: 'v2', policy: 'Partial' } });
    expect(m.spec.updateStrategy).toEqual({ type: 'RollingUpdate', maxUnavailable: '10%', paused: true, selector: { matchLabels: { canary: 'true' } }, scatterStrategy: [{ key: 'zone', value: 'a' }] });
    expect(m.spec.revisionHistoryLimit).toBe(5);
    expect(m.spec.customVersion).toBe('v3');
    expect(ss.containers.map(c => c.name)).toEqual(['log-agent']);
    expect(ss.initContainers.map(c => c.name)).toEqual(['init-logs']);
    expect(ss.name).toBe('logging');
  });

  test('defaults are not written: a minimal SidecarSet renders only what was set', () => {
    const chart = Testing.chart();
    minimal(chart);
    const m = find(chart, 'SidecarSet');
    expect(m.spec).toEqual({ selector: { matchLabels: { logging: 'on' } }, containers: [{ name: 'log-agent', image: 'fluent-bit:3.1' }] });
  });

  test('namespace renders as a namespaceSelector on kubernetes.io/metadata.name; a namespaced chart adds no namespace', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'c', { namespace: 'shop' });
    minimal(chart, 'log', { namespace: 'shop' });
    const m = find(chart, 'SidecarSet');
    expect(m.metadata.namespace).toBeUndefined();
    expect(m.spec.namespaceSelector).toEqual({ matchLabels: { 'kubernetes.io/metadata.name': 'shop' } });
  });

  test('hot upgrade, fromRevisionName, fromFieldPath, partition, notUpdate and pinned revision render', () => {
    const chart = Testing.chart();
    const hot = minimal(chart, 'mesh', {
      containers: [{ name: 'proxy', image: 'envoy:1.31', upgradeStrategy: SidecarUpgradeStrategy.hot('openkruise/hotupgrade-sample:empty'), transferEnv: [SidecarEnvTransfer.fromFieldPath("metadata.labels['x']", ['A'])] }],
      injectionRevision: SidecarSetInjectionRevision.fromRevisionName('mesh-rev-1'),
      injectionPaused: true,
      updateStrategy: SidecarSetUpdateStrategy.rollingUpdate({ partition: kplus.PercentOrAbsolute.absolute(2) }),
    });
    const init = minimal(chart, 'native', { containers: [], initContainers: [{ name: 'agent', image: 'agent:1', restartPolicy: kplus.ContainerRestartPolicy.ALWAYS }], updateStrategy: SidecarSetUpdateStrategy.notUpdate() });
    const [a, b] = [find(chart, 'SidecarSet', 'mesh'), find(chart, 'SidecarSet', 'native')];
    expect(a.spec.containers[0].upgradeStrategy).toEqual({ upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'openkruise/hotupgrade-sample:empty' });
    expect(a.spec.containers[0].transferEnv).toEqual([{ sourceContainerNameFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['x']" } }, envNames: ['A'] }]);
    expect(a.spec.injectionStrategy).toEqual({ paused: true, revision: { revisionName: 'mesh-rev-1' } });
    expect(a.spec.updateStrategy).toEqual({ type: 'RollingUpdate', partition: 2 });
    expect(b.spec.initContainers).toEqual([{ name: 'agent', image: 'agent:1', restartPolicy: 'Always' }]);
    expect(b.spec.updateStrategy).toEqual({ type: 'NotUpdate' });
    expect(b.spec.containers).toBeUndefined();
    expect(hot.updateStrategy).toBeDefined();
    expect(init.namespaceSelector).toBeUndefined();
  });

  test('containers, volumes, pull secrets and patches added later are rendered (lazy)', () => {
    const chart = Testing.chart();
    allowPodMetadataPatches(chart);
    const ss = minimal(chart);
    const c = ss.addContainer({ name: 'second', image: 'b:1' });
    c.mount('/cache', kplus.Volume.fromEmptyDir(chart, 'cache', 'cache'));
    ss.addInitContainer({ name: 'prep', image: 'p:1' });
    ss.addVolume(kplus.Volume.fromEmptyDir(chart, 'more', 'more'));
    ss.addImagePullSecret(kplus.Secret.fromSecretName(chart, 's', 'creds'));
    ss.addPodMetadataPatch({ annotations: { 'a.io/x': '{"k":1}' }, policy: SidecarSetPatchPolicy.MERGE_PATCH_JSON });
    ss.addPodMetadataPatch({ annotations: { 'a.io/y': 'y' } });
    const m = find(chart, 'SidecarSet');
    expect(m.spec.containers.map((x: any) => x.name)).toEqual(['log-agent', 'second']);
    expect(m.spec.containers[1].volumeMounts).toEqual([{ mountPath: '/cache', name: 'cache' }]);
    expect(m.spec.initContainers.map((x: any) => x.name)).toEqual(['prep']);
    expect(m.spec.volumes).toEqual([{ name: 'cache', emptyDir: {} }, { name: 'more', emptyDir: {} }]);
    expect(m.spec.imagePullSecrets).toEqual([{ name: 'creds' }]);
    expect(m.spec.patchPodMetadata).toEqual([{ annotations: { 'a.io/x': '{"k":1}' }, patchPolicy: 'MergePatchJson' }, { annotations: { 'a.io/y': 'y' } }]);
  });

  test('the default child is the L1 SidecarSet', () => {
    const chart = Testing.chart();
    const ss = minimal(chart);
    expect(ApiObject.of(ss).kind).toBe('SidecarSet');
    expect(ss.apiObject).toBeInstanceOf(kruise.KubeSidecarSet);
  });

  test('output is deterministic', () => {
    const build = () => { const chart = Testing.chart(); minimal(chart); minimal(chart, 'mesh', { selector: sel({ mesh: 'on' }) }); return JSON.stringify(Testing.synth(chart)); };
    expect(build()).toEqual(build());
  });
});

describe('SidecarSet rules (webhook-rules §4)', () => {
  test('takes a volume without a source as an emptyDir, as the webhook defaults it (and the manifest keeps it as written)', () => {
    const chart = Testing.chart();
    minimal(chart).apiObject.addJsonPatch(JsonPatch.add('/spec/volumes', [{ name: 'scratch' }]));
    const [ss] = Testing.synth(chart);
    expect(ss.spec.volumes).toEqual([{ name: 'scratch' }]);
    expect(defaultedSidecarSetSpec(ss.spec).volumes).toEqual([{ name: 'scratch', emptyDir: {} }]);
  });

  test('fails on a volume device at a path a volume is mounted at', () => {
    const chart = Testing.chart();
    const ss = minimal(chart);
    ss.apiObject.addJsonPatch(JsonPatch.add('/spec/volumes', [{ name: 'data', emptyDir: {} }, { name: 'disk', persistentVolumeClaim: { claimName: 'disk' } }]));
    ss.apiObject.addJsonPatch(JsonPatch.add('/spec/containers/0/volumeMounts', [{ name: 'data', mountPath: '/dev/xvda' }]));
    ss.apiObject.addJsonPatch(JsonPatch.add('/spec/containers/0/volumeDevices', [{ name: 'disk', devicePath: '/dev/xvda' }]));
    expect(() => Testing.synth(chart)).toThrow(
      '[test/log] SidecarSet "log" (apps.kruise.io/v1beta1) spec.containers[0].volumeDevices[0].devicePath: "/dev/xvda" is also a volumeMount path of this container; use a device path no volume is mounted at',
    );
  });

  test('fails eagerly when a sidecar has no name, when namespace and namespaceSelector are both set, or hot() has no image', () => {
    const chart = Testing.chart();
    expect(() => minimal(chart, 'a', { containers: [{ image: 'x:1' }] })).toThrow("SidecarSet at 'test/a': every sidecar container needs a name (image x:1)");
    expect(() => minimal(chart, 'b', { namespace: 'x', namespaceSelector: sel({ a: 'b' }) })).toThrow("SidecarSet at 'test/b': set either 'namespace' (x) or 'namespaceSelector', not both");
    expect(() => SidecarUpgradeStrategy.hot('')).toThrow('needs the empty image');
    expect(() => SidecarEnvTransfer.fromContainer('web', [])).toThrow('at least one variable name');
  });

  test('fails when two different volumes share a name', () => {
    const chart = Testing.chart();
    const ss = minimal(chart);
    ss.addVolume(kplus.Volume.fromEmptyDir(chart, 'v1', 'data'));
    ss.addVolume(kplus.Volume.fromEmptyDir(chart, 'v2', 'data'));
    expect(() => Testing.synth(chart)).toThrow('two different volumes are named "data"; rename one');
  });

  test('fails with no sidecars (rule 15)', () => {
    const chart = Testing.chart();
    new SidecarSet(chart, 'empty', { selector: sel({ a: 'b' }) });
    expect(() => Testing.synth(chart)).toThrow('[test/empty] SidecarSet "test-empty-c859461e" (apps.kruise.io/v1beta1) spec.containers: (unset) and spec.initContainers are both empty, so the SidecarSet has no sidecars; add one with addContainer() or addInitContainer()');
  });

  test('fails on an invalid name (rule 1)', () => {
    const chart = Testing.chart();
    minimal(chart, 'x', { metadata: { name: 'Logging.v1' } });
    expect(() => Testing.synth(chart)).toThrow('[test/x] SidecarSet "Logging.v1" (apps.kruise.io/v1beta1) metadata.name: "Logging.v1" is not a valid SidecarSet name; use at most 63 lowercase letters');
  });

  test('fails on a native-sidecar init container under RollingUpdate, the default (rule 2)', () => {
    const chart = Testing.chart();
    minimal(chart, 'n', { initContainers: [{ name: 'agent', image: 'a:1', restartPolicy: kplus.ContainerRestartPolicy.ALWAYS }] });
    expect(() => Testing.synth(chart)).toThrow('[test/n] SidecarSet "n" (apps.kruise.io/v1beta1) spec.initContainers[0].restartPolicy: "Always" makes "agent" a native sidecar, which OpenKruise cannot upgrade in place while spec.updateStrategy.type is RollingUpdate (the default); use SidecarSetUpdateStrategy.notUpdate()');
  });

  test('fails on an empty or malformed selector (rules 3-5)', () => {
    const chart = Testing.chart();
    minimal(chart, 'e', { selector: kplus.LabelSelector.of({}) });
    expect(() => Testing.synth(chart)).toThrow('[test/e] SidecarSet "e" (apps.kruise.io/v1beta1) spec.selector: {} is empty and would select everything, which OpenKruise refuses; add matchLabels or matchExpressions to the pod selector');
    const c2 = Testing.chart();
    minimal(c2, 'm', { namespaceSelector: sel({ 'bad key!': 'x' }) });
    expect(() => Testing.synth(c2)).toThrow('[test/m] SidecarSet "m" (apps.kruise.io/v1beta1) spec.namespaceSelector.matchLabels["bad key!"]: "bad key!" key name part must consist of');
    const c3 = Testing.chart();
    minimal(c3).apiObject.addJsonPatch(JsonPatch.remove('/spec/selector'));
    expect(() => Testing.synth(c3)).toThrow('[test/log] SidecarSet "log" (apps.kruise.io/v1beta1) spec.selector: (unset) is required; set a pod selector');
  });

  test('fails on a revision with neither name nor version (rule 6); a bad policy stops at the schema, as in the API server', () => {
    const chart = Testing.chart();
    minimal(chart).apiObject.addJsonPatch(JsonPatch.add('/spec/injectionStrategy', { revision: { policy: 'Always' } }));
    expect(() => Testing.synth(chart)).toThrow('[test/log] SidecarSet "log" (apps.kruise.io/v1beta1) spec.injectionStrategy.revision: {"policy":"Always"} names neither a revisionName nor a customVersion');
    const c2 = Testing.chart();
    minimal(c2).apiObject.addJsonPatch(JsonPatch.add('/spec/injectionStrategy', { revision: { customVersion: 'v1', policy: 'Sometimes' } }));
    expect(() => Testing.synth(c2)).toThrow([
      'Validation failed with the following errors:',
      '  [test/log] SidecarSet "log" (apps.kruise.io/v1beta1) spec.injectionStrategy.revision.policy: "Sometimes" is not an allowed value; use one of "Always", "Partial"',
    ].join('\n'));
  });

  test('fails on a partition combined with an update selector (rule 9)', () => {
    const chart = Testing.chart();
    minimal(chart, 'p', { updateStrategy: SidecarSetUpdateStrategy.rollingUpdate({ partition: kplus.PercentOrAbsolute.percent(50), selector: sel({ canary: 'true' }) }) });
    expect(() => Testing.synth(chart)).toThrow('[test/p] SidecarSet "p" (apps.kruise.io/v1beta1) spec.updateStrategy.partition: "50%" is combined with spec.updateStrategy.selector, which OpenKruise refuses; use either a partition or an update selector');
  });

  test('fails on an empty update selector, bad partition/maxUnavailable, priority and scatter (rules 10-14)', () => {
    const chart = Testing.chart();
    minimal(chart, 'u', {
      updateStrategy: SidecarSetUpdateStrategy.rollingUpdate({ selector: kplus.LabelSelector.of({}), maxUnavailable: kplus.PercentOrAbsolute.percent(12.5), scatter: [{ key: '', value: 'a' }, { key: '', value: 'a' }] }),
    }).apiObject.addJsonPatch(JsonPatch.add('/spec/updateStrategy/priorityStrategy', { weightPriority: [{ weight: 101, matchSelector: {} }], orderPriority: [{ orderedKey: '' }] }));
    const err = () => Testing.synth(chart);
    expect(err).toThrow('spec.updateStrategy.selector: {} is empty');
    expect(err).toThrow('spec.updateStrategy.maxUnavailable: "12.5%" is not a non-negative integer or an integer percentage');
    expect(err).toThrow('spec.updateStrategy.scatterStrategy[0].key: "" is empty; name a pod label key');
    expect(err).toThrow('spec.updateStrategy.scatterStrategy[1]: {"key":"","value":"a"} repeats a key and value');
    expect(err).toThrow('spec.updateStrategy.priorityStrategy: {"weightPriority":[{"weight":101,"matchSelector":{}}],"orderPriority":[{"orderedKey":""}]} sets both weightPriority and orderPriority');
    expect(err).toThrow('spec.updateStrategy.priorityStrategy.weightPriority[0].weight: 101 is out of range; use 0 to 100');
    expect(err).toThrow('spec.updateStrategy.priorityStrategy.weightPriority[0].matchSelector: {} is empty');
    expect(err).toThrow('spec.updateStrategy.priorityStrategy.orderPriority[0].orderedKey: "" is empty');
    const c2 = Testing.chart();
    minimal(c2, 'q', { updateStrategy: SidecarSetUpdateStrategy.rollingUpdate({ partition: kplus.PercentOrAbsolute.absolute(-1) }) });
    expect(() => Testing.synth(c2)).toThrow('spec.updateStrategy.partition: -1 is not a non-negative integer');
  });

  test('fails on resourcesPolicy misuse (rules 16-19)', () => {
    const chart = Testing.chart();
    minimal(chart, 'r', { initContainers: [{ name: 'prep', image: 'p:1', resources: { cpu: { limit: kplus.Cpu.millis(100) } } }] })
      .apiObject.addJsonPatch(JsonPatch.add('/spec/initContainers/0/resourcesPolicy', { targetContainersMode: 'sum', targetContainersNameRegex: '(', resourcesExpr: {} }));
    const err = () => Testing.synth(chart);
    expect(err).toThrow('spec.initContainers[0].resourcesPolicy: {"targetContainersMode":"sum","targetContainersNameRegex":"(","resourcesExpr":{}} is set on an init container that is not a native sidecar');
    expect(err).toThrow('is combined with resources on the same container; use either resources or resourcesPolicy');
    expect(err).toThrow('spec.initContainers[0].resourcesPolicy.targetContainersNameRegex: "(" is not a valid regular expression');
    expect(err).toThrow('spec.initContainers[0].resourcesPolicy.resourcesExpr: {} has neither limits nor requests');
  });

  test('fails on resource expressions OpenKruise cannot evaluate (rule 19)', () => {
    const chart = Testing.chart();
    minimal(chart, 'x', { containers: [{ name: 'agent', image: 'a:1' }] })
      .apiObject.addJsonPatch(JsonPatch.add('/spec/containers/0/resourcesPolicy', {
        targetContainersMode: 'sum',
        resourcesExpr: { limits: { cpu: 'cpu - 2', memory: 'max(memory*50%, 128Mi)' }, requests: { cpu: 'max(cpu, 50m, 1)', memory: 'memory * 1Gi / 0' } },
      }));
    const err = () => Testing.synth(chart);
    expect(err).toThrow('spec.containers[0].resourcesPolicy.resourcesExpr.limits.cpu: "cpu - 2" is negative (-1) when cpu is 1; write it with cpu, numbers, percentages, quantities (50m, 128Mi), + - * /, parentheses and max(a, b) / min(a, b)');
    expect(err).toThrow('spec.containers[0].resourcesPolicy.resourcesExpr.requests.cpu: "max(cpu, 50m, 1)" calls max() with 3 argument(s); it takes exactly 2');
    expect(err).toThrow('spec.containers[0].resourcesPolicy.resourcesExpr.requests.memory: "memory * 1Gi / 0" divides by zero');
    expect(err).not.toThrow('resourcesExpr.limits.memory');
  });

  test('fails on a bad inject policy, share-volume type, or hot upgrade without image (rules 20-21)', () => {
    const chart = Testing.chart();
    minimal(chart).apiObject.addJsonPatch(
      JsonPatch.add('/spec/containers/0/podInjectPolicy', 'Anywhere'),
      JsonPatch.add('/spec/containers/0/shareVolumePolicy', { type: 'Enabled' }),
      JsonPatch.add('/spec/containers/0/upgradeStrategy', { upgradeType: 'HotUpgrade' }),
    );
    const err = () => Testing.synth(chart);
    expect(err).toThrow('spec.containers[0].podInjectPolicy: "Anywhere" is not an inject policy; use BeforeAppContainer or AfterAppContainer');
    expect(err).toThrow('spec.containers[0].shareVolumePolicy.type: "Enabled" is not a share-volume policy; use enabled or disabled (lower case)');
    expect(err).toThrow('spec.containers[0].upgradeStrategy.hotUpgradeEmptyImage: (unset) is missing for a HotUpgrade sidecar');
  });

  test('fails on transferEnv from metadata.name, a bad key, a bad apiVersion or no fieldRef (rule 22)', () => {
    const chart = Testing.chart();
    minimal(chart, 't', { containers: [{ name: 'a', image: 'a:1', transferEnv: [SidecarEnvTransfer.fromFieldPath('metadata.name', ['X']), SidecarEnvTransfer.fromContainerInLabel('bad key', ['Y'])] }] })
      .apiObject.addJsonPatch(
        JsonPatch.add('/spec/containers/0/transferEnv/-', { sourceContainerNameFrom: { fieldRef: { apiVersion: 'v2', fieldPath: "metadata.labels['k']" } }, envName: 'Z' }),
        JsonPatch.add('/spec/containers/0/transferEnv/-', { sourceContainerNameFrom: {}, envName: 'W' }),
      );
    const err = () => Testing.synth(chart);
    expect(err).toThrow('[test/t] SidecarSet "t" (apps.kruise.io/v1beta1) spec.containers[0].transferEnv[0].sourceContainerNameFrom.fieldRef.fieldPath: "metadata.name" is not a pod label or annotation reference (OpenKruise refuses metadata.name and every other path)');
    expect(err).toThrow("spec.containers[0].transferEnv[1].sourceContainerNameFrom.fieldRef.fieldPath: \"metadata.labels['bad key']\" has a key that name part must consist of");
    expect(err).toThrow('spec.containers[0].transferEnv[2].sourceContainerNameFrom.fieldRef.apiVersion: "v2" is not supported; use v1');
    expect(err).toThrow('spec.containers[0].transferEnv[3].sourceContainerNameFrom: {} has no fieldRef');
  });

  test('fails on a mount of a volume the SidecarSet does not declare, duplicate names, bad ports, env and images (rule 23)', () => {
    const chart = Testing.chart();
    minimal(chart, 'v', { containers: [{ name: 'a', image: 'a:1', ports: [{ number: 80, name: 'http' }] }, { name: 'a', image: ' b:1' }] })
      .apiObject.addJsonPatch(
        JsonPatch.add('/spec/containers/0/volumeMounts', [{ name: 'app-logs', mountPath: '/logs' }, { name: 'app-logs', mountPath: '/logs' }]),
        JsonPatch.add('/spec/containers/0/env', [{ name: '1BAD', value: 'x' }]),
        JsonPatch.add('/spec/containers/0/ports/-', { containerPort: 81, name: 'http' }),
        JsonPatch.add('/spec/containers/0/ports/-', { containerPort: 70000, name: 'Bad_Port' }),
        JsonPatch.add('/spec/volumes', [{ name: 'Vol', emptyDir: {} }, { name: 'Vol', emptyDir: {} }]),
      );
    const err = () => Testing.synth(chart);
    expect(err).toThrow('[test/v] SidecarSet "v" (apps.kruise.io/v1beta1) spec.containers[0].volumeMounts[0].name: "app-logs" is not a volume of this SidecarSet (the pod\'s own volumes are not visible to the SidecarSet webhook); declare the volume in the SidecarSet, or enable shareVolumes');
    expect(err).toThrow('spec.containers[0].volumeMounts[1].mountPath: "/logs" is mounted twice in this container');
    expect(err).toThrow('spec.containers[1].name: "a" is used by another sidecar of this SidecarSet; rename the container');
    expect(err).toThrow('spec.containers[1].image: " b:1" has leading or trailing whitespace');
    expect(err).toThrow('spec.containers[0].ports[1].name: "http" is used twice in this container');
    expect(err).toThrow('spec.containers[0].ports[2].containerPort: 70000 is not a port number; use 1 to 65535');
    expect(err).toThrow('spec.containers[0].ports[2].name: "Bad_Port" must consist of lowercase letters');
    expect(err).toThrow('spec.containers[0].env[0].name: "1BAD" must consist of letters');
    expect(err).toThrow('spec.volumes[0].name: "Vol" must consist of lowercase letters');
    expect(err).toThrow('spec.volumes[1].name: "Vol" is declared twice');
  });

  test('fails on an init-only SidecarSet with an init container named "test" (rule 23 placeholder)', () => {
    const chart = Testing.chart();
    minimal(chart, 'i', { containers: [], initContainers: [{ name: 'test', image: 't:1' }] });
    expect(() => Testing.synth(chart)).toThrow('spec.initContainers[0].name: "test" collides with the placeholder container "test" OpenKruise validates init-only SidecarSets with');
  });

  test('fails on invalid metadata labels and annotations (rule 1); a namespace on the wire form is a warning', () => {
    const chart = Testing.chart();
    minimal(chart, 'l', { metadata: { name: 'l', labels: { 'bad key!': 'x', 'team': 'a b' }, annotations: { 'bad/key/x': '1' } } });
    const err = () => Testing.synth(chart);
    expect(err).toThrow('[test/l] SidecarSet "l" (apps.kruise.io/v1beta1) metadata.labels["bad key!"]: "bad key!" key name part must consist of');
    expect(err).toThrow('[test/l] SidecarSet "l" (apps.kruise.io/v1beta1) metadata.labels["team"]: "team" value "a b" must be empty or consist of');
    expect(err).toThrow('[test/l] SidecarSet "l" (apps.kruise.io/v1beta1) metadata.annotations["bad/key/x"]: "bad/key/x" key must be a name with at most one \'/\'');
    const json = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', metadata: { name: 'ok', namespace: 'shop' }, spec: { selector: { matchLabels: { a: 'b' } }, containers: [{ name: 'c', image: 'c:1' }] } };
    expect(sidecarSetErrors(json)).toEqual([]);
    const raw = Testing.chart();
    KruiseValidation.enable(raw);
    new ApiObject(raw, 'ns', json);
    expect(Warnings.of(raw)).toEqual(['[test/ns] SidecarSet "ok" (apps.kruise.io/v1beta1) metadata.namespace: "shop" is ignored: SidecarSet is cluster-scoped, so the API server clears the namespace before any webhook sees it; remove metadata.namespace (spec.namespaceSelector chooses the namespaces of the pods)']);
    expect(() => Testing.synth(raw)).not.toThrow();
  });

  test('fails on resourcesPolicy combined with resources on a regular sidecar (rule 17)', () => {
    const chart = Testing.chart();
    minimal(chart, 'r', { containers: [{ name: 'agent', image: 'a:1', resources: { memory: { request: Size.mebibytes(64) } } }] })
      .apiObject.addJsonPatch(JsonPatch.add('/spec/containers/0/resourcesPolicy', { targetContainersMode: 'sum', resourcesExpr: { limits: { cpu: 'cpu*50%' } } }));
    expect(() => Testing.synth(chart)).toThrow('[test/r] SidecarSet "r" (apps.kruise.io/v1beta1) spec.containers[0].resourcesPolicy: {"targetContainersMode":"sum","resourcesExpr":{"limits":{"cpu":"cpu*50%"}}} is combined with resources on the same container; use either resources or resourcesPolicy');
  });

  test('fails on the upstream container checks of the sidecars as one pod: probes on plain init containers, pull policy, requests above limits, devices (rule 23)', () => {
    const chart = Testing.chart();
    minimal(chart, 'p', {
      containers: [{
        name: 'agent',
        image: 'a:1',
        resources: { cpu: { request: kplus.Cpu.millis(500), limit: kplus.Cpu.millis(100) } },
      }],
      initContainers: [{ name: 'prep', image: 'p:1', portNumber: 8080 }],
    }).apiObject.addJsonPatch(
      JsonPatch.add('/spec/containers/0/imagePullPolicy', 'Sometimes'),
      JsonPatch.add('/spec/containers/0/volumeDevices', [{ name: 'cache', devicePath: '/dev/xvda' }]),
      JsonPatch.add('/spec/volumes', [{ name: 'cache', emptyDir: {} }]),
    );
    const err = () => Testing.synth(chart);
    expect(err).toThrow('[test/p] SidecarSet "p" (apps.kruise.io/v1beta1) spec.initContainers[0].startupProbe: {"failureThreshold":3,"successThreshold":1,"tcpSocket":{"port":8080},"timeoutSeconds":1,"periodSeconds":10} is not allowed on an init container; remove it, or make the init container a sidecar (restartPolicy Always)');
    expect(err).toThrow('[test/p] SidecarSet "p" (apps.kruise.io/v1beta1) spec.containers[0].imagePullPolicy: "Sometimes" is not supported; use one of Always, IfNotPresent, Never');
    expect(err).toThrow('[test/p] SidecarSet "p" (apps.kruise.io/v1beta1) spec.containers[0].resources.requests["cpu"]: "500m" is greater than the limit "100m"; request at most the limit');
    expect(err).toThrow('[test/p] SidecarSet "p" (apps.kruise.io/v1beta1) spec.containers[0].volumeDevices[0].name: "cache" names no persistentVolumeClaim volume of the pod');
  });

  test('a volume mount of an undeclared volume is reported once, with the SidecarSet message (rule 23)', () => {
    const json = {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'SidecarSet',
      metadata: { name: 'ok' },
      spec: { selector: { matchLabels: { a: 'b' } }, containers: [{ name: 'c', image: 'c:1', volumeMounts: [{ name: 'logs', mountPath: '/logs' }] }] },
    };
    expect(sidecarSetErrors(json)).toEqual([
      'spec.containers[0].volumeMounts[0].name: "logs" is not a volume of this SidecarSet (the pod\'s own volumes are not visible to the SidecarSet webhook); declare the volume in the SidecarSet, or enable shareVolumes to receive the app containers\' mounts',
    ]);
  });

  test('fails on empty, invalid or repeated patchPodMetadata annotations (rules 25, 27)', () => {
    const chart = Testing.chart();
    minimal(chart, 'pm', { patchPodMetadata: [{ annotations: {} }, { annotations: { 'a.io/x': '1', 'bad key': '2' } }, { annotations: { 'a.io/x': '3' } }] });
    const err = () => Testing.synth(chart);
    expect(err).toThrow('spec.patchPodMetadata[0].annotations: {} is empty');
    expect(err).toThrow('spec.patchPodMetadata[1].annotations["bad key"]: "bad key" key name part must consist');
    expect(err).toThrow('spec.patchPodMetadata[2].annotations["a.io/x"]: "a.io/x" is already patched by spec.patchPodMetadata[1]; patch each annotation key in one entry only');
  });
});

describe('patchPodMetadata and the cluster\'s whitelist (the kruise-configuration ConfigMap)', () => {
  const WHY = 'is refused by the SidecarSet webhook';
  const patched = (chart: Chart, labels?: Record<string, string>) => minimal(chart, 'w', {
    metadata: { name: 'w', labels }, patchPodMetadata: [{ annotations: { 'example.com/team': 'a', 'logging.io/on': 'true' } }],
  });
  const whitelist = (chart: Chart, value: string, namespace = 'kruise-system') => new ApiObject(chart, `cm-${namespace}`, {
    apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kruise-configuration', namespace }, data: { SidecarSet_PatchPodMetadata_WhiteList: value },
  });

  test('without the ConfigMap, synth fails naming the keys, the ConfigMap and the gate', () => {
    const chart = Testing.chart();
    patched(chart);
    expect(() => Testing.synth(chart)).toThrow('[test/w] SidecarSet "w" (apps.kruise.io/v1beta1) spec.patchPodMetadata: ["example.com/team","logging.io/on"] '
      + `${WHY}: it reads the annotation keys a SidecarSet may patch from SidecarSet_PatchPodMetadata_WhiteList of the ConfigMap kruise-system/kruise-configuration, `
      + 'refuses every patch without it, and none is among the objects judged; add a ConfigMap named kruise-configuration in namespace kruise-system with data '
      + 'SidecarSet_PatchPodMetadata_WhiteList: \'{"rules":[{"allowedAnnotationKeyExprs":["^example\\\\.com/team$","^logging\\\\.io/on$"]}]}\', '
      + 'or turn on the feature gate SidecarSetPatchPodMetadataDefaultsAllowed (KruiseControlPlane featureGates)');
  });

  test('a whitelist that allows every key passes; one in another namespace than the control plane\'s does not count', () => {
    const ok = Testing.chart();
    patched(ok);
    whitelist(ok, JSON.stringify({ rules: [{ allowedAnnotationKeyExprs: ['^example\\.com/', '^logging\\.io/'] }] }));
    expect(() => Testing.synth(ok)).not.toThrow();
    const elsewhere = Testing.chart();
    patched(elsewhere);
    whitelist(elsewhere, JSON.stringify({ rules: [{ allowedAnnotationKeyExprs: ['.*'] }] }), 'default');
    expect(() => Testing.synth(elsewhere)).toThrow('and none is among the objects judged');
  });

  test('a key no expression allows, a rule whose selector misses the SidecarSet, and a whitelist that is no JSON', () => {
    const some = Testing.chart();
    patched(some);
    whitelist(some, JSON.stringify({ rules: [{ allowedAnnotationKeyExprs: ['^example\\.com/'] }] }));
    expect(() => Testing.synth(some)).toThrow('[test/w] SidecarSet "w" (apps.kruise.io/v1beta1) spec.patchPodMetadata[0].annotations["logging.io/on"]: "logging.io/on" '
      + 'is not allowed by SidecarSet_PatchPodMetadata_WhiteList of ConfigMap kruise-system/kruise-configuration at \'test/cm-kruise-system\': '
      + 'no expression of the rules that apply to this SidecarSet matches it');
    const selected = Testing.chart();
    patched(selected, { team: 'a' });
    whitelist(selected, JSON.stringify({ rules: [{ selector: { matchLabels: { team: 'b' } }, allowedAnnotationKeyExprs: ['.*'] }] }));
    expect(() => Testing.synth(selected)).toThrow('no rule of SidecarSet_PatchPodMetadata_WhiteList of ConfigMap kruise-system/kruise-configuration at \'test/cm-kruise-system\' '
      + 'applies to this SidecarSet\'s labels ({"team":"a"})');
    const broken = Testing.chart();
    patched(broken);
    whitelist(broken, '{rules:');
    expect(() => Testing.synth(broken)).toThrow('SidecarSet_PatchPodMetadata_WhiteList of ConfigMap kruise-system/kruise-configuration at \'test/cm-kruise-system\' is not JSON (');
  });

  test('the feature gate SidecarSetPatchPodMetadataDefaultsAllowed on the app\'s control plane allows every key', () => {
    const app = Testing.app();
    new KruiseControlPlane(new Chart(app, 'platform'), 'kruise', { featureGates: { SidecarSetPatchPodMetadataDefaultsAllowed: true } });
    const chart = new Chart(app, 'test');
    patched(chart);
    expect(() => Testing.synth(chart)).not.toThrow();
    const off = Testing.app();
    new KruiseControlPlane(new Chart(off, 'platform'), 'kruise');
    patched(new Chart(off, 'test'));
    expect(() => off.synth()).toThrow('spec.patchPodMetadata: ["example.com/team","logging.io/on"] is refused by the SidecarSet webhook');
  });
});

describe('SidecarSet warnings', () => {
  test('warn on kube-system, NotUpdate/paused and paused injection', () => {
    const chart = Testing.chart();
    allowPodMetadataPatches(chart);
    minimal(chart, 'w', {
      namespace: 'kube-system',
      patchPodMetadata: [{ annotations: { 'a.io/x': '1' } }],
      injectionPaused: true,
      containers: [],
      initContainers: [{ name: 'agent', image: 'a:1' }],
      updateStrategy: SidecarSetUpdateStrategy.notUpdate(),
    });
    const w = Warnings.of(chart);
    expect(w).toEqual([
      '[test/w] SidecarSet "w" (apps.kruise.io/v1beta1) spec.namespaceSelector: {"matchLabels":{"kubernetes.io/metadata.name":"kube-system"}} selects namespace kube-system, but the OpenKruise pod webhook (Helm chart) never sees pods there, so nothing is injected; run the sidecar another way in kube-system',
      '[test/w] SidecarSet "w" (apps.kruise.io/v1beta1) spec.updateStrategy.type: "NotUpdate" means changes to this SidecarSet reach only pods created from now on; use SidecarSetUpdateStrategy.rollingUpdate() when the running pods should follow',
      '[test/w] SidecarSet "w" (apps.kruise.io/v1beta1) spec.injectionStrategy.paused: true means new pods get none of these sidecars; drop injectionPaused to inject them again',
    ]);
  });

  test('warns on a namespace selector naming kube-public', () => {
    const chart = Testing.chart();
    minimal(chart, 'p', { namespace: 'kube-public' });
    expect(Warnings.of(chart)).toEqual([
      '[test/p] SidecarSet "p" (apps.kruise.io/v1beta1) spec.namespaceSelector: {"matchLabels":{"kubernetes.io/metadata.name":"kube-public"}} selects namespace kube-public, which Kubernetes keeps for publicly readable cluster data rather than workloads, so a fleet-wide sidecar there is almost always unintended; select your application namespaces instead',
    ]);
  });

  test('fails when the control plane of the app has the PodWebhook gate off (nothing would be injected)', () => {
    const chart = Testing.chart();
    _registerGateSource(chart, { path: 'test/kruise', isEnabled: g => g !== 'PodWebhook', howToEnable: g => `set featureGates ${g}=true` });
    minimal(chart);
    expect(() => Testing.synth(chart)).toThrow(
      "[test/log] SidecarSet \"log\" (apps.kruise.io/v1beta1) kind: \"SidecarSet\" needs the OpenKruise feature gate PodWebhook, which is off in the control plane at 'test/kruise' (pods are created without its sidecars then); set featureGates PodWebhook=true",
    );
  });

  test('a plain SidecarSet has no warning', () => {
    const chart = Testing.chart();
    minimal(chart);
    expect(Warnings.of(chart)).toEqual([]);
  });
});

describe('app-wide SidecarSet conflicts (rule 29)', () => {
  test('fails on two SidecarSets in different charts that inject the same container into overlapping pods, naming both', () => {
    const app = Testing.app();
    const a = new Chart(app, 'platform-a');
    const b = new Chart(app, 'platform-b');
    minimal(a, 'log', { containers: [{ name: 'agent', image: 'a:1' }] });
    minimal(b, 'metrics', { selector: kplus.LabelSelector.of({ expressions: [kplus.LabelExpression.in('logging', ['on', 'yes'])] }), containers: [{ name: 'agent', image: 'b:1' }] });
    expect(() => app.synth()).toThrow("[platform-a/log] SidecarSet \"log\" (apps.kruise.io/v1beta1) spec: \"metrics\" is another SidecarSet (at 'platform-b/metrics') whose selectors and namespaces can match the same pods, and both inject the container \"agent\"; OpenKruise refuses the second one applied; rename, or make the selectors or namespaceSelectors disjoint");
  });

  test('the conflict is reported once per pair', () => {
    const chart = Testing.chart();
    minimal(chart, 'one', { containers: [{ name: 'agent', image: 'a:1' }] });
    minimal(chart, 'two', { containers: [{ name: 'agent', image: 'b:1' }] });
    let message = '';
    try { Testing.synth(chart); } catch (e) { message = String(e); }
    expect(message.match(/is another SidecarSet/g)).toHaveLength(1);
  });

  test('fails on init containers, differing volumes and Overwrite annotation patches; also against an L1 SidecarSet', () => {
    const chart = Testing.chart();
    allowPodMetadataPatches(chart);
    const v1 = kplus.Volume.fromEmptyDir(chart, 'v1', 'shared');
    minimal(chart, 'one', { initContainers: [{ name: 'prep', image: 'p:1' }], volumes: [v1], patchPodMetadata: [{ annotations: { 'x.io/a': '1' }, policy: SidecarSetPatchPolicy.OVERWRITE }] });
    new kruise.KubeSidecarSet(chart, 'raw', {
      metadata: { name: 'raw' },
      spec: {
        selector: { matchLabels: { logging: 'on' } },
        initContainers: [{ name: 'prep', image: 'q:1' }],
        containers: [{ name: 'other', image: 'o:1' }],
        volumes: [{ name: 'shared', hostPath: { path: '/x' } }],
        patchPodMetadata: [{ annotations: { 'x.io/a': '2' }, patchPolicy: 'MergePatchJson' }],
      },
    });
    expect(() => Testing.synth(chart)).toThrow("[test/one] SidecarSet \"one\" (apps.kruise.io/v1beta1) spec: \"raw\" is another SidecarSet (at 'test/raw') whose selectors and namespaces can match the same pods, and both inject the init container \"prep\", both declare the volume \"shared\" with different definitions, both patch the pod annotation \"x.io/a\" (Overwrite vs MergePatchJson)");
  });

  test('disjoint selectors or namespaces, identical volumes and two MergePatchJson patches do not conflict', () => {
    const chart = Testing.chart();
    allowPodMetadataPatches(chart);
    minimal(chart, 'one', { containers: [{ name: 'agent', image: 'a:1' }], namespace: 'a' });
    minimal(chart, 'two', { containers: [{ name: 'agent', image: 'a:1' }], namespace: 'b' });
    minimal(chart, 'three', { selector: sel({ logging: 'off' }), containers: [{ name: 'agent', image: 'a:1' }] });
    const v = (id: string) => kplus.Volume.fromEmptyDir(chart, id, 'same');
    minimal(chart, 'four', { selector: sel({ x: '1' }), volumes: [v('va')], patchPodMetadata: [{ annotations: { 'k.io/a': '{}' }, policy: SidecarSetPatchPolicy.MERGE_PATCH_JSON }] });
    minimal(chart, 'five', { selector: sel({ x: '1' }), volumes: [v('vb')], patchPodMetadata: [{ annotations: { 'k.io/a': '{}' }, policy: SidecarSetPatchPolicy.MERGE_PATCH_JSON }] });
    expect(() => Testing.synth(chart)).not.toThrow();
  });
});

describe('injection preview', () => {
  function fleet() {
    const app = Testing.app();
    const platform = new Chart(app, 'platform');
    allowPodMetadataPatches(platform);
    const logs = kplus.Volume.fromEmptyDir(platform, 'logs', 'agent-buffer');
    const log = new SidecarSet(platform, 'log', {
      metadata: { name: 'logging' },
      selector: sel({ logging: 'on' }),
      containers: [{ name: 'log-agent', image: 'fluent-bit:3.1', volumeMounts: [{ path: '/buffer', volume: logs }], shareVolumes: true, transferEnv: [SidecarEnvTransfer.fromContainer('web', ['APP_NAME'])] }],
      initContainers: [{ name: 'log-init', image: 'busybox:1.36' }],
      imagePullSecrets: [kplus.Secret.fromSecretName(platform, 'pull', 'platform-pull')],
      patchPodMetadata: [{ annotations: { 'logging.io/on': 'true' } }],
    });
    new SidecarSet(platform, 'mesh', {
      metadata: { name: 'mesh' },
      selector: sel({ mesh: 'on' }),
      namespaceSelector: sel({ mesh: 'enabled' }),
      containers: [{ name: 'proxy', image: 'envoy:1.31', injectPolicy: SidecarInjectPolicy.AFTER_APP_CONTAINER, upgradeStrategy: SidecarUpgradeStrategy.hot('empty:1'), ports: [{ number: 15001, name: 'proxy' }] }],
    });
    const shop = new Chart(app, 'shop', { namespace: 'shop' });
    new kplus.Namespace(shop, 'ns', { metadata: { name: 'shop', labels: { mesh: 'enabled' } } });
    const web = new kplus.Deployment(shop, 'web', {
      podMetadata: { labels: { logging: 'on', mesh: 'on' } },
      containers: [{ name: 'web', image: 'nginx:1.27', portNumber: 80, envVariables: { APP_NAME: kplus.EnvValue.fromValue('shop') }, volumeMounts: [{ path: '/data', volume: kplus.Volume.fromEmptyDir(shop, 'data', 'data') }] }],
    });
    const other = new Chart(app, 'other', { namespace: 'other' });
    const job = new kplus.Job(other, 'job', { podMetadata: { labels: { mesh: 'on' } }, containers: [{ name: 'main', image: 'busybox:1.36' }] });
    return { app, log, web, job };
  }

  test('computes the pod after injection: order by inject policy, shared volumes, transferred env, hot-upgrade pair', () => {
    const { web } = fleet();
    const p = SidecarSet.previewInjection(web);
    expect(p.injectedBy).toEqual(['logging', 'mesh']);
    expect(p.kind).toBe('Deployment');
    expect(p.namespace).toBe('shop');
    expect(p.workloadPath).toBe('shop/web');
    expect(p.containerNames).toEqual(['log-agent', 'web', 'proxy-1', 'proxy-2']);
    expect(p.initContainerNames).toEqual(['log-init']);
    expect(p.volumeNames).toEqual(['data', 'agent-buffer']);
    expect(p.problems).toEqual([]);
    const agent = p.podTemplate.spec.containers[0];
    expect(agent.volumeMounts).toEqual([{ mountPath: '/buffer', name: 'agent-buffer' }, { mountPath: '/data', name: 'data' }]);
    expect(agent.env).toEqual([{ name: 'IS_INJECTED', value: 'true' }, { name: 'APP_NAME', value: 'shop' }]);
    const [p1, p2] = p.podTemplate.spec.containers.slice(2);
    expect([p1.image, p2.image]).toEqual(['envoy:1.31', 'empty:1']);
    expect(p2.env.map((e: any) => e.name)).toEqual(['IS_INJECTED', 'SIDECARSET_VERSION', 'SIDECARSET_VERSION_ALT']);
    expect(p.podTemplate.spec.imagePullSecrets).toEqual([{ name: 'platform-pull' }]);
    expect(p.podTemplate.metadata.annotations).toEqual({
      'logging.io/on': 'true',
      'version.sidecarset.kruise.io/proxy-1': '1',
      'versionalt.sidecarset.kruise.io/proxy-1': '0',
      'version.sidecarset.kruise.io/proxy-2': '0',
      'versionalt.sidecarset.kruise.io/proxy-2': '1',
      'kruise.io/sidecarset-working-hotupgrade-container': '{"proxy":"proxy-1"}',
      'kruise.io/sidecarset-injected-list': 'logging,mesh',
    });
    expect(p.toYaml()).toContain('injectedBy:\n  - logging\n  - mesh');
    expect(InjectionPreview.of(ApiObject.of(web)).containerNames).toEqual(p.containerNames);
  });

  test('previews the OpenKruise workloads too, and names the workload', () => {
    const chart = Testing.chart();
    const log = minimal(chart, 'log', { containers: [{ name: 'log-agent', image: 'fluent-bit:3.1', shareVolumeDevices: true }] });
    const podMetadata = { labels: { logging: 'on' } };
    const cs = new CloneSet(chart, 'web', { metadata: { name: 'web' }, podMetadata, containers: [{ name: 'web', image: 'nginx:1.27' }] });
    const sts = new AdvancedStatefulSet(chart, 'db', { metadata: { name: 'db' }, podMetadata, containers: [{ name: 'db', image: 'postgres:17', portNumber: 5432 }] });
    const ds = new AdvancedDaemonSet(chart, 'agent', { metadata: { name: 'agent' }, containers: [{ name: 'node', image: 'agent:1' }] });
    const web = SidecarSet.previewInjection(cs);
    expect([web.kind, web.name, web.namespace]).toEqual(['CloneSet', 'web', 'default']);
    expect(web.containerNames).toEqual(['log-agent', 'web']);
    expect(SidecarSet.previewInjection(sts).containerNames).toEqual(['log-agent', 'db']);
    expect(SidecarSet.previewInjection(ds).injectedBy).toEqual([]);
    expect([log.selects(cs), log.selects(ds)]).toEqual([true, false]);
    expect(find(chart, 'SidecarSet').spec.containers[0].shareVolumeDevicePolicy).toEqual({ type: 'enabled' });
  });

  test('namespaceSelector is matched against the labels of Namespace objects in the app', () => {
    const { job, log } = fleet();
    expect(SidecarSet.previewInjection(job).injectedBy).toEqual([]);
    expect(log.selects(job)).toBe(false);
  });

  test('fails when previewing something without a pod template', () => {
    const chart = Testing.chart();
    const cm = new kplus.ConfigMap(chart, 'cm');
    expect(() => SidecarSet.previewInjection(cm)).toThrow('has no pod template, so no sidecar can be injected into it');
  });

  test('fails synth on a sidecar named like an app container, naming the SidecarSet, the workload and the container', () => {
    const app = Testing.app();
    const platform = new Chart(app, 'platform');
    minimal(platform, 'log', { containers: [{ name: 'web', image: 'fluent-bit:3.1' }] });
    const shop = new Chart(app, 'shop');
    new kplus.Deployment(shop, 'web', { metadata: { name: 'web' }, podMetadata: { labels: { logging: 'on' } }, containers: [{ name: 'web', image: 'nginx:1.27' }] });
    expect(() => app.synth()).toThrow("[platform/log] SidecarSet \"log\" (apps.kruise.io/v1beta1) spec.containers[0].name: \"web\" is also the name of a container of the pods of Deployment \"web\" at 'shop/web', so OpenKruise silently replaces that container with the sidecar; rename one of them");
  });

  test('fails synth on volume and port collisions with the app', () => {
    const app = Testing.app();
    const platform = new Chart(app, 'platform');
    const ss = minimal(platform, 'log', { containers: [{ name: 'agent', image: 'a:1', portNumber: 8080, ports: [{ number: 9000, name: 'http' }] }] });
    ss.containers[0].mount('/x', kplus.Volume.fromHostPath(platform, 'hp', 'data', { path: '/var/data' }));
    const shop = new Chart(app, 'shop');
    new kplus.Deployment(shop, 'web', {
      metadata: { name: 'web' },
      podMetadata: { labels: { logging: 'on' } },
      containers: [{ name: 'web', image: 'nginx:1.27', portNumber: 8080, ports: [{ number: 9001, name: 'http' }], volumeMounts: [{ path: '/d', volume: kplus.Volume.fromEmptyDir(shop, 'data', 'data') }] }],
    });
    const err = () => app.synth();
    expect(err).toThrow([
      'Validation failed with the following errors:',
      "  [platform/log] SidecarSet \"log\" (apps.kruise.io/v1beta1) spec.volumes[0].name: \"data\" is also the name of a different volume of the pods of Deployment \"web\" at 'shop/web', and OpenKruise keeps the pod's volume, so the sidecar mounts the wrong data; rename one of them",
      "  [platform/log] SidecarSet \"log\" (apps.kruise.io/v1beta1) spec.containers[0].ports[0].containerPort: 8080 is also a port (TCP) of the container \"web\" of the pods of Deployment \"web\" at 'shop/web', and the containers of a pod share its network; change one port",
      "  [platform/log] SidecarSet \"log\" (apps.kruise.io/v1beta1) spec.containers[0].ports[1].name: \"http\" is also the name of a port of the container \"web\" of the pods of Deployment \"web\" at 'shop/web', so a Service targetPort \"http\" is ambiguous; rename one port",
    ].join('\n'));
  });

  test('fails synth on a sidecar init container named like an app init container; paused injection and kube-system pods are skipped', () => {
    const app = Testing.app();
    const platform = new Chart(app, 'platform');
    minimal(platform, 'log', { containers: [], initContainers: [{ name: 'setup', image: 'a:1' }] });
    minimal(platform, 'paused', { selector: sel({ logging: 'on' }), containers: [{ name: 'web', image: 'x:1' }], injectionPaused: true });
    const shop = new Chart(app, 'shop');
    const d = new kplus.Deployment(shop, 'web', { metadata: { name: 'web' }, podMetadata: { labels: { logging: 'on' } }, containers: [{ name: 'web', image: 'nginx:1.27' }], initContainers: [{ name: 'setup', image: 'b:1' }] });
    const sys = new Chart(app, 'sys', { namespace: 'kube-system' });
    const s = new kplus.Deployment(sys, 'dns', { podMetadata: { labels: { logging: 'on' } }, containers: [{ name: 'dns', image: 'coredns:1' }] });
    expect(() => app.synth()).toThrow("[platform/log] SidecarSet \"log\" (apps.kruise.io/v1beta1) spec.initContainers[0].name: \"setup\" is also the name of an init container of the pods of Deployment \"web\" at 'shop/web', so OpenKruise silently replaces that init container with the sidecar; rename one of them");
    expect(SidecarSet.previewInjection(d).injectedBy).toEqual(['log']);
    expect(SidecarSet.previewInjection(s).injectedBy).toEqual([]);
  });

  test('writeAtSynth writes one preview per injected workload next to the synthesized YAML', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'preview-'));
    const app = new App({ outdir });
    const platform = new Chart(app, 'platform');
    minimal(platform, 'log');
    const shop = new Chart(app, 'shop', { namespace: 'shop' });
    new kplus.Deployment(shop, 'web', { metadata: { name: 'web' }, podMetadata: { labels: { logging: 'on' } }, containers: [{ name: 'web', image: 'nginx:1.27' }] });
    new kplus.Deployment(shop, 'api', { metadata: { name: 'api' }, podMetadata: { labels: { logging: 'off' } }, containers: [{ name: 'api', image: 'api:1' }] });
    InjectionPreview.writeAtSynth(app);
    app.synth();
    expect(fs.readdirSync(path.join(outdir, 'injection-preview'))).toEqual(['Deployment.shop.web.yaml']);
    const text = fs.readFileSync(path.join(outdir, 'injection-preview', 'Deployment.shop.web.yaml'), 'utf8');
    expect(text).toContain('injectedBy:\n  - log\n');
    expect(text).toContain('name: log-agent');
    const custom = fs.mkdtempSync(path.join(os.tmpdir(), 'preview-custom-'));
    InjectionPreview.writeAtSynth(app, { directory: custom });
    app.synth();
    expect(fs.readdirSync(custom)).toEqual(['Deployment.shop.web.yaml']);
  });
});

describe('app-wide checks meet a workload whose pod template does not decode', () => {
  // the API server refuses such a Deployment; the fleet checks skip it instead of failing on it
  test.each([
    ['containers given as a map', { containers: { web: { image: 'nginx:1.27' } } }],
    ['volumes given as a map', { containers: [{ name: 'web', image: 'nginx:1.27' }], volumes: { data: {} } }],
    ['env given as a string', { containers: [{ name: 'web', image: 'nginx:1.27', env: 'MODE=a' }] }],
    ['the pod spec given as a string', 'web'],
  ])('a raw Deployment with %s: synth passes, the SidecarSet selects nothing of it', (_what, podSpec) => {
    const chart = Testing.chart();
    minimal(chart);
    new ApiObject(chart, 'd', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: { selector: { matchLabels: { logging: 'on' } }, template: { metadata: { labels: { logging: 'on' } }, spec: podSpec } },
    });
    expect(Testing.synth(chart).map(o => o.kind)).toEqual(['SidecarSet', 'Deployment']);
  });

  test('the same template in a CloneSet is refused with the field, through the pod template check', () => {
    const chart = Testing.chart();
    minimal(chart);
    new ApiObject(chart, 'c', {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      metadata: { name: 'c' },
      spec: { selector: { matchLabels: { logging: 'on' } }, template: { metadata: { labels: { logging: 'on' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }], volumes: { data: {} } } } },
    });
    expect(() => Testing.synth(chart)).toThrow('[test/c] CloneSet "c" (apps.kruise.io/v1alpha1) spec.template.spec.volumes: {"data":{}} is not a list, so the API server cannot decode the pod; give a list (or leave it out)');
  });
});

test('a partition of 0% is written as the integer 0', () => {
  const chart = Testing.chart();
  minimal(chart, 'zero', { updateStrategy: SidecarSetUpdateStrategy.rollingUpdate({ partition: kplus.PercentOrAbsolute.percent(0) }) });
  minimal(chart, 'half', { updateStrategy: SidecarSetUpdateStrategy.rollingUpdate({ partition: kplus.PercentOrAbsolute.percent(50) }) });
  expect(find(chart, 'SidecarSet', 'zero').spec.updateStrategy).toEqual({ type: 'RollingUpdate', partition: 0 });
  expect(find(chart, 'SidecarSet', 'half').spec.updateStrategy).toEqual({ type: 'RollingUpdate', partition: '50%' });
});
