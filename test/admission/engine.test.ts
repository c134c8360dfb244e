import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, Duration, Include, JsonPatch, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as YAML from 'yaml';
import { CloneSet, CloneSetUpdateStrategy, KruiseControlPlane, KruiseInclude, KruiseValidation, SidecarSet, Warnings, kruise } from '../../src';
import { admissionCases, rolloutAdmissionCases } from '../fixtures/admission';
import { l1ClassOf } from '../util/admission';
import { takeWarnings } from '../util/every-message-shaped';
import { allowPodMetadataPatches } from '../util/whitelist';

const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } };
const cloneSet = (spec: Record<string, unknown>, name = 'web') => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name },
  spec: { selector: { matchLabels: { app: 'web' } }, template, ...spec },
});
const errorOf = (f: () => unknown): string => {
  try { f(); } catch (e: any) { return e.message; }
  return '';
};

test('a raw object is judged by the kind rules as soon as anything of the library is in the app', () => {
  const chart = Testing.chart();
  new CloneSet(chart, 'l2', { containers: [{ image: 'nginx:1.27' }] });
  new ApiObject(chart, 'raw', cloneSet({ replicas: 2, selector: { matchLabels: { app: 'other' } } }));
  expect(errorOf(() => Testing.synth(chart))).toBe([
    'Validation failed with the following errors:',
    '  [test/raw] CloneSet "web" (apps.kruise.io/v1alpha1) spec.template.metadata.labels: {"app":"web"} do not match spec.selector {"matchLabels":{"app":"other"}}; add the selected labels to the labels of the pod template, or select labels the pods carry',
  ].join('\n'));
});

test('an L1 object gets the same verdict as the raw object, under its own path', () => {
  const chart = Testing.chart();
  const l1 = new kruise.KubeCloneSet(chart, 'l1', { metadata: { name: 'web' } });
  l1.addJsonPatch(JsonPatch.add('/spec', cloneSet({ updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: '12.5%' } }).spec));
  expect(errorOf(() => Testing.synth(chart))).toBe([
    'Validation failed with the following errors:',
    '  [test/l1] CloneSet "web" (apps.kruise.io/v1alpha1) spec.updateStrategy.maxUnavailable: "12.5%" is not a whole percentage; the webhook admits it but the CloneSet controller reads it as 0; use a whole percentage such as 12% or 13%, or an absolute number',
  ].join('\n'));
});

test('an L2 reports once, under the L2 path (not its Resource child)', () => {
  const chart = Testing.chart();
  const cs = new CloneSet(chart, 'web', { containers: [{ image: 'nginx:1.27' }] });
  ApiObject.of(cs).addJsonPatch(JsonPatch.add('/spec/scaleStrategy', { podsToDelete: ['a', 'a'] }));
  expect(errorOf(() => Testing.synth(chart))).toBe([
    'Validation failed with the following errors:',
    '  [test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.scaleStrategy.podsToDelete: ["a"] are listed more than once; list each pod once',
  ].join('\n'));
});

test('a schema error stops there: the rules see only objects that decode, as in the API server', () => {
  const chart = Testing.chart();
  new kruise.KubeCloneSet(chart, 'l1', { metadata: { name: 'web' } })
    .addJsonPatch(JsonPatch.add('/spec', { ...cloneSet({}).spec, replicas: -1.5, selector: { matchLabels: { app: 'other' } } }));
  expect(errorOf(() => Testing.synth(chart))).toBe([
    'Validation failed with the following errors:',
    '  [test/l1] CloneSet "web" (apps.kruise.io/v1alpha1) spec.replicas: -1.5 is not an integer; give an integer',
  ].join('\n'));
});

test('defaults are applied in memory only: the output holds what the user wrote', () => {
  const chart = Testing.chart();
  new kruise.KubeCloneSet(chart, 'l1', { metadata: { name: 'web' } }).addJsonPatch(JsonPatch.add('/spec', cloneSet({}).spec));
  expect(Testing.synth(chart)[0].spec).toEqual(cloneSet({}).spec);
});

test('each object is rendered once and judged once per synth, however many checks read it', () => {
  const chart = Testing.chart();
  const objs = [0, 1, 2].map(i => new kruise.KubeCloneSet(chart, `cs${i}`, { metadata: { name: `web${i}` } }));
  for (const o of objs) o.addJsonPatch(JsonPatch.add('/spec', cloneSet({}).spec));
  const spies = objs.map(o => jest.spyOn(o, 'toJson'));
  Testing.synth(chart);
  // one render for the checks and one for the output
  expect(spies.map(s => s.mock.calls.length)).toEqual([2, 2, 2]);
});

