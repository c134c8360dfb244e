/**
 * The judge suites of the releases tier, one per release, each on a cluster
 * of its own (cluster.ts; the files run side by side): install the release's
 * control plane, run its released manager, send the corpus and a seeded
 * sample of generated cases (test/generate) through its real webhooks, and
 * compare with our admission targeting that release.
 *
 * OpenKruise: the fixture of every kind and version the library knows, every
 * case of the admission corpus (test/fixtures/admission) and the per-release
 * corpus (its differences between releases). Kruise Rollouts: the Rollout
 * corpus and the per-release corpus. Then the generated cases, judged against
 * `cdk8s-kruise check` (judge.ts): KRUISE_GEN_CASES of them per release
 * (3,000 unless set), from KRUISE_GEN_SEED.
 */
import * as fs from 'fs';
import * as path from 'path';
import { stringify } from 'yaml';
import { OwnCluster, ownCluster } from './cluster';
import { CheckSide, ClusterSide, DECLARED_STRICTER, GenRun, GenVerdict, cachedSiblings, checkFlags, collection, judgeGenerated } from './judge';
import { openClassOf } from './open-classes';
import { JudgedCase, RELEASES, ReleaseKey, sameObjects, gatesOf, judgeCorpus, kindsLeftOut, kruiseJudgingSynth, rolloutsSynth, runKruiseRelease, runRolloutsRelease } from './release';
import { asApplied } from '../../../src/admission/apply';
import { judgeManifest } from '../../../src/admission/judge';
import { AdmissionApp } from '../../../src/admission/types';
import { judgeUpdate } from '../../../src/admission/update';
import { renderCrd, KINDS } from '../../../src/api';
import { contextFromFlags } from '../../../src/releases/flags';
import { admissionCases, rolloutAdmissionCases } from '../../fixtures/admission';
import { foundCases, foundRolloutCases } from '../../fixtures/admission/found';
import { ReleaseCase, openKruiseReleaseCases, rolloutsReleaseCases } from '../../fixtures/admission/releases';
import { generateCases } from '../../generate/cases';
import { ExampleObjects, Seed, seedsOf } from '../../generate/seeds';
import { Kube, Manifest, applyAll } from '../kube';
import { Managers, ManagerProcess, testNamespace } from '../manager';
import { rejections } from '../prove';
import { RolloutManagerProcess, RolloutManagers } from '../rollout-manager';
import { exampleApps, exampleSynth, fixtures, versionedObject } from '../sources';
import { disagreementLine } from '../verdicts';

/** The generated sample: its size per release and its seed (KRUISE_GEN_CASES, KRUISE_GEN_SEED). */
export const GEN_CASES = Number(process.env.KRUISE_GEN_CASES ?? 3000);
/**
 * The first case judged (KRUISE_GEN_FROM, 0 unless set): a long run goes on
 * from where an earlier one stopped, with cases GEN_FROM to GEN_CASES - 1
 * (case i is the same case whenever it is made: cases.ts).
 */
export const GEN_FROM = Number(process.env.KRUISE_GEN_FROM ?? 0);
export const GEN_SEED = Number(process.env.KRUISE_GEN_SEED ?? 42_0001);
/** The seed of CI's sample. */
const CI_SEED = 42_0001;
/**
 * Cases generated and judged at a time: after each slice the run's tally so
 * far is appended to generated-<release>[-<seed>].progress (one JSON line),
 * with the slice's disagreements, so a long run can be followed, or stopped,
 * and read (jest prints a file's output only when the file ends).
 */
const SLICE = Number(process.env.KRUISE_GEN_SLICE ?? 1000);
/** Requests in flight per cluster (creates and dry runs store nothing, so they do not see each other). */
const CONCURRENCY = Number(process.env.KRUISE_GEN_CONCURRENCY ?? 8);

/** What the webhooks read while they judge the release corpus (a SidecarSet's named revision, ...). */
async function createNeeds(kube: Kube, cases: ReleaseCase[]): Promise<void> {
  const applied = await applyAll(kube, cases.flatMap(c => c.needs ?? []));
  if (rejections(applied).length > 0) throw new Error(`cluster tier: what the release corpus needs was not created:\n${rejections(applied).join('\n')}`);
}

/**
 * The OpenKruise corpus, with each release-corpus case's recorded verdict on
 * `version`; the kinds the line's chart does not install are left to the
 * generated cases (the corpus judges them by the rules of the kind).
 */
