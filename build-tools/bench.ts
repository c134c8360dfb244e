/**
 * `npx projen bench`: what synth costs with cdk8s-kruise compared with what
 * users would otherwise run (cdk8s-plus-28, or `helm template` for the
 * control plane), measured in one run on one machine and reported as ratios:
 * absolute times vary by machine and load, the ratio is the figure to watch.
 *
 * The measured code is the compiled package (lib/, what `npx projen compile`
 * builds), never this file's TypeScript. Both sides of a row run in the same
 * conditions and in interleaved rounds (A B B A ...), so a burst of load on a
 * shared machine hits both; each row reports the median of the per-round
 * ratios and their spread (lowest-highest).
 *
 * - In-process rows (a worker process per row): build an app of N workloads
 *   with the same containers and `synthYaml()` it, construction included. Our
 *   side runs every check: schema, admission rules, warnings, app-wide checks.
 *   CPU time (of the worker, GC threads included) and wall time per synth;
 *   CPU time is the steadier figure on a machine shared with other work.
 * - Whole-process rows: a fresh `node` (or `helm`) per round, as `cdk8s synth`
 *   runs an app: a small app (one workload and its budget, what most users
 *   synthesize), `require`, and the control plane against `helm template`;
 *   wall time from here, CPU time (user + system) from the kernel's count of
 *   reaped children.
 * - Fleet rows (a worker process per row): `FleetCheck.fromPaths` over app
 *   outputs written to disk (workloads in many folders, SidecarSets, their
 *   old versions) and the table it prints, against reading and parsing the
 *   same files with the fastest reader alone (js-yaml with kubectl's scalar
 *   rules, what any reader of them pays).
 * - The check rows: `cdk8s-kruise check` of OpenKruise documents in files
 *   against kubeconform (built by build-tools/bench-kubeconform.sh from the
 *   Go module proxy) with the same upstream CRD schemas, whole process, on
 *   every core and both held to one (`taskset -c 0`); and the limit, a node
 *   process reading and parsing the same files with the fastest reader.
 *
 * `npx projen bench -- --smoke` (or BENCH_SMOKE=1) runs every row at a tiny
 * size, once, and checks that each side produced what the row says (the test
 * suite runs it; its figures mean nothing). The Helm row needs Helm
 * (build-tools/bench-helm.sh builds it into .cache/bench/ from the Go module
 * proxy) and the kruise chart source in .cache/bench/charts/ (see docs/synth-cost.md);
 * without them it is reported as skipped.
 *
 * `npx projen bench -- --against <dir>` compares this build with another
 * (a checkout of another revision with its node_modules, compiled): each
 * in-process row's app built by both, in one run (see `runAgainst`).
 */
import { ChildProcess, execFileSync, fork, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { performance } from 'perf_hooks';
import { parseAllDocuments } from 'yaml';

const ROOT = path.resolve(__dirname, '..');
const LIB = path.join(ROOT, 'lib', 'src', 'index.js');
const SMOKE = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (SMOKE ? 1 : 5));
const PROCESS_ROUNDS = Number(process.env.BENCH_PROCESS_ROUNDS ?? (SMOKE ? 1 : 15));
const HELM_VERSION = 'v3.22.0';
const CHART = process.env.BENCH_KRUISE_CHART ?? path.join(ROOT, '.cache', 'bench', 'charts', 'kruise-1.9.0-alpha.3');

// ---------------------------------------------------------------- in-process cases

/** One side of an in-process row: builds its workloads into a chart. */
type Build = (lib: any, kplus: any, chart: any, n: number) => void;

const SIDECAR_SETS = 50;

function container(kplus: any): any {
  return {
    image: 'nginx:1.27',
    portNumber: 80,
    securityContext: { user: 1000, group: 1000 },
    resources: { cpu: { request: kplus.Cpu.millis(100), limit: kplus.Cpu.millis(500) } },
  };
}

/** `n` CloneSets (or Deployments) of `teams` teams, each team's pods selected by its own SidecarSet. */
function fleet(sidecarSets: (n: number) => number, ours: boolean): Build {
  return (lib, kplus, chart, n) => {
    const s = sidecarSets(n);
    if (ours) {
      for (let i = 0; i < s; i++) {
        new lib.SidecarSet(chart, `sidecars${i}`, {
          selector: kplus.LabelSelector.of({ labels: { team: `t${i}` } }),
          containers: [{ name: `agent-${i}`, image: 'fluent/fluent-bit:3.1' }],
        });
      }
    }
    const c = container(kplus);
    for (let i = 0; i < n; i++) {
      const w = ours ? new lib.CloneSet(chart, `w${i}`, { replicas: 3, containers: [c] }) : new kplus.Deployment(chart, `w${i}`, { replicas: 3, containers: [c] });
      w.podMetadata.addLabel('team', `t${i % s}`);
    }
  };
}

const BUILDS: Record<string, Build> = {
  'deployments': (_lib, kplus, chart, n) => { const c = container(kplus); for (let i = 0; i < n; i++) new kplus.Deployment(chart, `w${i}`, { replicas: 3, containers: [c] }); },
  'clonesets': (lib, kplus, chart, n) => { const c = container(kplus); for (let i = 0; i < n; i++) new lib.CloneSet(chart, `w${i}`, { replicas: 3, containers: [c] }); },
  'statefulsets': (_lib, kplus, chart, n) => { const c = container(kplus); for (let i = 0; i < n; i++) new kplus.StatefulSet(chart, `w${i}`, { replicas: 3, containers: [c] }); },
  'advanced-statefulsets': (lib, kplus, chart, n) => { const c = container(kplus); for (let i = 0; i < n; i++) new lib.AdvancedStatefulSet(chart, `w${i}`, { replicas: 3, containers: [c] }); },
  'fleet-deployments': fleet(() => SIDECAR_SETS, false),
  'fleet-clonesets': fleet(() => SIDECAR_SETS, true),
  // the growth row scales SidecarSets with workloads, so any workload x SidecarSet term shows
  'scaled-fleet-clonesets': fleet(n => Math.max(1, Math.round(n / 50)), true),
};

/** Documents one side writes (a smoke check that the row builds what it says). */
const EXPECTED_DOCS: Record<string, (n: number) => number> = {
  'deployments': n => n,
  'clonesets': n => n,
  'statefulsets': n => 2 * n, // kplus adds a headless Service per StatefulSet
  'advanced-statefulsets': n => 2 * n, // and so does AdvancedStatefulSet (its governing Service)
  'fleet-deployments': n => n,
  'fleet-clonesets': n => n + SIDECAR_SETS,
  'scaled-fleet-clonesets': n => n + Math.max(1, Math.round(n / 50)),
};

