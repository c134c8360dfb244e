/**
 * Property-based admission: generated L2 props and mutated wire-form fixtures
 * are judged by an oracle that is not this library's code (the upstream CRD
 * schemas compiled here with ajv, and the core Kubernetes pod rules written
 * here from the Kubernetes API conventions), and synth must agree with it:
 *
 * - when the oracle refuses a case, synth fails (never laxer than the CRD and the pod rules);
 * - when synth fails, every error is in the one message shape (test/util/message-shape.ts), no bare TypeError;
 * - when synth fails but the oracle admits the case, each error comes from an admission rule
 *   family this library adds on purpose (webhook rules and the stricter ones), never from the schema;
 * - two synths of one case are byte-identical;
 * - whatever a valid case of any kind is mutated into, synth either passes or names a construct path and a
 *   field; it never fails with a bare TypeError.
 *
 * The seed is fixed (KRUISE_PROPERTY_SEED overrides it, KRUISE_PROPERTY_RUNS scales the runs).
 */
import * as fs from 'fs';
import * as path from 'path';
import { ValidateFunction } from 'ajv';
import { ApiObject, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as fc from 'fast-check';
import * as YAML from 'yaml';
import {
  AdvancedDaemonSet, AdvancedDaemonSetUpdateStrategy, AdvancedStatefulSet, AdvancedStatefulSetUpdateStrategy, CloneSet,
  CloneSetUpdateStrategy, DistributedResource, PodUnavailableBudget, ResourceDistribution, SidecarSet, WorkloadSpread,
  WorkloadSpreadScheduleStrategy,
} from '../../src';
import { servedVersions } from '../../src/validation/schemas';
import { OPENKRUISE } from '../api/upstream';
import { admissionCases } from '../fixtures/admission';
import * as arb from '../fixtures/arbitraries';
import { kindFixtures } from '../fixtures/kinds';
import { synthOn } from '../util/admission';
import { crdAjv, toJsonSchema } from '../util/crd-schema';
import { MESSAGE_SHAPE } from '../util/message-shape';

const SEED = Number(process.env.KRUISE_PROPERTY_SEED ?? 190_901);
const SCALE = Number(process.env.KRUISE_PROPERTY_RUNS ?? 1);
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));
const params = (n: number): fc.Parameters<any> => ({ seed: SEED, numRuns: runs(n), endOnFailure: true });

beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());

// --- oracle 1: the upstream CRD schemas, compiled here ---------------------------------------

// ../shared/reference/kruise-v1.9.0/crds: the tests that need it skip as groups when it is absent
const CRD_DIR = OPENKRUISE.dir;

