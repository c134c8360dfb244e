/**
 * What the cluster tier applies: the synthesized output of every example app
 * and of the per-kind fixtures, and the CRDs of the API model.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Chart } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { Manifest } from './kube';
import { READS_OUTPUT_OF, exampleApps } from '../../build-tools/synth-examples';
import { ALL_KINDS, renderCrd } from '../../src/api';
import { KruiseValidation } from '../../src/validation/register';
import { servedVersions } from '../../src/validation/schemas';
import { KindFixture, kindFixtures } from '../fixtures/kinds';

const root = path.resolve(__dirname, '..', '..');

/** One synth: its files (name -> bytes, in name order) and their objects. */
export interface Synth {
  readonly name: string;
  readonly files: Record<string, string>;
  readonly objects: Manifest[];
}

/** Synthesize an app into a temporary folder, read it back, remove the folder. */
export function synthApp(name: string, build: (app: App) => App): Synth {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tier-synth-'));
  try {
    const app = build(new App({ outdir }));
    app.synth();
    const files: Record<string, string> = {};
    const objects: Manifest[] = [];
    for (const f of fs.readdirSync(outdir).filter(x => x.endsWith('.yaml')).sort()) {
      const text = fs.readFileSync(path.join(outdir, f), 'utf-8');
      files[f] = text;
      for (const doc of parseAllDocuments(text)) {
        if (doc.errors.length > 0) throw new Error(`${name}/${f}: ${doc.errors[0].message}`);
        const obj = doc.toJSON();
        if (obj) objects.push(obj);
      }
    }
    return { name, files, objects };
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

/**
 * One example app under examples/: the app its main.ts builds (what `cdk8s
 * synth` runs there). An app that reads another app's output (a second
 * repository's dist/) reads that app's synth, as `npx projen examples` has it.
 */
export function exampleSynth(name: string): Synth {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(path.join(root, 'examples', name, 'main.ts'));
  const reads = READS_OUTPUT_OF[name];
  if (!reads) return synthApp(`examples/${name}`, (app: App) => mod.build(app));
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), `cluster-tier-${reads.example}-`));
  const before = process.env[reads.env];
  try {
    for (const [f, text] of Object.entries(exampleSynth(reads.example).files)) fs.writeFileSync(path.join(dist, f), text);
    process.env[reads.env] = dist;
    return synthApp(`examples/${name}`, (app: App) => mod.build(app));
  } finally {
    if (before === undefined) delete process.env[reads.env]; else process.env[reads.env] = before;
    fs.rmSync(dist, { recursive: true, force: true });
  }
}

/** The example apps (folders of examples/ with a cdk8s.yaml). */
export { exampleApps };

/**
 * cert-manager's Issuer and Certificate kinds, so that the objects of
 * `WebhookCertificates.certManager()` have an API to be applied to. Their
 * schema is open (cert-manager itself is not part of this tier): the server
 * checks what it checks for every object (names, metadata, scope).
 */
export function certManagerStandIns(): Manifest[] {
  return ['Issuer', 'ClusterIssuer', 'Certificate'].map(kind => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${kind.toLowerCase()}s.cert-manager.io` },
    spec: {
      group: 'cert-manager.io',
      names: { kind, listKind: `${kind}List`, plural: `${kind.toLowerCase()}s`, singular: kind.toLowerCase() },
      scope: kind === 'ClusterIssuer' ? 'Cluster' : 'Namespaced',
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  }));
}

/** The fixture of every kind and served version (test/fixtures/kinds.ts). */
export function fixtures(): KindFixture[] {
  return kindFixtures(servedVersions);
}

/**
 * A fixture's valid object under a name unique to its version, so that the
 * v1alpha1 and v1beta1 objects of a kind are two objects in the cluster.
 */
export function versionedObject(f: KindFixture, mutate?: (m: any) => void): Manifest {
  const m = JSON.parse(JSON.stringify(f.valid));
  const version = f.apiVersion.split('/')[1];
  m.metadata.name = `${m.metadata.name}-${version}`;
  // the SidecarSets of two versions inject sidecars of their own: OpenKruise (and our app-wide
  // check) refuses a second SidecarSet that injects a container of the same name into the same pods
  if (m.kind === 'SidecarSet') for (const c of m.spec.containers ?? []) c.name = `${c.name}-${version}`;
  if (mutate) mutate(m);
  return m;
}

/** Every fixture in one cdk8s app (validated at synth like any app), synthesized. */
export function fixtureSynth(): Synth {
  return synthApp('test/fixtures/kinds.ts', app => {
    const chart = new Chart(app, 'kinds');
    KruiseValidation.enable(chart);
    for (const f of fixtures()) {
      const m = versionedObject(f);
      new ApiObject(chart, `${m.kind}-${m.metadata.name}`, m as any);
    }
    return app;
  });
}

/** The CRDs of the API model, as crds/ holds them: OpenKruise's 18 and Kruise Rollouts' 4. */
export function modelCrds(): Manifest[] {
  return ALL_KINDS.map(k => renderCrd(k));
}