interface InProcessRow {
  readonly name: string;
  readonly base: Side;
  readonly ours: Side;
  readonly goal?: number;
}

interface Side { readonly build: string; readonly n: number }
interface Times { readonly wall: number; readonly cpu: number }
interface Measured { readonly base: Times[]; readonly ours: Times[]; readonly docs: { base: number; ours: number } }

/** One measured round: a full collection, then build `side`'s app and synthesize it (construction included). */
function synthOnce(cdk8s: any, kplus: any, lib: any, side: Side): { t: Times; yaml: string } {
  ((global as any).gc ?? (() => undefined))();
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  const app = new cdk8s.App({ outdir: os.tmpdir() });
  BUILDS[side.build](lib, kplus, new cdk8s.Chart(app, 'bench'), side.n);
  const yaml: string = app.synthYaml();
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  return { t: { wall, cpu: (cpu.user + cpu.system) / 1000 }, yaml };
}

/** The worker: measure rows in this process, each side interleaved with the other, and print JSON. */
function worker(spec: { rows: Array<{ base: Side; ours: Side }>; rounds: number }): void {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const cdk8s = require('cdk8s');
  const kplus = require('cdk8s-plus-28');
  const lib = require(LIB);
  /* eslint-enable @typescript-eslint/no-require-imports */
  const once = (side: Side): { t: Times; docs: number } => {
    const { t, yaml } = synthOnce(cdk8s, kplus, lib, side);
    return { t, docs: yaml.split(/^---$/m).filter(d => d.trim() !== '').length };
  };
  const out: Measured[] = spec.rows.map(row => {
    // warm-up: module loading, schema compilation, JIT
    const docs = { base: once(row.base).docs, ours: once(row.ours).docs };
    const base: Times[] = [];
    const ours: Times[] = [];
    for (let r = 0; r < spec.rounds; r++) {
      if (r % 2 === 0) {
        base.push(once(row.base).t); ours.push(once(row.ours).t);
      } else {
        ours.push(once(row.ours).t); base.push(once(row.base).t);
      }
    }
    return { base, ours, docs };
  });
  process.stdout.write(JSON.stringify(out));
}

/** Measure rows in one fresh worker process (the full run gives each row its own; the smoke run shares one). */
function runInProcess(rows: InProcessRow[]): Result[][] {
  const spec = { rows: rows.map(r => ({ base: r.base, ours: r.ours })), rounds: ROUNDS };
  const args = ['--expose-gc', '-r', 'ts-node/register/transpile-only', __filename, '--worker', JSON.stringify(spec)];
  const env = { ...process.env, TS_NODE_PROJECT: path.join(ROOT, 'test', 'tsconfig.json') };
  const out = execFileSync(process.execPath, args, { cwd: ROOT, encoding: 'utf-8', maxBuffer: 64 * 1024 * 1024, env });
  const measured = JSON.parse(out) as Measured[];
  return rows.map((row, i) => {
    const r = measured[i];
    for (const side of ['base', 'ours'] as const) {
      const expected = EXPECTED_DOCS[row[side].build](row[side].n);
      if (r.docs[side] !== expected) throw new Error(`bench: row "${row.name}": the ${side} side wrote ${r.docs[side]} documents, expected ${expected}`);
    }
    return [
      summarize(`${row.name}, CPU`, r.base.map(x => x.cpu), r.ours.map(x => x.cpu), row.goal),
      summarize(`${row.name}, wall`, r.base.map(x => x.wall), r.ours.map(x => x.wall), row.goal),
    ];
  });
}


/**
 * `--against <dir>`: the same app built with this package and with another
 * build of it (a checkout of another revision, compiled, with its own
 * node_modules), each in its own worker process (so each loads its own
 * package, cdk8s and cdk8s-plus-28), rounds alternated between them by this
 * process. What a change did to a row, measured in one run: a ratio against
 * a figure from another day would mostly measure the machine.
 */
function sideWorker(spec: { root: string; side: Side }): void {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const from = (m: string) => require(require.resolve(m, { paths: [spec.root] }));
  const cdk8s = from('cdk8s');
  const kplus = from('cdk8s-plus-28');
  const lib = require(path.join(spec.root, 'lib', 'src', 'index.js'));
  /* eslint-enable @typescript-eslint/no-require-imports */
  process.on('message', () => {
    const { t, yaml } = synthOnce(cdk8s, kplus, lib, spec.side);
    process.send!({ ...t, bytes: yaml.length });
  });
  process.send!('ready');
}

async function runAgainst(row: InProcessRow, other: string): Promise<Result[]> {
  const start = (root: string) => fork(__filename, ['--side-worker', JSON.stringify({ root, side: row.ours })], {
    execArgv: ['--expose-gc', '-r', 'ts-node/register/transpile-only'],
    cwd: ROOT,
    env: { ...process.env, TS_NODE_PROJECT: path.join(ROOT, 'test', 'tsconfig.json') },
  });
  const workers = { base: start(other), ours: start(ROOT) };
  const next = (w: ChildProcess) => new Promise<any>((resolve, reject) => {
    const exited = (code: number | null) => reject(new Error(`bench: a worker of "${row.name}" exited (${code})`));
    w.once('exit', exited);
    w.once('message', m => { w.off('exit', exited); resolve(m); });
  });
  const ask = (w: ChildProcess) => { const m = next(w); w.send('go'); return m; };
  try {
    await Promise.all([next(workers.base), next(workers.ours)]);
    const first = { base: await ask(workers.base), ours: await ask(workers.ours) }; // warm-up
    if (first.base.bytes !== first.ours.bytes) console.log(`(${row.name}: the two builds write different YAML, ${first.base.bytes} and ${first.ours.bytes} bytes)`);
    const base: Times[] = [];
    const ours: Times[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      if (r % 2 === 0) {
        base.push(await ask(workers.base)); ours.push(await ask(workers.ours));
      } else {
        ours.push(await ask(workers.ours)); base.push(await ask(workers.base));
      }
    }
    const name = `${row.name.split(' vs ')[0]}: this build vs ${path.basename(other)}`;
    return [summarize(`${name}, CPU`, base.map(x => x.cpu), ours.map(x => x.cpu)), summarize(`${name}, wall`, base.map(x => x.wall), ours.map(x => x.wall))];
  } finally {
    workers.base.kill();
    workers.ours.kill();
  }
}

