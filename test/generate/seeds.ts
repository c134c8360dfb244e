/**
 * The valid manifests the generator starts from, for one release: the
 * fixture of every kind and served version (test/fixtures/kinds.ts), the
 * admitted cases of the admission corpus and the per-release corpus
 * (test/fixtures/admission), the OpenKruise and Kruise Rollouts objects the
 * example apps synthesize (examples/), and the manifests of the docs' YAML
 * blocks (docs/). Each seed carries the release's schema of its kind and
 * version, which the generator walks to find what to change.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { KindModel, Schema } from '../../src/api';
import { kindsOfLine } from '../../src/releases/model';
import { Product } from '../../src/releases/registry';
import { admissionCases, rolloutAdmissionCases } from '../fixtures/admission';
import { openKruiseReleaseCases, rolloutsReleaseCases } from '../fixtures/admission/releases';
import { kindFixtures, rolloutKindFixtures } from '../fixtures/kinds';

/** One manifest to start from. */
export interface Seed {
  /** Where it comes from: `fixture apps.kruise.io/v1alpha1 CloneSet`, `admission CloneSet/valid`, `examples/web-cloneset CloneSet web`, ... */
  readonly id: string;
  readonly manifest: Record<string, any>;
  /** The release's schema of the kind and version: the top-level fields the generator changes (spec and the kind's others; not status). */
  readonly schema: Record<string, Schema>;
  /** The kind's other apiVersions (served or not by the release): a change moves the object to one. */
  readonly otherVersions: readonly string[];
}

const root = path.resolve(__dirname, '..', '..');
const KRUISE_GROUP = /^(apps|policy|rollouts)\.kruise\.io\//;
const clone = <T>(x: T): T => (x === undefined ? x : JSON.parse(JSON.stringify(x)));

/** The manifests of the docs' ```yaml blocks that are OpenKruise or Kruise Rollouts objects. */
export function docsManifests(): Array<{ id: string; manifest: Record<string, any> }> {
  const out: Array<{ id: string; manifest: Record<string, any> }> = [];
  const dir = path.join(root, 'docs');
  for (const f of fs.readdirSync(dir).filter(x => x.endsWith('.md')).sort()) {
    const md = fs.readFileSync(path.join(dir, f), 'utf-8');
    const blocks = [...md.matchAll(/```ya?ml\n([\s\S]*?)```/g)].map(m => m[1]);
    blocks.forEach((b, i) => {
      for (const d of parseAllDocuments(b)) {
        if (d.errors.length > 0) continue;
        const j = d.toJSON();
        if (j && typeof j.apiVersion === 'string' && KRUISE_GROUP.test(j.apiVersion) && typeof j.kind === 'string') out.push({ id: `docs/${f} block ${i + 1} ${j.kind}`, manifest: j });
      }
    });
  }
  return out;
}

/**
 * The OpenKruise and Kruise Rollouts objects of every example app's synth
 * (`build(app)` of examples/<name>/main.ts). Given from outside (the cluster
 * tier synthesizes them with sources.ts), so this module needs no cdk8s.
 */
export type ExampleObjects = Array<{ example: string; manifest: Record<string, any> }>;

/** Every candidate seed of a product, before the release's versions are applied. */
function candidates(product: Product, examples: ExampleObjects): Array<{ id: string; manifest: Record<string, any> }> {
  const all = (g: string) => g === 'rollouts.kruise.io' ? 'rollouts' : 'openkruise';
  const mine = (m: Record<string, any>) => typeof m?.apiVersion === 'string' && KRUISE_GROUP.test(m.apiVersion) && all(m.apiVersion.split('/')[0]) === product;
  // every version the library models, so an older release's own versions are there (a v1beta1 the release lacks is not served: left out below)
  const versionsOf = (group: string, kind: string) => [...new Set(['openkruise', 'rollouts'].flatMap(p => lines(p as Product))
    .flatMap(l => kindsOfLine(l.product, l.line)).filter(k => k.group === group && k.kind === kind)
    .flatMap(k => k.versions.map(v => `${group}/${v.name}`)))].sort();
  const fixtures = (product === 'openkruise' ? kindFixtures(versionsOf) : rolloutKindFixtures(versionsOf))
    .map(f => ({ id: `fixture ${f.apiVersion} ${f.kind}`, manifest: f.valid }));
  const corpus = (product === 'openkruise' ? admissionCases() : rolloutAdmissionCases()).filter(c => c.allowed)
    .map(c => ({ id: `admission ${c.id}`, manifest: c.manifest }));
  const release = (product === 'openkruise' ? openKruiseReleaseCases : rolloutsReleaseCases).map(c => ({ id: `release ${c.id}`, manifest: c.manifest }));
  const ex = examples.filter(e => mine(e.manifest)).map(e => ({ id: `examples/${e.example} ${e.manifest.kind} ${e.manifest.metadata?.name}`, manifest: e.manifest }));
  const docs = docsManifests().filter(d => mine(d.manifest));
  return [...fixtures, ...corpus, ...release, ...ex, ...docs].filter(c => mine(c.manifest));
}

function lines(product: Product): Array<{ product: Product; line: string }> {
  return product === 'openkruise' ? [{ product, line: '1.7' }, { product, line: '1.8' }, { product, line: '1.9' }] : [{ product, line: '0.5' }, { product, line: '0.6' }];
}

/**
 * The seeds of one release line: every candidate whose kind and apiVersion
 * the line serves, with the line's schema of it. A kind the line does not
 * have at all is left out; its objects are judged by the per-release corpus.
 */
export function seedsOf(product: Product, line: string, examples: ExampleObjects = []): Seed[] {
  const kinds = kindsOfLine(product, line);
  const byKey = new Map<string, { k: KindModel; version: string }>();
  for (const k of kinds) for (const v of k.versions) if (v.served !== false) byKey.set(`${k.group}/${v.name}/${k.kind}`, { k, version: v.name });
  const out: Seed[] = [];
  const seen = new Set<string>();
  for (const c of candidates(product, examples)) {
    const hit = byKey.get(`${c.manifest.apiVersion}/${c.manifest.kind}`);
    if (!hit) continue;
    const key = JSON.stringify(c.manifest);
    if (seen.has(key)) continue;
    seen.add(key);
    const v = hit.k.versions.find(x => x.name === hit.version)!;
    const schema: Record<string, Schema> = {};
    if (v.spec) schema.spec = v.spec;
    for (const [name, s] of Object.entries(v.extra ?? {})) schema[name] = s;
    const manifest = clone(c.manifest);
    manifest.metadata = { ...(manifest.metadata ?? {}) };
    out.push({
      id: c.id,
      manifest,
      schema,
      otherVersions: hit.k.versions.map(x => `${hit.k.group}/${x.name}`).filter(x => x !== c.manifest.apiVersion).concat(`${hit.k.group}/v1`),
    });
  }
  return out;
}
