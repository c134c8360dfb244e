/**
 * The API of OpenKruise 1.7 (config/crd/bases of v1.7.4), as changes against
 * 1.8's. Kept equal to those CRDs by test/releases/conformance.test.ts.
 */
import { int, list } from '../../api/schema';
import type { LineModel } from '../changes';
import { keys, remove, set, withoutColumn } from '../changes';

export const MODEL: LineModel = {
  changes: [
    withoutColumn('CloneSet', 'v1alpha1', 'UPDATED_AVAILABLE'),
    // SidecarSet: the revision policy is a free string (the webhook takes Always only)
    keys('SidecarSet', 'spec.injectionStrategy.revision.policy', { enum: undefined, default: undefined }),
    // Advanced StatefulSet: reserved ordinals are numbers only, no PVC update strategy
    set('StatefulSet', 'spec.reserveOrdinals', list(int()), { versions: ['v1beta1'] }),
    remove('StatefulSet', 'spec.volumeClaimUpdateStrategy', ['v1beta1']),
    remove('StatefulSet', 'status.volumeClaims', ['v1beta1']),
    set('UnitedDeployment', 'spec.template.advancedStatefulSetTemplate.spec.reserveOrdinals', list(int())),
    remove('UnitedDeployment', 'spec.template.advancedStatefulSetTemplate.spec.volumeClaimUpdateStrategy'),
    // UnitedDeployment: no schedule strategy (the adaptive one came in 1.8), no per-subset status
    remove('UnitedDeployment', 'spec.topology.scheduleStrategy'),
    remove('UnitedDeployment', 'status.subsetStatuses'),
    remove('WorkloadSpread', 'spec.targetFilter'),
  ],
};