// ---------------------------------------------------------------- fleet rows

/** A fleet written to disk: app outputs in `dirs` folders, `sidecarSets` SidecarSets (and their old versions). */
interface FleetSpec { readonly workloads: number; readonly dirs: number; readonly sidecarSets: number }

/** Write the fleet's files under `root`; returns the CLI's inputs. */
function writeFleet(root: string, f: FleetSpec): { policies: string; oldPolicies: string; workloads: string[] } {
  const doc = (o: any) => JSON.stringify(o);
  const sidecarSet = (name: string, selector: any, image: string, more: any = {}) => ({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name },
    spec: { selector: { matchLabels: selector }, containers: [{ name: `${name}-c`, image, ports: [{ containerPort: 15000 + (Number(name.replace(/\D/g, '')) || 0) % 1000 }] }], ...more },
  });
  const policies = (image: string) => [
    sidecarSet('logging-agent', { 'platform.io/logging': 'enabled' }, image),
    sidecarSet('mesh-proxy', { 'platform.io/mesh': 'enabled' }, 'envoy:1.31', { namespaceSelector: { matchLabels: { 'platform.io/mesh': 'enabled' } } }),
    ...Array.from({ length: f.sidecarSets - 2 }, (_, k) => sidecarSet(`team-${k}`, { team: `t${k}` }, 'agent:1.0')),
  ];
  const dir = (p: string) => { fs.mkdirSync(p, { recursive: true }); return p; };
  fs.writeFileSync(path.join(dir(path.join(root, 'policies')), 'policies.k8s.yaml'), policies('fluent-bit:3.2').map(doc).join('\n---\n'));
  fs.writeFileSync(path.join(dir(path.join(root, 'old-policies')), 'policies.k8s.yaml'), policies('fluent-bit:3.1').map(doc).join('\n---\n'));
  const teams = Math.max(1, f.sidecarSets - 2);
  const perDir = Math.ceil(f.workloads / f.dirs);
  const workloads: string[] = [];
  for (let d = 0, i = 0; d < f.dirs; d++) {
    const ns = `app-${d}`;
    const docs: any[] = [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: d % 2 === 0 ? { 'platform.io/mesh': 'enabled' } : {} } }];
    for (let j = 0; j < perDir && i < f.workloads; j++, i++) {
      const labels = { 'app': `w${i}`, 'team': `t${i % teams}`, 'platform.io/logging': 'enabled', 'platform.io/mesh': 'enabled' };
      docs.push({
        apiVersion: i % 2 === 0 ? 'apps.kruise.io/v1alpha1' : 'apps/v1',
        kind: i % 2 === 0 ? 'CloneSet' : 'Deployment',
        metadata: { name: `w${i}`, namespace: ns },
        spec: {
          replicas: 3,
          selector: { matchLabels: { app: `w${i}` } },
          template: {
            metadata: { labels },
            spec: { containers: [{ name: 'app', image: 'nginx:1.27', ports: [{ containerPort: 8080, name: 'http' }], resources: { requests: { cpu: '100m' } } }] },
          },
        },
      });
    }
    const out = dir(path.join(root, 'apps', `app-${d}`, 'dist'));
    fs.writeFileSync(path.join(out, `app-${d}.k8s.yaml`), docs.map(doc).join('\n---\n'));
    workloads.push(`app-${d}=${out}`);
  }
  return { policies: path.join(root, 'policies'), oldPolicies: path.join(root, 'old-policies'), workloads };
}

/** `jobs`: the check's threads (absent: its default, the cores available, as many as the input's size pays for). */
interface FleetSide { readonly spec: FleetSpec; readonly check: boolean; readonly jobs?: number }

/** The fleet worker: each side reads (and, when `check`, checks) its fleet, interleaved, and prints JSON. */
function fleetWorker(spec: { base: FleetSide; ours: FleetSide; rounds: number }): void {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const lib = require(LIB);
  // the fastest reader of the same files: the one cdk8s-kruise reads them with (js-yaml, kubectl's scalar rules)
  const { loadDocuments } = require(path.join(ROOT, 'lib', 'src', 'check', 'yaml.js')) as typeof import('../src/check/yaml');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const gc: () => void = (global as any).gc ?? (() => undefined);
  const files = (p: string): string[] => (fs.statSync(p).isDirectory() ? fs.readdirSync(p).sort().flatMap(e => files(path.join(p, e))) : [p]);
  const prepare = (side: FleetSide) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-fleet-'));
    const inputs = writeFleet(root, side.spec);
    const all = [inputs.policies, inputs.oldPolicies, ...inputs.workloads.map(w => w.slice(w.indexOf('=') + 1))].flatMap(files);
    return { root, inputs, all };
  };
  const sides = { base: prepare(spec.base), ours: prepare(spec.ours) };
  const once = (name: 'base' | 'ours'): { t: Times; docs: number } => {
    const side = spec[name];
    const { inputs, all } = sides[name];
    gc();
    const cpu0 = process.cpuUsage();
    const start = performance.now();
    let docs: number;
    if (side.check) {
      const paths = { policies: [inputs.policies], oldPolicies: [inputs.oldPolicies], workloads: inputs.workloads, jobs: side.jobs };
      const report = lib.FleetCheck.fromPaths(paths);
      const table: string = lib.FleetCheck.render(report);
      if (!table.includes('Result: ')) throw new Error('bench: the fleet check printed no result');
      docs = report.sources.reduce((n: number, s: any) => n + s.workloads, 0);
    } else {
      docs = 0;
      for (const f of all) {
        for (const o of loadDocuments(fs.readFileSync(f, 'utf8')) as any[]) {
          if (o && o.spec?.template) docs++;
        }
      }
    }
    const wall = performance.now() - start;
    const cpu = process.cpuUsage(cpu0);
    return { t: { wall, cpu: (cpu.user + cpu.system) / 1000 }, docs };
  };
  const docs = { base: once('base').docs, ours: once('ours').docs };
  const base: Times[] = [];
  const ours: Times[] = [];
  for (let r = 0; r < spec.rounds; r++) {
    if (r % 2 === 0) {
      base.push(once('base').t); ours.push(once('ours').t);
    } else {
      ours.push(once('ours').t); base.push(once('base').t);
    }
  }
  for (const s of Object.values(sides)) fs.rmSync(s.root, { recursive: true, force: true });
  process.stdout.write(JSON.stringify({ base, ours, docs }));
}

