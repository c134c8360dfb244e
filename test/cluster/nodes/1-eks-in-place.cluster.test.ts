/**
 * OpenKruise on a cluster that answers `/version` as EKS does (the rung's
 * kube-apiserver: major "1", minor "37+", gitVersion v1.37.2-eks-<7 hex>;
 * build.sh), with the control plane running as pods:
 *
 * - our default `KruiseControlPlane` (kruise-manager and kruise-daemon v1.9.1)
 *   updates a CloneSet, an Advanced StatefulSet and an Advanced DaemonSet in
 *   place: the container restarts (restart count + 1, a new container ID),
 *   the pod keeps its UID and IP, and it answers with the new version;
 * - the same control plane with `release: '1.9.0'` panics on the next update
 *   of each of the three: kruise-manager v1.9.0 builds a semantic version of
 *   `<major>.<minor>.0` from the server's /version (ShouldUpdateResourceByResize,
 *   pkg/client/registry.go), called at the end of every in-place update
 *   (pkg/util/inplaceupdate), and "1.37+.0" is none, so every update of a pod
 *   stops there, after the pod was marked not ready and before its containers
 *   change: its log shows the panic of each controller (the DaemonSet's ends
 *   the process), the pods it took on are out of their Services, and no
 *   container restarts. Back on v1.9.1 (which reads the version from
 *   gitVersion's digits), the waiting updates complete in place;
 * - `cdk8s-kruise check`, fed this API server's `kubectl get --raw /version`
 *   (or its gitVersion), refuses OpenKruise 1.9.0 for these manifests (the
 *   target, and each of the three for its in-place strategy) and names 1.9.1,
 *   and admits them on 1.9.1: the check guards against the failure just seen.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { stringify } from 'yaml';
import * as lib from '../../../src';
import { main as cli } from '../../../src/cli';
import { Kube, Manifest } from '../kube';
import {
  KRUISE_NAMESPACE, PodFacts, answerOf, applyAccepted, describePods, ensureKruise, findKind, isReady, leaseHolder, live, nodeControlPlaneSynth,
  nodeObjects, openOnRealNode, podFacts, podsOf, requireRealNode, serverContainer, tierImage, until, waitWorkloadSettled,
} from '../node';

const NS = 'node-eks';
let kube: Kube;
let dir: string;

beforeAll(async () => {
  kube = await openOnRealNode(NS);
  dir = fs.mkdtempSync(path.join(requireRealNode().clusterDir, 'eks-'));
}, 400_000);

afterAll(() => kube?.close());

/** The images of the three workloads (tags of the test server), by workload name. */
interface Images { readonly web: string; readonly db: string; readonly agent: string }
const all = (image: string): Images => ({ web: image, db: image, agent: image });

/** The three workloads that update in place: a CloneSet, an Advanced StatefulSet and an Advanced DaemonSet. */
const workloads = (images: Images) => nodeObjects('in place on an EKS-shaped cluster', NS, chart => {
  new lib.CloneSet(chart, 'web', {
    metadata: { name: 'web' },
    replicas: 2,
    podMetadata: { labels: { app: 'web' } },
    containers: [serverContainer(images.web)],
    updateStrategy: lib.CloneSetUpdateStrategy.inPlaceIfPossible(),
  });
  new lib.AdvancedStatefulSet(chart, 'db', {
    metadata: { name: 'db' },
    replicas: 2,
    podMetadata: { labels: { app: 'db' } },
    containers: [serverContainer(images.db)],
    podManagementPolicy: kplus.PodManagementPolicy.PARALLEL,
    updateStrategy: lib.AdvancedStatefulSetUpdateStrategy.rollingUpdate({ podUpdatePolicy: lib.PodUpdatePolicy.IN_PLACE_IF_POSSIBLE }),
  });
  const ds = new lib.AdvancedDaemonSet(chart, 'agent', {
    metadata: { name: 'agent' },
    podMetadata: { labels: { app: 'agent' } },
    containers: [serverContainer(images.agent)],
    updateStrategy: lib.AdvancedDaemonSetUpdateStrategy.inPlaceIfPossible(),
    minReady: Duration.seconds(0),
  });
  ds.scheduling.attract(kplus.Node.labeled(kplus.NodeLabelQuery.is('cdk8s-kruise.test/node', 'real')));
});

