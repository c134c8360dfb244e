/**
 * Where the two sides of a plan come from: a directory of synthesized YAML,
 * the same directory as committed at a git ref, or live objects saved with
 * `kubectl get -o json`.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type * as YAML from 'yaml';
import { PlanInputError } from './errors';

type Json = any;

const MANIFEST = /\.(ya?ml|json)$/i;

/** Objects of one YAML/JSON text (several documents; `List` objects flattened). `origin` names it in errors. */
export function parseManifests(text: string, origin: string): Json[] {
  const out: Json[] = [];
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parseAllDocuments } = require('yaml') as typeof YAML; // loaded when a plan reads manifests
  const docs = parseAllDocuments(text, { prettyErrors: true });
  const list = Array.isArray(docs) ? docs : [docs];
  for (const doc of list) {
    const err = doc.errors?.[0];
    if (err) {
      const line = err.linePos?.[0]?.line;
      throw new PlanInputError(`${origin}${line ? `:${line}` : ''}: not valid YAML (${err.message.split('\n')[0]}); fix the file or remove it from the directory`);
    }
    const value = doc.toJS({ maxAliasCount: -1 });
    if (value === null || value === undefined) continue;
    out.push(...flatten(value, origin));
  }
  return out;
}

function flatten(value: Json, origin: string): Json[] {
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new PlanInputError(`${origin}: a document is ${Array.isArray(value) ? 'a list' : JSON.stringify(value)}, not a Kubernetes object; keep only manifests in the directory`);
  }
  if (typeof value.kind === 'string' && value.kind.endsWith('List') && Array.isArray(value.items)) {
    return value.items.flatMap((i: Json) => flatten(i, origin));
  }
  if (typeof value.kind !== 'string' || typeof value.apiVersion !== 'string') {
    throw new PlanInputError(`${origin}: an object has no kind/apiVersion (${JSON.stringify(value).slice(0, 80)}); keep only Kubernetes manifests in the directory`);
  }
  return [value];
}

/** The folder `InjectionPreview.writeAtSynth` writes into a synth output by default: its documents are not manifests. */
const PREVIEWS = 'injection-preview';

function walkFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && e.name === PREVIEWS) continue;
    if (e.isDirectory()) out.push(...walkFiles(p));
    else if (MANIFEST.test(e.name)) out.push(p);
  }
  return out;
}

/**
 * The manifest files of `source`: the file itself, or every `*.yaml`, `*.yml`
 * and `*.json` under a folder (recursively, in name order). `flag` names the
 * input in errors.
 */
export function manifestFiles(source: string, flag: string): string[] {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(source);
  } catch {
    throw new PlanInputError(`${flag} '${source}' does not exist; pass a synth output folder (e.g. dist) or a manifest file`);
  }
  if (!stat.isDirectory()) return [source];
  const files = walkFiles(source);
  if (files.length === 0) throw new PlanInputError(`${flag} '${source}' has no .yaml, .yml or .json files; run the synth first`);
  return files;
}

/** Every manifest under `dir` (`*.yaml`, `*.yml`, `*.json`, recursively). */
export function readDirectory(dir: string, flag = 'directory'): Json[] {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dir);
  } catch {
    throw new PlanInputError(`${flag} '${dir}' does not exist; pass the directory the app synthesizes into (e.g. dist)`);
  }
  if (!stat.isDirectory()) throw new PlanInputError(`${flag} '${dir}' is a file, not a directory; pass the directory the app synthesizes into (e.g. dist)`);
  const files = walkFiles(dir);
  if (files.length === 0) throw new PlanInputError(`${flag} '${dir}' has no .yaml, .yml or .json files; run the synth first`);
  return files.flatMap(f => parseManifests(fs.readFileSync(f, 'utf8'), f));
}

function git(args: string[], cwd: string): string {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
  } catch (e: any) {
    if (e?.code === 'ENOENT') throw new PlanInputError('--git-ref needs the git command, which is not on the PATH; install git or compare two directories with --old and --new');
    const msg = String(e?.stderr ?? e?.message ?? e).trim().split('\n')[0];
    throw new PlanInputError(`git ${args.join(' ')}: ${msg}`);
  }
}

/** Every manifest under `dir` as committed at `ref` (paths relative to `cwd`). */
export function readGitRef(ref: string, dir: string, cwd: string = process.cwd()): Json[] {
  try {
    git(['rev-parse', '--is-inside-work-tree'], cwd);
  } catch {
    throw new PlanInputError(`--git-ref: '${cwd}' is not inside a git repository; run the plan from the app's repository`);
  }
  try {
    git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], cwd);
  } catch {
    throw new PlanInputError(`--git-ref: '${ref}' is not a commit, branch or tag of this repository; pass e.g. origin/main or HEAD~1`);
  }
  const rel = path.relative(cwd, path.resolve(cwd, dir)) || '.';
  const files = git(['ls-tree', '-r', '--name-only', ref, '--', rel], cwd).split('\n').filter(f => f !== '' && MANIFEST.test(f)).sort();
  if (files.length === 0) {
    throw new PlanInputError(`--git-ref: '${ref}' has no .yaml, .yml or .json files under '${rel}'; commit the synthesized manifests, or compare directories with --old and --new`);
  }
  return files.flatMap(f => parseManifests(git(['show', `${ref}:./${f}`], cwd), `${ref}:${f}`));
}

/** Live objects saved with `kubectl get ... -o json` (a List, or one object). */
export function readLive(file: string): Json[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new PlanInputError(`--old-live '${file}' cannot be read; save the live objects with kubectl get clonesets,statefulsets.apps.kruise.io,daemonsets.apps.kruise.io,uniteddeployments,sidecarsets,rollouts.rollouts.kruise.io,deployments.apps,statefulsets.apps -A -o json > ${file}`);
  }
  return parseManifests(text, file);
}
