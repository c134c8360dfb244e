/**
 * What a kind's module asks of the target release, for the one place per
 * kind where a release changed a default (the rules are `releaseRules`).
 */
import { AdmissionContext } from './types';
import { Product, atLeast, defaultRelease } from '../releases/registry';

/** Whether the release the context targets for `product` is `version` or newer (the default lines when no target is known). */
export function targetHas(ctx: AdmissionContext, product: Product, version: string): boolean {
  const t = ctx.target ? (product === 'openkruise' ? ctx.target.openKruise : ctx.target.rollouts).release : defaultRelease(product);
  return atLeast(t, version);
}
