/**
 * The JSON schemas of the target releases' kinds, for the tools that read
 * schemas from files: kubeconform (one file per kind and version, in its
 * `{group}/{kind}_{version}.json` layout, lower case) and the YAML language
 * server (one file that picks the schema by apiVersion and kind). They are
 * the schemas synth validates with (schemas/, generated from the API model in
 * src/api), written as kubeconform reads schemas converted from CRDs with its
 * openapi2jsonschema script: every object with properties closed to other
 * fields, and the top level of the object open unless `strict` (that
 * script's DENY_ROOT_ADDITIONAL_PROPERTIES).
 */
import * as fs from 'fs';
import * as path from 'path';
import { PRODUCT_NAME } from '../releases/registry';
import { Target } from '../releases/target';
import { findSchemaDir, KRUISE_GROUPS, schemaIndex, SchemaEntry } from '../validation/schemas';

/** One written schema. */
export interface ExportedSchema {
  readonly apiVersion: string;
  readonly kind: string;
  /** Relative to the output folder, `/`-separated. */
  readonly file: string;
}

/** What `exportSchemas` wrote. */
export interface SchemaExport {
  readonly schemas: readonly ExportedSchema[];
  /** The one file for the YAML language server, relative to the output folder. */
  readonly editorFile: string;
  /** The releases, e.g. `OpenKruise v1.9.1 and Kruise Rollouts v0.6.2`. */
  readonly releases: string;
}

/** The file of the YAML language server's schema. */
export const EDITOR_FILE = 'openkruise.json';

/** kubeconform's path of a kind's schema: `{group}/{kind}_{version}.json`, lower case. */
export function kubeconformPath(apiVersion: string, kind: string): string {
  const [group, version] = apiVersion.split('/');
  return `${group}/${kind.toLowerCase()}_${version.toLowerCase()}.json`;
}

/** The entries of the target's lines: OpenKruise's kinds from its line, Kruise Rollouts' from its line. */
function entries(target: Target): SchemaEntry[] {
  const isRollouts = (e: SchemaEntry) => e.apiVersion.startsWith('rollouts.kruise.io/');
  const ok = (e: SchemaEntry) => KRUISE_GROUPS.includes(e.apiVersion.split('/')[0]);
  return [
    ...schemaIndex(target.openKruise).filter(e => ok(e) && !isRollouts(e)),
    ...schemaIndex(target.rollouts).filter(e => ok(e) && isRollouts(e)),
  ];
}

/** A kind's schema as the files say it: no `$id` (the files are found by path), the top level open unless strict. */
function fileSchema(entry: SchemaEntry, strict: boolean): Record<string, unknown> {
  const schema = JSON.parse(fs.readFileSync(path.join(findSchemaDir(), entry.file), 'utf-8')) as Record<string, unknown>;
  delete schema.$id;
  if (!strict) delete schema.additionalProperties;
  return schema;
}

/** The releases a target names, for titles. */
export function releasesText(target: Target): string {
  return `${PRODUCT_NAME.openkruise} v${target.openKruise.release.version} and ${PRODUCT_NAME.rollouts} v${target.rollouts.release.version}`;
}

/**
 * Write every kind and served version of the target's releases into `outDir`
 * (kubeconform's layout) and the YAML language server's one file beside them.
 * Files of the same names are replaced; nothing else in `outDir` is touched.
 */
export function exportSchemas(outDir: string, target: Target, strict: boolean): SchemaExport {
  const written: ExportedSchema[] = [];
  const definitions: Record<string, unknown> = {};
  const branches: unknown[] = [];
  for (const entry of entries(target)) {
    const schema = fileSchema(entry, strict);
    const file = kubeconformPath(entry.apiVersion, entry.kind);
    fs.mkdirSync(path.join(outDir, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(outDir, file), `${JSON.stringify(schema, null, 2)}\n`);
    written.push({ apiVersion: entry.apiVersion, kind: entry.kind, file });
    const name = `${entry.apiVersion.replace('/', '_')}_${entry.kind}`;
    definitions[name] = schema;
    branches.push({
      if: {
        properties: { apiVersion: { const: entry.apiVersion }, kind: { const: entry.kind } },
        required: ['apiVersion', 'kind'],
      },
      then: { $ref: `#/definitions/${name}` },
    });
  }
  const releases = releasesText(target);
  const editor = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: `${releases}${strict ? ' (strict)' : ''}`,
    description: `Every kind and served version of ${releases}, chosen by apiVersion and kind; `
      + 'other documents are not checked. Written by cdk8s-kruise schemas from the schemas cdk8s-kruise synth validates with.',
    allOf: branches,
    definitions,
  };
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, EDITOR_FILE), `${JSON.stringify(editor)}\n`);
  return { schemas: written, editorFile: EDITOR_FILE, releases };
}
