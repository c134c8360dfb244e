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

/** Read what `paths` names. */
export function readFleetPaths(paths: FleetCheckPaths, names: FleetInputNames = API_NAMES): FleetCheckInput {
  if (paths.policies.length === 0) throw new PlanInputError(`${names.policies}: give at least one file or folder of policies`);
  const policies = paths.policies.flatMap(p => readObjects(p, names.policies));
  const oldPolicies = paths.oldPolicies ? paths.oldPolicies.flatMap(p => readObjects(p, names.oldPolicies)) : undefined;
  const sources: FleetSource[] = [];
  const seen = new Set<string>();
  const add = (name: string, kind: FleetSourceKind, manifests: Json[], flag: string) => {
    if (seen.has(name)) throw new PlanInputError(`${flag}: two sources are named '${name}'; name them apart with ${flag} NAME=PATH`);
    seen.add(name);
    sources.push({ name, kind, manifests });
  };
  for (const w of paths.workloads ?? []) {
    const { name, path: p } = named(w, x => x);
    add(name, FleetSourceKind.WORKLOADS, readObjects(p, names.workloads), names.workloads);
  }
  for (const l of paths.live ?? []) {
    const { name, path: p } = named(l, x => path.basename(x).replace(/\.(json|ya?ml)$/i, ''));
    add(name, FleetSourceKind.LIVE, readObjects(p, names.live, LIVE_FILE), names.live);
  }
  return { policies, oldPolicies, sources };
}
