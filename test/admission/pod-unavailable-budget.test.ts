/**
 * The PodUnavailableBudget admission corpus through every entry path: each case is
 * synthesized as a `kruise` L1 object, a raw ApiObject and included YAML, and
 * must get its verdict with its exact message on each.
 */
import { formatIssue, servedVersions, validateManifest } from '../../src/validation/schemas';
import { cases } from '../fixtures/admission/pod-unavailable-budget';
import { describeCorpus, expectCase } from '../util/admission';

const KIND = 'PodUnavailableBudget';
const GROUP = 'policy.kruise.io';

describeCorpus(GROUP, KIND, cases);
