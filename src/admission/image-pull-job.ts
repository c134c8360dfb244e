/**
 * ImagePullJob admission (apps.kruise.io v1alpha1 and v1beta1: upstream has
 * two separate but equivalent code paths, and the two schemas are the same).
 * Also home of what ImageListPullJob and AdvancedCronJob reuse: the image
 * reference grammar and the node/pod selector rules of pull jobs.
 *
 * Defaults: completionPolicy.type Always; pullPolicy {} with timeoutSeconds
 * 600 and backoffLimit 3; imagePullPolicy IfNotPresent; v1alpha1 only, the
 * finalizer `apps.kruise.io/deletion-protection`.
 *
 * Rules: spec.selector with matchLabels/matchExpressions (even empty ones) and
 * names together refused; the label part a valid selector; no duplicate
 * names; podSelector not together with selector (even `selector: {}`) and a
 * valid selector; spec.image required and a valid image reference (the
 * normalized-name grammar of the image tooling OpenKruise uses); parallelism
 * an integer >= 0 (no percentage; a string must be a base-10 32-bit
 * integer); completionPolicy.type Always or Never; with Always,
 * activeDeadlineSeconds at least pullPolicy.timeoutSeconds (600 when unset);
 * with Never, no activeDeadlineSeconds and no ttlSecondsAfterFinished.
 *
 * Stricter than upstream: every spec.pullSecrets entry must be a valid Secret
 * name (upstream admits any string; a name that no Secret can have makes
 * every pull of a private image fail).
 *
 * Skipped: the refusal when the KruiseDaemon or ImagePullJobGate feature
 * gate is off (declared by the constructs, checked against the control
 * plane); pullSecrets immutability [update-only]. No metadata rules upstream.
 */
import { AdmissionModule, Manifest, ReleaseRule } from './types';
import { fieldError, stricterProblem } from '../validation/field-error';
import { cloneJson } from '../validation/json';
import { dns1123SubdomainProblems } from '../validation/names';
import { TemplateProblem } from '../validation/pod-template';
import { LabelSelectorJson, selectorProblems } from '../validation/selectors';

type Json = Record<string, any>;

const clone = cloneJson;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const present = (v: unknown): boolean => v !== undefined && v !== null;
const toLines = (problems: TemplateProblem[]): string[] => problems.map(p => fieldError(p.field, p.value, p.problem, p.fix));

// --- IMAGE-REF ----------------------------------------------------------------

