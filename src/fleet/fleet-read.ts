/**
 * What a fleet check reads from disk: the policies (old and new), the apps'
 * synth outputs and the clusters' live objects, each object remembering its
 * file.
 */
import * as fs from 'fs';
import * as path from 'path';
import { fileOf } from './fleet-engine';
import { FleetCheckInput, FleetCheckPaths, FleetSource, FleetSourceKind } from './fleet-types';
import { PlanInputError } from '../plan/errors';
import { manifestFiles, parseManifests } from '../plan/sources';

type Json = any;

/** The names an input is called by in messages (the CLI's flags, or the API's fields). */
export interface FleetInputNames {
  readonly policies: string;
  readonly workloads: string;
  readonly live: string;
  readonly oldPolicies: string;
}

const API_NAMES: FleetInputNames = { policies: 'policies', workloads: 'workloads', live: 'live', oldPolicies: 'oldPolicies' };

/** What a live input takes, for its messages. */
const LIVE_FILE = 'a file of a cluster\'s objects, saved with kubectl get sidecarsets,podunavailablebudgets,namespaces,deployments,clonesets,... -A -o json > FILE';
const SYNTH_OUTPUT = 'a synth output folder (e.g. dist) or a manifest file';

/** Every object of the files of `source` (a file or a folder), each remembering its file. */
function readObjects(source: string, name: string, expected: string = SYNTH_OUTPUT): Json[] {
  const out: Json[] = [];
  for (const file of manifestFiles(source, name, expected)) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e: any) {
      throw new PlanInputError(`${name} '${file}' cannot be read (${e?.code ?? e}); pass ${expected}`);
    }
    for (const o of parseManifests(text, file)) {
      fileOf.set(o, file);
      out.push(o);
    }
  }
  return out;
}

/** `name=path` or `path`: the source's name and path. */
function named(entry: string, defaultName: (p: string) => string): { name: string; path: string } {
  const m = /^([^=/\\]+)=(.+)$/.exec(entry);
  return m ? { name: m[1], path: m[2] } : { name: defaultName(entry), path: entry };
}

/** One source as given: its name, kind and path, and how its messages name the input. */
export interface SourceEntry {
  readonly name: string;
  readonly kind: FleetSourceKind;
  readonly path: string;
  /** The input's name in messages (a flag, or the API's field). */
  readonly flag: string;
  /** What the input takes, for its messages. */
  readonly expected: string;
}

/** The sources `paths` names, in input order (the apps' outputs, then the clusters'), before any is read. */
export function sourceEntries(paths: FleetCheckPaths, names: FleetInputNames = API_NAMES): SourceEntry[] {
  return [
    ...(paths.workloads ?? []).map(w => ({ ...named(w, x => x), kind: FleetSourceKind.WORKLOADS, flag: names.workloads, expected: SYNTH_OUTPUT })),
    ...(paths.live ?? []).map(l => ({
      ...named(l, x => path.basename(x).replace(/\.(json|ya?ml)$/i, '')), kind: FleetSourceKind.LIVE, flag: names.live, expected: LIVE_FILE,
    })),
  ];
}

/** The position of the first source named like one before it, and its message; -1 when each has its own name. */
export function firstDuplicate(entries: readonly SourceEntry[]): { at: number; message: string } {
  const seen = new Set<string>();
  for (let i = 0; i < entries.length; i++) {
    const { name, flag } = entries[i];
    if (seen.has(name)) return { at: i, message: `${flag}: two sources are named '${name}'; name them apart with ${flag} NAME=PATH` };
    seen.add(name);
  }
  return { at: -1, message: '' };
}

/** Every object of a source's files. */
export function readSourceObjects(e: SourceEntry): Json[] {
  return readObjects(e.path, e.flag, e.expected);
}

/** The policies under review and the old ones (read before any source, as their errors are reported first). */
export function readPolicies(paths: FleetCheckPaths, names: FleetInputNames = API_NAMES): { policies: Json[]; oldPolicies?: Json[] } {
  if (paths.policies.length === 0) throw new PlanInputError(`${names.policies}: give at least one file or folder of policies`);
  const policies = paths.policies.flatMap(p => readObjects(p, names.policies));
  const oldPolicies = paths.oldPolicies ? paths.oldPolicies.flatMap(p => readObjects(p, names.oldPolicies)) : undefined;
  return { policies, oldPolicies };
}

/** Read what `paths` names. */
export function readFleetPaths(paths: FleetCheckPaths, names: FleetInputNames = API_NAMES): FleetCheckInput {
  const { policies, oldPolicies } = readPolicies(paths, names);
  const entries = sourceEntries(paths, names);
  const duplicate = firstDuplicate(entries);
  const sources: FleetSource[] = [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const manifests = readSourceObjects(e);
    if (i === duplicate.at) throw new PlanInputError(duplicate.message);
    sources.push({ name: e.name, kind: e.kind, manifests });
  }
  return { policies, oldPolicies, sources };
}