const crdValidators = new Map<string, ValidateFunction>();
{
  const ajv = crdAjv();
  for (const f of OPENKRUISE.available() ? fs.readdirSync(CRD_DIR).filter(n => n.endsWith('.yaml')) : []) {
    const crd = YAML.parse(fs.readFileSync(path.join(CRD_DIR, f), 'utf-8'));
    for (const v of crd.spec.versions) {
      const schema = toJsonSchema(v.schema.openAPIV3Schema);
      schema.properties = { ...schema.properties, apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' } };
      crdValidators.set(`${crd.spec.group}/${v.name}/${crd.spec.names.kind}`, ajv.compile(schema));
    }
  }
}

// --- oracle 2: what the API server refuses in a pod, from the Kubernetes rules -----------------

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const IANA_SVC = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

const isDnsLabel = (s: unknown) => typeof s === 'string' && s.length <= 63 && DNS_LABEL.test(s);
const isLabelValue = (s: unknown) => typeof s === 'string' && s.length <= 63 && LABEL_VALUE.test(s);
const isPortName = (s: string) => s.length <= 15 && IANA_SVC.test(s) && !s.includes('--') && /[a-z]/.test(s);

/** Why the API server refuses a pod with these containers, or undefined. */
/**
 * Fields the core/v1 pod types declare as structs or maps: any other JSON value (a string, a number, a
 * list) does not decode, so the API server refuses the object (null decodes as unset).
 */
const POD_STRUCTS = ['securityContext', 'affinity', 'dnsConfig', 'os', 'nodeSelector', 'overhead'];
const CONTAINER_STRUCTS = ['livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle', 'resources', 'securityContext'];
const VOLUME_SOURCE_STRUCTS = ['hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi',
  'glusterfs', 'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile', 'configMap',
  'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected', 'portworxVolume', 'scaleIO', 'storageos', 'csi', 'ephemeral', 'image'];
/** Fields the core/v1 PodSpec declares as slices. */
const POD_SLICES = ['containers', 'initContainers', 'ephemeralContainers', 'volumes', 'tolerations', 'topologySpreadConstraints', 'readinessGates',
  'hostAliases', 'imagePullSecrets', 'resourceClaims', 'schedulingGates'];
const isStruct = (v: unknown) => v === undefined || (v !== null && typeof v === 'object' && !Array.isArray(v));

/** Why a pod spec does not decode into the core/v1 types, or undefined. */
function decodeProblem(spec: any): string | undefined {
  if (!isStruct(spec)) return 'pod spec is not an object';
  if (spec === undefined) return undefined;
  for (const f of POD_STRUCTS) if (!isStruct(spec[f])) return `${f} is not an object`;
  for (const f of POD_SLICES) if (spec[f] !== undefined && !Array.isArray(spec[f])) return `${f} is not a list`;
  for (const v of Array.isArray(spec.volumes) ? spec.volumes : []) {
    if (v === null || typeof v !== 'object') continue; // reported by podProblem's list rules
    for (const f of VOLUME_SOURCE_STRUCTS) if (!isStruct(v[f])) return `volume source ${f} is not an object`;
  }
  for (const c of [...(Array.isArray(spec.containers) ? spec.containers : []), ...(Array.isArray(spec.initContainers) ? spec.initContainers : [])]) {
    if (c === null || typeof c !== 'object') continue;
    for (const f of CONTAINER_STRUCTS) if (!isStruct(c[f])) return `container ${f} is not an object`;
    if (c.lifecycle) for (const h of ['postStart', 'preStop']) if (!isStruct(c.lifecycle[h])) return `lifecycle ${h} is not an object`;
    // a probe or lifecycle handler names its action (core/v1 validation: "must specify a handler type")
    for (const f of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
      if (c[f] && !['exec', 'httpGet', 'tcpSocket', 'grpc'].some(k => c[f][k] !== undefined)) return `${f} has no handler`;
    }
    if (c.lifecycle) {
      for (const h of ['postStart', 'preStop']) {
        if (c.lifecycle[h] && !['exec', 'httpGet', 'tcpSocket', 'sleep'].some(k => c.lifecycle[h][k] !== undefined)) return `lifecycle ${h} has no handler`;
      }
    }
    for (const e of Array.isArray(c.env) ? c.env : []) if (e && typeof e === 'object' && !isStruct(e.valueFrom)) return 'env valueFrom is not an object';
  }
  return undefined;
}

function podProblem(containers: any, initContainers: any = []): string | undefined {
  if (!Array.isArray(containers) || !Array.isArray(initContainers)) return 'containers is not a list';
  const all = [...initContainers, ...containers];
  if (containers.length === 0) return 'no container';
  const names = new Set<string>();
  for (const c of all) {
    if (c === null || typeof c !== 'object') return 'container is not an object';
    if (!isDnsLabel(c.name)) return `container name ${JSON.stringify(c.name)}`;
    if (names.has(c.name)) return `container name ${c.name} repeated`;
    names.add(c.name);
    if (typeof c.image !== 'string' || c.image.trim() === '') return 'image empty';
    if (c.image !== c.image.trim()) return 'image has surrounding whitespace';
    for (const f of ['ports', 'env', 'volumeMounts']) if (c[f] !== undefined && !Array.isArray(c[f])) return `${f} is not a list`;
    const portNames = new Set<string>();
    for (const p of c.ports ?? []) {
      if (!(Number.isInteger(p.containerPort) && p.containerPort >= 1 && p.containerPort <= 65535)) return `port ${p.containerPort}`;
      if (p.name !== undefined) {
        if (!isPortName(p.name) || portNames.has(p.name)) return `port name ${p.name}`;
        portNames.add(p.name);
      }
    }
    for (const e of c.env ?? []) if (!ENV_NAME.test(e.name)) return `env name ${JSON.stringify(e.name)}`;
  }
  return undefined;
}

function labelsProblem(labels: Record<string, unknown> | undefined): string | undefined {
  for (const [k, v] of Object.entries(labels ?? {})) if (!isLabelValue(v)) return `label ${k}=${JSON.stringify(v)}`;
  return undefined;
}

/** Names the API server refuses for a custom resource (a DNS-1123 subdomain). */
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** The API server drops a null field that the schema does not mark nullable before validating. */
function withoutNulls(v: any): any {
  if (Array.isArray(v)) return v.map(withoutNulls);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null).map(([k, x]) => [k, withoutNulls(x)]));
}

