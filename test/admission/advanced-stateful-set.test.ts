/**
 * The Advanced StatefulSet admission corpus through every entry path: each case is
 * synthesized as a `kruise` L1 object, a raw ApiObject and included YAML, and
 * must get its verdict with its exact message on each.
 */
import { Testing } from 'cdk8s';
import { AdvancedStatefulSet } from '../../src';
import { cases } from '../fixtures/admission/advanced-stateful-set';
import { ENTRY_PATHS, describeCorpus, synthOn, warningsOfLastSynth } from '../util/admission';

const KIND = 'StatefulSet';
const GROUP = 'apps.kruise.io';

describeCorpus(GROUP, KIND, cases);

// the API server keeps a null item of reserveOrdinals; the webhook's defaults write it back as the integer 0 before the schema is checked
describe('a null item of reserveOrdinals is admitted as ordinal 0, with a warning', () => {
  const valid = cases.find(c => c.id === 'StatefulSet/valid-on-delete')!.manifest;
  test.each(ENTRY_PATHS)('on the %s path', p => {
    const m = JSON.parse(JSON.stringify(valid));
    m.spec.reserveOrdinals = [null, 2];
    expect(synthOn(p, m)).toBe('');
    expect(warningsOfLastSynth().map(w => w.slice(w.indexOf(' spec.') + 1))).toEqual([
      'spec.reserveOrdinals[0]: null is read as ordinal 0 by OpenKruise (the null item is kept, and decodes as the integer 0), so pod 0 is never created; '
      + 'write 0 if pod 0 is meant to be skipped, or remove the item',
    ]);
  });
});

describe('a container image with surrounding whitespace (the API server refuses every pod)', () => {
  test.each([' nginx:1.27', 'nginx:1.27 ', 'nginx:1.27\n'])('the L2 refuses %j with the field, the value and the fix', img => {
    const chart = Testing.chart();
    new AdvancedStatefulSet(chart, 'w', { containers: [{ image: img, portNumber: 8080 }] });
    expect(() => Testing.synth(chart)).toThrow(`[test/w] StatefulSet "test-w-c8a10b81" (apps.kruise.io/v1beta1) spec.template.spec.containers[0].image: ${JSON.stringify(img)} has leading or trailing whitespace: OpenKruise admits it, but the API server refuses it in every pod created from the template; remove the spaces around the image name`);
  });

  test('an image without whitespace around it passes', () => {
    const chart = Testing.chart();
    new AdvancedStatefulSet(chart, 'w', { containers: [{ image: 'registry.example.com/team/nginx:1.27', portNumber: 8080 }] });
    expect(() => Testing.synth(chart)).not.toThrow();
  });
});
