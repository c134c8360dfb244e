/**
 * Everything generated from the API model, as file path -> content. Used by
 * the `gen` task to write the files and by the staleness test to compare.
 */
import { stringify } from 'yaml';
import { renderL1 } from './l1';
import { ALL_KINDS, KINDS, KRUISE_VERSION, KindModel, ROLLOUTS_VERSION, ROLLOUT_KINDS, crdFileName, productOf, renderCrd, validationSchema } from '../src/api';
import { schemaFileName } from '../src/validation/schemas';

const header = (k: KindModel) => `# Generated from the API model in src/api by \`npx projen gen\`; do not edit.\n# ${productOf(k)}\n`;

export function generatedFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const k of ALL_KINDS) {
    files.set(`crds/${crdFileName(k)}`, header(k) + stringify(renderCrd(k), { lineWidth: 0 }));
  }
  const index: Array<Record<string, string | boolean>> = [];
  for (const k of ALL_KINDS) {
    for (const v of k.versions) {
      const file = schemaFileName(k.group, v.name, k.kind);
      // statusSubresource: the API server drops `status` of such objects on create, and so does admission at synth
      index.push({ apiVersion: `${k.group}/${v.name}`, kind: k.kind, file, ...(v.statusSubresource ? { statusSubresource: true } : {}) });
      files.set(`schemas/${file}`, JSON.stringify(validationSchema(k, v), undefined, 2) + '\n');
    }
  }
  // the control planes install these (src/control-plane/crds.ts): JSON, so an install does not load the API model
  files.set('schemas/crds.json', JSON.stringify({ kruise: KINDS.map(k => renderCrd(k)), rollouts: ROLLOUT_KINDS.map(k => renderCrd(k)) }, undefined, 1) + '\n');
  files.set('schemas/index.json', JSON.stringify({ kruiseVersion: KRUISE_VERSION, rolloutsVersion: ROLLOUTS_VERSION, schemas: index }, undefined, 2) + '\n');
  files.set('imports/kruise.ts', renderL1(KINDS));
  files.set('imports/rollouts.ts', renderL1(ROLLOUT_KINDS));
  return files;
}
