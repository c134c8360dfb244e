/**
 * `cdk8s-kruise fleet --jobs N` (and `FleetCheck.fromPaths({ jobs })`): the
 * same report, byte for byte, and the same errors for any N. The workers a
 * command starts are read from Node's own debug log of worker threads
 * (NODE_DEBUG=worker) on the compiled command (lib/, which the test task
 * compiles before jest runs), never from timing.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { FleetCheck, FleetCheckPaths, FleetFormat, FleetProblemKind, FleetReport } from '../../src';
import { BYTES_PER_THREAD } from '../../src/threads/pool';
import { runCountingWorkers } from '../threads/workers';

type Json = any;

/** `cdk8s-kruise fleet ARGS` in a fresh node; `workers`: the worker threads it started. */
const fleet = (args: string[]) => runCountingWorkers('fleet', args);

const LOGGING = { 'platform.io/logging': 'enabled' };

function sidecarSet(name: string, container: string, image: string, more: Json = {}): Json {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name },
    spec: { selector: { matchLabels: LOGGING }, containers: [{ name: container, image }], ...more },
  };
}

function budget(ns: string, name: string, app: string): Json {
  return { apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodUnavailableBudget', metadata: { name, namespace: ns }, spec: { maxUnavailable: 1, selector: { matchLabels: { app } } } };
}

function workload(ns: string, name: string, labels: Record<string, string>, container = 'app', kind = 'Deployment'): Json {
  return {
    apiVersion: kind === 'CloneSet' ? 'apps.kruise.io/v1alpha1' : 'apps/v1',
    kind,
    metadata: { name, namespace: ns },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name, ...labels } }, spec: { containers: [{ name: container, image: 'nginx:1.27', ports: [{ containerPort: 8080 }] }] } },
    },
  };
}

const yaml = (docs: Json[]) => docs.map(d => JSON.stringify(d)).join('\n---\n');

/**
 * Policies under review and their old versions, and 8 app outputs and a
 * cluster's objects, over 4 x BYTES_PER_THREAD (so 4 threads read them),
 * where every kind of outcome lands in a different source: injections
 * through a namespace selector, a sidecar replacing an app container, a
 * namespace in no input, a source's own SidecarSet and budget in conflict
 * with the policies, budgets and a WorkloadSpread covering workloads, and a
 * change that starts, stops and updates in place.
 */
function corpus(): { root: string; paths: FleetCheckPaths } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-jobs-'));
  const dir = (p: string) => { fs.mkdirSync(path.join(root, p), { recursive: true }); return path.join(root, p); };
  const mesh = (image: string) => sidecarSet('mesh', 'proxy', image, { namespaceSelector: { matchLabels: { mesh: 'on' } } });
  fs.writeFileSync(path.join(dir('policies'), 'policies.k8s.yaml'), yaml([
    sidecarSet('logging', 'log-agent', 'fluent-bit:3.2'),
    mesh('envoy:1.31'),
    sidecarSet('new-agent', 'metrics', 'agent:2', { selector: { matchLabels: { tier: 'web' } } }),
    budget('app-2', 'web', 'w-2-3'),
    { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread', metadata: { name: 'spread', namespace: 'app-3' }, spec: { targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'w-3-0' }, subsets: [{ name: 'a', maxReplicas: 1 }, { name: 'b' }] } },
  ]));
  fs.writeFileSync(path.join(dir('old'), 'policies.k8s.yaml'), yaml([
    sidecarSet('logging', 'log-agent', 'fluent-bit:3.1'),
    mesh('envoy:1.31'),
    sidecarSet('retired', 'old-agent', 'agent:1', { selector: { matchLabels: { tier: 'batch' } } }),
    budget('app-2', 'web', 'w-2-4'),
  ]));
  // each source's bulk is a ConfigMap's data (read, passed by), so the test pays for the bytes and not for checking them
  const bulk = (ns: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bulk', namespace: ns }, data: { blob: 'x'.repeat(Math.ceil((1.1 * 4 * BYTES_PER_THREAD) / 8)) } });
  const workloads: string[] = [];
  for (let s = 0; s < 8; s++) {
    const ns = `app-${s}`;
    const docs: Json[] = [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: s % 2 === 0 ? { mesh: 'on' } : {} } }, bulk(ns)];
    for (let i = 0; i < 12; i++) {
      const labels = { ...LOGGING, ...(i % 3 === 0 ? { tier: 'web' } : i % 3 === 1 ? { tier: 'batch' } : {}) };
      docs.push(workload(ns, `w-${s}-${i}`, labels, s === 1 && i === 2 ? 'log-agent' : 'app', i % 2 === 0 ? 'CloneSet' : 'Deployment'));
    }
    // a namespace in no input: the mesh's namespace selector cannot be judged there
    if (s === 4) docs.push(workload('elsewhere', 'stray', LOGGING));
    // the source's own SidecarSet injecting the policies' container name, and its own budget for a reviewed one's pods
    if (s === 5) docs.push(sidecarSet('team-logs', 'log-agent', 'vector:0.40'));
    if (s === 6) docs.push(budget('app-2', 'own', 'w-2-3'));
    // a file of its own, so a source has more than one
    const out = dir(`apps/app-${s}`);
    fs.writeFileSync(path.join(out, 'a.k8s.yaml'), yaml(docs.slice(0, 2)));
    fs.writeFileSync(path.join(out, 'b.k8s.yaml'), yaml(docs.slice(2)));
    workloads.push(`app-${s}=${out}`);
  }
  const live = path.join(dir('live'), 'prod.json');
  fs.writeFileSync(live, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'app-0', labels: { mesh: 'on' } } }, workload('app-0', 'live-web', { ...LOGGING, tier: 'web' })] }));
  return { root, paths: { policies: [path.join(root, 'policies')], oldPolicies: [path.join(root, 'old')], workloads, live: [live] } };
}