const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*(?::[0-9]+)?`;
// lowercase alphanumerics separated by '.', '_', '__' or a run of '-'
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const NAME = `(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const REFERENCE = new RegExp(`^(${NAME})(?::(${TAG}))?(?:@(${DIGEST}))?$`);
const IMAGE_ID = /^[a-f0-9]{64}$/;
const DIGEST_LENGTHS: Record<string, number> = { sha256: 64, sha384: 96, sha512: 128 };
const MAX_NAME = 255;

/** An example of a valid reference, for fixes. */
export const IMAGE_REF_FIX = 'use a reference such as nginx:1.25, registry.example.com/team/app:v1 or app@sha256:<64 hex digits>';

/**
 * IMAGE-REF: what is wrong with an image reference, as phrases (empty when
 * valid). The reference is normalized as the image tooling does (a first path
 * component without '.' or ':' that is not `localhost` means Docker Hub, and
 * a single component gets `library/`) before the grammar is applied.
 */
export function imageReferenceProblems(ref: string): string[] {
  if (ref === '') return ['is empty'];
  if (ref.length > 4096) return ['is too long to be an image reference'];
  if (IMAGE_ID.test(ref)) return ['is a 64-character hexadecimal string, which is taken for an image ID, not a name'];
  const slash = ref.indexOf('/');
  let domain = 'docker.io';
  let remainder = ref;
  if (slash >= 0) {
    const first = ref.slice(0, slash);
    if (/[.:]/.test(first) || first === 'localhost') {
      domain = first === 'index.docker.io' ? 'docker.io' : first;
      remainder = ref.slice(slash + 1);
    }
  }
  if (domain === 'docker.io' && !remainder.includes('/')) remainder = `library/${remainder}`;
  const colon = remainder.indexOf(':');
  const repository = colon >= 0 ? remainder.slice(0, colon) : remainder;
  if (repository.toLowerCase() !== repository) return ['has uppercase letters in its repository name, which must be lowercase'];
  const full = `${domain}/${remainder}`;
  const m = REFERENCE.exec(full);
  if (!m) {
    return [REFERENCE.test(full.toLowerCase()) ? 'has uppercase letters where only lowercase ones are allowed' : 'is not a valid image reference'];
  }
  const out: string[] = [];
  if (m[1].length > MAX_NAME) out.push(`has a name of ${m[1].length} characters (with its registry), more than ${MAX_NAME}`);
  if (m[3] !== undefined) {
    const [algorithm, hex] = [m[3].slice(0, m[3].indexOf(':')), m[3].slice(m[3].indexOf(':') + 1)];
    const length = DIGEST_LENGTHS[algorithm];
    if (length === undefined) out.push(`has a digest of the unsupported algorithm ${JSON.stringify(algorithm)}`);
    else if (hex.length !== length) out.push(`has a ${algorithm} digest of ${hex.length} hex digits instead of ${length}`);
    else if (!/^[a-f0-9]+$/.test(hex)) out.push('has a digest with uppercase hex digits');
  }
  return out;
}

// --- selectors and shared spec rules -------------------------------------------

/**
 * The node selector (`selector`: names or labels) and pod selector rules of
 * ImagePullJob and ImageListPullJob specs at `at`.
 */
export function pullJobSelectorProblems(spec: Json, at: string): TemplateProblem[] {
  const out: TemplateProblem[] = [];
  const add = (field: string, value: unknown, problem: string, fix: string) => out.push({ field, value, problem, fix });
  const sel = spec.selector;
  if (isObject(sel)) {
    const labelled = present(sel.matchLabels) || present(sel.matchExpressions);
    if (labelled && present(sel.names)) {
      const empty = (v: unknown) => !present(v) || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);
      // only a v1beta1 job whose defaults change nothing keeps them (image-list-pull-job.ts, writesBack): the webhook drops empty ones otherwise
      add(`${at}.selector.names`, sel.names, empty(sel.matchLabels) && empty(sel.matchExpressions)
        ? 'is set together with an empty matchLabels/matchExpressions in the same selector, which the webhook keeps when its defaults change nothing '
          + '(completionPolicy.type and pullPolicy given) and counts as a label selector'
        : 'is set together with matchLabels/matchExpressions in the same selector',
      'select the nodes either by names or by labels');
    }
    if (labelled) {
      for (const p of selectorProblems(sel as LabelSelectorJson)) add(`${at}.selector.${p.field}`, p.value, p.problem, 'fix the node selector');
    }
    if (Array.isArray(sel.names)) {
      const seen = new Set<string>();
      sel.names.forEach((n: unknown, i: number) => {
        if (seen.has(String(n))) add(`${at}.selector.names[${i}]`, n, 'is listed twice', 'list every node once');
        seen.add(String(n));
      });
    }
  }
  const pod = spec.podSelector;
  if (isObject(pod)) {
    if (present(sel)) {
      add(`${at}.podSelector`, pod, 'is set together with spec.selector', 'choose the nodes either by selector (nodes) or by podSelector (the nodes of those pods)');
    }
    for (const p of selectorProblems(pod as LabelSelectorJson)) add(`${at}.podSelector.${p.field}`, p.value, p.problem, 'fix the pod selector');
  }
  return out;
}

/** The pullSecrets rule (stricter than upstream): each entry a valid Secret name. */
export function pullSecretsProblems(spec: Json, at: string): TemplateProblem[] {
  const out: TemplateProblem[] = [];
  if (!Array.isArray(spec.pullSecrets)) return out;
  spec.pullSecrets.forEach((s: unknown, i: number) => {
    const name = String(s);
    const problems = name === '' ? ['is empty'] : dns1123SubdomainProblems(name);
    for (const p of problems) {
      out.push({
        field: `${at}.pullSecrets[${i}]`,
        value: s,
        problem: stricterProblem(p, 'OpenKruise', 'it names no Secret, so every pull that needs it fails'),
        fix: 'give the name of a docker-registry Secret in the job\'s namespace',
      });
    }
  });
  return out;
}

/**
 * The empty `matchLabels`, `matchExpressions` and `names` of a pull-job
 * spec's selectors left out, in place, as the webhook's Go types (omitempty)
 * write the object back.
 */
