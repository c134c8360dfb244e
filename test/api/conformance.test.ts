import { compareCrds } from './compare';
import { describeWithUpstream, readUpstream, upstreamFiles } from './upstream';
import { KINDS, crdFileName, renderCrd } from '../../src/api';

describeWithUpstream('conformance with upstream OpenKruise v1.9.0 CRDs', () => {
  test('the model has exactly the kinds upstream ships', () => {
    expect(KINDS.map(crdFileName).sort()).toEqual(upstreamFiles());
  });

  const only = process.env.CONFORMANCE_ONLY?.split(',');
  for (const file of upstreamFiles()) {
    if (only && !only.some(o => file.includes(o))) continue;
    test(`${file}: 0 structural differences`, () => {
      const model = KINDS.find(k => crdFileName(k) === file);
      if (!model) throw new Error(`no model for ${file}`);
      const diffs = compareCrds(renderCrd(model), readUpstream(file));
      expect(diffs).toEqual([]);
    });
  }
});

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
