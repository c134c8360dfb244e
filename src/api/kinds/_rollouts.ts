/**
 * Pieces the Kruise Rollouts kinds share (Rollout, BatchRelease,
 * TrafficRouting): traffic-routing references, HTTP matches, header
 * modifiers, release-time pod metadata and conditions.
 */
import { workloadRef } from '../blocks';
import { ConversionModel, Schema, bool, int32, intOrString, list, obj, oneOf, str, stringMap, time } from '../schema';

/** An HTTP token (RFC 7230): the names of headers and query parameters. */
const HTTP_TOKEN = "^[A-Za-z0-9!#$%&'*+\\-.^_\\x60|~]+$";

/** The name of a header or query parameter. */
const httpName = (): Schema => str({ minLength: 1, maxLength: 256, pattern: HTTP_TOKEN, description: 'Header or parameter name (an HTTP token).' });

/** One header (or query parameter) match, as Gateway API writes it. */
const valueMatch = (maxValue: number): Schema => obj({
  'name!': httpName(),
  'type': oneOf(['Exact', 'RegularExpression'], { default: 'Exact', description: 'How the value is compared.' }),
  'value!': str({ minLength: 1, maxLength: maxValue, description: 'The value to compare with.' }),
});

/** A list of header matches: at most 16, names unique when `keyed`. */
export const headerMatches = (keyed: boolean): Schema =>
  list(valueMatch(4096), keyed ? { maxItems: 16, mapKeys: ['name'] } : { maxItems: 16 });

/** A v1beta1 traffic match: headers, query parameters and path, all ANDed. */
export const httpRouteMatch = (): Schema => obj({
  headers: headerMatches(true),
  path: obj({
    type: oneOf(['Exact', 'PathPrefix', 'RegularExpression'], { default: 'PathPrefix', description: 'How the path is compared.' }),
    value: str({ default: '/', maxLength: 1024, description: 'The path to compare with.' }),
  }, { description: 'A path match.' }),
  queryParams: list(valueMatch(1024), { maxItems: 16, mapKeys: ['name'] }),
});

/** A header set or added to requests that reach the canary. */
const headerValue = (): Schema => obj({
  'name!': httpName(),
  'value!': str({ minLength: 1, maxLength: 4096 }),
});

/** Changes to request headers of the canary traffic. */
export const requestHeaderModifier = (): Schema => obj({
  add: list(headerValue(), { maxItems: 16, mapKeys: ['name'] }),
  remove: list(str(), { maxItems: 16 }),
  set: list(headerValue(), { maxItems: 16, mapKeys: ['name'] }),
}, { description: 'Request headers set, added or removed for the canary.' });

/** One traffic-routing reference: the stable Service and the providers that split traffic. */
export const trafficRoutingRef = (): Schema => obj({
  'customNetworkRefs': list(obj({
    'apiVersion!': str(),
    'kind!': str(),
    'name!': str(),
  }), { description: 'Custom resources (e.g. Istio VirtualService) that route the traffic.' }),
  'gateway': obj({
    httpRouteName: str({ description: 'The Gateway API HTTPRoute.' }),
  }),
  'gracePeriodSeconds': int32({ default: 3, description: 'Seconds to wait after a traffic change before the next step.' }),
  'ingress': obj({
    'classType': str({ description: 'The Ingress provider (nginx when empty).' }),
    'name!': str({ description: 'The Ingress that routes to the stable Service.' }),
  }),
  'service!': str({ description: 'The stable Service.' }),
});

/** Labels and annotations given to the canary pods. */
export const patchPodTemplateMetadata = (): Schema => obj({
  annotations: stringMap(),
  labels: stringMap(),
});

/** A condition of a Rollout or BatchRelease: message and reason are required. */
export const rolloutCondition = (): Schema => obj({
  'lastTransitionTime': time(),
  'lastUpdateTime': time(),
  'message!': str(),
  'reason!': str(),
  'status!': str(),
  'type!': str(),
});

/** A workload reference (apiVersion, kind, name). */
export const rolloutWorkloadRef = (): Schema => workloadRef();

/** A pause between steps: seconds, or none (wait for approval). */
export const pause = (): Schema => obj({
  duration: int32({ description: 'Seconds to wait before the next step; unset waits for manual approval.' }),
});

/** The release plan of a BatchRelease (both versions). */
export const releasePlan = (): Schema => obj({
  'batchPartition': int32(),
  'batches': list(obj({ 'canaryReplicas!': intOrString() })),
  'enableExtraWorkloadForCanary!': bool(),
  'failureThreshold': intOrString(),
  'finalizingPolicy': str(),
  'patchPodTemplateMetadata': patchPodTemplateMetadata(),
  'rollingStyle': str(),
  'rolloutID': str(),
});

/**
 * The conversion webhook of the Rollout and BatchRelease CRDs (served by
 * kruise-rollout-manager), as the chart writes it for the default install
 * namespace.
 */
export const ROLLOUT_CONVERSION: ConversionModel = {
  service: 'kruise-rollout-webhook-service',
  namespace: 'kruise-rollout',
  path: '/convert',
  reviewVersions: ['v1beta1'],
};
