/**
 * The case generator: seeded, deterministic (fast-check), one release at a
 * time. A case starts from a valid seed manifest of the release's kinds and
 * served versions (seeds.ts) and changes one or two fields of it, each from
 * the release's own schema of the kind (every field, present or not, down to
 * the pod template and the Kubernetes objects a kind embeds) with values from
 * values.ts and core.ts. A case is then sent as a create, as an update of the
 * seed (create, then update), or as YAML as people write it (yaml-forms.ts).
 *
 * Case `i` of a release is generated from its own seed, `caseSeed(base, i)`,
 * so any one case can be made again on its own (`generateCase`), and a failure
 * prints the base seed and the case's index.
 */
import * as fc from 'fast-check';
import { Change, claimTemplatesChange, ephemeralContainersChange, jobTemplateChange, metadataChange, patchChange, podTemplateChange, volumesChange, workloadSpecChange } from './core';
import { Seed } from './seeds';
import { DELETE, STRINGS, selectors, valuesFor } from './values';
import { YamlForm, yamlForms } from './yaml-forms';
import { Schema } from '../../src/api';

const clone = <T>(x: T): T => (x === undefined ? x : JSON.parse(JSON.stringify(x)));

/** How a case is sent. */
export type CaseForm = 'create' | 'update' | 'yaml';

/** One generated case. */
export interface GenCase {
  /** `<release> #<index>`. */
  readonly id: string;
  readonly index: number;
  /** The seed's own fast-check seed (the case is `generateCase` of it). */
  readonly seed: number;
  /** The seed manifest it started from. */
  readonly from: string;
  /** The changes, in words (`spec.replicas = -1`). */
  readonly changes: readonly string[];
  readonly form: CaseForm;
  /** The object created (create, yaml: what the text means when kubectl reads it as the last copy of each key wins), or the new object of an update. */
  readonly manifest: Record<string, any>;
  /** The object an update starts from (created first, for real). */
  readonly old?: Record<string, any>;
  /** The YAML text as written (form yaml), and how it was written. */
  readonly yaml?: string;
  readonly yamlForm?: YamlForm;
}

/** The seed of case `index` of a run with base seed `base`: a different 31-bit seed for every index (fast-check's generator mixes it). */
export function caseSeed(base: number, index: number): number {
  return (base + (index + 1) * 2654435761) % 2147483647;
}

/** A place in a manifest the generator may change: its path and the schema the release gives it (undefined: outside the schema). */
interface Site {
  readonly path: readonly (string | number)[];
  readonly schema?: Schema;
}

/** How deep the walk goes into fields the seed does not set. */
const ABSENT_DEPTH = 2;

/** Every site of a manifest under its version's schema: set fields, unset ones, list items (and one past the end), map entries (and a new key). */
export function sitesOf(manifest: any, top: Record<string, Schema>): Site[] {
  const out: Site[] = [];
  const walk = (schema: Schema | undefined, value: any, path: (string | number)[], absent: number) => {
    out.push({ path, schema });
    if (!schema || absent > ABSENT_DEPTH) return;
    const typed = schema['x-cdk8s-kruise-k8s-type'];
    if (typed && typed !== 'Container') return;
    for (const [k, s] of Object.entries(schema.properties ?? {})) {
      const child = value !== null && typeof value === 'object' && !Array.isArray(value) ? value[k] : undefined;
      walk(s, child, [...path, k], child === undefined ? absent + 1 : absent);
    }
    if (schema.items) {
      const items = Array.isArray(value) ? value : [];
      items.forEach((v, i) => walk(schema.items, v, [...path, i], absent));
      walk(schema.items, undefined, [...path, items.length], absent + 1);
    }
    if (schema.additionalProperties && typeof schema.additionalProperties === 'object' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const k of Object.keys(value)) walk(schema.additionalProperties, value[k], [...path, k], absent);
    }
  };
  for (const [k, s] of Object.entries(top)) walk(s, manifest[k], [k], manifest[k] === undefined ? 1 : 0);
  return out;
}

const pathText = (path: readonly (string | number)[]) => path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');

function getAt(root: any, path: readonly (string | number)[]): any {
  let o = root;
  for (const p of path) {
    if (o === null || typeof o !== 'object') return undefined;
    o = o[p as any];
  }
  return o;
}

/** Set (or with DELETE remove) the value at a path, making the objects and lists on the way. */
function setAt(root: any, path: readonly (string | number)[], value: unknown): void {
  let o = root;
  for (let i = 0; i < path.length - 1; i++) {
    const p = path[i];
    const next = path[i + 1];
    if (o[p as any] === null || typeof o[p as any] !== 'object') o[p as any] = typeof next === 'number' ? [] : {};
    o = o[p as any];
    if (Array.isArray(o) && typeof next === 'string') return; // a list where the schema has an object: nothing to change there
  }
  const last = path[path.length - 1];
  if (value === DELETE) {
    if (Array.isArray(o) && typeof last === 'number') o.splice(last, 1);
    else delete o[last as any];
  } else if (Array.isArray(o) && typeof last === 'number' && last > o.length) {
    o.push(clone(value));
  } else {
    o[last as any] = value === undefined ? value : clone(value);
  }
}

