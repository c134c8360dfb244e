/**
 * Everything generated from the API model, as file path -> content. Used by
 * the `gen` task to write the files and by the staleness test to compare.
 */
import { stringify } from 'yaml';
import { renderL1 } from './l1';
import { KINDS, KRUISE_VERSION, crdFileName, renderCrd, validationSchema } from '../src/api';
import { schemaFileName } from '../src/validation/schemas';

const HEADER = `# Generated from the API model in src/api by \`npx projen gen\`; do not edit.\n# OpenKruise ${KRUISE_VERSION}\n`;

export function generatedFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const k of KINDS) {
    files.set(`crds/${crdFileName(k)}`, HEADER + stringify(renderCrd(k), { lineWidth: 0 }));
  }
  const index: Array<Record<string, string>> = [];
  for (const k of KINDS) {
    for (const v of k.versions) {
      const file = schemaFileName(k.group, v.name, k.kind);
      index.push({ apiVersion: `${k.group}/${v.name}`, kind: k.kind, file });
      files.set(`schemas/${file}`, JSON.stringify(validationSchema(k, v), undefined, 2) + '\n');
    }
  }
  files.set('schemas/index.json', JSON.stringify({ kruiseVersion: KRUISE_VERSION, schemas: index }, undefined, 2) + '\n');
  files.set('imports/kruise.ts', renderL1());
  return files;
}
