import { labelSelector, probedCondition } from '../blocks';
import { KindModel, Schema, bool, int32, int64, list, obj, str, time, untyped } from '../schema';

/** The spec of an EphemeralJob. */
export const ephemeralJobSpec = (): Schema => obj({
  'activeDeadlineSeconds': int64({ description: 'Seconds the job may run before it is stopped.' }),
  'parallelism': int32({ description: 'How many pods get the ephemeral containers at the same time.' }),
  'paused': bool({ description: 'Stop adding ephemeral containers to more pods.' }),
  'replicas': int32({ description: 'How many matching pods get the ephemeral containers.' }),
  'selector!': labelSelector(),
  'template!': obj({
    'ephemeralContainers!': untyped('EphemeralContainer[]'),
  }, { description: 'The ephemeral containers to inject into each selected pod.' }),
  'ttlSecondsAfterFinished': int32({ description: 'Seconds to keep the job after it finished.' }),
});

const ephemeralJobStatus = (): Schema => obj({
  completionTime: time(),
  conditions: list(probedCondition()),
  failed: int32(),
  match: int32(),
  phase: str(),
  running: int32(),
  startTime: time(),
  succeeded: int32(),
  waiting: int32(),
});

export const EPHEMERAL_JOB: KindModel = {
  group: 'apps.kruise.io',
  kind: 'EphemeralJob',
  plural: 'ephemeraljobs',
  singular: 'ephemeraljob',
  shortNames: ['ejob'],
  scope: 'Namespaced',
  versions: [{
    name: 'v1alpha1',
    served: true,
    storage: true,
    description: 'A job that injects ephemeral containers into the pods a selector matches, e.g. for debugging.',
    spec: ephemeralJobSpec(),
    status: ephemeralJobStatus(),
    statusSubresource: true,
    printerColumns: [
      { name: 'STATUS', type: 'string', jsonPath: '.status.phase' },
      { name: 'MATCH', type: 'integer', jsonPath: '.status.match' },
      { name: 'SUCCEED', type: 'integer', jsonPath: '.status.succeeded' },
      { name: 'FAILED', type: 'integer', jsonPath: '.status.failed' },
      { name: 'RUNNING', type: 'integer', jsonPath: '.status.running' },
      { name: 'WAITING', type: 'integer', jsonPath: '.status.waiting' },
      { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
  }],
};
