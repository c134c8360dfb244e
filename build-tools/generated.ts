/**
 * Everything generated from the API model, as file path -> content. Used by
 * the `gen` task to write the files and by the staleness test to compare.
 */
import { stringify } from 'yaml';
import { renderL1 } from './l1';
import { RELEASE_DIRS, releaseFiles } from './releases';
import { ALL_KINDS, KINDS, KRUISE_VERSION, KindModel, ROLLOUTS_VERSION, ROLLOUT_KINDS, crdFileName, productOf, renderCrd } from '../src/api';

const header = (k: KindModel) => `# Generated from the API model in src/api by \`npx projen gen\`; do not edit.\n# ${productOf(k)}\n`;

/** The folders whose every file is generated (`npx projen gen` removes the files the model no longer produces). */
export const GENERATED_DIRS = ['crds', 'schemas', ...RELEASE_DIRS, 'imports', 'imports/kruise', 'imports/rollouts'];

export function generatedFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const k of ALL_KINDS) {
    files.set(`crds/${crdFileName(k)}`, header(k) + stringify(renderCrd(k), { lineWidth: 0 }));
  }
  // the JSON schema of every served kind and version of every line, and its validator (the schema compiled by ajv
  // at build time, so a synth compiles nothing); older lines share the files of the newer line where they are the same
  const releases = releaseFiles(ALL_KINDS);
  for (const [file, content] of releases.files) files.set(file, content);
  const index = releases.entries.get('')!;
  // the control planes install these (src/control-plane/crds.ts): JSON, so an install does not load the API model
  files.set('schemas/crds.json', JSON.stringify({ kruise: KINDS.map(k => renderCrd(k)), rollouts: ROLLOUT_KINDS.map(k => renderCrd(k)) }, undefined, 1) + '\n');
  files.set('schemas/index.json', JSON.stringify({ kruiseVersion: KRUISE_VERSION, rolloutsVersion: ROLLOUTS_VERSION, schemas: index }, undefined, 2) + '\n');
  for (const [product, kinds] of [['kruise', KINDS], ['rollouts', ROLLOUT_KINDS]] as const) {
    for (const [file, content] of renderL1(kinds)) files.set(`imports/${product}/${file}`, content);
  }
  return files;
}
