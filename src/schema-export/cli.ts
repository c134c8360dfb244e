/**
 * `cdk8s-kruise schemas`: the JSON schemas of the OpenKruise and Kruise
 * Rollouts kinds of a release, written where kubeconform and the YAML
 * language server read them. Exit codes: 0 written, 1 a usage error (one
 * line on stderr). Dispatched by src/cli.ts.
 */
import * as path from 'path';
import { parseArgs } from 'util';
import { exportSchemas, EDITOR_FILE } from './export';
import type { CliIo } from '../cli-io';
import { targetFromFlags } from '../releases/flags';
import { ReleaseError } from '../releases/registry';

export const SCHEMAS_USAGE = `usage: cdk8s-kruise schemas --out DIR [--openkruise V] [--rollouts V] [--strict]

Writes the JSON schema of every kind and served version of the releases, in kubeconform's layout
(DIR/<group>/<kind>_<version>.json, lower case, e.g. DIR/apps.kruise.io/cloneset_v1alpha1.json), and
DIR/${EDITOR_FILE}, one schema for the YAML language server that picks the kind's schema by apiVersion
and kind. They are the schemas cdk8s-kruise synth validates with.

  --out DIR        the folder to write into (files of the same names are replaced)
  --openkruise V   the OpenKruise release: a line (1.8) or a release (1.8.2); default 1.9
  --rollouts V     the Kruise Rollouts release: a line (0.5) or a release (0.5.3); default 0.6
  --strict         refuse unknown fields at the top of an object too (the other objects always do),
                   as the API server does; write these into the folder kubeconform -strict reads

  kubeconform -schema-location default -schema-location 'DIR/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json' FILE...

The schemas see each field alone; cdk8s-kruise check also applies the release's webhook rules and defaults
and the checks across documents.

exit codes: 0 written, 1 usage error
`;

/** `cdk8s-kruise schemas` with `rest` (the arguments after `schemas`); returns the exit code. */
export function schemasMain(rest: string[], io: CliIo): number {
  const fail = (msg: string): number => {
    io.err(`cdk8s-kruise schemas: ${msg} (cdk8s-kruise schemas --help)\n`);
    return 1;
  };
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: false,
      options: {
        out: { type: 'string' },
        openkruise: { type: 'string' },
        rollouts: { type: 'string' },
        strict: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (e) {
    return fail((e as Error).message);
  }
  if (values.help) {
    io.out(SCHEMAS_USAGE);
    return 0;
  }
  const out = values.out as string | undefined;
  if (out === undefined || out === '') return fail('give --out DIR, the folder to write the schemas into');
  let target;
  try {
    target = targetFromFlags({ openkruise: values.openkruise as string | undefined, rollouts: values.rollouts as string | undefined });
  } catch (e) {
    if (e instanceof ReleaseError) return fail(e.message);
    throw e;
  }
  const dir = path.resolve(io.cwd ?? process.cwd(), out);
  const result = exportSchemas(dir, target, values.strict === true);
  const kinds = new Set(result.schemas.map(s => `${s.apiVersion.split('/')[0]}/${s.kind}`)).size;
  io.out(`wrote ${result.schemas.length} schemas (${kinds} kinds) of ${result.releases}${values.strict ? ', strict' : ''} into ${out}, and ${path.join(out, result.editorFile)}\n`);
  return 0;
}