/** Each workload: its name, its kind, its pods and the package of kruise-manager's controller of it. */
const WORKLOADS = [
  { name: 'web', kind: 'CloneSet', selector: 'app=web', pods: 2, controller: 'cloneset' },
  { name: 'db', kind: 'StatefulSet', selector: 'app=db', pods: 2, controller: 'statefulset' },
  { name: 'agent', kind: 'DaemonSet', selector: 'app=agent', pods: 1, controller: 'daemonset' },
] as const;

/** Every pod of the three workloads, settled on `image` (each container on it, ready, no in-place update under way). */
async function settledOn(image: string, timeoutMs = 180_000): Promise<PodFacts[]> {
  const objects = workloads(all(image));
  const facts: PodFacts[] = [];
  for (const k of WORKLOADS) {
    const pods = k.kind === 'DaemonSet'
      ? await until(`the agent pod on ${image}`, timeoutMs, async () => {
        const d = await live(kube, findKind(objects, 'DaemonSet'));
        const ps = await podsOf(kube, NS, k.selector);
        return d.status?.updatedNumberScheduled === 1 && d.status?.numberReady === 1 && ps.length === 1
          && podFacts(ps[0]).containers.server?.image === tierImage(image) ? ps : undefined;
      })
      : await waitWorkloadSettled(kube, findKind(objects, k.kind), k.selector, k.pods, timeoutMs);
    for (const p of pods) {
      expect(podFacts(p).containers.server.image).toBe(tierImage(image));
      facts.push(podFacts(p));
    }
  }
  return facts;
}

/** The pods of the three workloads, in the order of WORKLOADS and by name. */
async function podsOfWorkloads(): Promise<PodFacts[]> {
  const facts: PodFacts[] = [];
  for (const k of WORKLOADS) facts.push(...(await podsOf(kube, NS, k.selector)).map(podFacts));
  return facts;
}

/** Each pod of `after` is the pod of `before` of its name, its container restarted once in place, answering `version`. */
async function expectInPlace(before: PodFacts[], after: PodFacts[], version: string): Promise<void> {
  expect(after.map(f => f.name).sort()).toEqual(before.map(f => f.name).sort());
  const pods = new Map((await podsOf(kube, NS)).map(p => [p.metadata.name, p]));
  for (const f of after) {
    const was = before.find(b => b.name === f.name)!;
    expect({ pod: f.name, uid: f.uid, ip: f.ip }).toEqual({ pod: was.name, uid: was.uid, ip: was.ip });
    expect(f.containers.server.restarts).toBe(was.containers.server.restarts + 1);
    expect(f.containers.server.id).not.toBe(was.containers.server.id);
    expect((await answerOf(pods.get(f.name)!)).version).toBe(version);
  }
}

/** The control plane of `release` (undefined: our default) running from its pods, one of them holding the lease. */
async function runControlPlane(release?: string): Promise<Manifest[]> {
  await ensureKruise(kube, nodeControlPlaneSynth(release ? { release } : {}));
  const pods = await podsOf(kube, KRUISE_NAMESPACE, 'control-plane=controller-manager');
  await until('a kruise-manager pod of this release to hold the lease', 120_000, async () => {
    const holder = await leaseHolder(kube, KRUISE_NAMESPACE, 'kruise-manager');
    return pods.some(p => p.metadata.name === holder);
  });
  return pods;
}

/** The log of the kruise-manager containers of `pods`, this one and the one before it (a crash restarts the container). */
async function managerLogs(pods: Manifest[]): Promise<string> {
  const logs = await Promise.all(pods.flatMap(p => ['', '&previous=true'].map(async previous => {
    const res = await kube.request('GET', `/api/v1/namespaces/${KRUISE_NAMESPACE}/pods/${p.metadata.name}/log?container=manager${previous}`);
    return res.status === 200 ? String(res.body) : '';
  })));
  return logs.join('\n');
}

/** A panic in a kruise-manager log: its message, the frames of its stack (innermost first), and whether it ended the process. */
interface Panic { readonly message: string; readonly frames: string[]; readonly endedProcess: boolean }

