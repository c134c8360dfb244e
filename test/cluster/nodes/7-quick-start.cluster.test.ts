/**
 * The README's quick start and the web-cloneset example on the real node,
 * deployed as they are written: the quick start's `ts` block is run as its
 * own program (as test/readme.test.ts runs it), and every object it writes
 * is applied unchanged, its `KruiseControlPlane` with the defaults
 * (openkruise/kruise-manager:v1.9.1, kruise-daemon looking for the runtime
 * under /var/run). The public images the manifests name are served by the
 * local registry under those names (test/cluster/images/images.json): the
 * locally built kruise-manager and the test server, which listens on 8080
 * as a non-root user like nginx-unprivileged. Then every pod answers HTTP,
 * directly and through the example's Service.
 *
 * This file runs last: it replaces the node's control plane with the
 * README's defaults, as a user following it would.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';
import { parseAllDocuments } from 'yaml';
import { Kube, Manifest } from '../kube';
import {
  KRUISE_NAMESPACE, applyAccepted, containerStatus, describePods, httpGet, isReady, podsOf, registryLog, requireRealNode, until,
  waitDaemonSetReady, waitDeploymentAvailable, waitPodsReady,
} from '../node';
import { exampleSynth } from '../sources';

const root = path.resolve(__dirname, '..', '..', '..');
let kube: Kube;

beforeAll(() => {
  kube = new Kube();
  requireRealNode();
});

afterAll(() => kube?.close());

/** The first `ts` block of the README's "Quick start" section. */
function quickStartBlock(): string {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf-8');
  const start = readme.search(/^## Quick start\b/m);
  if (start < 0) throw new Error('cluster tier: README.md has no "## Quick start" section');
  const m = /```ts[^\n]*\n([\s\S]*?)```/.exec(readme.slice(start));
  if (!m) throw new Error('cluster tier: the Quick start section of README.md has no ```ts block');
  return m[1];
}

/** Run the block as a program (`cdk8s-kruise` is src/) with its output in a folder of its own; the objects of each file it writes. */
function runQuickStart(): Record<string, Manifest[]> {
  const js = ts.transpileModule(quickStartBlock(), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  }).outputText;
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tier-quick-start-'));
  const before = process.env.CDK8S_OUTDIR;
  try {
    process.env.CDK8S_OUTDIR = outdir;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const load = (id: string) => (id === 'cdk8s-kruise' ? require('../../../src') : require(id));
    const mod = { exports: {} };
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    new Function('require', 'module', 'exports', js)(load, mod, mod.exports);
    const out: Record<string, Manifest[]> = {};
    for (const f of fs.readdirSync(outdir).filter(x => x.endsWith('.k8s.yaml')).sort()) {
      out[f] = parseAllDocuments(fs.readFileSync(path.join(outdir, f), 'utf-8')).map(d => d.toJSON()).filter(x => x);
    }
    return out;
  } finally {
    if (before === undefined) delete process.env.CDK8S_OUTDIR;
    else process.env.CDK8S_OUTDIR = before;
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

describe('the README quick start, deployed as written on the real node', () => {
  const files = runQuickStart();

  test('its control plane runs from the default image, and kruise-daemon finds containerd at its default place', async () => {
    expect(Object.keys(files)).toEqual(['0000-kruise.k8s.yaml', '0001-web.k8s.yaml']);
    await applyAccepted(kube, files['0000-kruise.k8s.yaml']);
    await waitDeploymentAvailable(kube, KRUISE_NAMESPACE, 'kruise-controller-manager', 300_000);
    await waitDaemonSetReady(kube, KRUISE_NAMESPACE, 'kruise-daemon', 300_000);
    // the pods run the README's image (containerd reports it under the first name it knew the same image by)
    const managers = await podsOf(kube, KRUISE_NAMESPACE, 'control-plane=controller-manager');
    expect(managers.length).toBe(2);
    for (const p of managers) {
      expect(p.spec.containers[0].image).toBe('openkruise/kruise-manager:v1.9.1');
      expect(containerStatus(p, 'manager').state.running).toBeDefined();
    }
    const [daemon] = (await podsOf(kube, KRUISE_NAMESPACE, 'control-plane=daemon')).filter(p => p.spec.nodeName === requireRealNode().name);
    expect(daemon.spec.containers[0].image).toBe('openkruise/kruise-manager:v1.9.1');
    expect(daemon.spec.volumes.find((v: any) => v.name === 'runtime-socket').hostPath.path).toBe('/var/run');
    const log = await kube.request('GET', `/api/v1/namespaces/${KRUISE_NAMESPACE}/pods/${daemon.metadata.name}/log`);
    expect(String(log.body)).toMatch(/hostvarrun\/containerd\/containerd\.sock/);
    // pulled by that name, from the local registry (as the mirror of docker.io: containerd adds ?ns=docker.io)
    expect(registryLog().some(l => / (HEAD|GET) \/v2\/docker\.io\/openkruise\/kruise-manager\/manifests\/v1\.9\.1\?ns=docker\.io$/.test(l))).toBe(true);
    await until('kruise-manager writes the caBundle of every webhook', 120_000, async () => {
      for (const m of files['0000-kruise.k8s.yaml'].filter(x => x.kind.endsWith('WebhookConfiguration'))) {
        const live = (await kube.get(m)).body;
        if ((live.webhooks ?? []).some((h: any) => !h.clientConfig?.caBundle)) return false;
      }
      return true;
    });
  }, 400_000);

  test('its CloneSet runs 4 pods of nginxinc/nginx-unprivileged:1.27 on the real node, each answering HTTP on 8080', async () => {
    const objects = files['0001-web.k8s.yaml'];
    await applyAccepted(kube, objects);
    const cs = objects.find(m => m.kind === 'CloneSet')!;
    const ns = cs.metadata.namespace ?? 'default';
    const selector = Object.entries(cs.spec.selector.matchLabels).map(([k, v]) => `${k}=${v}`).join(',');
    const pods = await waitPodsReady(kube, ns, selector, 4, 180_000);
    for (const p of pods) {
      expect(p.spec.nodeName).toBe(requireRealNode().name);
      expect(containerStatus(p, p.spec.containers[0].name).image).toBe('docker.io/nginxinc/nginx-unprivileged:1.27');
      const r = await httpGet(`http://${p.status.podIP}:8080/`);
      expect({ status: r.status, version: r.json?.version }).toEqual({ status: 200, version: 'nginx-unprivileged-1.27' });
    }
    const pub = objects.find(m => m.kind === 'PodUnavailableBudget')!;
    const budget = await until('the PodUnavailableBudget to count the pods', 60_000, async () => {
      const s = (await kube.get(pub)).body.status;
      return s?.totalReplicas === 4 ? s : undefined;
    });
    expect(budget).toMatchObject({ totalReplicas: 4, desiredAvailable: 3, unavailableAllowed: 1 });
  });
});

describe('examples/web-cloneset, deployed as written on the real node', () => {
  test('6 pods run and answer HTTP, directly and through the Service at port 80', async () => {
    const example = exampleSynth('web-cloneset');
    await applyAccepted(kube, example.objects);
    const cs = example.objects.find(m => m.kind === 'CloneSet')!;
    const ns = cs.metadata.namespace ?? 'default';
    const pods = await waitPodsReady(kube, ns, 'app=web', 6, 180_000).catch(async e => {
      throw new Error(`${e.message}\n${await describePods(kube, ns)}`);
    });
    for (const p of pods) {
      expect(isReady(p)).toBe(true);
      const r = await httpGet(`http://${p.status.podIP}:8080/`);
      expect(r.json?.version).toBe('nginx-unprivileged-1.27');
    }
    const svc = (await kube.request('GET', `/api/v1/namespaces/${ns}/services/web`)).body;
    // the endpoints reach kube-proxy's rules a moment after the pods are ready
    await until('the Service to answer', 30_000, async () => (await httpGet(`http://${svc.spec.clusterIP}:80/`, 1000)).status === 200);
    const hosts = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const r = await httpGet(`http://${svc.spec.clusterIP}:80/`);
      expect(r.status).toBe(200);
      hosts.add(r.json.hostname);
    }
    // kube-proxy spreads the requests over the pods
    expect(hosts.size).toBeGreaterThan(1);
    expect([...hosts].every(h => pods.some(p => p.metadata.name === h))).toBe(true);
  });
});
