/**
 * The SidecarSet admission corpus through every entry path: each case is
 * synthesized as a `kruise` L1 object, a raw ApiObject and included YAML, and
 * must get its verdict with its exact message on each.
 */
import { formatIssue, servedVersions, validateManifest } from '../../src/validation/schemas';
import { cases } from '../fixtures/admission/sidecar-set';
import { describeCorpus, expectCase } from '../util/admission';

const KIND = 'SidecarSet';
const GROUP = 'apps.kruise.io';

describeCorpus(GROUP, KIND, cases);