export function omitEmptySelectorFields(spec: Json): void {
  for (const key of ['selector', 'podSelector']) {
    if (!isObject(spec[key])) continue;
    const sel: Json = { ...spec[key] };
    for (const f of ['matchLabels', 'matchExpressions', 'names']) {
      const v = sel[f];
      if ((Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0)) delete sel[f];
    }
    spec[key] = sel;
  }
}

/** The pull-job defaults on a spec, in place: completion type Always, pull policy timeout 600 and backoff 3; empty selector fields left out. */
export function defaultPullJobSpec(spec: Json): void {
  omitEmptySelectorFields(spec);
  if (!isObject(spec.completionPolicy)) spec.completionPolicy = {};
  spec.completionPolicy.type ||= 'Always';
  if (!isObject(spec.pullPolicy)) spec.pullPolicy = {};
  spec.pullPolicy.timeoutSeconds ??= 600;
  spec.pullPolicy.backoffLimit ??= 3;
}

/** completionPolicy.type Always or Never; Never forbids activeDeadlineSeconds and ttlSecondsAfterFinished. */
export function pullJobCompletionProblems(spec: Json, at: string): TemplateProblem[] {
  const out: TemplateProblem[] = [];
  const cp: Json = isObject(spec.completionPolicy) ? spec.completionPolicy : {};
  if (cp.type !== 'Always' && cp.type !== 'Never') {
    out.push({ field: `${at}.completionPolicy.type`, value: cp.type, problem: 'is not a completion policy type', fix: 'use Always (finish once every node pulled) or Never (keep pulling on new nodes)' });
  }
  if (cp.type === 'Never') {
    for (const f of ['activeDeadlineSeconds', 'ttlSecondsAfterFinished']) {
      if (present(cp[f])) {
        out.push({ field: `${at}.completionPolicy.${f}`, value: cp[f], problem: 'only works with completionPolicy type Always (a Never job never finishes)', fix: `remove ${f}, or use completionPolicy type Always` });
      }
    }
  }
  return out;
}

// --- ImagePullJob -------------------------------------------------------------

const INT32_MAX = 2147483647;

/**
 * The parallelism rule of an ImagePullJob spec at `at`: an integer >= 0, no
 * percentage, a string only as a base-10 32-bit integer. `percentage` says
 * who refuses a percentage, e.g. 'an ImagePullJob does not support'.
 */
export function pullJobParallelismProblems(spec: Json, at: string, percentage: string): TemplateProblem[] {
  const out: TemplateProblem[] = [];
  const add = (field: string, value: unknown, problem: string, fix: string) => out.push({ field, value, problem, fix });
  const par = spec.parallelism;
  if (typeof par === 'number' && par < 0) {
    add(`${at}.parallelism`, par, 'is negative', 'use 0 or more nodes pulling at the same time');
  } else if (typeof par === 'string') {
    if (par.endsWith('%')) {
      add(`${at}.parallelism`, par, `is a percentage, which ${percentage}`, 'use a number of nodes, e.g. 10');
    } else if (!/^[+-]?\d+$/.test(par) || Math.abs(Number(par)) > INT32_MAX + (par.startsWith('-') ? 1 : 0)) {
      add(`${at}.parallelism`, par, 'is not a 32-bit integer', 'use a number of nodes, e.g. 10');
    } else if (Number(par) < 0) {
      add(`${at}.parallelism`, par, 'is negative', 'use 0 or more nodes pulling at the same time');
    }
  }
  return out;
}

/** With completionPolicy Always, an activeDeadlineSeconds not below pullPolicy.timeoutSeconds (600 when unset). */
export function pullJobDeadlineProblems(spec: Json, at: string): TemplateProblem[] {
  const cp: Json = isObject(spec.completionPolicy) ? spec.completionPolicy : {};
  const timeout = isObject(spec.pullPolicy) && typeof spec.pullPolicy.timeoutSeconds === 'number' ? spec.pullPolicy.timeoutSeconds : 600;
  if (cp.type === 'Always' && typeof cp.activeDeadlineSeconds === 'number' && cp.activeDeadlineSeconds < timeout) {
    return [{
      field: `${at}.completionPolicy.activeDeadlineSeconds`,
      value: cp.activeDeadlineSeconds,
      problem: `is less than pullPolicy.timeoutSeconds (${timeout}), so the job can time out before one pull does`,
      fix: `use at least ${timeout} seconds, or lower pullPolicy.timeoutSeconds`,
    }];
  }
  return [];
}

