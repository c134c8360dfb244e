/**
 * The README's Deploy sequence, run exactly as written on a fresh cluster.
 *
 * This file runs first on a cluster of its own (jest.full.config.js:
 * `test:cluster` starts a second, empty API server for test/cluster/full/,
 * with kube-controller-manager, so Deployments, DaemonSets, Endpoints and
 * ServiceAccounts behave as in a user's cluster). The app is a user's app: the `KruiseControlPlane` in a chart
 * `kruise` and example charts next to it, synthesized into `dist/`. The
 * README's `sh` block of the Deploy section runs in bash, line by line, with
 * the tier's kubectl.
 *
 * The manager's Deployment runs on kwok fake nodes, which run nothing; the
 * real kruise-manager is the tier's local process (manager.ts), started from
 * our Deployment's command line once the control plane's objects exist. The
 * fake nodes join only when that process is ready and has written its
 * certificates, so the README's `rollout status` step waits for a manager
 * that really serves, as it does in a cluster.
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import * as lib from '../../../src';
import { Kube, Manifest, describeObject } from '../kube';
import { Managers, fakeNodes, managerSpec, provisionClaims, waitWebhooksPatched } from '../manager';
import { Synth } from '../sources';

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));
const root = path.resolve(__dirname, '..', '..', '..');

/** The example apps deployed next to the control plane (each brings its own charts). */
const EXAMPLES = ['web-cloneset', 'stateful-app', 'spread-and-budget', 'sidecar-platform', 'node-agent'];

/** The first `sh` block of the README's `## Deploy` section. */
export function deployBlock(readme: string): string {
  const start = readme.search(/^## Deploy\b/m);
  if (start < 0) throw new Error('cluster tier: README.md has no "## Deploy" section');
  const next = readme.slice(start + 1).search(/^## /m);
  const section = readme.slice(start, next < 0 ? undefined : start + 1 + next);
  const m = /```sh\n([\s\S]*?)```/.exec(section);
  if (!m) throw new Error('cluster tier: the Deploy section of README.md has no ```sh block');
  return m[1];
}

/** The user's app: the control plane and the example charts, synthesized into `<dir>/dist`; and its control plane file alone. */
function synthUserApp(dir: string): { app: Synth; controlPlane: Synth } {
  const outdir = path.join(dir, 'dist');
  const app = new App({ outdir });
  new lib.KruiseControlPlane(new Chart(app, 'kruise'), 'kruise');
  for (const name of EXAMPLES) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(path.join(root, 'examples', name, 'main.ts')).build(app);
  }
  app.synth();
  const files: Record<string, string> = {};
  const objectsOf: Record<string, Manifest[]> = {};
  // what `kubectl apply -f dist/` reads: the files of dist/ (not its subfolders, e.g. injection-preview/)
  for (const f of fs.readdirSync(outdir).filter(x => fs.statSync(path.join(outdir, x)).isFile()).sort()) {
    files[f] = fs.readFileSync(path.join(outdir, f), 'utf-8');
    objectsOf[f] = parseAllDocuments(files[f]).map(d => d.toJSON()).filter(x => x);
  }
  const cp = '0000-kruise.k8s.yaml';
  if (!objectsOf[cp]) throw new Error(`cluster tier: the user app wrote ${Object.keys(files).join(', ')}, not ${cp} first`);
  return {
    app: { name: 'user app', files, objects: Object.values(objectsOf).flat() },
    controlPlane: { name: 'user app (control plane)', files: { [cp]: files[cp] }, objects: objectsOf[cp] },
  };
}

/** Scripts still running (killed when the file ends). */
const scripts: ChildProcess[] = [];

/** Run a bash script in `cwd` with the tier's kubectl first on PATH; resolves with its exit code and output. */
function runScript(script: string, cwd: string, timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise(resolve => {
    const env = { ...process.env, PATH: `${process.env.CLUSTER_BIN}:${process.env.PATH}` };
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    scripts.push(child);
    let output = '';
    child.stdout.on('data', d => { output += d; });
    child.stderr.on('data', d => { output += d; });
    const timer = setTimeout(() => { output += `\n(killed after ${timeoutMs / 1000} s)`; child.kill('SIGKILL'); }, timeoutMs);
    child.on('exit', code => { clearTimeout(timer); resolve({ code, output }); });
  });
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, detail: () => Promise<string> = async () => ''): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`cluster tier: ${what}: not reached within ${timeoutMs / 1000} s${await detail()}`);
    await sleep(500);
  }
}

