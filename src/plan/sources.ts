/**
 * Where the two sides of a plan come from: a directory of synthesized YAML,
 * the same directory as committed at a git ref, or live objects saved with
 * `kubectl get -o json`.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { PlanInputError } from './errors';
import { YamlSyntaxError, loadDocuments } from '../check/yaml';

type Json = any;

const MANIFEST = /\.(ya?ml|json)$/i;

/**
 * Objects of one YAML/JSON text (several documents; `List` objects
 * flattened), read as kubectl reads them (src/check/yaml.ts). `origin` names
 * it in errors.
 */
export function parseManifests(text: string, origin: string): Json[] {
  const out: Json[] = [];
  let docs: unknown[];
  try {
    docs = loadDocuments(text);
  } catch (e) {
    if (!(e instanceof YamlSyntaxError)) throw e;
    throw new PlanInputError(`${origin}${e.line ? `:${e.line}` : ''}: not valid YAML (${e.reason}); fix the file or remove it from the directory`);
  }
  for (const value of docs) {
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
 * input in errors, `expected` what it takes.
 */
export function manifestFiles(source: string, flag: string, expected: string = 'a synth output folder (e.g. dist) or a manifest file'): string[] {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(source);
  } catch {
    throw new PlanInputError(`${flag} '${source}' does not exist; pass ${expected}`);
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

/**
 * What to pass instead of a ref git does not know: the newest branches and
 * tags of the repository (never the ref that failed), and `git fetch` first
 * for a remote branch not fetched yet.
 */
function refAdvice(ref: string, cwd: string): string {
  let known: string[] = [];
  try {
    known = git(['for-each-ref', '--sort=-committerdate', '--format=%(refname:short)', 'refs/heads', 'refs/remotes', 'refs/tags'], cwd)
      .split('\n').filter(r => r !== '' && r !== ref && !r.endsWith('/HEAD')).slice(0, 3);
  } catch {
    // an empty repository lists nothing
  }
  const remote = /^([^/]+)\//.exec(ref)?.[1];
  const fetch = remote !== undefined && hasRemote(remote, cwd) ? `fetch it first (git fetch ${remote}), or ` : '';
  const examples = [...known, 'HEAD~1'].join(', ');
  return `${fetch}pass one that exists, e.g. ${examples}`;
}

function hasRemote(name: string, cwd: string): boolean {
  try {
    return git(['remote'], cwd).split('\n').includes(name);
  } catch {
    return false;
  }
}

/** The .gitignore line that ignores `rel` (`file:line: pattern`), or undefined when git keeps it. */
function ignoredBy(rel: string, cwd: string): string | undefined {
  try {
    const out = git(['check-ignore', '--verbose', '--no-index', `${rel}/`], cwd).trim();
    const m = /^(.*?):(\d+):(.*?)\t/.exec(out);
    return m ? `${m[1]}:${m[2]}: '${m[3]}'` : undefined;
  } catch {
    return undefined; // exit 1: not ignored
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
    throw new PlanInputError(`--git-ref: '${ref}' is not a commit, branch or tag of this repository; ${refAdvice(ref, cwd)}`);
  }
  const rel = path.relative(cwd, path.resolve(cwd, dir)) || '.';
  const files = git(['ls-tree', '-r', '--name-only', ref, '--', rel], cwd).split('\n').filter(f => f !== '' && MANIFEST.test(f)).sort();
  if (files.length === 0) {
    const ignored = ignoredBy(rel, cwd);
    if (ignored) {
      throw new PlanInputError(`--git-ref: '${ref}' has no .yaml, .yml or .json files under '${rel}', which git ignores (${ignored}), so no commit holds them; `
        + `commit the synth output (drop that line and commit '${rel}'), or synthesize '${ref}' in a folder of its own and compare folders: `
        + `git worktree add ../before ${ref} && (cd ../before && npm ci && npx cdk8s synth) && npx cdk8s-kruise plan --old ../before/${rel} --new ${rel}`);
    }
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
