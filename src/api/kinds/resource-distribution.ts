import { labelSelector } from '../blocks';
import { KindModel, Schema, anyObject, bool, int32, int64, list, obj, str, strings, time } from '../schema';

/** A list of namespaces named one by one. */
const namespaceNameList = (): Schema => obj({
  list: list(obj({ name: str() })),
});

/** The namespaces the resource is copied into. */
const resourceDistributionTargets = (): Schema => obj({
  allNamespaces: bool({ description: 'Copy into every namespace (except the system ones and the excluded ones).' }),
  excludedNamespaces: namespaceNameList(),
  includedNamespaces: namespaceNameList(),
  namespaceLabelSelector: labelSelector(),
});

const resourceDistributionSpec = (): Schema => obj({
  'resource!': anyObject({
    description: 'The whole object (for example a Secret or a ConfigMap) to copy into the target namespaces.',
    embedded: true,
    preserveUnknown: true,
  }),
  'targets!': resourceDistributionTargets(),
});

/** A condition of a distribution, with the namespaces where it failed. */
const resourceDistributionCondition = (): Schema => obj({
  'failedNamespace': strings(),
  'lastTransitionTime': time(),
  'reason': str(),
  'status!': str(),
  'type!': str(),
});

const resourceDistributionStatus = (): Schema => obj({
  conditions: list(resourceDistributionCondition()),
  desired: int32(),
  failed: int32(),
  observedGeneration: int64(),
  succeeded: int32(),
});

export const RESOURCE_DISTRIBUTION: KindModel = {
  group: 'apps.kruise.io',
  kind: 'ResourceDistribution',
  plural: 'resourcedistributions',
  singular: 'resourcedistribution',
  shortNames: ['distributor'],
  scope: 'Cluster',
  versions: [{
    name: 'v1alpha1',
    served: true,
    storage: true,
    description: 'Copies one resource into many namespaces and keeps the copies in sync.',
    spec: resourceDistributionSpec(),
    status: resourceDistributionStatus(),
    statusSubresource: true,
    printerColumns: [
      { name: 'TOTAL', type: 'integer', jsonPath: '.status.desired' },
      { name: 'SUCCEED', type: 'integer', jsonPath: '.status.succeeded' },
      { name: 'FAILED', type: 'integer', jsonPath: '.status.failed' },
    ],
  }],
};