/** The oracle: why the cluster refuses `m` (schema or pod rules), or undefined when it admits it. */
function oracle(input: any): string | undefined {
  const m = withoutNulls(input);
  const [group, version] = String(m.apiVersion).split('/');
  const validate = crdValidators.get(`${group}/${version}/${m.kind}`);
  if (!validate) return `no CRD for ${m.apiVersion} ${m.kind}`;
  if (!validate(m)) return `CRD schema: ${JSON.stringify(validate.errors?.[0])}`;
  const name = m.metadata?.name;
  if (typeof name === 'string' && !(name.length <= 253 && SUBDOMAIN.test(name))) return `name ${name}`;
  const spec = m.spec ?? {};
  if (m.kind === 'SidecarSet') return podProblem(spec.containers ?? [{ name: 'test', image: 'test' }], spec.initContainers ?? []);
  const tpl = spec.template;
  if (tpl && ['CloneSet', 'StatefulSet', 'DaemonSet'].includes(m.kind)) {
    return labelsProblem(tpl.metadata?.labels) ?? decodeProblem(tpl.spec) ?? podProblem(tpl.spec?.containers ?? [], tpl.spec?.initContainers ?? []);
  }
  return undefined;
}

// --- what synth may say ---------------------------------------------------------------------

const BARE = /TypeError|Cannot read properties|is not a function|undefined is not/;

/**
 * Rule families the admission layer adds beyond the CRD schema and the pod rules: the webhook
 * rules of webhook-rules §1-6 and §13, and the stricter ones (fractional percentages the
 * controllers read as 0, pod-template checks upstream skips, durations the spec cannot hold).
 */
const ADMISSION_FAMILIES: RegExp[] = [
  /^spec\.replicas: /, /^spec\.selector/, /^spec\.template\.metadata\.labels: .* do not match spec\.selector/,
  /^spec\.updateStrategy/, /^spec\.scaleStrategy/, /^spec\.podManagementPolicy/, /^spec\.progressDeadlineSeconds/,
  /^spec\.minReadySeconds/, /^spec\.burstReplicas/, /^spec\.revisionHistoryLimit/, /^spec\.reserveOrdinals/,
  /^spec\.persistentVolumeClaimRetentionPolicy/, /^spec\.lifecycle/, /^spec\.volumeClaimTemplates/,
  /^spec\.template\.spec\.(readinessGates|restartPolicy|activeDeadlineSeconds)/,
  /^spec\.template\.spec\.(initContainers|containers)\[\d+\]\.ports\[\d+\]\.hostPort/,
  /^spec\.(maxUnavailable|minAvailable)/, /^spec: .* neither a selector nor a targetRef/, /^spec\.targetRef/,
  /^spec\.subsets/, /^spec\.scheduleStrategy/, /^spec\.targets/, /^spec\.resource/, /^spec\.namespaceSelector/,
  /^spec\.injectionStrategy/, /^spec\.patchPodMetadata/, /^spec\.(containers|initContainers)\[\d+\]\.(podInjectPolicy|shareVolumePolicy|upgradeStrategy|transferEnv|resourcesPolicy|volumeMounts)/,
  /^spec\.containers: \(unset\) and spec\.initContainers/, /^metadata\.(name|namespace|annotations|labels)/,
  /^spec: ".*" is another SidecarSet/, /^spec\.(containers|initContainers|volumes)\[\d+\]\.(name|ports\[\d+\]\.(containerPort|name)): .* of the pods of /,
  /needs the OpenKruise feature gate/, /names the governing headless Service/,
  /^[A-Za-z .]+: ".*(seconds|milliseconds)" is not a (whole number of seconds|finite duration); /,
];