function openKruiseCorpus(version: string, line: string): Array<JudgedCase & { recorded?: true | string }> {
  const installed = (m: Record<string, any>) => !kindsLeftOut(line).includes(m.kind);
  return [
    ...fixtures().filter(f => installed(f.valid)).map(f => ({ id: `fixture ${f.apiVersion} ${f.kind}`, manifest: versionedObject(f), clusterSkip: f.clusterSkip })),
    ...admissionCases().filter(c => installed(c.manifest))
      .map(c => ({ id: c.id, manifest: c.manifest, stricter: c.stricter, clusterSkip: c.clusterSkip })),
    ...openKruiseReleaseCases.filter(c => installed(c.manifest)).map(c => ({ id: `release ${c.id}`, manifest: c.manifest, stricter: c.stricter, recorded: c.verdicts[version] })),
  ];
}

/**
 * The Pods the ContainerRecreateRequests of the seeds name, running on a Node
 * with their containers' IDs, as the CRR webhook requires (it reads the Pod,
 * its Node and its container statuses): each seed's Pod with its containers
 * and a few common container names the generator gives.
 */
async function recreateRequestPods(kube: Kube, namespace: string, seeds: readonly Seed[]): Promise<void> {
  const node = 'release-judge-node';
  const n = await kube.apply({ apiVersion: 'v1', kind: 'Node', metadata: { name: node, labels: { 'kubernetes.io/hostname': node } } }, { fieldManager: 'cluster-tier' });
  if (n.status >= 300) throw new Error(`cluster tier: Node ${node} not created: ${n.body?.message}`);
  const pods = new Map<string, Set<string>>();
  for (const seed of seeds.filter(x => x.manifest.kind === 'ContainerRecreateRequest')) {
    const names = pods.get(seed.manifest.spec.podName) ?? new Set(['web', 'sidecar', 'main', 'app']);
    for (const c of seed.manifest.spec.containers ?? []) names.add(c.name);
    pods.set(seed.manifest.spec.podName, names);
  }
  for (const [name, containers] of pods) {
    const at = `/api/v1/namespaces/${namespace}/pods`;
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace },
      spec: { nodeName: node, containers: [...containers].map(c => ({ name: c, image: 'busybox:1.36' })) },
    };
    // a Pod an earlier test made already (the named cases' Pods, then the seeds'): made again with every container
    if ((await kube.request('GET', `${at}/${name}`)).status === 200) {
      await kube.request('DELETE', `${at}/${name}?gracePeriodSeconds=0`);
      for (let i = 0; i < 100 && (await kube.request('GET', `${at}/${name}`)).status !== 404; i++) await new Promise(res => setTimeout(res, 100));
    }
    const created = await kube.request('POST', at, pod);
    if (created.status >= 300) throw new Error(`cluster tier: Pod ${name} not created: ${created.body?.message}`);
    const status = {
      phase: 'Running',
      containerStatuses: [...containers].map((c, i) => ({
        name: c,
        image: 'busybox:1.36',
        imageID: 'docker.io/library/busybox@sha256:' + '0'.repeat(64),
        ready: true,
        restartCount: 0,
        containerID: `containerd://${String(i + 1).padStart(64, '0')}`,
        state: { running: { startedAt: '2025-01-01T00:00:00Z' } },
      })),
    };
    const r = await kube.request('PUT', `${at}/${name}/status`, { ...created.body, status });
    if (r.status >= 300) throw new Error(`cluster tier: Pod ${name} status not written: ${r.body?.message}`);
  }
}

/** The OpenKruise and Kruise Rollouts objects every example app synthesizes (seeds of the generator). */
function exampleObjects(): ExampleObjects {
  return exampleApps().flatMap(example => exampleSynth(example).objects.map(manifest => ({ example, manifest })));
}

/** The line a failure prints for a generated case: how to make it again, what changed, both verdicts. */
export function generatedLine(v: GenVerdict): string {
  return `${v.id} (KRUISE_GEN_SEED=${GEN_SEED}, case ${v.index}, case seed ${v.seed}; ${v.form}) from ${v.from}: ${v.changes.join('; ')}: `
    + `ours ${v.ours.allowed ? 'admit' : `refuse "${v.ours.message}"`}, cluster ${v.cluster.allowed ? 'admit' : `refuse (${v.cluster.status}) "${v.cluster.message}"`}`;
}

