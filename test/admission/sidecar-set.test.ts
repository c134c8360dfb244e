/**
 * The SidecarSet admission corpus through every entry path: each case is
 * synthesized as a `kruise` L1 object, a raw ApiObject and included YAML, and
 * must get its verdict with its exact message on each.
 */
import { asApplied } from '../../src/admission/apply';
import { judgeUpdate } from '../../src/admission/update';
import { formatIssue, servedVersions, validateManifest } from '../../src/validation/schemas';
import { cases } from '../fixtures/admission/sidecar-set';
import { describeCorpus, expectCase } from '../util/admission';

const KIND = 'SidecarSet';
const GROUP = 'apps.kruise.io';

describeCorpus(GROUP, KIND, cases);

test('a null sidecar container on an update is refused by the container rules, not a TypeError (the long run, openkruise-1.9.1 #25521)', () => {
  const valid = JSON.parse(JSON.stringify(cases.find(c => c.id === 'SidecarSet/valid-v1alpha1')!.manifest));
  const changed = JSON.parse(JSON.stringify(valid));
  changed.spec.containers[0] = null;
  const { errors } = judgeUpdate(asApplied(valid), changed, {});
  expect(errors[0]).toMatch(/^spec\.containers\[0\]\.name: /);
});
