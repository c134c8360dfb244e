import * as fs from 'fs';
import * as path from 'path';
import { compareCrds } from './compare';
import { KRUISE_ROLLOUTS, OPENKRUISE, ROLLOUT_NAMESPACE_PLACEHOLDER, UpstreamCrds } from './upstream';
import { KINDS, KindModel, ROLLOUT_KINDS, crdFileName, renderCrd } from '../../src/api';

/** One group per upstream product; `more` adds tests that need the same reference. */
function conformance(upstream: UpstreamCrds, kinds: KindModel[], more: () => void = () => undefined) {
  upstream.describe(`conformance with upstream ${upstream.product} CRDs`, () => {
    test('the model has exactly the kinds upstream ships', () => {
      expect(kinds.map(crdFileName).sort()).toEqual(upstream.files());
    });

    const only = process.env.CONFORMANCE_ONLY?.split(',');
    for (const file of upstream.files()) {
      if (only && !only.some(o => file.includes(o))) continue;
      test(`${file}: 0 structural differences`, () => {
        const model = kinds.find(k => crdFileName(k) === file);
        if (!model) throw new Error(`no model for ${file}`);
        const diffs = compareCrds(renderCrd(model), upstream.read(file));
        expect(diffs).toEqual([]);
      });
    }

    more();
  });
}

conformance(OPENKRUISE, KINDS);
conformance(KRUISE_ROLLOUTS, ROLLOUT_KINDS, () => describe('the Rollouts chart\'s conversion block', () => {
  test('is a Helm template in rollouts and batchreleases only, with the install namespace as its one placeholder', () => {
    const templated = KRUISE_ROLLOUTS.files().filter(f => fs.readFileSync(path.join(KRUISE_ROLLOUTS.dir, f), 'utf-8').includes(ROLLOUT_NAMESPACE_PLACEHOLDER));
    expect(templated).toEqual(['rollouts.kruise.io_batchreleases.yaml', 'rollouts.kruise.io_rollouts.yaml']);
    for (const f of templated) expect(fs.readFileSync(path.join(KRUISE_ROLLOUTS.dir, f), 'utf-8')).not.toMatch(/\{\{(?! \.Values\.installation\.namespace \}\})/);
  });

  test('is rendered for the namespace asked for, and compared like every other field', () => {
    const rollout = ROLLOUT_KINDS.find(k => k.kind === 'Rollout')!;
    const elsewhere = renderCrd(rollout, { conversionNamespace: 'progressive' });
    expect(elsewhere.spec.conversion).toEqual({
      strategy: 'Webhook',
      webhook: { clientConfig: { service: { name: 'kruise-rollout-webhook-service', namespace: 'progressive', path: '/convert' } }, conversionReviewVersions: ['v1beta1'] },
    });
    expect(compareCrds(elsewhere, KRUISE_ROLLOUTS.read('rollouts.kruise.io_rollouts.yaml'))).toEqual([
      'rollouts.rollouts.kruise.io spec.conversion: ours={"strategy":"Webhook","webhook":{"clientConfig":{"service":{"name":"kruise-rollout-webhook-service","namespace":"progressive","path":"/convert"}},"conversionReviewVersions":["v1beta1"]}} '
        + 'upstream={"strategy":"Webhook","webhook":{"clientConfig":{"service":{"name":"kruise-rollout-webhook-service","namespace":"kruise-rollout","path":"/convert"}},"conversionReviewVersions":["v1beta1"]}}',
    ]);
  });
}));

test('the comparator reports a changed type, a missing property and a changed marker by path', () => {
  const base = {
    metadata: { name: 'xs.g' },
    spec: {
      group: 'g',
      scope: 'Namespaced',
      names: { kind: 'X', plural: 'xs' },
      versions: [{
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { 'type': 'object', 'properties': { a: { type: 'string' }, b: { type: 'integer' } }, 'x-kubernetes-map-type': 'atomic' } } } },
      }],
    },
  };
  const changed = JSON.parse(JSON.stringify(base));
  const spec = changed.spec.versions[0].schema.openAPIV3Schema.properties.spec;
  spec.properties.a.type = 'integer';
  delete spec.properties.b;
  delete spec['x-kubernetes-map-type'];
  spec.description = 'descriptions are ignored';
  expect(compareCrds(changed, base)).toEqual([
    'xs.g/v1.spec: x-kubernetes-map-type ours=(absent) upstream="atomic"',
    'xs.g/v1.spec.a: type ours="integer" upstream="string"',
    'xs.g/v1.spec.b: ours missing, upstream present',
  ]);
});