/** The labels of the pod template the seed's selector should match (the first one found). */
function templateLabels(m: any): Record<string, string> {
  const t = m?.spec?.template;
  return t?.metadata?.labels ?? t?.spec?.template?.metadata?.labels ?? m?.spec?.selector?.matchLabels ?? { app: 'web' };
}

/** The annotations the OpenKruise and Kruise Rollouts webhooks and controllers read. */
const ANNOTATIONS: Array<[string, string[]]> = [
  ['policy.kruise.io/delete-protection', ['Always', 'Cascading', 'Bogus', '']],
  ['apps.kruise.io/image-predownload-parallelism', ['5', 'abc', '-1', '10%', '0']],
  ['apps.kruise.io/image-predownload-timeout-seconds', ['600', 'abc', '0', '-5']],
  ['apps.kruise.io/image-predownload-min-updated-ready-pods', ['1', '50%', 'abc', '12.5%', '-1']],
  ['kruise.io/pub-protect-operations', ['DELETE', 'EVICTION,DELETE', 'RESIZE', 'Bogus', '']],
  ['pub.kruise.io/protect-total-replicas', ['5', '-1', 'abc']],
  ['apps.kruise.io/sidecarset-custom-version', ['v1', '']],
  ['kruise.io/required-persistent-topology', ['kubernetes.io/hostname', '']],
  ['rollouts.kruise.io/rolling-style', ['partition', 'canary', 'bogus']],
  ['rollouts.kruise.io/trafficrouting', ['tr', '']],
  ['rollouts.kruise.io/rollback-in-batch', ['true', 'yes']],
  ['rollouts.kruise.io/workload-type', ['cloneset', 'deployment', 'bogus']],
];

/** The change arbitrary for one site. */
function siteChange(m: any, site: Site): fc.Arbitrary<Change> {
  const path = site.path;
  const base = pathText(path);
  const typed = site.schema?.['x-cdk8s-kruise-k8s-type'];
  const holderChange = (a: fc.Arbitrary<Change>): fc.Arbitrary<Change> => a.map(c => ({
    what: c.what,
    apply: (root: any) => {
      const holder = { value: clone(getAt(root, path) ?? undefined) };
      c.apply(holder);
      setAt(root, path, holder.value);
    },
  }));
  const inPlace = (a: fc.Arbitrary<Change>): fc.Arbitrary<Change> => a.map(c => ({
    what: c.what,
    apply: (root: any) => {
      let target = getAt(root, path);
      if (target === null || typeof target !== 'object' || Array.isArray(target)) {
        setAt(root, path, {});
        target = getAt(root, path);
      }
      if (target && typeof target === 'object') c.apply(target);
    },
  }));
  const current = getAt(m, path);
  const name = path[path.length - 1];
  if (typed === 'PodTemplateSpec') return fc.oneof({ weight: 6, arbitrary: inPlace(podTemplateChange(current, base)) }, { weight: 1, arbitrary: plain(site) });
  if (typed === 'JobTemplateSpec') return holderChange(jobTemplateChange(current, base));
  if (typed === 'DeploymentSpec' || typed === 'StatefulSetSpec') return holderChange(workloadSpecChange(current, base, typed === 'StatefulSetSpec'));
  if (typed === 'PersistentVolumeClaim[]') return holderChange(claimTemplatesChange(base));
  if (typed === 'Volume[]') return holderChange(volumesChange(base));
  if (typed === 'EphemeralContainer[]') return holderChange(ephemeralContainersChange(base));
  if (typed === 'ObjectMeta') return inPlace(metadataChange(templateLabels(m), base));
  if (site.schema?.['x-kubernetes-preserve-unknown-fields'] && !site.schema.properties && name === 'patch') return holderChange(patchChange(base));
  if (typed === 'Container') {
    // a sidecar container: its own fields or any corev1.Container field, as a pod spec's first container
    const asPod = podTemplateChange({ spec: { containers: [current ?? {}] } }, base).filter(c => c.what.includes('.containers[0].'));
    return fc.oneof({ weight: 3, arbitrary: plain(site) }, {
      weight: 4,
      arbitrary: asPod.map(c => ({
        what: c.what.replace(`${base}.spec.containers[0]`, base),
        apply: (root: any) => {
          const spec = { containers: [clone(getAt(root, path) ?? { name: 'gen-sidecar', image: 'busybox:1.36' })] };
          c.apply(spec);
          setAt(root, path, spec.containers[0]);
        },
      })),
    });
  }
  if (name === 'selector' || name === 'matchSelector' || name === 'namespaceSelector' || name === 'labelSelector') {
    return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...selectors(templateLabels(m))).map(v => ({ what: `${base} = ${JSON.stringify(v)}`, apply: (root: any) => setAt(root, path, v) })) },
      { weight: 1, arbitrary: plain(site) });
  }
  return plain(site);
}

