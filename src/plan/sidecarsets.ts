/**
 * The plan of a SidecarSet update: which sidecar changes reach running pods
 * and which only pods created from now on. OpenKruise upgrades a running
 * pod's sidecars only when nothing but images changed in the SidecarSet's
 * containers (its hash without images is unchanged); then each changed
 * image is rolled out in place, by restart (ColdUpgrade) or by the
 * standby-container swap (HotUpgrade). Any other change is injected only
 * into new pods.
 */
import { diff, fieldPath, sameJson } from './diff';
import { batchesOf, describeBatches, partitionReplicas, upstreamValue } from './rollout';
import { ImageChange, SidecarSetPlan, UpdateType } from './types';
import { subsetReplicas } from './united-deployment';
import { defaultedSidecarSetSpec, sidecarSetSpecOf } from '../admission/sidecar-set';
import { fieldError } from '../validation/field-error';
import { defaultPodTemplate } from '../validation/pod-template';
import { LabelSelectorJson, selectorMatches } from '../validation/selectors';

type Json = any;

/** A workload of the new manifests, as a SidecarSet sees it. */
export interface PodOwner {
  /** `Kind namespace/name`. */
  readonly id: string;
  readonly namespace: string;
  readonly labels: Record<string, string>;
  /** Pods it runs; undefined when the manifests do not say (DaemonSets). */
  readonly pods: number | undefined;
}

/**
 * The pod labels and pod count of a workload (any object with a pod
 * template), or undefined when it creates no pods. `pods` is undefined when
 * the manifest does not say (a DaemonSet without `daemonSetNodes`, a CronJob).
 */
export function podsOf(o: Json, daemonSetNodes?: number): { labels: Record<string, string>; pods: number | undefined } | undefined {
  const spec = o?.spec ?? {};
  const core = !String(o?.apiVersion ?? '').includes('/');
  let labels: Record<string, string> | undefined;
  let pods: number | undefined;
  if (o?.kind === 'UnitedDeployment') {
    const t = Object.values(spec.template ?? {})[0] as Json;
    labels = t?.spec?.template?.metadata?.labels;
    const per = [...subsetReplicas(spec).values()];
    pods = per.every(v => v !== undefined) ? per.reduce((a: number, b) => a + (b ?? 0), 0) : undefined;
  } else if (o?.kind === 'Pod' && core) {
    labels = o.metadata?.labels;
    pods = 1;
  } else if (spec.template?.spec) {
    labels = spec.template.metadata?.labels;
    pods = o.kind === 'DaemonSet' ? daemonSetNodes : o.kind === 'Job' ? spec.parallelism ?? 1 : spec.replicas ?? 1;
  } else if (spec.jobTemplate?.spec?.template) {
    labels = spec.jobTemplate.spec.template.metadata?.labels;
    pods = undefined;
  }
  return labels ? { labels, pods } : undefined;
}

/** The SidecarSet spec as stored: v1beta1 form, webhook defaults, container defaults. */
function stored(json: Json): Json {
  const spec = defaultedSidecarSetSpec(sidecarSetSpecOf(json));
  // sidecar containers get the upstream container defaults (pull policy by image tag)
  const t = defaultPodTemplate({ spec: { initContainers: spec.containers ?? [] } });
  spec.containers = t.spec.initContainers ?? [];
  const i = defaultPodTemplate({ spec: { initContainers: spec.initContainers ?? [] } });
  spec.initContainers = i.spec.initContainers ?? [];
  return spec;
}

/** What the hash without images covers: the containers (and init containers if any is a native sidecar), images blanked. */
function hashedWithoutImages(spec: Json): Json {
  const blank = (cs: Json[]) => cs.map(c => ({ ...c, image: '' }));
  const init: Json[] = spec.initContainers ?? [];
  return {
    containers: blank(spec.containers ?? []),
    ...(init.some(c => c?.restartPolicy === 'Always') ? { initContainers: blank(init) } : {}),
  };
}

const OTHER_FIELDS = ['initContainers', 'volumes', 'patchPodMetadata', 'imagePullSecrets', 'selector', 'namespaceSelector', 'injectionStrategy'];