/** Rules of a pull-job spec that not every release has (all on: OpenKruise 1.9's). */
export interface PullJobReleaseRules {
  /** The parallelism rule (OpenKruise 1.9 on). */
  readonly parallelism: boolean;
  /** The deadline not under the pull timeout (OpenKruise 1.8 on). */
  readonly deadline: boolean;
}

/** Every pull-job rule, as OpenKruise 1.9 has them. */
export const ALL_PULL_JOB_RULES: PullJobReleaseRules = { parallelism: true, deadline: true };

/** The ImagePullJob rules of a (defaulted) spec (`rules`: those that differ by release; 1.9's by default). */
export function imagePullJobSpecProblems(spec: Json | undefined, at: string, rules: PullJobReleaseRules = ALL_PULL_JOB_RULES): TemplateProblem[] {
  const s: Json = isObject(spec) ? spec : {};
  const out: TemplateProblem[] = [...pullJobSelectorProblems(s, at)];
  const add = (field: string, value: unknown, problem: string, fix: string) => out.push({ field, value, problem, fix });
  const image = s.image;
  if (typeof image !== 'string' || image === '') {
    add(`${at}.image`, image, 'is required', 'name the image to pull on the nodes, e.g. nginx:1.25');
  } else {
    for (const p of imageReferenceProblems(image)) add(`${at}.image`, image, p, IMAGE_REF_FIX);
  }
  if (rules.parallelism) out.push(...pullJobParallelismProblems(s, at, 'an ImagePullJob does not support'));
  out.push(...pullJobCompletionProblems(s, at));
  if (rules.deadline) out.push(...pullJobDeadlineProblems(s, at));
  out.push(...pullSecretsProblems(s, at));
  return out;
}

const specOf = (m: Manifest): Json => (isObject(m.spec) ? m.spec : {});

/**
 * The pull-job rules OpenKruise changed: the deadline rule came with 1.8,
 * the parallelism rule with 1.9 (1.8 and 1.7 take a percentage and a
 * negative number); the ImageListPullJob holds its spec to the same, as the
 * ImagePullJobs it creates are judged by them.
 */
export function pullJobReleaseRules(percentage: string, stricter?: { who: string; why: string }): ReleaseRule[] {
  // an ImageListPullJob's webhook checks none of it: the ImagePullJobs OpenKruise creates from it are refused
  const as = (found: TemplateProblem[]) => (stricter
    ? found.map(p => ({ ...p, problem: stricterProblem(p.problem, stricter.who, stricter.why) })) : found);
  return [
    {
      release: '1.9',
      change: 'refuses',
      what: 'a percentage, a negative number or a string that is no integer in spec.parallelism',
      find: m => as(pullJobParallelismProblems(specOf(m), 'spec', percentage)),
    },
    {
      release: '1.8',
      change: 'refuses',
      what: 'spec.completionPolicy.activeDeadlineSeconds below spec.pullPolicy.timeoutSeconds (600 when unset) with completionPolicy Always',
      find: m => as(pullJobDeadlineProblems(specOf(m), 'spec')),
    },
  ];
}

const DELETION_PROTECTION = 'apps.kruise.io/deletion-protection';

function defaults(manifest: Manifest): Manifest {
  const m = clone(manifest);
  if (!isObject(m.spec)) m.spec = {};
  defaultPullJobSpec(m.spec);
  m.spec.imagePullPolicy ||= 'IfNotPresent';
  if (String(m.apiVersion).endsWith('/v1alpha1')) {
    if (!isObject(m.metadata)) m.metadata = {};
    const finalizers: unknown[] = Array.isArray(m.metadata.finalizers) ? m.metadata.finalizers : [];
    if (!finalizers.includes(DELETION_PROTECTION)) m.metadata.finalizers = [...finalizers, DELETION_PROTECTION];
  }
  return m;
}

/** The ImagePullJob webhooks. */
export const imagePullJobAdmission: AdmissionModule = {
  group: 'apps.kruise.io',
  kind: 'ImagePullJob',
  versions: ['v1alpha1', 'v1beta1'],
  defaults,
  validate: m => toLines(imagePullJobSpecProblems(m.spec, 'spec', { parallelism: false, deadline: false })),
  releaseRules: pullJobReleaseRules('an ImagePullJob does not support'),
};