/** Where a run's figures go: .cache/cluster-tier/generated-<release>[-<seed>].json (the CI seed's file has no suffix). */
function reportFile(key: ReleaseKey, ext: string): string {
  const suffix = `${GEN_SEED === CI_SEED ? '' : `-${GEN_SEED}`}${GEN_FROM > 0 ? `-from${GEN_FROM}` : ''}`;
  return path.resolve(__dirname, '..', '..', '..', '.cache', 'cluster-tier', `generated-${key}${suffix}.${ext}`);
}

/** Write a generated run to its report file (reportFile) and print its tally; returns the failure lines. */
function report(key: ReleaseKey, run: GenRun): string[] {
  const out = reportFile(key, 'json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const judged = run.verdicts.filter(v => !v.skipped);
  const differ = judged.filter(v => v.ours.allowed !== v.cluster.allowed);
  const stricter = differ.filter(v => v.stricter);
  const refusedByBoth = judged.filter(v => !v.ours.allowed && !v.cluster.allowed).length;
  const forms = ['create', 'update', 'yaml'].map(f => `${run.verdicts.filter(v => v.form === f).length} ${f}`).join(', ');
  const state = run.verdicts.filter(v => v.skipped?.startsWith('cluster state')).length;
  const rate = run.requests / run.seconds;
  fs.writeFileSync(out, JSON.stringify({
    release: key,
    seed: GEN_SEED,
    from: GEN_FROM,
    cases: run.verdicts.length,
    judged: judged.length,
    seconds: run.seconds,
    requests: run.requests,
    kubectlRuns: run.kubectlRuns,
    requestsPerSecond: rate,
    disagree: run.disagree,
    open: run.disagree.filter(v => openClassOf(key, v)).map(v => ({ class: openClassOf(key, v)!.id, id: v.id })),
    stricter,
    skipped: run.verdicts.filter(v => v.skipped),
    verdicts: run.verdicts,
  }, null, 1));
  const open = (v: GenVerdict) => openClassOf(key, v);
  for (const v of differ) console.log(`generated ${key}: ${generatedLine(v)}${v.stricter ? ' (stricter on purpose)' : open(v) ? ` (open class ${open(v)!.id})` : ''}`);
  const failing = run.disagree.filter(v => !open(v));
  console.log(`generated ${key}: ${run.verdicts.length} cases from seed ${GEN_SEED}${GEN_FROM > 0 ? ` (cases ${GEN_FROM} to ${GEN_CASES - 1})` : ''} (${forms}; ${run.verdicts.length - judged.length - state} updates whose old object the cluster refused, ${state} cluster state), `
    + `${judged.length - differ.length} agree (${refusedByBoth} refused by both), ${stricter.length} stricter-on-purpose, `
    + `${run.disagree.length} disagree (${run.disagree.length - failing.length} of an open class, test/cluster/releases/open-classes.ts); `
    + `${run.seconds.toFixed(1)} s, ${run.requests} requests (${rate.toFixed(1)}/s) and ${run.kubectlRuns} kubectl runs (written to ${out})`);
  return failing.map(generatedLine);
}

/**
 * The named cases of the classes the generated cases found (found.ts): each
 * sent to the release's cluster (an update as a real create of its old
 * object, then a dry-run update), judged by our admission targeting the
 * release; the verdicts must agree (a refusal of ours that declares itself
 * stricter aside) and ours must be the recorded one.
 */
function foundTest(key: ReleaseKey, kube: () => Kube, namespace: string, gates: () => Record<string, boolean>) {
  const r = RELEASES[key];
  // a case without a verdict on this release is another release's (its old object this one refuses)
  const cases = (r.product === 'openkruise' ? foundCases : foundRolloutCases).filter(c => c.verdicts[r.version] !== undefined);
  test(`the ${cases.length} named cases of the classes the generated cases found get the same verdict from v${r.version} as from our admission`, async () => {
    // the Pods their ContainerRecreateRequests name
    if (r.product === 'openkruise') await recreateRequestPods(kube(), namespace, cases.map(c => ({ manifest: c.old ?? c.manifest }) as Seed));
    const cluster = new ClusterSide(kube(), namespace);
    const ctx = contextFromFlags(r.product === 'openkruise' ? { openkruise: r.version, featureGates: gates() } : { rollouts: r.version });
    const lines: string[] = [];
    const recorded: string[] = [];
    for (const c of cases) {
      const old = c.old ? asApplied(c.old) : undefined;
      // judged as `check` judges the case's document alone (found.test.ts does the same): the rules that read other objects find none
      const alone: AdmissionApp = { objects: () => [] };
      const mine = old ? judgeUpdate(old, c.manifest, ctx, alone) : judgeManifest(c.manifest, ctx, alone);
      const ours = mine.errors.length === 0 ? true : mine.errors[0];
      recorded.push(`${c.id}: ${ours === c.verdicts[r.version] ? 'as recorded' : `ours ${JSON.stringify(ours)}, recorded ${JSON.stringify(c.verdicts[r.version])}`}`);
      const theirs = old ? await cluster.update(old, c.manifest) : { outcome: await cluster.create(c.manifest) };
      const outcome = theirs.outcome ?? theirs.oldRefused!;
      const what = theirs.oldRefused ? `the cluster refused the old object: ${outcome.message}` : outcome.allowed ? 'admit' : `refuse (${outcome.status}) ${outcome.message}`;
      const stricter = ours !== true && outcome.allowed && DECLARED_STRICTER.test(ours);
      const agree = theirs.outcome !== undefined && (outcome.allowed === (ours === true) || stricter);
      console.log(`found ${key}: ${c.id} (${c.class}): ours ${ours === true ? 'admit' : 'refuse'}, cluster ${what}`);
      if (!agree) lines.push(`${c.id}: ours ${JSON.stringify(ours)}, cluster ${what}`);
    }
    expect(recorded.filter(l => !l.endsWith('as recorded'))).toEqual([]);
    expect(lines).toEqual([]);
  }, 600_000);
}

/**
 * `cat a.yaml b.yaml | kubectl apply -f -` with no `---` between them, and a
 * key pasted twice: the real kubectl (v1.37.2, strict field validation, its
 * default) against the release's API server and webhooks, beside `check -`
 * on the same text. kubectl reads such a text as one object whose last copy
 * of each key wins, and nothing refuses the duplicates: its StreamVisitor
 * (k8s.io/cli-runtime v0.37.2 pkg/resource/visitor.go:589-593) decodes each
 * document with apimachinery's YAMLToJSONDecoder (k8s.io/apimachinery v0.37.2
 * pkg/util/yaml/decoder.go:125-132), which calls sigs.k8s.io/yaml v1.6.0's
 * Unmarshal, not UnmarshalStrict (yaml.go:55-56 against :63-64); go-yaml v2
 * (go.yaml.in/yaml/v2 v2.4.4 decode.go:684-690) refuses a key already set in
 * a map only when strict, and otherwise sets it again. The API server then
 * gets JSON without duplicates, so its strict field validation has none to
 * refuse. Both sides must give the same verdict, about the same object.
 */
function concatenatedTest(key: ReleaseKey, kube: () => Kube, namespace: string, gates: () => Record<string, boolean>) {
  const r = RELEASES[key];
  test(`two CloneSets concatenated without --- and a key pasted twice: the real kubectl apply --dry-run=server and check --openkruise ${r.version} judge the same object the same way`, () => {
    const f = fixtures().find(x => x.kind === 'CloneSet' && x.apiVersion === 'apps.kruise.io/v1alpha1')!;
    const named = (name: string, replicas: number) => versionedObject(f, m => {
      m.metadata.name = name;
      m.metadata.namespace = namespace;
      m.spec.replicas = replicas;
    });
    const text = (m: Manifest) => stringify(m, { lineWidth: 0 });
    const pasted = (first: number, last: number) => text(named('pasted', 2)).replace(/^ {2}replicas: 2$/m, `  replicas: ${first}\n  replicas: ${last}`);
    // each text, and the object kubectl applies from it (undefined: refused)
    const cases: Array<{ what: string; text: string; applies?: string }> = [
      { what: 'a + b, both valid', text: text(named('concat-a', 2)) + text(named('concat-b', 3)), applies: 'concat-b' },
      { what: 'a + b, a refused alone', text: text(named('concat-a', -1)) + text(named('concat-b', 3)), applies: 'concat-b' },
      { what: 'a + b, b refused alone', text: text(named('concat-a', 2)) + text(named('concat-b', -1)) },
      { what: 'replicas: -1 then replicas: 2', text: pasted(-1, 2), applies: 'pasted' },
      { what: 'replicas: 2 then replicas: -1', text: pasted(2, -1) },
    ];
    const ours = new CheckSide(checkFlags(r.product, r.version, gates()));
    const lines = cases.map(c => {
      const k = kube().kubectl(['apply', '--dry-run=server', '-f', '-'], c.text);
      const applied = k.stdout.split('\n').filter(l => l.trim() !== '');
      const mine = ours.judge(c.text);
      const warned = [...new Set(mine.warnings.map(w => /^CloneSet "([^"]+)"/.exec(w)?.[1]).filter(Boolean))];
      const kubectl = k.status === 0 ? `applies ${applied.join(', ')}` : 'refuses';
      const check = mine.allowed ? `admits, warning of CloneSet ${warned.join(', ')}` : `refuses CloneSet ${/^CloneSet "([^"]+)"/.exec(mine.message ?? '')?.[1]}`;
      console.log(`YAML ${key}: ${c.what}: kubectl ${k.status === 0 ? applied.join(', ') : k.stderr.trim()}; check ${mine.allowed ? `admits; ${mine.warnings.join(' | ')}` : `refuses: ${mine.message}`}`);
      return `${c.what}: kubectl ${kubectl}; check ${check}`;
    });
    expect(lines).toEqual(cases.map(c => `${c.what}: kubectl ${c.applies ? `applies cloneset.apps.kruise.io/${c.applies} created (server dry run)` : 'refuses'}; `
      + `check ${c.applies ? `admits, warning of CloneSet ${c.applies}` : `refuses CloneSet ${c.what.startsWith('a + b') ? 'concat-b' : 'pasted'}`}`));
  });
}

/**
 * The refusals the judge asks again (judge.ts, `CACHED_SIBLINGS`), as the
 * release's own webhooks write them: for each kind, the first seed the
 * cluster stores is created for real, a copy under another name is sent as a
 * dry-run create until the webhook's cache holds the first (at most 10 s),
 * and the names read from its refusal must be the first object's alone; the
 * first is then deleted, and the judge's create of the copy must be admitted.
 */
function cachedSiblingTest(key: ReleaseKey, kube: () => Kube, namespace: string, kinds: readonly string[]) {
  const r = RELEASES[key];
  test(`a refusal for another ${kinds.join(', ')} of v${r.version} names that object as the judge reads it, and the copy is admitted once it is deleted`, async () => {
    const seeds = seedsOf(r.product, r.line, exampleObjects());
    const cluster = new ClusterSide(kube(), namespace);
    const sleep = (ms: number) => new Promise(res => setTimeout(res, ms));
    const named = (m: Manifest, name: string) => ({ ...m, metadata: { ...m.metadata, name } });
    const lines: string[] = [];
    for (const kind of kinds) {
      const a = `sibling-${kind.toLowerCase()}-a`;
      let stored = false;
      for (const seed of seeds.filter(s => s.manifest.kind === kind)) {
        const first: Manifest = named(JSON.parse(JSON.stringify(seed.manifest)), a);
        const c = collection(first, namespace)!;
        if (c.namespaced) first.metadata.namespace = namespace;
        else delete first.metadata.namespace;
        // a seed that needs cluster state (a named revision, a Pod) is not stored: the next one
        if ((await kube().request('POST', `${c.at}?fieldValidation=Strict`, first)).status >= 300) continue;
        stored = true;
        const second = named(first, `sibling-${kind.toLowerCase()}-b`);
        try {
          let message = '(admitted for 10 s)';
          for (let i = 0; i < 40; i++) {
            const res = await kube().request('POST', `${c.at}?dryRun=All&fieldValidation=Strict`, second);
            if (res.status >= 300) {
              message = String(res.body?.message);
              break;
            }
            await sleep(250);
          }
          console.log(`cached sibling ${key}: ${kind} from ${seed.id}: ${message}`);
          lines.push(`${kind}: ${JSON.stringify(cachedSiblings(message))}`);
        } finally {
          await cluster.remove(`${c.at}/${a}`);
        }
        const after = await cluster.create(second);
        lines.push(`${kind} after the delete: ${after.allowed ? 'admitted' : after.message}`);
        break;
      }
      if (!stored) lines.push(`${kind}: no seed the cluster stores`);
    }
    expect(lines).toEqual(kinds.flatMap(k => [`${k}: ${JSON.stringify([`sibling-${k.toLowerCase()}-a`])}`, `${k} after the delete: admitted`]));
  }, 300_000);
}

/** The generated sample's test: the cases judged by the release's cluster and by check, no disagreement. */
function generatedTest(key: ReleaseKey, kube: () => Kube, namespace: string, gates: () => Record<string, boolean>) {
  const r = RELEASES[key];
  const count = GEN_CASES - GEN_FROM;
  test(`${count} generated cases (seed ${GEN_SEED}${GEN_FROM > 0 ? `, from case ${GEN_FROM}` : ''}) get the same verdict from the v${r.version} API server and webhooks as from check --${r.product} ${r.version}`, async () => {
    const seeds = seedsOf(r.product, r.line, exampleObjects());
    if (r.product === 'openkruise') await recreateRequestPods(kube(), namespace, seeds);
    const cluster = new ClusterSide(kube(), namespace);
    const ours = new CheckSide(checkFlags(r.product, r.version, gates()));
    const progress = reportFile(key, 'progress');
    fs.mkdirSync(path.dirname(progress), { recursive: true });
    fs.writeFileSync(progress, '');
    const slices: GenRun[] = [];
    for (let from = GEN_FROM; from < GEN_CASES; from += SLICE) {
      const slice = await judgeGenerated(cluster, ours, generateCases(seeds, GEN_SEED, Math.min(SLICE, GEN_CASES - from), key, from), CONCURRENCY);
      slices.push(slice);
      const sum = (f: (x: GenRun) => number) => slices.reduce((a, x) => a + f(x), 0);
      fs.appendFileSync(progress, JSON.stringify({
        release: key,
        seed: GEN_SEED,
        cases: from + slice.verdicts.length,
        disagree: sum(x => x.disagree.length),
        seconds: sum(x => x.seconds),
        requests: sum(x => x.requests),
        kubectlRuns: sum(x => x.kubectlRuns),
        at: new Date().toISOString(),
        disagreements: slice.disagree.map(generatedLine),
      }) + '\n');
    }
    const run: GenRun = {
      verdicts: slices.flatMap(x => x.verdicts),
      disagree: slices.flatMap(x => x.disagree),
      seconds: slices.reduce((a, x) => a + x.seconds, 0),
      requests: slices.reduce((a, x) => a + x.requests, 0),
      kubectlRuns: slices.reduce((a, x) => a + x.kubectlRuns, 0),
    };
    expect(report(key, run)).toEqual([]);
    expect(run.verdicts.filter(v => !v.skipped).length).toBeGreaterThan(count * 0.8);
  }, 600_000 + count * 200);
}

/** The suite of one OpenKruise release. */
export function openKruiseJudgeSuite(key: ReleaseKey): void {
  const r = RELEASES[key];
  const NS = `release-judge-${r.version.replace(/\./g, '-')}`;
  const { library, installed } = kruiseJudgingSynth(r.line);
  let cluster: OwnCluster | undefined;
  let kube: Kube;
  let managers: Managers | undefined;
  let leader: ManagerProcess;

  beforeAll(async () => {
    cluster = await ownCluster(key, { controllerManager: true });
    kube = new Kube(undefined, 4 * CONCURRENCY);
    ({ managers, leader } = await runKruiseRelease(kube, key, installed));
    await testNamespace(kube, NS);
  }, 60 * 60_000);

  afterAll(async () => {
    if (managers) await managers.stopAll();
    kube?.close();
    await cluster?.stop();
  }, 300_000);

  test(`kruise-manager v${r.version} runs against the ${r.line} control plane and keeps every webhook of it`, async () => {
    const rendered = sameObjects(installed, library) ? 'as the library renders it' : installed.name;
    console.log(`release tier ${key}: ${leader.name} ready and leading; control plane ${rendered}; command line: ${leader.commandLine.join(' ')}`);
    expect(leader.running).toBe(true);
    expect(leader.lines(/Ignore webhook/)).toEqual([]);
    for (const m of installed.objects.filter(o => o.kind.endsWith('WebhookConfiguration'))) {
      const live = (await kube.get(m)).body;
      expect(`${m.kind} ${(live.webhooks ?? []).map((w: any) => `${w.name} ${w.clientConfig.service.path}`).join(', ')}`)
        .toBe(`${m.kind} ${m.webhooks.map((w: any) => `${w.name} ${w.clientConfig.service.path}`).join(', ')}`);
    }
  });

  test(`every fixture, admission case and release difference gets the same verdict from the v${r.version} webhooks as from our admission targeting ${r.version}`, async () => {
    const corpus = openKruiseCorpus(r.version, r.line);
    await createNeeds(kube, openKruiseReleaseCases);
    const { verdicts, disagree } = await judgeCorpus(kube, key, corpus, gatesOf(installed), NS);
    // the release corpus's recorded verdicts are what our admission said here (the unit tests hold them too)
    const recorded = corpus.filter(c => c.recorded !== undefined).map(c => {
      const v = verdicts.find(x => x.id === c.id)!;
      return `${c.id}: ${v.ours.allowed ? true : v.ours.message}`;
    });
    expect(recorded).toEqual(corpus.filter(c => c.recorded !== undefined).map(c => `${c.id}: ${c.recorded}`));
    expect(disagree.map(disagreementLine)).toEqual([]);
    expect(verdicts.length).toBeGreaterThan(500);
  }, 600_000);

  cachedSiblingTest(key, () => kube, NS, ['PodUnavailableBudget', 'WorkloadSpread', 'SidecarSet']);
  foundTest(key, () => kube, NS, () => gatesOf(installed));
  concatenatedTest(key, () => kube, NS, () => gatesOf(installed));
  generatedTest(key, () => kube, NS, () => gatesOf(installed));
}

/** The suite of one Kruise Rollouts release. */
export function rolloutsJudgeSuite(key: ReleaseKey): void {
  const r = RELEASES[key];
  const NS = `release-judge-${r.version.replace(/\./g, '-')}`;
  const { installed } = rolloutsSynth(r.line);
  // the workloads a Rollout names are OpenKruise's too: their CRDs (1.9's), no manager
  const kruiseCrds = KINDS.map(k => renderCrd(k));
  let cluster: OwnCluster | undefined;
  let kube: Kube;
  let managers: RolloutManagers | undefined;
  let leader: RolloutManagerProcess;

  beforeAll(async () => {
    cluster = await ownCluster(key, { controllerManager: true });
    kube = new Kube(undefined, 4 * CONCURRENCY);
    const applied = await applyAll(kube, kruiseCrds);
    if (rejections(applied).length > 0) throw new Error(`cluster tier: OpenKruise CRDs not applied:\n${rejections(applied).join('\n')}`);
    ({ managers, leader } = await runRolloutsRelease(kube, key, installed));
    await testNamespace(kube, NS);
  }, 60 * 60_000);

  afterAll(async () => {
    if (managers) await managers.stopAll();
    kube?.close();
    await cluster?.stop();
  }, 300_000);

  test(`kruise-rollout-manager v${r.version} runs against the ${r.line} control plane and keeps every webhook of it`, async () => {
    console.log(`release tier ${key}: ${leader.name} ready and leading; command line: ${leader.commandLine.join(' ')}`);
    expect(leader.running).toBe(true);
    expect(leader.lines(/Ignore webhook/)).toEqual([]);
  });

  test(`every Rollout case and release difference gets the same verdict from the v${r.version} webhook as from our admission targeting ${r.version}`, async () => {
    const corpus: Array<JudgedCase & { recorded?: true | string }> = [
      ...rolloutAdmissionCases().map(c => ({ id: c.id, manifest: c.manifest, stricter: c.stricter, clusterSkip: c.clusterSkip })),
      ...rolloutsReleaseCases.map(c => ({ id: `release ${c.id}`, manifest: c.manifest, stricter: c.stricter, recorded: c.verdicts[r.version] })),
    ];
    await createNeeds(kube, rolloutsReleaseCases);
    const { verdicts, disagree } = await judgeCorpus(kube, key, corpus, {}, NS);
    const recorded = corpus.filter(c => c.recorded !== undefined).map(c => {
      const v = verdicts.find(x => x.id === c.id)!;
      return `${c.id}: ${v.ours.allowed ? true : v.ours.message}`;
    });
    expect(recorded).toEqual(corpus.filter(c => c.recorded !== undefined).map(c => `${c.id}: ${c.recorded}`));
    expect(disagree.map(disagreementLine)).toEqual([]);
    expect(verdicts.length).toBeGreaterThan(50);
  }, 600_000);

  cachedSiblingTest(key, () => kube, NS, ['Rollout']);
  foundTest(key, () => kube, NS, () => ({}));
  generatedTest(key, () => kube, NS, () => ({}));
}