test('the feature gates of the app control plane decide gate-dependent defaults', () => {
  const sts = (chart: any) => new ApiObject(chart, 'sts', {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'StatefulSet',
    metadata: { name: 'db' },
    spec: { serviceName: 'db', selector: { matchLabels: { app: 'web' } }, template, persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete' } },
  });
  // gate on (the default): whenScaled is defaulted to Retain and the object passes
  const on = Testing.chart();
  new KruiseControlPlane(on, 'kruise');
  sts(on);
  expect(errorOf(() => Testing.synth(on))).toBe('');
  // gate off: no retention defaults, so the policy as written is judged as written
  const off = Testing.chart();
  new KruiseControlPlane(off, 'kruise', { featureGates: { StatefulSetAutoDeletePVC: false } });
  sts(off);
  expect(errorOf(() => Testing.synth(off))).toContain('[test/sts] StatefulSet "db" (apps.kruise.io/v1beta1) spec.persistentVolumeClaimRetentionPolicy.whenScaled: (unset) is not supported; use Retain or Delete');
});

test('warnings come from the kind module for every path, once per object', () => {
  const chart = Testing.chart();
  new CloneSet(chart, 'l2', { replicas: 10, containers: [{ image: 'nginx:1.27' }] });
  new ApiObject(chart, 'raw', cloneSet({ replicas: 10, updateStrategy: { type: 'InPlaceIfPossible', partition: '99%' } }));
  expect(Warnings.of(chart)).toEqual([
    '[test/raw] CloneSet "web" (apps.kruise.io/v1alpha1) spec.updateStrategy.partition: "99%" is rounded up: with 10 replicas it keeps 9 pod(s) at the old revision and updates 1 (below 100% at least one pod is always updated); set partition to 9 to state the split exactly',
  ]);
});

test('apps do not see each other: a failed app leaves nothing behind for the next one', () => {
  for (let i = 0; i < 50; i++) {
    const bad = Testing.chart();
    new ApiObject(bad, 'raw', cloneSet({ replicas: -1 }));
    new CloneSet(bad, 'l2', { containers: [{ image: 'nginx:1.27' }] });
    expect(errorOf(() => Testing.synth(bad))).toContain('[test/raw] CloneSet "web" (apps.kruise.io/v1alpha1) spec.replicas: -1 must be 0 or more');
    const good = Testing.chart();
    new CloneSet(good, 'l2', { containers: [{ image: 'nginx:1.27' }] });
    expect(errorOf(() => Testing.synth(good))).toBe('');
  }
});

// --- the API server's order, read-back manifests, messages (docs/admission.md) -----------------------------

const writeYaml = (docs: unknown[]): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engine-'));
  const file = path.join(dir, 'objects.yaml');
  fs.writeFileSync(file, docs.map(d => YAML.stringify(d, { version: '1.1' })).join('---\n'));
  return file;
};

/** The same manifest on each entry path but the L2: its synth error ('' when accepted) and its warnings. */
function onEveryPath(manifest: Record<string, any>, extra: Array<Record<string, any>> = []): Record<string, { error: string; warnings: string[] }> {
  const out: Record<string, { error: string; warnings: string[] }> = {};
  for (const p of ['l1', 'raw', 'cdk8s-include', 'include'] as const) {
    const chart = Testing.chart();
    const all = [manifest, ...extra].map(m => JSON.parse(JSON.stringify(m)));
    if (p === 'l1') {
      all.forEach((m, i) => {
        const obj = new (l1ClassOf(m.apiVersion, m.kind))(chart, `o${i}`, { metadata: m.metadata });
        for (const [k, v] of Object.entries(m)) if (!['apiVersion', 'kind', 'metadata'].includes(k)) obj.addJsonPatch(JsonPatch.add(`/${k}`, v));
      });
    } else if (p === 'raw') {
      all.forEach((m, i) => new ApiObject(chart, `o${i}`, m as any));
      KruiseValidation.enable(chart);
    } else if (p === 'cdk8s-include') {
      new Include(chart, 'o', { url: writeYaml(all) });
      KruiseValidation.enable(chart);
    } else {
      new KruiseInclude(chart, 'o', { url: writeYaml(all) });
    }
    const error = errorOf(() => Testing.synth(chart));
    out[p] = { error, warnings: error === '' ? Warnings.of(chart) : [] };
  }
  return out;
}

