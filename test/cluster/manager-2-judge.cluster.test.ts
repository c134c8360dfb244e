/**
 * The real webhook judges our validation: every valid fixture of every kind
 * and version, and every case of the admission corpus, is created (server-
 * side dry run) through the released kruise-manager's webhooks. Where our
 * verdict and the webhook's differ, both messages are printed and written to
 * .cache/cluster-tier/webhook-judge.json. A disagreement fails the test unless
 * the case says we deny on purpose (`stricter`) or that the webhook cannot
 * judge it here (`clusterSkip`).
 */
import { Kube, Manifest, describeObject } from './kube';
import { Managers, judgingSynth, runControlPlane, testNamespace } from './manager';
import { fixtures, versionedObject } from './sources';
import { Verdict, disagreementLine, tally } from './verdicts';
import { admissionCases } from '../fixtures/admission';

let kube: Kube;
let managers: Managers;

beforeAll(async () => {
  kube = new Kube();
  ({ managers } = await runControlPlane(kube, judgingSynth()));
  await testNamespace(kube, JUDGE_NAMESPACE);
  // The SidecarSet webhook compares a new SidecarSet with every existing one (same container name on
  // overlapping pods is refused): judge from none, whatever earlier test files applied.
  await kube.request('DELETE', '/apis/apps.kruise.io/v1beta1/sidecarsets');
});

afterAll(async () => {
  if (managers) await managers.stopAll();
  kube.close();
});

/** The namespace the judged objects are created in (objects other test files applied in `default` would clash by name). */
const JUDGE_NAMESPACE = 'webhook-judge';

/** Dry-run create in the judge namespace: what the API server and the webhooks say. */
async function judge(original: Manifest): Promise<Verdict['webhook']> {
  const m = JSON.parse(JSON.stringify(original));
  const namespaced = (await kube.resource(m.apiVersion, m.kind)).namespaced;
  if (namespaced && m.metadata?.namespace === 'default') m.metadata.namespace = JUDGE_NAMESPACE;
  // a cluster-scoped fixture may exist already (the apply tier created it): judge a fresh name
  if (!namespaced && m.metadata?.name && !original.metadata?.namespace) m.metadata.name = `judged-${m.metadata.name}`.slice(0, 63);
  const res = await kube.request('POST', `${await kube.pathOf(m, '')}?dryRun=All&fieldValidation=Strict`, m);
  return { allowed: res.status < 300, status: res.status, message: res.status < 300 ? undefined : (res.body?.message ?? String(res.body)) };
}

test('every valid fixture and every admission case gets the same verdict from the real webhook as from us', async () => {
  const verdicts: Verdict[] = [];
  for (const f of fixtures()) {
    const m = versionedObject(f);
    // every valid fixture passes our admission on every path (test/validation/kinds.test.ts)
    verdicts.push({ id: `fixture ${f.apiVersion} ${f.kind}`, object: describeObject(m), ours: { allowed: true }, webhook: await judge(m), clusterSkip: f.clusterSkip });
  }
  for (const c of admissionCases()) {
    verdicts.push({
      id: c.id,
      object: describeObject(c.manifest),
      ours: { allowed: c.allowed, message: c.message },
      webhook: await judge(c.manifest),
      stricter: c.stricter,
      clusterSkip: c.clusterSkip,
    });
  }
  const { disagree } = tally('webhook judge', 'webhook-judge.json', verdicts);
  expect(verdicts.length).toBeGreaterThan(0);
  expect(disagree.map(disagreementLine)).toEqual([]);
  expect(managers.running().length).toBe(1);
});
