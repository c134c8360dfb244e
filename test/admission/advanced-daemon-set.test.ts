/**
 * The Advanced DaemonSet admission corpus through every entry path: each case is
 * synthesized as a `kruise` L1 object, a raw ApiObject and included YAML, and
 * must get its verdict with its exact message on each.
 */
import { Testing } from 'cdk8s';
import { AdvancedDaemonSet } from '../../src';
import { formatIssue, servedVersions, validateManifest } from '../../src/validation/schemas';
import { cases } from '../fixtures/admission/advanced-daemon-set';
import { describeCorpus, expectCase } from '../util/admission';

const KIND = 'DaemonSet';
const GROUP = 'apps.kruise.io';

describeCorpus(GROUP, KIND, cases);

describe('a container image with surrounding whitespace (the API server refuses every pod)', () => {
  test.each([' nginx:1.27', 'nginx:1.27 ', 'nginx:1.27\n'])('the L2 refuses %j with the field, the value and the fix', img => {
    const chart = Testing.chart();
    new AdvancedDaemonSet(chart, 'w', { containers: [{ image: img }] });
    expect(() => Testing.synth(chart)).toThrow(`[test/w] DaemonSet "test-w-c8a10b81" (apps.kruise.io/v1beta1) spec.template.spec.containers[0].image: ${JSON.stringify(img)} has leading or trailing whitespace: OpenKruise admits it, but the API server refuses it in every pod created from the template; remove the spaces around the image name`);
  });

  test('an image without whitespace around it passes', () => {
    const chart = Testing.chart();
    new AdvancedDaemonSet(chart, 'w', { containers: [{ image: 'registry.example.com/team/nginx:1.27' }] });
    expect(() => Testing.synth(chart)).not.toThrow();
  });
});