interface FleetRow { readonly name: string; readonly base: FleetSide; readonly ours: FleetSide; readonly goal?: number }

function runFleetRow(row: FleetRow): Result[] {
  const spec = { base: row.base, ours: row.ours, rounds: ROUNDS };
  // ts-node registered by the script, not preloaded with -r: the fleet check's worker threads inherit the Node options of
  // this process, and a preloaded ts-node would load in each of them (about a second each), which no user of the command pays
  const launch = `require('ts-node').register({ transpileOnly: true }); require(${JSON.stringify(__filename)});`;
  const args = ['--expose-gc', '--max-old-space-size=8192', '-e', launch, '--', '--fleet-worker', JSON.stringify(spec)];
  const env = { ...process.env, TS_NODE_PROJECT: path.join(ROOT, 'test', 'tsconfig.json') };
  const out = execFileSync(process.execPath, args, { cwd: ROOT, encoding: 'utf-8', maxBuffer: 64 * 1024 * 1024, env });
  const r = JSON.parse(out) as Measured;
  for (const side of ['base', 'ours'] as const) {
    const expected = row[side].spec.workloads;
    if (r.docs[side] !== expected) throw new Error(`bench: row "${row.name}": the ${side} side read ${r.docs[side]} workloads, expected ${expected}`);
  }
  return [
    summarize(`${row.name}, CPU`, r.base.map(x => x.cpu), r.ours.map(x => x.cpu), row.goal),
    summarize(`${row.name}, wall`, r.base.map(x => x.wall), r.ours.map(x => x.wall), row.goal),
  ];
}

// ---------------------------------------------------------------- whole-process rows

/** CPU seconds of the reaped children of this process (utime + stime of /proc/self/stat), or NaN off Linux. */
function childrenCpu(): number {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf-8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // after "(comm)": state is field 3; cutime and cstime are fields 16 and 17
    const ticks = Number(fields[16 - 3]) + Number(fields[17 - 3]);
    return ticks / clockTicks();
  } catch {
    return NaN;
  }
}

let ticksPerSecond: number | undefined;
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf-8' });
    ticksPerSecond = Number(r.stdout.trim()) || 100;
  }
  return ticksPerSecond;
}

interface Command { readonly file: string; readonly args: string[]; readonly stdoutTo?: string }