let kube: Kube;
let managers: Managers | undefined;
let dir: string;

beforeAll(() => {
  kube = new Kube();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tier-deploy-'));
});

afterAll(async () => {
  for (const c of scripts) if (c.exitCode === null) c.kill('SIGKILL');
  await managers?.stopAll();
  kube.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('the Deploy section has the sequence this test runs', () => {
  const block = deployBlock(fs.readFileSync(path.join(root, 'README.md'), 'utf-8'));
  expect(block).toMatch(/kubectl apply --server-side -f dist\/0000-kruise\.k8s\.yaml/);
  expect(block).toMatch(/kubectl apply --server-side -f dist\//);
});

test('the README Deploy block, run as written on a fresh cluster, creates every object and the example pods run', async () => {
  const block = deployBlock(fs.readFileSync(path.join(root, 'README.md'), 'utf-8'));
  const { app: s, controlPlane } = synthUserApp(dir);
  expect(Object.keys(s.files)[0]).toBe('0000-kruise.k8s.yaml');
  const spec = managerSpec(controlPlane);
  const crds = controlPlane.objects.filter(m => m.kind === 'CustomResourceDefinition').map(m => m.metadata.name);
  expect((await kube.request('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions')).body.items).toEqual([]);

  const script = runScript(block, dir, 600_000);

  // The control plane's objects exist and its CRDs are served: start the manager process (the "pod" of our Deployment).
  await until('the control plane applied, its CRDs Established', async () => {
    for (const m of controlPlane.objects) if ((await kube.get(m)).status !== 200) return undefined;
    for (const name of crds) {
      const crd = (await kube.request('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`)).body;
      if (!(crd?.status?.conditions ?? []).some((c: any) => c.type === 'Established' && c.status === 'True')) return undefined;
    }
    return true;
  }, 180_000);
  managers = new Managers(kube, spec);
  const p = await managers.start();
  await managers.waitReady(p);
  await managers.waitLeader();
  await waitWebhooksPatched(kube, controlPlane);

  // Now the nodes join: the manager Deployment's pods get scheduled and the README's rollout wait can end.
  // (the zones and the spot capacity examples/spread-and-budget spreads its pods over)
  await fakeNodes(kube, [
    { name: 'deploy-1', labels: { 'topology.kubernetes.io/zone': 'eu-west-1a' } },
    { name: 'deploy-2', labels: { 'topology.kubernetes.io/zone': 'eu-west-1b' } },
    { name: 'deploy-3', labels: { 'node.io/capacity': 'spot' } },
  ]);

  const { code, output } = await script;
  console.log(`README Deploy block:\n${block}\nexit ${code}; output:\n${output}`);
  expect(code).toBe(0);

  // Every object of dist/ exists.
  const missing: string[] = [];
  for (const m of s.objects) if ((await kube.get(m)).status !== 200) missing.push(describeObject(m));
  expect(missing).toEqual([]);

  // The control plane's Deployment and DaemonSet are rolled out, and the example workloads run their pods.
  const workloads = s.objects.filter(m => ['CloneSet', 'StatefulSet', 'Deployment', 'DaemonSet'].includes(m.kind));
  expect(new Set(workloads.map(w => w.kind))).toEqual(new Set(['CloneSet', 'StatefulSet', 'Deployment', 'DaemonSet']));
  for (const w of workloads) {
    await until(`${describeObject(w)} has its pods ready`, async () => {
      await provisionClaims(kube);
      const live = (await kube.get(w)).body;
      const st = live?.status ?? {};
      if (w.kind === 'DaemonSet') return st.desiredNumberScheduled > 0 && st.numberReady === st.desiredNumberScheduled ? true : undefined;
      return (st.readyReplicas ?? 0) === (live.spec.replicas ?? 1) && st.observedGeneration >= live.metadata.generation ? true : undefined;
    }, 120_000, async () => `\n  status: ${JSON.stringify((await kube.get(w)).body?.status)}\n${managers!.running().map(x => x.tail(15)).join('\n')}`);
  }
}, 900_000);
