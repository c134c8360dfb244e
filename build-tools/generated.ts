/**
 * Everything generated from the API model, as file path -> content. Used by
 * the `gen` task to write the files and by the staleness test to compare.
 */
import { stringify } from 'yaml';
import { l1ClassName, renderL1 } from './l1';
import { validatorModule } from './validators';
import { ALL_KINDS, KINDS, KRUISE_VERSION, KindModel, ROLLOUTS_VERSION, ROLLOUT_KINDS, crdFileName, productOf, renderCrd, validationSchema } from '../src/api';
import { schemaFileName, validatorFileName } from '../src/validation/schemas';

const header = (k: KindModel) => `# Generated from the API model in src/api by \`npx projen gen\`; do not edit.\n# ${productOf(k)}\n`;

/** The folders whose every file is generated (`npx projen gen` removes the files the model no longer produces). */
export const GENERATED_DIRS = ['crds', 'schemas', 'imports', 'imports/kruise', 'imports/rollouts'];

export function generatedFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const k of ALL_KINDS) {
    files.set(`crds/${crdFileName(k)}`, header(k) + stringify(renderCrd(k), { lineWidth: 0 }));
  }
  const index: Array<Record<string, string | boolean>> = [];
  for (const k of ALL_KINDS) {
    for (const v of k.versions) {
      const file = schemaFileName(k.group, v.name, k.kind);
      const validator = validatorFileName(k.group, v.name, k.kind);
      // statusSubresource: the API server drops `status` of such objects on create, and so does admission at synth
      index.push({
        apiVersion: `${k.group}/${v.name}`,
        kind: k.kind,
        file,
        validator,
        l1Class: l1ClassName(k, v),
        ...(v.statusSubresource ? { statusSubresource: true } : {}),
      });
      const schema = validationSchema(k, v);
      files.set(`schemas/${file}`, JSON.stringify(schema, undefined, 2) + '\n');
      // the schema compiled by ajv at build time, so a synth compiles nothing
      files.set(`schemas/${validator}`, validatorModule(schema));
    }
  }
  // the control planes install these (src/control-plane/crds.ts): JSON, so an install does not load the API model
  files.set('schemas/crds.json', JSON.stringify({ kruise: KINDS.map(k => renderCrd(k)), rollouts: ROLLOUT_KINDS.map(k => renderCrd(k)) }, undefined, 1) + '\n');
  files.set('schemas/index.json', JSON.stringify({ kruiseVersion: KRUISE_VERSION, rolloutsVersion: ROLLOUTS_VERSION, schemas: index }, undefined, 2) + '\n');
  for (const [product, kinds] of [['kruise', KINDS], ['rollouts', ROLLOUT_KINDS]] as const) {
    for (const [file, content] of renderL1(kinds)) files.set(`imports/${product}/${file}`, content);
  }
  return files;
}
