/**
 * Every example app and every kind/version fixture, synthesized and applied
 * to the real API server with server-side apply and strict field validation:
 * zero rejections, and applying the same synth again changes nothing.
 */
import { Kube, Manifest, applyAll, describeObject, describeRejection } from './kube';
import { proveSynth } from './prove';
import { certManagerStandIns, exampleApps, exampleSynth, fixtureSynth, fixtures, modelCrds } from './sources';

let kube: Kube;

beforeAll(async () => {
  kube = new Kube();
  // The API model's CRDs (no conversion webhook: no manager serves one here),
  // and open stand-ins for the cert-manager kinds the control plane can emit.
  const installed = await applyAll(kube, [...modelCrds(), ...certManagerStandIns()]);
  expect(installed.filter(a => a.response.status >= 300).map(describeRejection)).toEqual([]);
});

afterAll(() => kube.close());

describe('the kind fixtures (one valid object per kind and served version)', () => {
  test('cover all 18 kinds', () => {
    expect(new Set(fixtures().map(f => f.kind)).size).toBe(18);
  });

  test('are all in the synth', () => {
    expect(fixtureSynth().objects.map(o => `${o.apiVersion} ${o.kind}`).sort())
      .toEqual(fixtures().map(f => `${f.apiVersion} ${f.kind}`).sort());
  });

  proveSynth(() => kube, fixtureSynth);

  test('are stored as written: what the server returns holds every field we sent', async () => {
    const synth = fixtureSynth();
    const lost: string[] = [];
    for (const m of synth.objects) {
      const res = await kube.get(m);
      expect(res.status).toBe(200);
      for (const missing of missingPaths(m.spec, res.body.spec, 'spec')) lost.push(`${describeObject(m)}: ${missing}`);
    }
    expect(lost).toEqual([]);
  });
});

describe.each(exampleApps())('examples/%s', name => {
  proveSynth(() => kube, () => exampleSynth(name));

  // An example that installs the control plane leaves webhook configurations
  // no kruise-manager serves in this file (the manager-*.cluster.test.ts files
  // run one): remove them, so the API server alone judges the next example.
  afterAll(async () => {
    for (const m of exampleSynth(name).objects) {
      if (m.kind === 'MutatingWebhookConfiguration' || m.kind === 'ValidatingWebhookConfiguration') await kube.delete(m);
    }
  });
});

/** Field paths present in `sent` but absent (pruned) in `stored`. */
function missingPaths(sent: unknown, stored: unknown, at: string): string[] {
  if (sent === null || typeof sent !== 'object') return [];
  if (stored === null || typeof stored !== 'object') return [`${at} is gone`];
  const out: string[] = [];
  for (const [k, v] of Object.entries(sent as Manifest)) {
    const key = Array.isArray(sent) ? `${at}[${k}]` : `${at}.${k}`;
    if (!(k in (stored as Manifest))) out.push(`${key} was pruned`);
    else out.push(...missingPaths(v, (stored as Manifest)[k], key));
  }
  return out;
}