/** A value from the field's schema and name (values.ts). */
function plain(site: Site): fc.Arbitrary<Change> {
  const base = pathText(site.path);
  return valuesFor(site.schema, site.path).map(v => ({
    what: v === DELETE ? `${base} removed` : `${base} = ${JSON.stringify(v)}`,
    apply: (root: any) => setAt(root, site.path, v),
  }));
}

/** Changes outside `spec`: metadata, the apiVersion, unknown top-level fields. */
function outerChange(seed: Seed): fc.Arbitrary<Change> {
  const versions = seed.otherVersions;
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...STRINGS, 'web-a', 'x'.repeat(54), 'x'.repeat(57)).map(v => ({ what: `metadata.name = ${JSON.stringify(v)}`, apply: (m: any) => { m.metadata.name = v; } })) },
    { weight: 4, arbitrary: metadataChange(templateLabels(seed.manifest), 'metadata').map(c => ({ what: c.what, apply: (m: any) => c.apply(m.metadata) })) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(...ANNOTATIONS).chain(([k, vs]) => fc.constantFrom(...vs).map(v => ({
        what: `metadata.annotations[${JSON.stringify(k)}] = ${JSON.stringify(v)}`,
        apply: (m: any) => { m.metadata.annotations = { ...(m.metadata.annotations ?? {}), [k]: v }; },
      }))),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Change>(
        { what: 'unknownTopLevel = 1', apply: m => { m.unknownTopLevel = 1; } },
        { what: 'spec.unknownField = "x"', apply: m => { if (m.spec && typeof m.spec === 'object') m.spec.unknownField = 'x'; } },
        { what: 'spec = null', apply: m => { m.spec = null; } },
        { what: 'spec = {}', apply: m => { m.spec = {}; } },
        { what: 'status = {"observedGeneration":1}', apply: m => { m.status = { observedGeneration: 1 }; } },
        { what: 'metadata.namespace = "default"', apply: m => { m.metadata.namespace = 'default'; } },
        ...versions.map(v => ({ what: `apiVersion = ${JSON.stringify(v)}`, apply: (m: any) => { m.apiVersion = v; } })),
      ),
    },
  );
}

/** One change of a seed: a site of its schema (most), or outside spec. */
function changeOf(seed: Seed, m: any): fc.Arbitrary<Change> {
  const sites = sitesOf(m, seed.schema);
  if (sites.length === 0) return outerChange(seed);
  // leaves (scalars, lists of scalars) three times as often as the objects that hold fields, and the Kubernetes
  // objects a kind embeds (pod templates, containers, claims: a whole API each) twenty times as often
  const weighted = sites.flatMap(s => {
    const t = s.schema?.type;
    if (s.schema?.['x-cdk8s-kruise-k8s-type'] !== undefined) return new Array(20).fill(s);
    const leaf = !s.schema || (t !== 'object' && !(t === 'array' && s.schema.items?.type === 'object'));
    return leaf ? [s, s, s] : [s];
  });
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...weighted).chain(s => siteChange(m, s)) },
    { weight: 2, arbitrary: outerChange(seed) },
  );
}

/** The arbitrary of one case of `seeds` (all of one release). */
export function caseArbitrary(seeds: readonly Seed[]): fc.Arbitrary<Omit<GenCase, 'id' | 'index' | 'seed'>> {
  return fc.constantFrom(...seeds).chain(seed => changeOf(seed, seed.manifest).chain(first => {
    const once = clone(seed.manifest);
    first.apply(once);
    return fc.oneof(
      { weight: 3, arbitrary: fc.constant([first]) },
      { weight: 2, arbitrary: changeOf(seed, once).map(second => [first, second]) },
    ).chain(changes => {
      const m = clone(seed.manifest);
      for (const c of changes) c.apply(m);
      const what = changes.map(c => c.what);
      return fc.oneof(
        { weight: 14, arbitrary: fc.constant({ from: seed.id, changes: what, form: 'create' as CaseForm, manifest: m }) },
        { weight: 3, arbitrary: fc.constant({ from: seed.id, changes: what, form: 'update' as CaseForm, manifest: m, old: clone(seed.manifest) }) },
        { weight: 2, arbitrary: yamlForms(m, seed.manifest).map(y => ({ from: seed.id, changes: [...what, `written as ${y.form}`], form: 'yaml' as CaseForm, manifest: y.means, yaml: y.text, yamlForm: y.form })) },
      );
    });
  }));
}

/** Case `index` of a run of base seed `base` over `seeds` (one release's). */
export function generateCase(seeds: readonly Seed[], base: number, index: number, label: string): GenCase {
  const seed = caseSeed(base, index);
  const [c] = fc.sample(caseArbitrary(seeds), { seed, numRuns: 1, unbiased: true });
  return { id: `${label} #${index}`, index, seed, ...c };
}

/** Cases `from` to `from + count - 1` of a run. */
export function generateCases(seeds: readonly Seed[], base: number, count: number, label: string, from = 0): GenCase[] {
  const out: GenCase[] = [];
  for (let i = from; i < from + count; i++) out.push(generateCase(seeds, base, i, label));
  return out;
}