describe('admission runs in the order of the API server', () => {
  test('a webhook default fills a required field: an ImagePullJob without completionPolicy is accepted on every path', () => {
    for (const version of ['v1alpha1', 'v1beta1']) {
      const job = { apiVersion: `apps.kruise.io/${version}`, kind: 'ImagePullJob', metadata: { name: 'warm', namespace: 'default' }, spec: { image: 'nginx:1.27' } };
      for (const [p, v] of Object.entries(onEveryPath(job))) expect({ p, version, error: v.error }).toEqual({ p, version, error: '' });
    }
  });

  test('a missing required field no default fills is still refused, in the one message shape', () => {
    const cs = cloneSet({});
    delete (cs.spec as any).selector;
    for (const [p, v] of Object.entries(onEveryPath(cs))) {
      const from = p === 'include' ? `; ${v.error.match(/; (\S+objects\.yaml), document 1\)/)?.[1]}, document 1` : '';
      expect({ p, error: v.error }).toEqual({ p, error: expect.stringContaining(`CloneSet "web" (apps.kruise.io/v1alpha1${from}) spec.selector: (unset) is required; set selector`) });
    }
  });

  test('status of a kind with a status subresource is dropped before judging, as kubectl get -o yaml prints it', () => {
    const pps = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'PersistentPodState',
      metadata: { name: 'db', namespace: 'default' },
      spec: { targetRef: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'db' }, requiredPersistentTopology: { nodeTopologyKeys: ['kubernetes.io/hostname'] } },
      status: { podStates: { 'db-0': { nodeName: 'node-1' } } },
    };
    for (const [p, v] of Object.entries(onEveryPath(pps))) expect({ p, error: v.error }).toEqual({ p, error: '' });
  });
});

describe('manifests read back from a cluster', () => {
  const readBack = () => ({
    ...cloneSet({ replicas: 3 }),
    metadata: {
      name: 'web',
      namespace: 'default',
      uid: '0b6f1c1e-8d5e-4c1f-9d3a-2b7e1f0c9a11',
      resourceVersion: '4711',
      generation: 2,
      creationTimestamp: '2025-01-31T12:00:00Z',
      managedFields: [{ manager: 'kubectl', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } }],
    },
    status: { replicas: 3, observedGeneration: 2 },
  });

  test('synthesize on every path; KruiseInclude leaves status and the server-set metadata out, the others warn about the metadata', () => {
    const verdicts = onEveryPath(readBack());
    for (const [p, v] of Object.entries(verdicts)) {
      expect({ p, error: v.error }).toEqual({ p, error: '' });
      const warned = v.warnings.filter(w => w.includes('metadata: ["uid","resourceVersion","generation","creationTimestamp","managedFields"] were set by the cluster'));
      expect({ p, warned: warned.length }).toEqual({ p, warned: p === 'include' ? 0 : 1 });
    }
    expect(verdicts.raw.warnings).toContain('[test/o0] CloneSet "web" (apps.kruise.io/v1alpha1) metadata: ["uid","resourceVersion","generation","creationTimestamp","managedFields"] '
      + 'were set by the cluster the object was read from: the API server refuses to create an object with a resourceVersion, and applies it to nothing but that one object; '
      + 'remove them, or include the file with KruiseInclude, which leaves them out');
    const chart = Testing.chart();
    new KruiseInclude(chart, 'o', { url: writeYaml([readBack()]) });
    const [out] = Testing.synth(chart);
    expect(out.metadata).toEqual({ name: 'web', namespace: 'default' });
    expect(out.status).toBeUndefined();
    expect(out.spec).toEqual(readBack().spec);
  });

  test('keepServerFields keeps them, without a warning', () => {
    const chart = Testing.chart();
    new KruiseInclude(chart, 'o', { url: writeYaml([readBack()]), keepServerFields: true });
    const [out] = Testing.synth(chart);
    expect(out.metadata.resourceVersion).toBe('4711');
    expect(out.status).toEqual(readBack().status);
    expect(Warnings.of(chart)).toEqual([]);
  });
});

