/**
 * What the deploy order of an app shares between the control planes
 * (control-plane/deploy-order.ts) and the app's policies
 * (fleet/deploy-order.ts): the Argo CD sync waves, which constructs are part
 * of a control plane, and whether one chart or object depends on another.
 */
import { Chart } from 'cdk8s';
import { IConstruct } from 'constructs';

/** Annotation Argo CD reads to order the objects of one sync. */
export const ARGO_CD_SYNC_WAVE = 'argocd.argoproj.io/sync-wave';

/**
 * The Argo CD sync waves: a control plane's Namespaces and CRDs, then the
 * rest of the control plane, then the app's policies that act when a pod is
 * created (fleet/deploy-order.ts), then everything else (wave 0).
 */
export const SYNC_WAVES = { controlPlaneFirst: '-3', controlPlane: '-2', policies: '-1' } as const;

/** Every control plane construct ordered. */
const controlPlanes = new WeakSet<IConstruct>();
let anyControlPlane = false;

/**
 * Record a control plane construct (its objects deploy before the app's).
 * @internal
 */
export function _markControlPlane(c: IConstruct): void {
  controlPlanes.add(c);
  anyControlPlane = true;
}

/**
 * Whether `c` is part of a control plane (its objects deploy before the app's in any case).
 * @internal
 */
export function _inControlPlane(c: IConstruct): boolean {
  if (!anyControlPlane) return false;
  for (let s: IConstruct | undefined = c; s; s = s.node.scope) if (controlPlanes.has(s)) return true;
  return false;
}

/**
 * True when `from` depends on `to`, directly or through other dependencies (nested charts included).
 * @internal
 */
export function _reaches(from: IConstruct, to: IConstruct, seen = new Set<IConstruct>()): boolean {
  if (from === to) return true;
  if (seen.has(from)) return false;
  seen.add(from);
  const next = [...from.node.dependencies];
  if (Chart.isChart(from)) next.push(...from.node.children.filter(c => Chart.isChart(c)));
  return next.some(n => _reaches(n, to, seen));
}