const args = (p: FleetCheckPaths) => [
  ...p.policies.flatMap(x => ['--policies', x]), ...(p.oldPolicies ?? []).flatMap(x => ['--old-policies', x]),
  ...(p.workloads ?? []).flatMap(x => ['--workloads', x]), ...(p.live ?? []).flatMap(x => ['--live', x]),
];

describe('cdk8s-kruise fleet --jobs', () => {
  let root: string;
  let paths: FleetCheckPaths;
  let alone: FleetReport;
  beforeAll(() => {
    ({ root, paths } = corpus());
    alone = FleetCheck.fromPaths({ ...paths, jobs: 1 });
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  test('the corpus holds every kind of outcome', () => {
    expect(new Set(alone.problems.map(p => p.kind))).toEqual(new Set([
      FleetProblemKind.SIDECAR_SET_CONFLICT, FleetProblemKind.BUDGET_CONFLICT, FleetProblemKind.REPLACES_APP_CONTAINER,
      FleetProblemKind.NAMESPACE_UNKNOWN, FleetProblemKind.INJECTED_TWICE,
    ]));
    expect(alone.changes.map(c => [c.name, c.change, c.workloads.length])).toEqual([
      ['logging', 'Update', 98], ['new-agent', 'Create', 33], ['web', 'Update', 2], ['spread', 'Create', 1], ['retired', 'Delete', 32],
    ]);
    expect(alone.sources.map(s => [s.name, s.workloads])).toEqual([...Array.from({ length: 8 }, (_, s) => [`app-${s}`, s === 4 ? 13 : 12]), ['prod', 1]]);
  });

  test.each([1, 2, 4])('FleetCheck.fromPaths with jobs %d: the report of one thread', jobs => {
    const report = FleetCheck.fromPaths({ ...paths, jobs });
    expect(JSON.stringify(report)).toBe(JSON.stringify(alone));
    for (const format of [FleetFormat.TABLE, FleetFormat.MARKDOWN]) expect(FleetCheck.render(report, format)).toBe(FleetCheck.render(alone, format));
  });

  test('the command: the same bytes for --jobs 1 and 4, with a worker for each thread beyond this one', () => {
    const runs = [1, 4].map(jobs => fleet([...args(paths), '--jobs', String(jobs), '--format', 'json']));
    for (const r of runs) expect({ code: r.code, err: r.err, out: r.out }).toEqual({ code: 2, err: '', out: FleetCheck.render(alone, FleetFormat.JSON) });
    expect(runs.map(r => r.workers)).toEqual([0, 3]);
  });

  test('the error reported is the one of one thread: an unreadable source before a refused own policy, in input order', () => {
    const refused = { ...sidecarSet('bad', 'x', 'y:1'), spec: { selector: { matchLabels: LOGGING }, containers: [{ image: 'no-name' }] } };
    const workloads = [...paths.workloads!];
    // source 1 holds a policy the cluster refuses; source 6 (taken early: the largest first) does not parse
    const own = path.join(root, 'apps', 'app-1', 'c.k8s.yaml');
    fs.writeFileSync(own, yaml([refused]));
    const bad = path.join(root, 'apps', 'app-6', 'c.k8s.yaml');
    fs.writeFileSync(bad, `${'#'.repeat(BYTES_PER_THREAD)}\nkind: [\n`);
    try {
      const errors = (w: string[]) => [1, 2].map(jobs => {
        try {
          FleetCheck.fromPaths({ ...paths, workloads: w, jobs });
          return 'no error';
        } catch (e: any) {
          return e.message;
        }
      });
      expect(errors(workloads)).toEqual(Array(2).fill(expect.stringMatching(new RegExp(`^${bad.replace(/[.]/g, '\\.')}:\\d+: not valid YAML`))));
      fs.rmSync(bad);
      const refusal = `${own}: SidecarSet "bad" is refused by the cluster: spec.containers[0].name: (unset) must consist of lowercase letters, digits and '-', starting and ending with a letter or digit; use a DNS-1123 label; fix it where it is written`;
      expect(errors(workloads)).toEqual([refusal, refusal]);
      // a source named like one before it: after that source's files, before any refusal
      const twice = [...workloads.slice(0, 3), `app-0=${workloads[3].split('=')[1]}`, ...workloads.slice(4)];
      expect(errors(twice)).toEqual(Array(2).fill("workloads: two sources are named 'app-0'; name them apart with workloads NAME=PATH"));
    } finally {
      fs.rmSync(own, { force: true });
      fs.rmSync(bad, { force: true });
    }
  });

  test('a small input (one source) starts no worker, whatever --jobs says', () => {
    const r = fleet(['--policies', paths.policies[0], '--workloads', paths.workloads![0], '--jobs', '4']);
    expect({ code: r.code, workers: r.workers }).toEqual({ code: 0, workers: 0 });
  });

  test('--jobs and jobs take a whole number of threads, 1 or more', () => {
    expect(fleet(['--policies', 'p', '--live', 'l', '--jobs', '0'])).toEqual({ code: 1, out: '', err: "cdk8s-kruise fleet: --jobs '0' is not a whole number of threads, 1 or more\n", workers: 0 });
    expect(() => FleetCheck.fromPaths({ ...paths, jobs: 1.5 })).toThrow('FleetCheck.fromPaths: jobs 1.5 is not a whole number of threads: pass 1 or more, or leave jobs out for the cores available');
  });
});
