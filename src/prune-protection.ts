/**
 * Keep a GitOps engine from deleting an object once it leaves the manifests.
 */
import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';

/**
 * The annotations that stop Argo CD and Flux from pruning an object when it
 * is removed from the manifests. Argo CD prunes with foreground propagation
 * by default and Flux's kustomize-controller in the background: either way
 * the garbage collector then deletes everything the object owns, so a
 * StatefulSet or Deployment pruned during a migration takes its pods with
 * it. Annotate the object, let the engine apply the annotation, then take it
 * out of the manifests and delete it yourself with `--cascade=orphan` (or
 * scale it to 0 first).
 */
export class PruneProtection {
  /** Argo CD's per-object sync options annotation (`Prune=false` skips the object when pruning). */
  public static readonly ARGO_CD_SYNC_OPTIONS = 'argocd.argoproj.io/sync-options';

  /** Flux kustomize-controller's per-object prune annotation (`disabled` skips the object when pruning). */
  public static readonly FLUX_PRUNE = 'kustomize.toolkit.fluxcd.io/prune';

  /**
   * Annotate the object of `target` (an ApiObject, or a construct whose
   * default child is one, such as a cdk8s-plus StatefulSet) so that neither
   * Argo CD nor Flux prunes it: `argocd.argoproj.io/sync-options: Prune=false`
   * (added to the sync options the object already has) and
   * `kustomize.toolkit.fluxcd.io/prune: disabled`.
   *
   * @param target the object to keep
   */
  public static protect(target: IConstruct): void {
    let obj: ApiObject;
    try {
      obj = target instanceof ApiObject ? target : ApiObject.of(target);
    } catch {
      throw new Error(`PruneProtection.protect(): '${target.node.path}' is not a Kubernetes object and has no default child that is one; pass the ApiObject (or the cdk8s-plus resource) to keep`);
    }
    const existing: string | undefined = obj.metadata.toJson().annotations?.[PruneProtection.ARGO_CD_SYNC_OPTIONS];
    const options = (existing ?? '').split(',').map(o => o.trim()).filter(o => o !== '' && !/^Prune=/.test(o));
    obj.metadata.addAnnotation(PruneProtection.ARGO_CD_SYNC_OPTIONS, [...options, 'Prune=false'].join(','));
    obj.metadata.addAnnotation(PruneProtection.FLUX_PRUNE, 'disabled');
  }

  /**
   * Whether a manifest (as the cluster has it) carries both annotations.
   *
   * @param manifest any Kubernetes object
   */
  public static isProtected(manifest: any): boolean {
    return PruneProtection.argoCdProtects(manifest) && PruneProtection.fluxProtects(manifest);
  }

  /**
   * Whether Argo CD skips the object when pruning (`Prune=false` among its sync options).
   *
   * @param manifest any Kubernetes object
   */
  public static argoCdProtects(manifest: any): boolean {
    const v = manifest?.metadata?.annotations?.[PruneProtection.ARGO_CD_SYNC_OPTIONS];
    return typeof v === 'string' && v.split(',').some(o => o.trim() === 'Prune=false');
  }

  /**
   * Whether Flux skips the object when pruning (the prune annotation or label is `disabled`).
   *
   * @param manifest any Kubernetes object
   */
  public static fluxProtects(manifest: any): boolean {
    const m = manifest?.metadata ?? {};
    return m.annotations?.[PruneProtection.FLUX_PRUNE] === 'disabled' || m.labels?.[PruneProtection.FLUX_PRUNE] === 'disabled';
  }

  private constructor() {}
}
