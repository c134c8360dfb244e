/**
 * The release a running manager names: the image tag of the kruise-manager
 * (OpenKruise) or kruise-rollout-manager (Kruise Rollouts) Deployment, in a
 * cluster's live state or in manifests (a control plane of an app's synth
 * output).
 */
import { Product, Release, parseRelease } from './registry';

type Json = any;

/** The manager container of a Deployment. */
function managerOf(obj: Json): Json | undefined {
  if (obj?.kind !== 'Deployment' || typeof obj.apiVersion !== 'string' || !obj.apiVersion.startsWith('apps/')) return undefined;
  const containers: Json[] = obj.spec?.template?.spec?.containers ?? [];
  return containers.find(c => c?.name === 'manager');
}

/** Whether `obj` is the manager Deployment of `product`: kruise-controller-manager, or a manager running the kruise-rollout image. */
export function isManagerOf(obj: Json, product: Product): boolean {
  const m = managerOf(obj);
  if (!m) return false;
  return product === 'openkruise'
    ? obj.metadata?.name === 'kruise-controller-manager'
    : typeof m.image === 'string' && /(^|\/)kruise-rollout(:|@|$)/.test(m.image);
}

/** The image tag of a manager Deployment's manager container, if it has one. */
export function managerImage(obj: Json): string | undefined {
  const image = managerOf(obj)?.image;
  return typeof image === 'string' ? image : undefined;
}

/**
 * The release a manager Deployment's image tag names: undefined when the tag
 * is not a version (a digest, `latest`, a build of one's own); a version tag
 * that is not a modelled release throws the `ReleaseError` of `parseRelease`,
 * its message starting with `what`.
 */
export function managerRelease(obj: Json, product: Product, what: string): Release | undefined {
  const image = managerImage(obj);
  if (!image) return undefined;
  const tag = /:([^:/@]+)(?:@.*)?$/.exec(image)?.[1];
  if (!tag || !/^v?\d+\.\d+(\.\d+)?$/.test(tag)) return undefined;
  return parseRelease(product, tag, `${what} runs image '${image}'`);
}