/** The error lines of a failed synth, without the `[path] ` prefix. */
function errorLines(error: string): string[] {
  return error.split('\n').map(l => l.trim()).filter(l => l !== '' && l !== 'Validation failed with the following errors:')
    .map(l => l.replace(/^\[[^\]]+\] [A-Za-z]+ ("[^"]*" )?\([^)]*\) /, ''));
}

interface Verdict { readonly error: string; readonly output: string }

/** Synthesize a freshly built chart; the error text or the output YAML. */
function synthBuilt(build: (chart: any) => void): Verdict {
  const chart = Testing.chart();
  try {
    build(chart);
    return { error: '', output: JSON.stringify(Testing.synth(chart)) };
  } catch (e: any) {
    return { error: String(e?.message ?? e), output: '' };
  }
}

/** The wire form of the Kruise object `build` makes, rendered without admission (undefined when rendering throws). */
function rendered(build: (chart: any) => void, kind: string): { manifest?: any; error?: string } {
  const chart = Testing.chart();
  try {
    build(chart);
    const obj = chart.node.findAll().find((c: any) => c instanceof ApiObject && c.kind === kind && c.apiGroup !== '') as ApiObject;
    return { manifest: obj.toJson() };
  } catch (e: any) {
    return { error: String(e?.message ?? e) };
  }
}

/** The property every case must hold. `judged` is what the oracle sees (undefined when it cannot be rendered). */
function expectAgreement(what: string, judged: { manifest?: any; error?: string }, first: Verdict, second: Verdict): void {
  expect({ what, error: first.error, output: first.output }).toEqual({ what, error: second.error, output: second.output });
  if (first.error !== '') {
    expect({ what, bare: BARE.test(first.error) ? first.error : '' }).toEqual({ what, bare: '' });
    const lines = first.error.split('\n').slice(1).map(l => l.trim()).filter(l => l !== '');
    expect({ what, unclear: lines.filter(l => !MESSAGE_SHAPE.test(l)), validation: first.error.startsWith('Validation failed') })
      .toEqual({ what, unclear: [], validation: true });
  }
  if (judged.manifest === undefined) {
    // rendering failed: synth must fail as clearly
    expect({ what, refused: first.error !== '' }).toEqual({ what, refused: true });
    return;
  }
  const why = oracle(judged.manifest);
  if (why !== undefined) {
    expect({ what, oracle: why, refused: first.error !== '' }).toEqual({ what, oracle: why, refused: true });
  } else if (first.error !== '') {
    const unexplained = errorLines(first.error).filter(l => !ADMISSION_FAMILIES.some(r => r.test(l)));
    expect({ what, unexplained }).toEqual({ what, unexplained: [] });
  }
}

/** Run one L2 property: build the chart twice from the same props, judge the rendered object. */
function l2Property<T>(kind: string, props: fc.Arbitrary<T>, build: (chart: any, p: T) => void, n: number): void {
  fc.assert(fc.property(props, p => {
    const make = (chart: any) => build(chart, p);
    expectAgreement(`${kind} ${fc.stringify(p)}`, rendered(make, kind), synthBuilt(make), synthBuilt(make));
  }), params(n));
}

// --- the L2 properties ---------------------------------------------------------------------------

OPENKRUISE.describe('L2 constructs agree with the CRD schema and the pod rules', () => {
  test('CloneSet', () => {
    const strategy = fc.option(fc.record({
      type: fc.constantFrom('recreate', 'inPlaceIfPossible', 'inPlaceOnly'),
      partition: fc.option(arb.percentOrAbsolute(), { nil: undefined }),
      maxUnavailable: fc.option(arb.percentOrAbsolute(), { nil: undefined }),
      maxSurge: fc.option(arb.percentOrAbsolute(), { nil: undefined }),
      gracePeriod: arb.duration(),
    }), { nil: undefined });
    // eslint-disable-next-line @stylistic/max-len
    const props = fc.record({ replicas: arb.replicas(), containers: arb.containers(), minReady: arb.duration(), progressDeadline: arb.duration(), strategy, name: arb.name() });
    l2Property('CloneSet', props, (chart, p) => {
      const s = p.strategy;
      const updateStrategy = s === undefined ? undefined : s.type === 'recreate'
        ? CloneSetUpdateStrategy.recreate({ partition: s.partition, maxUnavailable: s.maxUnavailable, maxSurge: s.maxSurge })
        // eslint-disable-next-line @stylistic/max-len
        : (CloneSetUpdateStrategy as any)[s.type]({ partition: s.partition, maxUnavailable: s.maxUnavailable, maxSurge: s.maxSurge, gracePeriod: s.gracePeriod });
      new CloneSet(chart, 'web', { metadata: { name: p.name }, replicas: p.replicas, containers: p.containers, minReady: p.minReady, progressDeadline: p.progressDeadline, updateStrategy });
    }, 60);
  });

  test('AdvancedStatefulSet', () => {
    const props = fc.record({
      replicas: arb.replicas(),
      containers: arb.containers().map(cs => cs.map(c => ({ ...c, portNumber: c.portNumber ?? 8080 }))),
      parallel: fc.boolean(),
      partition: fc.option(fc.integer({ min: -2, max: 5 }), { nil: undefined }),
      maxUnavailable: fc.option(arb.percentOrAbsolute(), { nil: undefined }),
      minReady: arb.duration(),
    });
    l2Property('StatefulSet', props, (chart, p) => {
      new AdvancedStatefulSet(chart, 'db', {
        replicas: p.replicas,
        containers: p.containers,
        podManagementPolicy: p.parallel ? kplus.PodManagementPolicy.PARALLEL : kplus.PodManagementPolicy.ORDERED_READY,
        // eslint-disable-next-line @stylistic/max-len
        updateStrategy: AdvancedStatefulSetUpdateStrategy.rollingUpdate({ partition: p.partition, maxUnavailable: p.maxUnavailable, minReady: p.minReady }),
      });
    }, 50);
  });

  test('AdvancedDaemonSet', () => {
    const props = fc.record({
      containers: arb.containers(),
      minReady: arb.duration(),
      surge: fc.boolean(),
      budget: arb.percentOrAbsolute(),
      partition: fc.option(arb.percentOrAbsolute(), { nil: undefined }),
    });
    l2Property('DaemonSet', props, (chart, p) => {
      new AdvancedDaemonSet(chart, 'ds', {
        containers: p.containers,
        minReady: p.minReady,
        updateStrategy: p.surge
          ? AdvancedDaemonSetUpdateStrategy.surging({ maxSurge: p.budget, partition: p.partition })
          : AdvancedDaemonSetUpdateStrategy.rollingUpdate({ maxUnavailable: p.budget, partition: p.partition }),
      });
    }, 50);
  });

  test('SidecarSet', () => {
    const props = fc.record({ name: arb.name(), containers: arb.containers(), label: arb.labelValue() });
    l2Property('SidecarSet', props, (chart, p) => {
      new SidecarSet(chart, 'sc', { metadata: { name: p.name }, selector: kplus.LabelSelector.of({ labels: { app: p.label } }), containers: p.containers as any });
    }, 50);
  });

  test('PodUnavailableBudget', () => {
    const props = fc.record({ budget: arb.percentOrAbsolute(), min: fc.boolean(), label: arb.labelValue() });
    l2Property('PodUnavailableBudget', props, (chart, p) => {
      new PodUnavailableBudget(chart, 'pub', {
        selector: kplus.LabelSelector.of({ labels: { app: p.label } }),
        ...(p.min ? { minAvailable: p.budget } : { maxUnavailable: p.budget }),
      });
    }, 50);
  });

  test('WorkloadSpread', () => {
    const props = fc.record({
      subsets: fc.array(fc.record({ name: arb.name(), max: fc.option(arb.percentOrAbsolute(), { nil: undefined }) }), { minLength: 1, maxLength: 3 }),
      adaptive: fc.option(arb.duration(), { nil: null }),
    });
    l2Property('WorkloadSpread', props, (chart, p) => {
      const target = new CloneSet(chart, 'web', { containers: [{ image: 'nginx:1.27' }] });
      new WorkloadSpread(chart, 'ws', {
        target,
        subsets: p.subsets.map(s => ({ name: s.name, maxReplicas: s.max })),
        scheduleStrategy: p.adaptive === null ? undefined : WorkloadSpreadScheduleStrategy.adaptive({ rescheduleCritical: p.adaptive }),
      });
    }, 40);
  });

  test('ResourceDistribution', () => {
    const key = fc.oneof(fc.stringMatching(/^[a-z][a-z0-9._-]{0,8}$/), fc.constantFrom('.', '..', '..x', 'a b', 'ok'));
    // eslint-disable-next-line @stylistic/max-len
    const props = fc.record({ data: fc.dictionary(key, fc.string({ maxLength: 4 }), { maxKeys: 3 }), namespaces: fc.array(arb.name(), { maxLength: 2 }) });
    l2Property('ResourceDistribution', props, (chart, p) => {
      const cm = new kplus.ConfigMap(chart, 'cm', { metadata: { name: 'shared' }, data: p.data });
      new ResourceDistribution(chart, 'rd', { metadata: { name: 'shared' }, resource: DistributedResource.fromConfigMap(cm), includedNamespaces: p.namespaces, allNamespaces: p.namespaces.length === 0 });
    }, 40);
  });
});

// --- mutated wire-form fixtures ------------------------------------------------------------------

const KINDS = ['CloneSet', 'StatefulSet', 'DaemonSet', 'SidecarSet', 'PodUnavailableBudget', 'WorkloadSpread', 'ResourceDistribution'];
const FIXTURES = kindFixtures(servedVersions).filter(f => KINDS.includes(f.kind));

/** Paths worth mutating per kind (relative to the manifest). */
const PATHS: Record<string, string[]> = {
  CloneSet: ['spec.replicas', 'spec.updateStrategy.partition', 'spec.updateStrategy.maxUnavailable', 'spec.updateStrategy.maxSurge', 'spec.updateStrategy.type',
    'spec.template.spec.containers[0].image', 'spec.template.spec.containers[0].name', 'spec.template.metadata.labels.app', 'spec.minReadySeconds', 'metadata.name',
    'spec.template.spec', 'spec.template.spec.containers[0].livenessProbe', 'spec.template.spec.containers[0].resources', 'spec.template.spec.volumes[0].hostPath',
    'spec.template.spec.containers[0].env[0].valueFrom', 'spec.template.spec.securityContext'],
  StatefulSet: ['spec.replicas', 'spec.podManagementPolicy', 'spec.updateStrategy.rollingUpdate.partition', 'spec.updateStrategy.rollingUpdate.maxUnavailable',
    'spec.template.spec.containers[0].image', 'spec.template.spec.containers[0].ports', 'spec.selector.matchLabels.app', 'metadata.name',
    'spec.template.spec.containers[0].lifecycle', 'spec.template.spec.containers[0].lifecycle.preStop', 'spec.template.spec.volumes[0].secret', 'spec.template.spec.affinity'],
  DaemonSet: ['spec.updateStrategy.rollingUpdate.maxUnavailable', 'spec.updateStrategy.rollingUpdate.maxSurge', 'spec.updateStrategy.rollingUpdate.partition',
    'spec.minReadySeconds', 'spec.template.spec.containers[0].image', 'spec.template.spec.containers[0].name', 'spec.burstReplicas',
    'spec.template.spec.containers[0].readinessProbe', 'spec.template.spec.containers[0].securityContext', 'spec.template.spec.nodeSelector'],
  SidecarSet: ['spec.containers[0].image', 'spec.containers[0].name', 'spec.updateStrategy.maxUnavailable', 'spec.updateStrategy.partition', 'spec.selector.matchLabels.app', 'metadata.name'],
  PodUnavailableBudget: ['spec.maxUnavailable', 'spec.minAvailable', 'spec.selector.matchLabels.app', 'spec.selector'],
  WorkloadSpread: ['spec.subsets[0].maxReplicas', 'spec.subsets[1].maxReplicas', 'spec.subsets[0].name', 'spec.targetRef.kind', 'spec.scheduleStrategy.type'],
  ResourceDistribution: ['spec.resource.data.a', 'spec.resource.kind', 'spec.resource.metadata.name', 'spec.targets.includedNamespaces.list[0].name', 'spec.targets.allNamespaces'],
};

OPENKRUISE.describe('the raw path against the upstream CRD schemas', () => {
  test('mutated fixtures of the seven kinds agree with the oracle on the raw path', () => {
    const mutation = fc.constantFrom(...FIXTURES).chain(f => fc.tuple(
      fc.constant(f),
      // eslint-disable-next-line @stylistic/max-len
      fc.array(fc.record({ path: fc.constantFrom(...PATHS[f.kind]), value: fc.oneof({ weight: 6, arbitrary: arb.awkwardValue() }, { weight: 1, arbitrary: fc.constant(undefined) }) }), { minLength: 1, maxLength: 2 }),
    ));
    fc.assert(fc.property(mutation, ([f, ms]) => {
      const m = ms.reduce((acc, x) => arb.mutate(acc, x), f.valid);
      const raw = (): Verdict => ({ error: synthOn('raw', m), output: '' });
      expectAgreement(`${f.apiVersion} ${f.kind} ${fc.stringify(ms)}`, { manifest: m }, raw(), raw());
    }), params(250));
  });

  test('the oracle is independent and not vacuous: it admits every valid fixture and refuses a broken one', () => {
    for (const f of FIXTURES) expect({ kind: f.apiVersion + ' ' + f.kind, why: oracle(f.valid) }).toEqual({ kind: f.apiVersion + ' ' + f.kind, why: undefined });
    const cs = FIXTURES.find(f => f.kind === 'CloneSet')!.valid;
    expect(oracle(arb.mutate(cs, { path: 'spec.template.spec.containers[0].image', value: ' nginx' }))).toBe('image has surrounding whitespace');
    expect(oracle(arb.mutate(cs, { path: 'spec.replicas', value: '3' }))).toMatch(/^CRD schema/);
    expect(oracle(arb.mutate(cs, { path: 'spec.bogus', value: 1 }))).toMatch(/^CRD schema/);
  });
});

/** Every field path of `v` (objects and lists, up to depth 8), for mutation. */
function fieldPaths(v: any, at = '', out: string[] = [], depth = 0): string[] {
  if (depth > 8 || v === null || typeof v !== 'object') return out;
  for (const [k, x] of Object.entries(v)) {
    const p = Array.isArray(v) ? `${at}[${k}]` : at ? `${at}.${k}` : k;
    out.push(p);
    fieldPaths(x, p, out, depth + 1);
  }
  return out;
}

test('any field of any valid case of every kind, mutated: synth passes or says where, never a bare TypeError', () => {
  const valid = admissionCases().filter(c => c.allowed);
  const mutation = fc.constantFrom(...valid).chain(c => fc.tuple(
    fc.constant(c),
    fc.array(fc.record({
      path: fc.constantFrom(...fieldPaths(c.manifest).filter(p => p !== 'apiVersion' && p !== 'kind')),
      value: fc.oneof({ weight: 6, arbitrary: arb.awkwardValue() }, { weight: 1, arbitrary: fc.constant(undefined) }),
    }), { minLength: 1, maxLength: 2 }),
  ));
  fc.assert(fc.property(mutation, ([c, ms]) => {
    const error = synthOn('raw', ms.reduce((acc, x) => arb.mutate(acc, x), c.manifest));
    if (error === '') return;
    const what = `${c.id} ${fc.stringify(ms)}`;
    expect({ what, bare: BARE.test(error) ? error : '' }).toEqual({ what, bare: '' });
    const lines = error.split('\n').slice(1).map(l => l.trim()).filter(l => l !== '');
    expect({ what, unclear: lines.filter(l => !MESSAGE_SHAPE.test(l)), validation: error.startsWith('Validation failed') }).toEqual({ what, unclear: [], validation: true });
  }), params(1200));
});