/** Plan of one SidecarSet whose object changed. */
export function planSidecarSet(
  oldObj: Json, newObj: Json, owners: PodOwner[], namespaceLabels: (ns: string) => Record<string, string>,
): SidecarSetPlan | undefined {
  const name: string = newObj.metadata?.name;
  const o = stored(oldObj);
  const n = stored(newObj);
  const notes: string[] = [];
  const base = { apiVersion: newObj.apiVersion, name };

  // who the SidecarSet reaches, by the new selector
  const nsSel: LabelSelectorJson | undefined = n.namespaceSelector;
  const selected = owners.filter(w => selectorMatches(n.selector, w.labels) && (!nsSel || selectorMatches(nsSel, namespaceLabels(w.namespace))));
  const known = selected.every(w => w.pods !== undefined);
  const podsSelected = known ? selected.reduce((sum, w) => sum + (w.pods ?? 0), 0) : undefined;
  const selectedWorkloads = selected.map(w => w.id);

  const reject = (field: string, rejection: string): SidecarSetPlan => ({
    ...base,
    updateType: UpdateType.REJECTED,
    summary: `rejected: the webhook refuses the update: ${rejection}`,
    inPlaceImages: [],
    hotUpgrade: [],
    newPodsOnly: [],
    selectedWorkloads,
    podsSelected,
    podsUpdated: podsSelected === undefined ? undefined : 0,
    podsOnOldRevision: podsSelected,
    batches: [],
    rejectedField: field,
    rejection,
    notes,
  });

  // rule 28: no new sidecar containers, no upgradeType change
  const oldByName = new Map<string, Json>((o.containers as Json[]).map(c => [c.name, c]));
  const newContainers: Json[] = n.containers;
  for (let i = 0; i < newContainers.length; i++) {
    const c = newContainers[i];
    const before = oldByName.get(c.name);
    if (!before) {
      const field = `spec.containers[${i}].name`;
      return reject(field, fieldError(field, c.name, 'is a new sidecar container, and a SidecarSet update cannot add containers',
        'add the sidecar in a new SidecarSet, or delete and recreate this one'));
    }
    const ut = before.upgradeStrategy?.upgradeType;
    if (ut && c.upgradeStrategy?.upgradeType !== ut) {
      const field = `spec.containers[${i}].upgradeStrategy.upgradeType`;
      return reject(field, fieldError(field, c.upgradeStrategy?.upgradeType, `cannot change (it was ${JSON.stringify(ut)})`, 'keep the old upgrade type'));
    }
  }

  const images: ImageChange[] = [];
  const newPodsOnly: string[] = [];
  newContainers.forEach((c, i) => {
    const before = oldByName.get(c.name)!;
    if (before.image !== c.image) images.push({ container: c.name, oldImage: before.image, newImage: c.image });
    for (const op of diff({ ...before, image: '' }, { ...c, image: '' })) {
      newPodsOnly.push(`${fieldPath(`spec.containers[${i}]`, op.path)} (sidecar "${c.name}")`);
    }
  });
  const newNames = new Set(newContainers.map(c => c.name));
  for (const c of o.containers as Json[]) {
    if (!newNames.has(c.name)) newPodsOnly.push(`spec.containers: sidecar "${c.name}" removed (running pods keep it)`);
  }
  const sidecarsHashSame = sameJson(hashedWithoutImages(o), hashedWithoutImages(n));
  if (sidecarsHashSame) {
    // order of containers or fields the hash sees but the per-container diff did not
    newPodsOnly.length = 0;
  } else if (newPodsOnly.length === 0) {
    newPodsOnly.push('spec.containers (order or native-sidecar init containers)');
  }
  for (const f of OTHER_FIELDS) {
    if (f === 'initContainers') {
      for (const op of diff(o.initContainers, n.initContainers)) newPodsOnly.push(fieldPath('spec.initContainers', op.path));
      continue;
    }
    if (!sameJson(o[f], n[f])) newPodsOnly.push(`spec.${f}`);
  }
  const strategyChanged = !sameJson(o.updateStrategy, n.updateStrategy);
  if (images.length === 0 && newPodsOnly.length === 0) {
    if (!strategyChanged && sameJson(oldObj.metadata?.labels, newObj.metadata?.labels)) return undefined;
    return {
      ...base,
      updateType: UpdateType.NONE,
      summary: 'no sidecar change: only the update strategy or the SidecarSet metadata changed',
      inPlaceImages: [],
      hotUpgrade: [],
      newPodsOnly: [],
      selectedWorkloads,
      podsSelected,
      podsUpdated: podsSelected === undefined ? undefined : 0,
      podsOnOldRevision: podsSelected === undefined ? undefined : 0,
      batches: [],
      notes,
    };
  }

  const inPlace = sidecarsHashSame && images.length > 0;
  const hot = inPlace ? images.filter(i => newContainers.find(c => c.name === i.container)?.upgradeStrategy?.upgradeType === 'HotUpgrade').map(i => i.container) : [];
  const us = n.updateStrategy ?? {};
  let podsUpdated: number | undefined = podsSelected === undefined ? undefined : 0;
  let batches: number[] = [];
  let rollout = '';
  if (inPlace) {
    let eligible = selected;
    if (us.selector) {
      eligible = selected.filter(w => selectorMatches(us.selector, w.labels));
      notes.push(`updateStrategy.selector ${JSON.stringify(us.selector)}: only matching pods are upgraded`);
    }
    const total = eligible.every(w => w.pods !== undefined) ? eligible.reduce((sum, w) => sum + (w.pods ?? 0), 0) : undefined;
    if (us.type === 'NotUpdate') {
      notes.push('updateStrategy.type is NotUpdate: running pods keep the old sidecars');
      rollout = 'not rolled out (NotUpdate)';
    } else if (us.paused) {
      notes.push('updateStrategy.paused is true: no pod is upgraded until it is unpaused');
      rollout = 'paused';
    } else if (total !== undefined && podsSelected !== undefined) {
      const partition = partitionReplicas(us.partition, total) ?? 0;
      const step = Math.max(1, upstreamValue(us.maxUnavailable ?? 1, total, true) ?? 1);
      podsUpdated = total - partition;
      batches = batchesOf(podsUpdated, step);
      if (partition > 0) notes.push(`partition ${JSON.stringify(us.partition)} keeps ${partition} pods on the old sidecars`);
      rollout = describeBatches(batches);
    } else {
      podsUpdated = undefined;
      rollout = 'one batch of maxUnavailable pods at a time (pod count unknown: a selected workload is a DaemonSet)';
    }
  }
  if (!sidecarsHashSame && images.length > 0) {
    notes.push(`the image change${images.length > 1 ? 's' : ''} of ${images.map(i => `"${i.container}"`).join(', ')} reach only new pods too, because other sidecar container fields changed`);
  }
  if (selected.length === 0) notes.push('no workload of the new manifests has pods this SidecarSet selects');
  const parts: string[] = [];
  if (inPlace) parts.push(`in place on running pods: ${images.map(i => `"${i.container}" ${i.oldImage} -> ${i.newImage}${hot.includes(i.container) ? ' (hot upgrade)' : ' (container restart)'}`).join('; ')}; ${rollout}`);
  if (newPodsOnly.length > 0) parts.push(`new pods only: ${newPodsOnly.join(', ')}${!sidecarsHashSame && images.length > 0 ? ` and the images of ${images.map(i => `"${i.container}"`).join(', ')}` : ''}`);
  return {
    ...base,
    updateType: inPlace ? UpdateType.IN_PLACE : UpdateType.NEW_PODS_ONLY,
    summary: parts.join('; '),
    inPlaceImages: inPlace ? images : [],
    hotUpgrade: hot,
    newPodsOnly: [...newPodsOnly, ...(!inPlace ? images.map(i => `spec.containers image of sidecar "${i.container}" ${i.oldImage} -> ${i.newImage}`) : [])],
    selectedWorkloads,
    podsSelected,
    podsUpdated,
    podsOnOldRevision: podsSelected === undefined || podsUpdated === undefined ? undefined : podsSelected - podsUpdated,
    batches,
    notes,
  };
}
