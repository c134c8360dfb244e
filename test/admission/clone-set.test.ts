/**
 * The CloneSet admission corpus through every entry path: each case is
 * synthesized as a `kruise` L1 object, a raw ApiObject and included YAML, and
 * must get its verdict with its exact message on each.
 */
import { Testing } from 'cdk8s';
import { CloneSet } from '../../src';
import { formatIssue, servedVersions, validateManifest } from '../../src/validation/schemas';
import { cases } from '../fixtures/admission/clone-set';
import { describeCorpus, expectCase } from '../util/admission';

const KIND = 'CloneSet';
const GROUP = 'apps.kruise.io';

describeCorpus(GROUP, KIND, cases);

describe('a container image with surrounding whitespace (the API server refuses every pod)', () => {
  test.each([' nginx:1.27', 'nginx:1.27 ', 'nginx:1.27\n'])('the L2 refuses %j with the field, the value and the fix', img => {
    const chart = Testing.chart();
    new CloneSet(chart, 'w', { containers: [{ image: img }] });
    expect(() => Testing.synth(chart)).toThrow(`[test/w] CloneSet "test-w-c8a10b81" (apps.kruise.io/v1alpha1) spec.template.spec.containers[0].image: ${JSON.stringify(img)} has leading or trailing whitespace: OpenKruise admits it, but the API server refuses it in every pod created from the template; remove the spaces around the image name`);
  });

  test('an image without whitespace around it passes', () => {
    const chart = Testing.chart();
    new CloneSet(chart, 'w', { containers: [{ image: 'registry.example.com/team/nginx:1.27' }] });
    expect(() => Testing.synth(chart)).not.toThrow();
  });
});
