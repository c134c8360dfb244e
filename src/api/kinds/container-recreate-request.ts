import { execAction, httpGetAction, tcpSocketAction } from '../blocks';
import { KindModel, Schema, bool, int32, int64, list, obj, str, time } from '../schema';

/** A container port (corev1.ContainerPort), as the request records it for the preStop hook. */
const containerPort = (): Schema => obj({
  'containerPort!': int32(),
  'hostIP': str(),
  'hostPort': int32(),
  'name': str(),
  'protocol': str({ default: 'TCP' }),
});

/** One container of the pod to recreate. */
const recreateContainer = (): Schema => obj({
  'name!': str({ description: 'Name of the container to recreate.' }),
  'ports': list(containerPort(), { description: 'Ports of the container, filled in by the webhook for the preStop hook.' }),
  'preStop': obj({
    exec: execAction(),
    httpGet: httpGetAction(),
    tcpSocket: tcpSocketAction(),
  }, { description: 'The preStop handler to run before the container is stopped, filled in by the webhook.' }),
  'statusContext': obj({
    'containerID!': str(),
    'restartCount!': int32(),
  }, { description: 'The container ID and restart count at the time of the request, filled in by the webhook.' }),
});

/** How the containers are recreated. */
const recreateStrategy = (): Schema => obj({
  failurePolicy: str({ description: 'Fail or Ignore: what to do when recreating a container fails.' }),
  forceRecreate: bool({ description: 'Recreate even if the container is still starting.' }),
  minStartedSeconds: int32({ description: 'Seconds a new container must stay up to count as started.' }),
  orderedRecreate: bool({ description: 'Recreate the containers one by one in the listed order.' }),
  terminationGracePeriodSeconds: int64({ description: 'Grace period for stopping each container.' }),
  unreadyGracePeriodSeconds: int64({ description: 'Mark the pod not-ready this many seconds before stopping containers.' }),
});

/** The spec of a ContainerRecreateRequest. */
export const containerRecreateRequestSpec = (): Schema => obj({
  'activeDeadlineSeconds': int64({ description: 'Seconds after which an unfinished request is marked failed.' }),
  'containers!': list(recreateContainer(), { description: 'The containers to recreate.' }),
  'podName!': str({ description: 'The pod whose containers are recreated.' }),
  'strategy': recreateStrategy(),
  'ttlSecondsAfterFinished': int32({ description: 'Seconds to keep the request after it finished.' }),
});

const containerRecreateRequestStatus = (): Schema => obj({
  'completionTime': time(),
  'containerRecreateStates': list(obj({
    'isKilled': bool(),
    'message': str(),
    'name!': str(),
    'phase!': str(),
  })),
  'message': str(),
  'phase!': str(),
});

export const CONTAINER_RECREATE_REQUEST: KindModel = {
  group: 'apps.kruise.io',
  kind: 'ContainerRecreateRequest',
  plural: 'containerrecreaterequests',
  singular: 'containerrecreaterequest',
  shortNames: ['crr'],
  scope: 'Namespaced',
  versions: [{
    name: 'v1alpha1',
    served: true,
    storage: true,
    description: 'A request to restart (recreate) some containers of a running pod in place.',
    spec: containerRecreateRequestSpec(),
    status: containerRecreateRequestStatus(),
    statusSubresource: true,
    printerColumns: [
      { name: 'PHASE', type: 'string', jsonPath: '.status.phase' },
      { name: 'POD', type: 'string', jsonPath: '.spec.podName' },
      { name: 'NODE', type: 'string', jsonPath: '.metadata.labels.crr\\.apps\\.kruise\\.io/node-name' },
      { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
  }],
};