describe('messages', () => {
  test('an unknown kind says what is wrong and what to use', () => {
    const chart = Testing.chart();
    new ApiObject(chart, 'raw', { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ConfigMapSet', metadata: { name: 'x' } });
    KruiseValidation.enable(chart);
    expect(errorOf(() => Testing.synth(chart))).toContain('[test/raw] ConfigMapSet "x" (apps.kruise.io/v1alpha1) kind: "ConfigMapSet" is not a kind of apps.kruise.io; use one of AdvancedCronJob, BroadcastJob, CloneSet,');
  });

  test('a SidecarSet without sidecars is reported once, with construct advice for the L2 and manifest advice for YAML', () => {
    const chart = Testing.chart();
    new SidecarSet(chart, 'empty', { selector: kplus.LabelSelector.of({ labels: { app: 'web' } }) });
    expect(errorOf(() => Testing.synth(chart)).split('\n').slice(1).map(l => l.trim())).toEqual([
      '[test/empty] SidecarSet "test-empty-c859461e" (apps.kruise.io/v1beta1) spec.containers: (unset) and spec.initContainers are both empty, so the SidecarSet has no sidecars; add one with addContainer() or addInitContainer()',
    ]);
    const raw = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', metadata: { name: 'empty' }, spec: { selector: { matchLabels: { app: 'web' } } } };
    for (const [p, v] of Object.entries(onEveryPath(raw))) {
      const lines = v.error.split('\n').slice(1).map(l => l.trim());
      expect({ p, lines: lines.length, line: lines[0] }).toEqual({ p, lines: 1, line: expect.stringContaining('spec.containers: (unset) and spec.initContainers are both empty, so the SidecarSet has no sidecars; add a container to spec.containers or spec.initContainers') });
    }
  });

  test('no message for a YAML author gives construct advice', () => {
    const construct = /\(\)|PercentOrAbsolute|podMetadata|addLabel|Duration\.|the construct| prop\b|RestartPolicy\.|UpdatePriority\.|NodeTaintQuery|evictAfter|SidecarSet[A-Z]\w+\./;
    const advised = [...admissionCases(), ...rolloutAdmissionCases()].filter(c => !c.allowed && construct.test(c.message!)).map(c => `${c.id}: ${c.message}`);
    expect(advised).toEqual([]);
  });
});

describe('no bare TypeError, every problem at once', () => {
  const plain = (o: Record<string, string>) => Object.assign(Object.create(null), o);

  test('maps without Object.prototype are written like plain maps (L2, L1, raw)', () => {
    const chart = Testing.chart();
    new CloneSet(chart, 'l2', { metadata: { labels: plain({ team: 'shop' }) }, containers: [{ image: 'nginx:1.27' }] });
    new kruise.KubeCloneSet(chart, 'l1', {
      metadata: { name: 'l1', labels: plain({ team: 'shop' }) },
      spec: { selector: { matchLabels: plain({ app: 'web' }) }, template: { metadata: { labels: plain({ app: 'web' }) }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } } as any },
    });
    new ApiObject(chart, 'raw', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: plain({ 'app.yaml': 'x: 1' }) });
    const ss = new SidecarSet(chart, 'ss', { selector: kplus.LabelSelector.of({ labels: plain({ app: 'web' }) }), containers: [{ name: 'log', image: 'fluent-bit:3.1' }] });
    ss.addPodMetadataPatch({ annotations: plain({ 'example.com/logs': 'on' }) });
    allowPodMetadataPatches(chart, ['^example\\.com/']);
    const out = Testing.synth(chart);
    expect(out.find(o => o.metadata.name === 'l1').spec.selector).toEqual({ matchLabels: { app: 'web' } });
    expect(out.find(o => o.kind === 'ConfigMap').data).toEqual({ 'app.yaml': 'x: 1' });
    expect(out.find(o => o.kind === 'SidecarSet').spec.selector).toEqual({ matchLabels: { app: 'web' } });
    expect(takeWarnings()).toEqual([]);
    // the annotation patch, read from the map, is what the whitelist check names
    const bare = Testing.chart();
    new SidecarSet(bare, 'ss', { selector: kplus.LabelSelector.of({ labels: plain({ app: 'web' }) }), containers: [{ name: 'log', image: 'fluent-bit:3.1' }] })
      .addPodMetadataPatch({ annotations: plain({ 'example.com/logs': 'on' }) });
    expect(() => Testing.synth(bare)).toThrow('[test/ss] SidecarSet "test-ss-c8962808" (apps.kruise.io/v1beta1) spec.patchPodMetadata: ["example.com/logs"] is refused by the SidecarSet webhook');
  });

  test('Durations that are not whole seconds are reported with the other problems of the app, not thrown while serializing', () => {
    const chart = Testing.chart();
    new CloneSet(chart, 'frac', { containers: [{ image: 'nginx:1.27' }], minReady: Duration.millis(1500) });
    new CloneSet(chart, 'nan', { containers: [{ image: 'nginx:1.27' }], progressDeadline: Duration.seconds(NaN) });
    new ApiObject(chart, 'raw', cloneSet({ replicas: -1 }));
    const lines = errorOf(() => Testing.synth(chart)).split('\n');
    expect(lines[0]).toBe('Validation failed with the following errors:');
    expect(lines.slice(1).map(l => l.trim())).toEqual([
      '[test/frac] CloneSet "test-frac-c8f4a794" (apps.kruise.io/v1alpha1) minReady: "1.5 seconds" is not a whole number of seconds; use Duration.seconds(2)',
      '[test/nan] CloneSet "test-nan-c8cbe199" (apps.kruise.io/v1alpha1) progressDeadline: "NaN milliseconds" is not a finite duration; use e.g. Duration.seconds(30)',
      '[test/raw] CloneSet "web" (apps.kruise.io/v1alpha1) spec.replicas: -1 must be 0 or more; use a non-negative number of replicas',
    ]);
  });
});

