/**
 * What an Advanced StatefulSet keeps of a running `apps/v1` StatefulSet so
 * that it adopts its pods instead of creating new ones.
 */

/** The identity of a running `apps/v1` StatefulSet, as `StatefulSetTakeover.of()` takes it. */
export interface StatefulSetTakeoverOptions {
  /** The running StatefulSet's name: its pods are `<name>-<ordinal>`, and the Advanced StatefulSet takes this name. */
  readonly name: string;

  /**
   * Its namespace.
   *
   * @default - the namespace of the Advanced StatefulSet's metadata (or none)
   */
  readonly namespace?: string;

  /** Its `spec.selector.matchLabels`: the labels the running pods carry and the new workload selects. */
  readonly selector: { [key: string]: string };

  /** Its `spec.serviceName`: the pods' DNS subdomain, which cannot change on a running pod. */
  readonly serviceName: string;

  /** How many pods it runs (`spec.replicas`): the Advanced StatefulSet keeps that many unless `replicas` says otherwise. */
  readonly replicas: number;

  /**
   * The labels of its pod template (the selector's labels and any others).
   *
   * @default - the selector's labels
   */
  readonly podLabels?: { [key: string]: string };

  /**
   * The names of its volume claim templates: the pods mount the claims
   * `<template>-<name>-<ordinal>`, so the Advanced StatefulSet must declare
   * the same templates. Checked at synth when given.
   *
   * @default - not checked
   */
  readonly claimTemplates?: string[];
}

type Json = any;

const where = 'StatefulSetTakeover.fromManifest()';

function labelMap(value: Json, field: string): { [key: string]: string } {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value) || Object.values(value).some(v => typeof v !== 'string')) {
    throw new Error(`${where}: ${field} is ${JSON.stringify(value)}, not a map of label values; pass the StatefulSet as kubectl get statefulset.apps NAME -o json prints it`);
  }
  return { ...value };
}

/**
 * The running `apps/v1` StatefulSet an `AdvancedStatefulSet` takes over
 * (its `takeOver` prop): its name, selector, pod labels, serviceName,
 * replicas and claim templates. With it the Advanced StatefulSet writes no
 * selector label of its own (the `cdk8s.io/metadata.addr` label is not on
 * the running pods, so nothing would be adopted), selects and labels its
 * pods as the running StatefulSet does, and keeps its serviceName and
 * replica count. Delete the apps/v1 StatefulSet with
 * `--cascade=orphan` before applying; `cdk8s-kruise plan --old-live` says
 * which pods are adopted and whether they roll.
 */
export class StatefulSetTakeover {
  /**
   * Take over a StatefulSet described by hand.
   *
   * @param options name, selector, serviceName, replicas and (optionally) pod labels and claim templates
   */
  public static of(options: StatefulSetTakeoverOptions): StatefulSetTakeover {
    const at = 'StatefulSetTakeover.of()';
    if (typeof options.name !== 'string' || options.name === '') throw new Error(`${at}: name is empty; pass the running StatefulSet's metadata.name`);
    if (Object.keys(options.selector ?? {}).length === 0) {
      throw new Error(`${at}: selector of StatefulSet "${options.name}" is empty; pass its spec.selector.matchLabels, the labels its running pods carry`);
    }
    if (typeof options.serviceName !== 'string' || options.serviceName === '') {
      throw new Error(`${at}: serviceName of StatefulSet "${options.name}" is empty; pass its spec.serviceName (the pods' DNS subdomain cannot change)`);
    }
    if (!Number.isInteger(options.replicas) || options.replicas < 0) {
      throw new Error(`${at}: replicas of StatefulSet "${options.name}" is ${JSON.stringify(options.replicas)}; pass its spec.replicas, a whole number of 0 or more`);
    }
    const podLabels = { ...options.selector, ...(options.podLabels ?? {}) };
    for (const [k, v] of Object.entries(options.selector)) {
      if (options.podLabels && options.podLabels[k] !== undefined && options.podLabels[k] !== v) {
        throw new Error(`${at}: podLabels["${k}"] is "${options.podLabels[k]}" but the selector of StatefulSet "${options.name}" asks for "${v}"; the pod labels must carry the selector's labels`);
      }
    }
    const claims = options.claimTemplates ? [...options.claimTemplates] : undefined;
    const selector = { ...options.selector };
    return new StatefulSetTakeover(options.name, options.namespace, selector, options.serviceName, options.replicas, podLabels, claims);
  }

  /**
   * Take over the StatefulSet of a manifest: the live object
   * (`kubectl get statefulset.apps NAME -o json`, parsed) or the one applied so far.
   *
   * @param manifest an `apps/v1` StatefulSet
   */
  public static fromManifest(manifest: any): StatefulSetTakeover {
    if (manifest?.apiVersion !== 'apps/v1' || manifest?.kind !== 'StatefulSet') {
      throw new Error(`${where}: expected an apps/v1 StatefulSet, got ${manifest?.apiVersion}/${manifest?.kind}; pass the parsed manifest of the running StatefulSet`);
    }
    const name = manifest.metadata?.name;
    if (typeof name !== 'string' || name === '') throw new Error(`${where}: the StatefulSet has no metadata.name; pass the manifest as the cluster has it`);
    const selector = manifest.spec?.selector ?? {};
    if (selector.matchExpressions !== undefined && (selector.matchExpressions ?? []).length > 0) {
      throw new Error(`${where}: StatefulSet "${name}" selects with spec.selector.matchExpressions ${JSON.stringify(selector.matchExpressions)}, which an AdvancedStatefulSet cannot take over; `
        + 'turn the manifest into an Advanced StatefulSet as it is with AdvancedStatefulSet.fromStatefulSetManifest()');
    }
    return StatefulSetTakeover.of({
      name,
      namespace: manifest.metadata?.namespace,
      selector: labelMap(selector.matchLabels, `spec.selector.matchLabels of StatefulSet "${name}"`),
      serviceName: manifest.spec?.serviceName,
      replicas: manifest.spec?.replicas ?? 1,
      podLabels: labelMap(manifest.spec?.template?.metadata?.labels, `spec.template.metadata.labels of StatefulSet "${name}"`),
      claimTemplates: (manifest.spec?.volumeClaimTemplates ?? []).map((c: Json) => c?.metadata?.name),
    });
  }

  private constructor(
    /** The running StatefulSet's name. */
    public readonly name: string,
    /** Its namespace, when known. */
    public readonly namespace: string | undefined,
    /** Its selector (`matchLabels`). */
    public readonly selector: { [key: string]: string },
    /** Its serviceName. */
    public readonly serviceName: string,
    /** Its replica count. */
    public readonly replicas: number,
    /** The labels of its pods. */
    public readonly podLabels: { [key: string]: string },
    /** The names of its volume claim templates, when known. */
    public readonly claimTemplates: string[] | undefined,
  ) {}
}
