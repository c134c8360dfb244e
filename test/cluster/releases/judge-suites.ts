/**
 * The judge suites of the releases tier, one per release: install the
 * release's control plane, run its released manager, send the corpus through
 * its real webhooks, compare with our admission targeting that release, take
 * the control plane away again.
 *
 * OpenKruise: the fixture of every kind and version the library knows, every
 * case of the admission corpus (test/fixtures/admission) and the per-release
 * corpus (its differences between releases). Kruise Rollouts: the Rollout
 * corpus and the per-release corpus.
 */
import { JudgedCase, RELEASES, ReleaseKey, sameObjects, gatesOf, judgeCorpus, kruiseJudgingSynth, rolloutsSynth, runKruiseRelease, removeAll, runRolloutsRelease, uninstall } from './release';
import { renderCrd, KINDS } from '../../../src/api';
import { admissionCases, rolloutAdmissionCases } from '../../fixtures/admission';
import { ReleaseCase, openKruiseReleaseCases, rolloutsReleaseCases } from '../../fixtures/admission/releases';
import { Kube, applyAll } from '../kube';
import { Managers, ManagerProcess, testNamespace } from '../manager';
import { rejections } from '../prove';
import { RolloutManagerProcess, RolloutManagers } from '../rollout-manager';
import { fixtures, versionedObject } from '../sources';
import { disagreementLine } from '../verdicts';

/** What the webhooks read while they judge the release corpus (a SidecarSet's named revision, ...). */
async function createNeeds(kube: Kube, cases: ReleaseCase[]): Promise<void> {
  const applied = await applyAll(kube, cases.flatMap(c => c.needs ?? []));
  if (rejections(applied).length > 0) throw new Error(`cluster tier: what the release corpus needs was not created:\n${rejections(applied).join('\n')}`);
}

/** The OpenKruise corpus, with each release-corpus case's recorded verdict on `version`. */
function openKruiseCorpus(version: string): Array<JudgedCase & { recorded?: true | string }> {
  return [
    ...fixtures().map(f => ({ id: `fixture ${f.apiVersion} ${f.kind}`, manifest: versionedObject(f), clusterSkip: f.clusterSkip })),
    ...admissionCases().map(c => ({ id: c.id, manifest: c.manifest, stricter: c.stricter, clusterSkip: c.clusterSkip })),
    ...openKruiseReleaseCases.map(c => ({ id: `release ${c.id}`, manifest: c.manifest, stricter: c.stricter, recorded: c.verdicts[version] })),
  ];
}

/** The suite of one OpenKruise release. */
export function openKruiseJudgeSuite(key: ReleaseKey): void {
  const r = RELEASES[key];
  const NS = `release-judge-${r.version.replace(/\./g, '-')}`;
  const { library, installed } = kruiseJudgingSynth(r.line);
  let kube: Kube;
  let managers: Managers | undefined;
  let leader: ManagerProcess;

  beforeAll(async () => {
    kube = new Kube();
    ({ managers, leader } = await runKruiseRelease(kube, key, installed));
    await testNamespace(kube, NS);
  }, 300_000);

  afterAll(async () => {
    if (managers) await managers.stopAll();
    if (kube) {
      await uninstall(kube, installed);
      kube.close();
    }
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
    // the SidecarSet webhook compares a new SidecarSet with every existing one: judge from none
    const corpus = openKruiseCorpus(r.version);
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
  });
}

/** The suite of one Kruise Rollouts release. */
export function rolloutsJudgeSuite(key: ReleaseKey): void {
  const r = RELEASES[key];
  const NS = `release-judge-${r.version.replace(/\./g, '-')}`;
  const { installed } = rolloutsSynth(r.line);
  // the workloads a Rollout names are OpenKruise's too: their CRDs (1.9's), no manager
  const kruiseCrds = KINDS.map(k => renderCrd(k));
  let kube: Kube;
  let managers: RolloutManagers | undefined;
  let leader: RolloutManagerProcess;

  beforeAll(async () => {
    kube = new Kube();
    const applied = await applyAll(kube, kruiseCrds);
    if (rejections(applied).length > 0) throw new Error(`cluster tier: OpenKruise CRDs not applied:\n${rejections(applied).join('\n')}`);
    ({ managers, leader } = await runRolloutsRelease(kube, key, installed));
    await testNamespace(kube, NS);
  }, 300_000);

  afterAll(async () => {
    if (managers) await managers.stopAll();
    if (kube) {
      await uninstall(kube, installed);
      await removeAll(kube, kruiseCrds);
      kube.close();
    }
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
  });
}
