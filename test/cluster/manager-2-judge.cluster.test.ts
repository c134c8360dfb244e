/**
 * The real webhook judges our validation: every valid fixture of every kind
 * and version, and every case of the admission corpus, is created (server-
 * side dry run) through the released kruise-manager's webhooks. Where our
 * verdict and the webhook's differ, both messages are printed and written to
 * .cache/cluster-tier/webhook-judge.json. A disagreement fails the test unless
 * the case says we deny on purpose (`stricter`) or that the webhook cannot
 * judge it here (`clusterSkip`).
 */
import * as fs from 'fs';
import * as path from 'path';
import { Kube, Manifest, describeObject } from './kube';
import { Managers, judgingSynth, runControlPlane, testNamespace } from './manager';
import { fixtures, versionedObject } from './sources';
import { admissionCases } from '../fixtures/admission';

interface Verdict {
  readonly id: string;
  readonly object: string;
  readonly ours: { allowed: boolean; message?: string };
  readonly webhook: { allowed: boolean; status: number; message?: string };
  readonly stricter?: string;
  readonly clusterSkip?: string;
}

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
  const differ = verdicts.filter(v => v.ours.allowed !== v.webhook.allowed);
  const stricter = differ.filter(v => v.stricter && !v.ours.allowed && v.webhook.allowed);
  const skipped = differ.filter(v => v.clusterSkip && !stricter.includes(v));
  const disagree = differ.filter(v => !stricter.includes(v) && !skipped.includes(v));
  const out = path.resolve(__dirname, '..', '..', '.cache', 'cluster-tier', 'webhook-judge.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify({ cases: verdicts.length, stricter, skipped, disagree }, null, 2));
  for (const v of differ) {
    const why = stricter.includes(v) ? ` (stricter on purpose: ${v.stricter})` : skipped.includes(v) ? ` (cluster skip: ${v.clusterSkip})` : '';
    console.log(`webhook judge: ${v.id} ${v.object}: ours ${v.ours.allowed ? 'allow' : 'deny'}${v.ours.message ? ` "${v.ours.message}"` : ''}, `
      + `webhook ${v.webhook.allowed ? 'allow' : 'deny'} (HTTP ${v.webhook.status})${v.webhook.message ? ` "${v.webhook.message}"` : ''}${why}`);
  }
  console.log(`webhook judge: ${verdicts.length} cases, ${verdicts.length - differ.length} agree, ${stricter.length} stricter-on-purpose, `
    + `${skipped.length} cluster-skip, ${disagree.length} disagree (written to ${out})`);
  expect(verdicts.length).toBeGreaterThan(0);
  expect(disagree.map(v => `${v.id}: ours ${v.ours.allowed} "${v.ours.message ?? ''}", webhook ${v.webhook.allowed} "${v.webhook.message ?? ''}"`)).toEqual([]);
  expect(managers.running().length).toBe(1);
});
