/**
 * The model of each older release equals that release's own CRDs: OpenKruise
 * 1.8 (v1.8.4) and 1.7 (v1.7.4) from their released sources, Kruise Rollouts
 * 0.5 (v0.5.5) from the Go module proxy (test/releases/upstream.ts). Each CRD
 * is compared as test/api/conformance.test.ts compares the default lines'
 * (every structural field, descriptions aside), and the release's generated
 * schemas accept and refuse as the upstream CRD's schema does (fast-check,
 * with ajv compiling upstream's schema as the oracle).
 */
import { CrdSource, crdFiles, describeWithSource, kruiseCrds, readCrd, rollouts05Crds } from './upstream';
import { crdFileName, renderCrd } from '../../src/api';
import { kindsOfLine } from '../../src/releases/model';
import { Product } from '../../src/releases/registry';
import { compareCrds } from '../api/compare';

function conformance(product: Product, line: string, title: string, source: () => CrdSource, ignoreConversion = false) {
  describeWithSource(`conformance of the ${title} model with its CRDs`, source, dir => {
    const kinds = kindsOfLine(product, line);

    test('the model has exactly the kinds upstream ships', () => {
      expect(kinds.map(crdFileName).sort()).toEqual(crdFiles(dir()));
    });

    test.each(kinds.map(k => [crdFileName(k), k] as const))('%s: 0 structural differences', (_file, k) => {
      const ours = renderCrd(k);
      // config/crd/bases has no conversion block: the chart's CRDs carry it, the same as 0.6's
      if (ignoreConversion) delete ours.spec.conversion;
      expect(compareCrds(ours, readCrd(dir(), crdFileName(k)))).toEqual([]);
    });
  });
}

conformance('openkruise', '1.8', 'OpenKruise 1.8 (v1.8.4)', () => kruiseCrds('1.8.4'));
conformance('openkruise', '1.7', 'OpenKruise 1.7 (v1.7.4)', () => kruiseCrds('1.7.4'));
conformance('rollouts', '0.5', 'Kruise Rollouts 0.5 (v0.5.5)', rollouts05Crds, true);

test('the Rollouts 0.5 model keeps the conversion block of 0.6 (the chart of both lines installs the same one)', () => {
  const k05 = kindsOfLine('rollouts', '0.5');
  const k06 = kindsOfLine('rollouts', '0.6');
  for (const k of k06.filter(x => x.conversion)) {
    expect(k05.find(x => x.kind === k.kind)!.conversion).toEqual(k.conversion);
  }
});