function timeCommand(c: Command): { wall: number; cpu: number } {
  const fd = c.stdoutTo ? fs.openSync(c.stdoutTo, 'w') : 'ignore';
  const cpu0 = childrenCpu();
  const t0 = performance.now();
  const r = spawnSync(c.file, c.args, { cwd: ROOT, stdio: ['ignore', fd, 'pipe'], encoding: 'utf-8' });
  const wall = performance.now() - t0;
  const cpu = (childrenCpu() - cpu0) * 1000;
  if (typeof fd === 'number') fs.closeSync(fd);
  if (r.status !== 0) throw new Error(`bench: ${c.file} ${c.args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return { wall, cpu };
}

function runProcesses(name: string, base: Command, ours: Command, goal: number | undefined, check: () => void): Result[] {
  timeCommand(base); // warm-up: file system cache
  timeCommand(ours);
  check();
  const b: Array<{ wall: number; cpu: number }> = [];
  const o: Array<{ wall: number; cpu: number }> = [];
  for (let r = 0; r < PROCESS_ROUNDS; r++) {
    if (r % 2 === 0) { b.push(timeCommand(base)); o.push(timeCommand(ours)); } else { o.push(timeCommand(ours)); b.push(timeCommand(base)); }
  }
  const rows = [summarize(`${name}, wall`, b.map(x => x.wall), o.map(x => x.wall), goal)];
  if (!b.some(x => Number.isNaN(x.cpu))) rows.unshift(summarize(`${name}, CPU`, b.map(x => x.cpu), o.map(x => x.cpu), goal));
  return rows;
}

const SMALL_APP_ROW = 'cold small app (a CloneSet, in place with a 50% partition, and its budget) vs the same app with cdk8s-plus-28 (a kplus.Deployment and a PodDisruptionBudget), whole process (start, load, synth, write)';
const REQUIRE_ROW = "require('cdk8s-kruise') vs require('cdk8s-plus-28'), whole process";
const REQUIRE_USE_ROW = "require('cdk8s-kruise').CloneSet (the package and one workload construct loaded) vs require('cdk8s-plus-28'), whole process, for reference";
const CONTROL_PLANE_FLOOR_ROW = 'node and cdk8s writing the same documents with cdk8s\'s YAML writer, nothing else, vs `helm template` (the floor of the control-plane row, for reference)';
const CONTROL_PLANE_ROW = 'the default KruiseControlPlane, whole process (start, load, synth, write) vs `helm template` of the kruise chart, for reference';

function nodeScript(source: string): Command {
  return { file: process.execPath, args: ['-e', source] };
}

function requireRow(): Result[] {
  const kplus = require.resolve('cdk8s-plus-28', { paths: [ROOT] });
  const base = nodeScript(`require(${JSON.stringify(kplus)})`);
  return [
    ...runProcesses(REQUIRE_ROW, base, nodeScript(`require(${JSON.stringify(LIB)})`), 1.2, () => undefined),
    // what an app that uses a workload pays: the construct's modules and cdk8s-plus-28, which it extends
    ...runProcesses(REQUIRE_USE_ROW, base, nodeScript(`if (typeof require(${JSON.stringify(LIB)}).CloneSet !== 'function') throw new Error('CloneSet');`), undefined, () => undefined),
  ];
}

/**
 * The app most users have: one chart, one workload, one budget, synthesized
 * by a fresh node as `cdk8s synth` does (load, construct, synth, write the
 * YAML). Our side is a CloneSet updating in place with a 50% partition and
 * `protect()`; the baseline the same container as a kplus.Deployment and a
 * PodDisruptionBudget with the same bound.
 */
function smallAppRow(): Result[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-small-'));
  const kplusPath = require.resolve('cdk8s-plus-28', { paths: [ROOT] });
  const app = (name: string, workload: string[]) => nodeScript([
    "const { App, Chart } = require('cdk8s');",
    `const kplus = require(${JSON.stringify(kplusPath)});`,
    `const app = new App({ outdir: ${JSON.stringify(path.join(dir, name))} });`,
    "const chart = new Chart(app, 'web');",
    "const container = { image: 'nginx:1.27', portNumber: 80, securityContext: { user: 1000, group: 1000 }, resources: { cpu: { request: kplus.Cpu.millis(100), limit: kplus.Cpu.millis(500) } } };",
    ...workload,
    'app.synth();',
  ].join('\n'));
  const base = app('base', [
    "const web = new kplus.Deployment(chart, 'web', { replicas: 4, containers: [container] });",
    "new kplus.k8s.KubePodDisruptionBudget(chart, 'budget', { spec: { maxUnavailable: kplus.k8s.IntOrString.fromNumber(1), selector: { matchLabels: web.matchLabels } } });",
  ]);
  const ours = app('ours', [
    `const { CloneSet, CloneSetUpdateStrategy } = require(${JSON.stringify(LIB)});`,
    "const web = new CloneSet(chart, 'web', { replicas: 4, containers: [container], updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible({ partition: kplus.PercentOrAbsolute.percent(50) }) });",
    'web.protect({ maxUnavailable: kplus.PercentOrAbsolute.absolute(1) });',
  ]);
  const kinds = (side: string) => fs.readFileSync(path.join(dir, side, 'web.k8s.yaml'), 'utf-8').match(/^kind: \w+$/gm)?.join(', ');
  return runProcesses(SMALL_APP_ROW, base, ours, 1.2, () => {
    const written = { base: kinds('base'), ours: kinds('ours') };
    // a budget is written before the workload it protects (it protects only from the moment it exists)
    const expected = { base: 'kind: Deployment, kind: PodDisruptionBudget', ours: 'kind: PodUnavailableBudget, kind: CloneSet' };
    if (JSON.stringify(written) !== JSON.stringify(expected)) throw new Error(`bench: the small app row wrote ${JSON.stringify(written)}, expected ${JSON.stringify(expected)}`);
  });
}

// ---------------------------------------------------------------- check vs kubeconform

const KUBECONFORM_VERSION = 'v0.7.0';
const CHECK_ROW = 'OpenKruise documents in files, whole process: `cdk8s-kruise check` (schema, webhook defaults and rules, app-wide checks) vs `kubeconform -strict` with the same upstream CRD schemas';
const CHECK_ONE_CORE_ROW = 'OpenKruise documents in files, both held to one core (`taskset -c 0`): `cdk8s-kruise check` vs `kubeconform -strict`';
const CHECK_FLOOR_ROW = 'OpenKruise documents in files, the limit: node reading and parsing them with js-yaml (kubectl\'s scalar rules), nothing else, vs `cdk8s-kruise check` (baseline)';
const CHECK_FLOOR_KUBECONFORM_ROW = 'OpenKruise documents in files, the limit: node reading and parsing them with js-yaml, nothing else, vs `kubeconform -strict` (baseline)';
const CHECK_THREADS_ROW = 'OpenKruise documents in files, whole process: `cdk8s-kruise check` with its threads (a second one from 12 MiB of input) vs `check --jobs 1` (baseline), for reference';

function kubeconformBinary(): string | undefined {
  const cached = path.join(ROOT, '.cache', 'bench', `kubeconform-${KUBECONFORM_VERSION}`, 'kubeconform');
  if (fs.existsSync(cached)) return cached;
  if (process.env.BENCH_BUILD_KUBECONFORM === '0') return undefined;
  const r = spawnSync('bash', [path.join(ROOT, 'build-tools', 'bench-kubeconform.sh')], { encoding: 'utf-8', stdio: ['ignore', 'pipe', 'inherit'] });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** Where the upstream CRDs are: the reference copies, else ours (test/api/conformance.test.ts holds them equal). */
function crdFolders(): string[] {
  const shared = path.resolve(ROOT, '..', 'shared', 'reference');
  const upstream = [path.join(shared, 'kruise-v1.9.0', 'crds'), path.join(shared, 'kruise-rollout-v0.6.2', 'crds')];
  return upstream.every(d => fs.existsSync(d)) ? upstream : [path.join(ROOT, 'crds')];
}

/**
 * The CRDs as kubeconform reads schemas (what its openapi2jsonschema script
 * writes, in strict form): one JSON schema per kind and version at
 * `<group>/<kind>_<version>.json`, int-or-string as a string or an integer,
 * unknown fields refused wherever the schema lists properties.
 */
function kubeconformSchemas(dir: string): string {
  const strict = (node: any): any => {
    if (Array.isArray(node)) return node.map(strict);
    if (node === null || typeof node !== 'object') return node;
    const out: any = {};
    for (const [k, v] of Object.entries(node)) out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as any).map(([p, x]) => [p, strict(x)])) : strict(v);
    if (out['x-kubernetes-int-or-string'] === true) {
      delete out.type;
      out.oneOf = [{ type: 'string' }, { type: 'integer' }];
    }
    if (out.properties && out.additionalProperties === undefined && out['x-kubernetes-preserve-unknown-fields'] !== true) out.additionalProperties = false;
    return out;
  };
  for (const folder of crdFolders()) {
    for (const f of fs.readdirSync(folder).filter(x => /\.ya?ml$/.test(x))) {
      // (the rollouts CRDs carry a Helm expression as a map key in their conversion webhook: read, not warned about)
      for (const d of parseAllDocuments(fs.readFileSync(path.join(folder, f), 'utf-8'), { logLevel: 'error' })) {
        const crd: any = d.toJSON();
        if (crd?.kind !== 'CustomResourceDefinition') continue;
        for (const v of crd.spec.versions ?? []) {
          const out = path.join(dir, crd.spec.group, `${crd.spec.names.kind.toLowerCase()}_${v.name}.json`);
          fs.mkdirSync(path.dirname(out), { recursive: true });
          fs.writeFileSync(out, JSON.stringify(strict(v.schema.openAPIV3Schema)));
        }
      }
    }
  }
  return path.join(dir, '{{ .Group }}', '{{ .ResourceKind }}_{{ .ResourceAPIVersion }}.json');
}

/** `n` workload and job documents of four kinds, in `files` files, every one admitted by both tools. */
function writeCheckDocuments(dir: string, n: number, files: number): void {
  const pod = (i: number, indent: string, spec: string[] = []) => [
    'metadata:', '  labels:', `    app: w${i}`, `    team: t${i % 50}`,
    'spec:', ...spec.map(l => `  ${l}`), '  containers:', '  - name: app', '    image: nginx:1.27', '    ports:', '    - containerPort: 8080', '      name: http',
    '    resources:', '      requests:', '        cpu: 100m', '        memory: 64Mi', '      limits:', '        memory: 256Mi',
  ].map(l => indent + l).join('\n');
  const doc = (i: number): string => {
    const head = (apiVersion: string, kind: string) => `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: w${i}\n  namespace: app-${i % 100}\n  labels:\n    app: w${i}\n`;
    const selector = `  selector:\n    matchLabels:\n      app: w${i}\n`;
    switch (i % 4) {
      case 0: return `${head('apps.kruise.io/v1alpha1', 'CloneSet')}spec:\n  replicas: 3\n${selector}  template:\n${pod(i, '    ')}\n  updateStrategy:\n    type: InPlaceIfPossible\n    partition: 1\n    maxUnavailable: 1\n`;
      case 1: return `${head('apps.kruise.io/v1beta1', 'StatefulSet')}spec:\n  replicas: 3\n  serviceName: w${i}\n  podManagementPolicy: Parallel\n${selector}  template:\n${pod(i, '    ', ['readinessGates:', '- conditionType: InPlaceUpdateReady'])}\n  updateStrategy:\n    type: RollingUpdate\n    rollingUpdate:\n      podUpdatePolicy: InPlaceIfPossible\n      maxUnavailable: 2\n`;
      case 2: return `${head('apps.kruise.io/v1alpha1', 'DaemonSet')}spec:\n${selector}  template:\n${pod(i, '    ')}\n  updateStrategy:\n    type: RollingUpdate\n    rollingUpdate:\n      maxUnavailable: 10%\n`;
      default: return `${head('apps.kruise.io/v1alpha1', 'BroadcastJob')}spec:\n  parallelism: 10\n  template:\n${pod(i, '    ', ['restartPolicy: Never'])}\n  completionPolicy:\n    type: Always\n    ttlSecondsAfterFinished: 600\n`;
    }
  };
  const per = Math.ceil(n / files);
  for (let f = 0, i = 0; f < files; f++) {
    const docs: string[] = [];
    for (let j = 0; j < per && i < n; j++, i++) docs.push(doc(i));
    const sub = path.join(dir, `team-${f % 10}`);
    fs.mkdirSync(sub, { recursive: true });
    fs.writeFileSync(path.join(sub, `app-${f}.yaml`), docs.join('---\n'));
  }
}

/**
 * The check rows: `cdk8s-kruise check` (every core, `--jobs` at its default)
 * against kubeconform (which uses every core too); both held to one core
 * (`taskset -c 0`, where there is taskset); and the limit no checker beats,
 * a node process that reads and parses the same files with the fastest
 * reader (js-yaml with kubectl's scalar rules) and nothing else, against
 * kubeconform and against the check.
 */
function checkRow(n: number, files: number): Result[] | string {
  const kubeconform = kubeconformBinary();
  if (!kubeconform) return `skipped: no kubeconform ${KUBECONFORM_VERSION} (build-tools/bench-kubeconform.sh builds it from the Go module proxy; it needs go)`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-check-'));
  const docs = path.join(dir, 'manifests');
  writeCheckDocuments(docs, n, files);
  const location = kubeconformSchemas(path.join(dir, 'schemas'));
  const base: Command = { file: kubeconform, args: ['-strict', '-summary', '-schema-location', location, docs], stdoutTo: path.join(dir, 'kubeconform.txt') };
  const ours: Command = { file: process.execPath, args: [path.join(ROOT, 'bin', 'cdk8s-kruise'), 'check', docs], stdoutTo: path.join(dir, 'check.txt') };
  const parseOut = path.join(dir, 'parse.txt');
  const parse: Command = nodeScript([
    `const { loadDocuments } = require(${JSON.stringify(path.join(ROOT, 'lib', 'src', 'check', 'yaml.js'))});`,
    "const fs = require('fs'); const path = require('path');",
    'const files = p => (fs.statSync(p).isDirectory() ? fs.readdirSync(p).sort().flatMap(e => files(path.join(p, e))) : [p]);',
    'let n = 0;',
    `for (const f of files(${JSON.stringify(docs)})) n += loadDocuments(fs.readFileSync(f, 'utf8')).length;`,
    `fs.writeFileSync(${JSON.stringify(parseOut)}, String(n));`,
  ].join('\n'));
  const oneCore = (c: Command): Command => ({ ...c, file: 'taskset', args: ['-c', '0', c.file, ...c.args] });
  const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
  const name = (what: string) => `${n.toLocaleString('en-US')} ${what.replace('OpenKruise documents in files', `OpenKruise documents in ${files} files`)}`;
  const count = n.toLocaleString('en-US');
  const judged = () => {
    const theirs = fs.readFileSync(path.join(dir, 'kubeconform.txt'), 'utf-8');
    const mine = fs.readFileSync(path.join(dir, 'check.txt'), 'utf-8');
    if (!theirs.includes(`Valid: ${n}, Invalid: 0, Errors: 0, Skipped: 0`)) throw new Error(`bench: kubeconform did not find ${n} valid documents: ${theirs.trim().split('\n').pop()}`);
    if (!mine.includes(`${count} OpenKruise objects judged`) || !mine.includes('all admitted')) throw new Error(`bench: cdk8s-kruise check did not admit ${n} documents: ${mine.trim().split('\n').pop()}`);
  };
  const parsed = () => {
    if (fs.readFileSync(parseOut, 'utf-8') !== String(n)) throw new Error(`bench: the parse read ${fs.readFileSync(parseOut, 'utf-8')} documents, expected ${n}`);
  };
  try {
    const rows = runProcesses(name(CHECK_ROW), base, ours, 0.6, judged);
    if (hasTaskset) rows.push(...runProcesses(name(CHECK_ONE_CORE_ROW), oneCore(base), oneCore(ours), 1.0, judged));
    else console.log(`| ${name(CHECK_ONE_CORE_ROW)} | | | | | skipped: no taskset |`);
    rows.push(...runProcesses(name(CHECK_FLOOR_ROW), ours, parse, undefined, parsed));
    rows.push(...runProcesses(name(CHECK_FLOOR_KUBECONFORM_ROW), base, parse, undefined, parsed));
    // the threads' own row: four times the input, enough for `check` to start its threads, against one thread
    const many = path.join(dir, 'many');
    writeCheckDocuments(many, 4 * n, 4 * files);
    const cli = path.join(ROOT, 'bin', 'cdk8s-kruise');
    const single: Command = { file: process.execPath, args: [cli, 'check', '--jobs', '1', many], stdoutTo: path.join(dir, 'check-single.txt') };
    const threaded: Command = { file: process.execPath, args: [cli, 'check', many], stdoutTo: path.join(dir, 'check-threaded.txt') };
    const same = () => {
      const a = fs.readFileSync(single.stdoutTo!, 'utf-8');
      const b = fs.readFileSync(threaded.stdoutTo!, 'utf-8');
      if (a !== b || !a.includes(`${(4 * n).toLocaleString('en-US')} OpenKruise objects judged`)) throw new Error(`bench: check with threads and --jobs 1 wrote different reports, or did not judge ${4 * n} documents`);
    };
    rows.push(...runProcesses(`${(4 * n).toLocaleString('en-US')} ${CHECK_THREADS_ROW.replace('OpenKruise documents in files', `OpenKruise documents in ${4 * files} files`)}`, single, threaded, undefined, same));
    return rows;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function helmBinary(): string | undefined {
  const cached = path.join(ROOT, '.cache', 'bench', `helm-${HELM_VERSION}`, 'helm');
  if (fs.existsSync(cached)) return cached;
  if (SMOKE || process.env.BENCH_BUILD_HELM === '0') return undefined;
  const r = spawnSync('bash', [path.join(ROOT, 'build-tools', 'bench-helm.sh')], { encoding: 'utf-8', stdio: ['ignore', 'pipe', 'inherit'] });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

function controlPlaneRow(): Result[] | string {
  const helm = helmBinary();
  if (!helm) return `skipped: no Helm ${HELM_VERSION} (build-tools/bench-helm.sh builds it from the Go module proxy${SMOKE ? '; the smoke run never builds it' : ''})`;
  if (!fs.existsSync(path.join(CHART, 'Chart.yaml'))) return `skipped: the kruise chart source is not at ${path.relative(ROOT, CHART)} (see docs/synth-cost.md)`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cp-'));
  const ours = nodeScript([
    "const { App, Chart } = require('cdk8s');",
    `const { KruiseControlPlane } = require(${JSON.stringify(LIB)});`,
    `const app = new App({ outdir: ${JSON.stringify(path.join(dir, 'cdk8s'))} });`,
    "new KruiseControlPlane(new Chart(app, 'kruise'), 'kruise');",
    'app.synth();',
  ].join('\n'));
  const helmOut = path.join(dir, 'helm.yaml');
  const base: Command = { file: helm, args: ['template', 'kruise', CHART, '--namespace', 'kruise-system', '--include-crds'], stdoutTo: helmOut };
  const count = (text: string) => text.split(/^---\s*$/m).filter(d => /^kind:/m.test(d)).length;
  const ourYaml = path.join(dir, 'cdk8s', 'kruise.k8s.yaml');
  // no goal: the floor row below shows that no cdk8s app reaches Helm's time
  const rows = runProcesses(CONTROL_PLANE_ROW, base, ours, undefined, () => {
    const helmDocs = count(fs.readFileSync(helmOut, 'utf-8'));
    const ourDocs = count(fs.readFileSync(ourYaml, 'utf-8'));
    if (helmDocs < 40 || ourDocs < 40) throw new Error(`bench: the control plane row wrote ${ourDocs} objects with cdk8s and ${helmDocs} with helm; expected the whole install (40+) on both sides`);
  });
  // The floor: start node, load cdk8s and write our documents with cdk8s's YAML writer (what every cdk8s app's synth ends with)
  const docsJson = path.join(dir, 'docs.json');
  fs.writeFileSync(docsJson, JSON.stringify(parseAllDocuments(fs.readFileSync(ourYaml, 'utf-8')).map(d => d.toJSON())));
  const floorOut = path.join(dir, 'floor.yaml');
  const floor = nodeScript([
    "const { Yaml } = require('cdk8s');",
    `Yaml.save(${JSON.stringify(floorOut)}, JSON.parse(require('fs').readFileSync(${JSON.stringify(docsJson)}, 'utf-8')));`,
  ].join('\n'));
  rows.push(...runProcesses(CONTROL_PLANE_FLOOR_ROW, base, floor, undefined, () => {
    if (fs.readFileSync(floorOut, 'utf-8') !== fs.readFileSync(ourYaml, 'utf-8')) throw new Error('bench: the floor process did not write the control plane\'s YAML');
  }));
  return rows;
}

// ---------------------------------------------------------------- report

interface Result {
  readonly name: string;
  readonly base: number;
  readonly ours: number;
  readonly ratio: number;
  readonly low: number;
  readonly high: number;
  readonly rounds: number;
  readonly goal?: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function summarize(name: string, base: number[], ours: number[], goal?: number): Result {
  const ratios = base.map((b, i) => ours[i] / b);
  return {
    name,
    base: median(base),
    ours: median(ours),
    ratio: median(ratios),
    low: Math.min(...ratios),
    high: Math.max(...ratios),
    rounds: ratios.length,
    goal,
  };
}

function machine(): string {
  const cpus = os.cpus();
  const load = os.loadavg().map(l => l.toFixed(1)).join(' ');
  return `${cpus.length} x ${cpus[0]?.model ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}; load average at start ${load}`;
}

function main(): void {
  if (!fs.existsSync(LIB)) throw new Error(`bench: ${path.relative(ROOT, LIB)} is missing; run npx projen compile first`);
  const n = (full: number, smoke: number) => (SMOKE ? smoke : full);
  const N = Number(process.env.BENCH_WORKLOADS ?? n(1000, 20));
  const BIG = Number(process.env.BENCH_BIG_WORKLOADS ?? n(10000, 100));
  const fmt = (x: number) => x.toLocaleString('en-US');
  const rows: InProcessRow[] = [
    { name: `${fmt(N)} CloneSets vs ${fmt(N)} kplus.Deployments`, base: { build: 'deployments', n: N }, ours: { build: 'clonesets', n: N }, goal: 1.0 },
    { name: `${fmt(N)} AdvancedStatefulSets vs ${fmt(N)} kplus.StatefulSets`, base: { build: 'statefulsets', n: N }, ours: { build: 'advanced-statefulsets', n: N }, goal: 1.0 },
    { name: `${fmt(N)} CloneSets + ${SIDECAR_SETS} SidecarSets vs ${fmt(N)} kplus.Deployments`, base: { build: 'fleet-deployments', n: N }, ours: { build: 'fleet-clonesets', n: N } },
    { name: `${fmt(BIG)} CloneSets + ${SIDECAR_SETS} SidecarSets vs ${fmt(BIG)} kplus.Deployments`, base: { build: 'fleet-deployments', n: BIG }, ours: { build: 'fleet-clonesets', n: BIG }, goal: 1.2 },
    {
      name: `growth, 4x the objects: ${fmt(BIG)} CloneSets + ${Math.round(BIG / 50)} SidecarSets vs ${fmt(BIG / 4)} + ${Math.round(BIG / 200)} (cdk8s-kruise alone)`,
      base: { build: 'scaled-fleet-clonesets', n: BIG / 4 },
      ours: { build: 'scaled-fleet-clonesets', n: BIG },
      goal: 4.4,
    },
    {
      name: `growth, 4x the objects: ${fmt(BIG)} kplus.Deployments vs ${fmt(BIG / 4)} (cdk8s-plus-28 alone, for reference)`,
      base: { build: 'deployments', n: BIG / 4 },
      ours: { build: 'deployments', n: BIG },
    },
  ];
  const FLEET = Number(process.env.BENCH_FLEET_WORKLOADS ?? n(100000, 400));
  const fleetSpec = (k: number): FleetSpec => ({
    workloads: FLEET / k, dirs: Math.max(1, Math.round(FLEET / 100 / k)), sidecarSets: Math.max(3, Math.round(FLEET / 200 / k)),
  });
  const big = fleetSpec(1);
  const quarter = fleetSpec(4);
  const fleetRows: FleetRow[] = [
    {
      name: `fleet check: ${fmt(big.workloads)} workloads in ${fmt(big.dirs)} app outputs, ${big.sidecarSets} SidecarSets and their old versions (\`cdk8s-kruise fleet\`, table) vs reading and parsing the same files with js-yaml (kubectl's scalar rules, the reader the check uses)`,
      base: { spec: big, check: false },
      ours: { spec: big, check: true },
      goal: 2.0,
    },
    {
      name: `fleet check growth, 4x the objects: ${fmt(big.workloads)} workloads, ${fmt(big.dirs)} outputs, ${big.sidecarSets} SidecarSets vs ${fmt(quarter.workloads)}, ${fmt(quarter.dirs)}, ${quarter.sidecarSets}`,
      base: { spec: quarter, check: true },
      ours: { spec: big, check: true },
      goal: 4.4,
    },
    {
      // what the threads do: the same check and report with one thread (no goal: the rows above judge the check)
      name: `fleet check's threads: ${fmt(big.workloads)} workloads, ${fmt(big.dirs)} outputs, ${big.sidecarSets} SidecarSets, the default --jobs vs --jobs 1`,
      base: { spec: big, check: true, jobs: 1 },
      ours: { spec: big, check: true },
    },
  ];
  const started = performance.now();
  console.log(`# npx projen bench${SMOKE ? ' --smoke (sizes too small for the figures to mean anything)' : ''}`);
  console.log(`machine: ${machine()}`);
  console.log(`in-process rows: median of ${ROUNDS} interleaved rounds after a warm-up; whole-process rows: ${PROCESS_ROUNDS} rounds`);
  console.log('');
  const againstArg = process.argv.indexOf('--against');
  console.log(againstArg >= 0 ? `| row | ${path.basename(path.resolve(process.argv[againstArg + 1] ?? ''))} (ms) | this build (ms) | ratio | spread | goal |`
    : '| row | baseline (ms) | cdk8s-kruise (ms) | ratio | spread | goal |');
  console.log('| --- | ---: | ---: | ---: | ---: | --- |');
  const print = (r: Result) => {
    const verdict = SMOKE ? 'not judged (smoke)' : r.ratio <= r.goal! ? 'met' : `missed by ${(r.ratio - r.goal!).toFixed(2)}x`;
    const goal = r.goal === undefined ? '' : `<= ${r.goal.toFixed(1)}x: ${verdict}`;
    console.log(`| ${r.name} | ${r.base.toFixed(0)} | ${r.ours.toFixed(0)} | ${r.ratio.toFixed(2)}x | ${r.low.toFixed(2)}-${r.high.toFixed(2)}x | ${goal} |`);
  };
  // BENCH_ONLY: run only the rows whose name contains it, e.g. "AdvancedStatefulSets", "require", "helm"
  const wanted = (name: string) => !process.env.BENCH_ONLY || name.includes(process.env.BENCH_ONLY);
  const inProcess = rows.filter(r => wanted(r.name));
  if (againstArg >= 0) {
    const other = path.resolve(process.argv[againstArg + 1] ?? '');
    if (!fs.existsSync(path.join(other, 'lib', 'src', 'index.js'))) throw new Error(`bench --against: ${other}/lib/src/index.js is missing; compile that checkout first (npx projen compile)`);
    // the growth rows compare two sizes of one build; the other rows' apps are built by both builds
    void (async () => {
      for (const row of inProcess.filter(r => r.base.build !== r.ours.build)) (await runAgainst(row, other)).forEach(print);
      console.log('');
      console.log(`(${((performance.now() - started) / 1000).toFixed(0)} s)`);
    })().catch(e => { console.error(e); process.exit(1); });
    return;
  }
  if (SMOKE) runInProcess(inProcess).flat().forEach(print);
  else for (const row of inProcess) runInProcess([row]).flat().forEach(print);
  if (wanted(SMALL_APP_ROW)) smallAppRow().forEach(print);
  for (const row of fleetRows.filter(r => wanted(r.name))) runFleetRow(row).forEach(print);
  if (wanted(REQUIRE_ROW)) requireRow().forEach(print);
  if (wanted(CHECK_ROW)) {
    const checked = checkRow(Number(process.env.BENCH_CHECK_DOCUMENTS ?? n(10000, 40)), n(100, 4));
    if (typeof checked === 'string') console.log(`| ${CHECK_ROW} | | | | | ${checked} |`);
    else checked.forEach(print);
  }
  if (wanted(CONTROL_PLANE_ROW)) {
    const cp = controlPlaneRow();
    if (typeof cp === 'string') console.log(`| ${CONTROL_PLANE_ROW} | | | | | ${cp} |`);
    else cp.forEach(print);
  }
  console.log('');
  console.log(`(${((performance.now() - started) / 1000).toFixed(0)} s)`);
}

const at = process.argv.indexOf('--worker');
const fleetAt = process.argv.indexOf('--fleet-worker');
const sideAt = process.argv.indexOf('--side-worker');
if (at >= 0) worker(JSON.parse(process.argv[at + 1]));
else if (sideAt >= 0) sideWorker(JSON.parse(process.argv[sideAt + 1]));
else if (fleetAt >= 0) fleetWorker(JSON.parse(process.argv[fleetAt + 1]));
else main();
