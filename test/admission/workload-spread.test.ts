/**
 * The WorkloadSpread admission corpus through every entry path: each case is
 * synthesized as a `kruise` L1 object, a raw ApiObject and included YAML, and
 * must get its verdict with its exact message on each.
 */
import { formatIssue, servedVersions, validateManifest } from '../../src/validation/schemas';
import { cases } from '../fixtures/admission/workload-spread';
import { describeCorpus, expectCase } from '../util/admission';

const KIND = 'WorkloadSpread';
const GROUP = 'apps.kruise.io';

describeCorpus(GROUP, KIND, cases);
