/**
 * What `kubectl apply` makes of a manifest applied over a stored custom
 * resource: a JSON merge patch (RFC 7386; custom resources have no strategic
 * merge) from the manifest last applied (the object's
 * `kubectl.kubernetes.io/last-applied-configuration` annotation) to the new
 * one, applied to the stored object. So fields the cluster set (a webhook's
 * defaults, a ContainerRecreateRequest's pod-uid label and statusContext) and
 * neither manifest names are kept, and a field the last manifest had and the
 * new one drops is removed. A stored object without the annotation (created
 * otherwise) is patched with the new manifest alone, as kubectl then does:
 * nothing is removed. The webhooks judge that result as the update.
 */
import { Manifest } from './types';

type Json = Record<string, any>;

/** The annotation `kubectl apply` keeps the applied manifest in. */
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

const isMap = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The JSON merge patch that turns `from` into `to` (undefined when they are equal). */
export function mergePatch(from: unknown, to: unknown): unknown {
  if (!isMap(from) || !isMap(to)) return JSON.stringify(from) === JSON.stringify(to) ? undefined : to;
  const out: Json = {};
  for (const k of Object.keys(from)) if (!(k in to)) out[k] = null;
  for (const [k, v] of Object.entries(to)) {
    if (!(k in from)) {
      out[k] = v;
    } else {
      const d = mergePatch(from[k], v);
      if (d !== undefined) out[k] = d;
    }
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/** `target` with the JSON merge patch applied (a null removes the field). */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isMap(patch)) return patch;
  const out: Json = isMap(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = applyMergePatch(out[k], v);
  }
  return out;
}

/** The manifest last applied to a stored object, if `kubectl apply` wrote it. */
export function lastApplied(stored: Manifest): Manifest | undefined {
  const text = stored?.metadata?.annotations?.[LAST_APPLIED];
  if (typeof text !== 'string') return undefined;
  try {
    const m = JSON.parse(text);
    return isMap(m) ? m : undefined;
  } catch {
    return undefined;
  }
}

/** A manifest as `kubectl apply` creates it: with itself as the last applied manifest. */
export function asApplied(manifest: Manifest): Manifest {
  const annotations = isMap(manifest.metadata?.annotations) ? manifest.metadata.annotations : {};
  return { ...manifest, metadata: { ...manifest.metadata, annotations: { ...annotations, [LAST_APPLIED]: JSON.stringify(manifest) } } };
}

/** The patch `kubectl apply` sends to apply `manifest` over `stored`. */
export function applyPatch(stored: Manifest, manifest: Manifest): Json {
  const patch = mergePatch(lastApplied(stored) ?? {}, manifest);
  return isMap(patch) ? patch : {};
}

/** The object the API server makes of `manifest` applied over `stored` (the webhooks judge it). */
export function appliedOver(stored: Manifest, manifest: Manifest): Manifest {
  return applyMergePatch(stored, applyPatch(stored, manifest)) as Manifest;
}