describe('warnings for what upstream accepts but holds back for good', () => {
  const partitioned = (partition: unknown, replicas = 3) => cloneSet({ replicas, updateStrategy: { type: 'InPlaceIfPossible', partition } });
  const PARTITION_OVER_100 = 'spec.updateStrategy.partition: "150%" is above 100%, so it holds back every pod and no update ever rolls out; use at most "100%" (which pauses the update on purpose), or lower it to let pods update';

  test('a CloneSet partition above 100% or above replicas, on every path; 100% and a partition equal to the replicas are not warned about', () => {
    for (const [p, v] of Object.entries(onEveryPath(partitioned('150%')))) {
      expect({ p, warned: v.warnings.some(w => w.endsWith(PARTITION_OVER_100)) }).toEqual({ p, warned: true });
    }
    for (const [p, v] of Object.entries(onEveryPath(partitioned(5)))) {
      expect({ p, warned: v.warnings.some(w => w.endsWith('spec.updateStrategy.partition: 5 is above spec.replicas (3), so it holds back every pod and no update ever rolls out; use at most 3 (which pauses the update on purpose), or lower it to let pods update')) }).toEqual({ p, warned: true });
    }
    for (const quiet of ['100%', 3]) {
      for (const [p, v] of Object.entries(onEveryPath(partitioned(quiet)))) expect({ p, quiet, partition: v.warnings.filter(w => w.includes('holds back every pod')) }).toEqual({ p, quiet, partition: [] });
    }
    const chart = Testing.chart();
    new CloneSet(chart, 'web', { replicas: 3, containers: [{ image: 'nginx:1.27' }], updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible({ partition: kplus.PercentOrAbsolute.percent(150) }) });
    expect(Warnings.of(chart)).toContain(`[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) ${PARTITION_OVER_100}`);
  });

  test('an Advanced StatefulSet partition above replicas', () => {
    const asts = {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'default' },
      spec: { replicas: 2, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image: 'redis:7' }] } }, updateStrategy: { rollingUpdate: { partition: 4 } } },
    };
    for (const [p, v] of Object.entries(onEveryPath(asts))) {
      expect({ p, warned: v.warnings.some(w => w.endsWith('spec.updateStrategy.rollingUpdate.partition: 4 is above spec.replicas (2), so it holds back every pod and no update ever rolls out; use at most 2 (which pauses the update on purpose), or lower it to let pods update')) }).toEqual({ p, warned: true });
    }
  });

  test('a fixed WorkloadSpread whose capped subsets hold fewer pods than the workload runs', () => {
    const spread = (last: Record<string, unknown>) => ({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'WorkloadSpread',
      metadata: { name: 'web-spread', namespace: 'default' },
      spec: { targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web' }, subsets: [{ name: 'a', maxReplicas: 2 }, { name: 'b', ...last }] },
    });
    const workload = { ...cloneSet({ replicas: 5 }), metadata: { name: 'web', namespace: 'default' } };
    const message = 'spec.subsets[*].maxReplicas: [2,1] add up to 3, fewer than the 5 replicas of CloneSet "web", so 2 pod(s) fall outside every subset (none of the subsets\' scheduling applies to them); '
      + 'raise the maxReplicas, or leave the last subset\'s maxReplicas unset so it takes the rest';
    for (const [p, v] of Object.entries(onEveryPath(spread({ maxReplicas: 1 }), [workload]))) {
      expect({ p, warned: v.warnings.filter(w => w.includes('fall outside every subset')).map(w => w.slice(w.indexOf(') ') + 2)) }).toEqual({ p, warned: [message] });
    }
    for (const [p, v] of Object.entries(onEveryPath(spread({}), [workload]))) {
      expect({ p, warned: v.warnings.filter(w => w.includes('fall outside every subset')) }).toEqual({ p, warned: [] });
    }
  });
});