/**
 * The panics of a kruise-manager log, however they were written: Go's own
 * trace of a panic that ended the process (`panic: ...`), klog's
 * `stacktrace=<` block, or controller-runtime's line with the stack in one
 * quoted string.
 */
function panicsIn(log: string): Panic[] {
  const panics: Panic[] = [];
  for (const line of log.replace(/\\n/g, '\n').replace(/\\t/g, '\t').split('\n')) {
    const message = /(?:^panic: |\bpanic="|"panic"=")([^"[]+?)(?:"| \[|$)/.exec(line)?.[1];
    const frame = /^\s*(\S+)\([^()]*\)$/.exec(line)?.[1];
    if (message !== undefined) panics.push({ message, frames: [], endedProcess: line.startsWith('panic: ') });
    else if (frame && panics.length > 0) panics[panics.length - 1].frames.push(frame);
  }
  return panics;
}

const RESIZE = 'github.com/openkruise/kruise/pkg/client.ShouldUpdateResourceByResize';

/** The panics where ShouldUpdateResourceByResize parses the server's version, under kruise-manager's `controller` package. */
const resizePanicsOf = (panics: Panic[], controller: string) => panics.filter(p =>
  p.frames.includes(RESIZE) && p.frames.some(f => f.startsWith(`github.com/openkruise/kruise/pkg/controller/${controller}.`)));

let version: any;
let onV2: PodFacts[];

test('the API server answers /version as EKS does, and our default control plane runs kruise-manager and kruise-daemon v1.9.1', async () => {
  const raw = kube.kubectl(['get', '--raw', '/version']);
  expect(raw.status).toBe(0);
  version = JSON.parse(raw.stdout);
  expect({ major: version.major, minor: version.minor }).toEqual({ major: '1', minor: '37+' });
  expect(version.gitVersion).toMatch(/^v1\.37\.\d+-eks-[0-9a-f]{7}$/);
  fs.writeFileSync(path.join(dir, 'version.json'), raw.stdout);

  const synth = nodeControlPlaneSynth();
  const images = synth.objects.filter(m => m.kind === 'Deployment' || m.kind === 'DaemonSet')
    .map(m => `${m.metadata.name}: ${m.spec.template.spec.containers[0].image}`).sort();
  const image = `${requireRealNode().registry}/cluster-tier/kruise-manager:v1.9.1`;
  expect(images).toEqual([`kruise-controller-manager: ${image}`, `kruise-daemon: ${image}`]);
  const running = (await podsOf(kube, KRUISE_NAMESPACE)).filter(p => p.spec.nodeName === requireRealNode().name);
  expect(running.map(p => p.metadata.labels['control-plane']).sort()).toEqual(['controller-manager', 'controller-manager', 'daemon']);
  for (const p of running) expect(p.spec.containers[0].image).toBe(image);
});

test('kruise-manager v1.9.1 updates a CloneSet, an Advanced StatefulSet and an Advanced DaemonSet in place: containers restart, pods keep UID and IP', async () => {
  await applyAccepted(kube, workloads(all('server:v1')));
  const onV1 = await settledOn('server:v1');
  expect(onV1.length).toBe(5);
  await applyAccepted(kube, workloads(all('server:v2')));
  onV2 = await settledOn('server:v2');
  await expectInPlace(onV1, onV2, 'v2');
  const managers = await podsOf(kube, KRUISE_NAMESPACE, 'control-plane=controller-manager');
  expect(panicsIn(await managerLogs(managers))).toEqual([]);
});

describe('kruise-manager v1.9.0 on the same API server', () => {
  const seen = new Map<string, Panic[]>();
  let managers: Manifest[];

  beforeAll(async () => {
    managers = await runControlPlane('1.9.0');
  }, 400_000);

  afterAll(() => {
    // the evidence, for whoever reads the run: how often each controller panicked, and its first panics as logged
    const out = path.join(__dirname, '..', '..', '..', '.cache', 'cluster-tier', 'kruise-manager-v1.9.0-on-eks.json');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    const panics = Object.fromEntries([...seen].map(([c, ps]) => [c, { count: ps.length, first: ps.slice(0, 2) }]));
    fs.writeFileSync(out, JSON.stringify({ version, panics }, null, 2));
  });

  test('runs from the control plane of release 1.9.0 (image v1.9.0)', () => {
    for (const p of managers) expect(p.spec.containers[0].image).toBe(`${requireRealNode().registry}/cluster-tier/kruise-manager:v1.9.0`);
  });

  // One workload at a time, so that each panic is the one its controller meets. The CloneSet and
  // StatefulSet controllers update a pod in their reconcile, where controller-runtime recovers the
  // panic; the DaemonSet controller updates each pod in a goroutine of its own
  // (pkg/controller/daemonset/daemonset_update.go), where nothing does: the process ends.
  test.each(WORKLOADS.map(w => [w.kind, w] as const))('panics on the in-place update of the %s: its pods are marked not ready and their containers never change', async (_kind, w) => {
    const images = { ...all('server:v2'), ...Object.fromEntries(WORKLOADS.slice(0, WORKLOADS.indexOf(w) + 1).map(x => [x.name, 'server:v6'])) } as Images;
    await applyAccepted(kube, workloads(images));
    const ended = w.kind === 'DaemonSet';
    const panics = await until(`a panic of kruise-manager's ${w.controller} controller in its log`, 300_000, async () => {
      const log = panicsIn(await managerLogs(await podsOf(kube, KRUISE_NAMESPACE, 'control-plane=controller-manager')));
      for (const x of WORKLOADS) {
        const found = resizePanicsOf(log, x.controller);
        if (found.length > (seen.get(x.controller)?.length ?? 0)) seen.set(x.controller, found);
      }
      const mine = seen.get(w.controller) ?? [];
      return mine.some(p => p.endedProcess === ended) ? mine : undefined;
    }, async () => `panics seen so far: ${[...seen].map(([c, ps]) => `${c} ${ps.length}`).join(', ') || 'none'}`, 2000);
    for (const panic of panics) {
      expect(panic.message).toBe('1.37 is not in dotted-tri format');
      // semver.New("1.37+.0"), called at the end of the in-place update's patch of the pod: the "+" splits off ".0"
      const at = panic.frames.indexOf(RESIZE);
      expect(panic.frames.slice(at - 1, at + 2)).toEqual([
        'github.com/coreos/go-semver/semver.New', RESIZE, 'github.com/openkruise/kruise/pkg/util/inplaceupdate.defaultPatchUpdateSpecToPod',
      ]);
    }
    const shown = panics.find(p => p.endedProcess === ended)!;
    console.log(`kruise-manager v1.9.0, ${w.kind} in place on an EKS-shaped API server: panic "${shown.message}"${ended ? ' (the process ended)' : ' (recovered)'} in `
      + `${shown.frames.filter(f => f.startsWith('github.com/openkruise/kruise/')).slice(0, 4).join(' < ')}`);
    // v1.9.0 marks a pod not ready before it patches it (InPlaceUpdateReady false, then the panic): the pod leaves its
    // Services, and its containers never change: the same pods, containers and images as on v2
    // (the kubelet turns Ready false once it sees the readiness gate's condition)
    const marked = await until(`a pod of the ${w.kind} marked not ready`, 60_000, async () => {
      const pods = (await podsOf(kube, NS, w.selector)).filter(p => !isReady(p)
        && (p.status?.conditions ?? []).some((c: any) => c.type === 'InPlaceUpdateReady' && c.status === 'False' && c.reason === 'StartInPlaceUpdate'));
      return pods.length > 0 ? pods : undefined;
    }, () => describePods(kube, NS, w.selector));
    expect(await podsOfWorkloads()).toEqual(onV2);
    console.log(`  ${marked.map(p => p.metadata.name).join(', ')}: not ready (InPlaceUpdateReady False, StartInPlaceUpdate), containers unchanged`);
  }, 400_000);

  test('back on v1.9.1 the waiting updates complete in place', async () => {
    await runControlPlane();
    const onV6 = await settledOn('server:v6', 240_000);
    await expectInPlace(onV2, onV6, 'v6');
  }, 400_000);
});

describe('cdk8s-kruise check, fed this API server\'s /version', () => {
  const run = (argv: string[]) => {
    let out = '';
    let err = '';
    const code = cli(['check', ...argv], { out: t => (out += t), err: t => (err += t) });
    return { code, out, err };
  };
  let manifests: string;

  beforeAll(() => {
    // the manifests of the three workloads as the app writes them (the last change, to v6)
    manifests = path.join(dir, 'manifests');
    fs.mkdirSync(manifests);
    fs.writeFileSync(path.join(manifests, 'workloads.yaml'), workloads(all('server:v6')).map(m => stringify(m)).join('---\n'));
  });

  /** What the check says of OpenKruise 1.9.0 on this cluster, the Kubernetes given as `given` says. */
  const refusal = (given: string) => {
    const file = path.join(manifests, 'workloads.yaml');
    const cluster = `Kubernetes ${version.gitVersion} (/version minor "${version.minor}")`;
    const fix = 'upgrade the cluster\'s OpenKruise to 1.9.1 and check with --openkruise 1.9.1 (OpenKruise 1.9.1 fixes it)';
    const workload = (kind: string, name: string, apiVersion: string, doc: number, field: string, value: string, instead: string) =>
      `${kind} "${name}" (${apiVersion}; ${file}, document ${doc}) ${field}: "${value}" updates pods in place, which kruise-manager v1.9.0 on ${cluster} `
      + 'cannot do: each pod it updates in place is marked not ready, then kruise-manager panics and the update never completes; '
      + `the target is 1.9.0 (given with --openkruise), on Kubernetes ${version.gitVersion} (given with ${given}); ${fix}; until then, set ${field} to ${instead}\n`;
    return ''
      + workload('CloneSet', 'web', 'apps.kruise.io/v1alpha1', 1, 'spec.updateStrategy.type', 'InPlaceIfPossible', 'ReCreate')
      + workload('StatefulSet', 'db', 'apps.kruise.io/v1beta1', 3, 'spec.updateStrategy.rollingUpdate.podUpdatePolicy', 'InPlaceIfPossible', 'ReCreate')
      + workload('DaemonSet', 'agent', 'apps.kruise.io/v1beta1', 4, 'spec.updateStrategy.rollingUpdate.rollingUpdateType', 'InPlaceIfPossible', 'Standard')
      + `warning: the target: OpenKruise 1.9.0 (given with --openkruise) runs kruise-manager v1.9.0 on Kubernetes ${version.gitVersion} (/version minor "${version.minor}", given with ${given}), `
      + 'which reads /version\'s minor as a number in every in-place update of a CloneSet, Advanced StatefulSet or Advanced DaemonSet and panics there, '
      + 'after marking the pod not ready (InPlaceUpdateReady false): the update never completes and the pod stays out of its Services, '
      + 'and an Advanced DaemonSet\'s update, run in a goroutine of its own, stops the whole kruise-manager and its webhooks (upstream issue #2404); '
      + `${fix}\n`
      + `checked 4 documents in 1 file against OpenKruise v1.9.0 and Kruise Rollouts v0.6.2 on Kubernetes ${version.gitVersion}: `
      + '3 OpenKruise objects judged, 1 other document passed by; 3 documents refused\n';
  };

  test('refuses the three in-place workloads on OpenKruise 1.9.0 there, from the saved /version, names 1.9.1, and warns of the target', () => {
    const saved = path.join(dir, 'version.json');
    expect(run(['--openkruise', '1.9.0', '--live', saved, manifests])).toEqual({ code: 2, out: refusal(`--live ${saved}`), err: '' });
  });

  test('refuses it the same from the gitVersion alone (--kubernetes)', () => {
    expect(run(['--openkruise', '1.9.0', '--kubernetes', version.gitVersion, manifests])).toEqual({ code: 2, out: refusal('--kubernetes'), err: '' });
  });

  test('admits the same manifests on OpenKruise 1.9.1, the release that ran them above', () => {
    expect(run(['--openkruise', '1.9.1', '--live', path.join(dir, 'version.json'), manifests])).toEqual({
      code: 0,
      out: `checked 4 documents in 1 file against OpenKruise v1.9.1 and Kruise Rollouts v0.6.2 on Kubernetes ${version.gitVersion}: `
        + '3 OpenKruise objects judged, 1 other document passed by; all admitted\n',
      err: '',
    });
  });
});
