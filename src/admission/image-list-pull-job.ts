/**
 * ImageListPullJob admission (apps.kruise.io v1alpha1 and v1beta1: two
 * separate but equivalent code paths upstream, the same schema). The spec
 * rules are exported for the imageListPullJobTemplate of an AdvancedCronJob.
 *
 * Defaults: completionPolicy.type Always; pullPolicy {} with timeoutSeconds
 * 600 and backoffLimit 3 (no imagePullPolicy default and no finalizer,
 * unlike ImagePullJob).
 *
 * Rules: the node/pod selector rules of ImagePullJob; spec.images non-empty,
 * at most 255, no exact duplicates (`nginx` and `nginx:latest` count as
 * different), each a valid image reference; completionPolicy.type Always or
 * Never; with Never, no activeDeadlineSeconds and no ttlSecondsAfterFinished.
 *
 * Stricter than upstream: every spec.pullSecrets entry must be a valid Secret
 * name (as for ImagePullJob); the parallelism and, with completionPolicy
 * Always, the active deadline are held to the ImagePullJob rules (an integer
 * >= 0, no percentage; a deadline not under the pull timeout). OpenKruise
 * pulls each image of the list with an ImagePullJob that copies these
 * settings, and the ImagePullJob webhook refuses every one of them
 * otherwise, so nothing is pulled.
 *
 * Skipped: the refusal when the KruiseDaemon or ImagePullJobGate feature gate
 * is off (declared by the constructs, checked against the control plane).
 * Upstream has no update-only rule and checks no metadata here.
 */
import {
  ALL_PULL_JOB_RULES, IMAGE_REF_FIX, PullJobReleaseRules, defaultPullJobSpec, imageReferenceProblems, pullJobCompletionProblems,
  pullJobDeadlineProblems, pullJobParallelismProblems, pullJobReleaseRules, pullJobSelectorProblems, pullSecretsProblems,
} from './image-pull-job';
import { AdmissionModule, Manifest } from './types';
import { fieldError, stricterProblem } from '../validation/field-error';
import { cloneJson } from '../validation/json';
import { TemplateProblem } from '../validation/pod-template';

type Json = Record<string, any>;

const clone = cloneJson;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The most images one job may pull. */
export const MAX_IMAGES = 255;

/** Options of `imageListPullJobSpecProblems`. */
export interface ImageListPullJobRuleOptions {
  /** Check completionPolicy and the deadline (off when the caller has its own completion rules, as AdvancedCronJob). */
  readonly completionPolicy: boolean;
  /** The rules that differ by release (all: OpenKruise 1.9's). */
  readonly rules?: PullJobReleaseRules;
  /**
   * Who admits the list job's parallelism and deadline, which only the
   * ImagePullJobs OpenKruise creates from it meet (an AdvancedCronJob's
   * template): those rules are then stricter than that webhook.
   */
  readonly admittedBy?: string;
}

/** The ImageListPullJob rules of a (defaulted) spec found at `at`. */
export function imageListPullJobSpecProblems(
  spec: Json | undefined, at: string, options: ImageListPullJobRuleOptions = { completionPolicy: true },
): TemplateProblem[] {
  const s: Json = isObject(spec) ? spec : {};
  const out: TemplateProblem[] = [...pullJobSelectorProblems(s, at)];
  const add = (field: string, value: unknown, problem: string, fix: string) => out.push({ field, value, problem, fix });
  const images: unknown[] = Array.isArray(s.images) ? s.images : [];
  if (images.length === 0) {
    add(`${at}.images`, s.images, 'is empty', 'list at least one image to pull, e.g. ["nginx:1.25"]');
  } else if (images.length > MAX_IMAGES) {
    add(`${at}.images`, `${images.length} images`, `are more than the ${MAX_IMAGES} one job may pull`, 'split the list over several ImageListPullJobs');
  }
  const seen = new Map<string, number>();
  images.forEach((image, i) => {
    const ref = typeof image === 'string' ? image : '';
    const first = seen.get(ref);
    if (first !== undefined) add(`${at}.images[${i}]`, image, `repeats images[${first}]`, 'list every image once');
    else seen.set(ref, i);
    for (const p of imageReferenceProblems(ref)) add(`${at}.images[${i}]`, image, p, IMAGE_REF_FIX);
  });
  const rules = options.rules ?? ALL_PULL_JOB_RULES;
  const children = (found: TemplateProblem[]) => (options.admittedBy
    ? found.map(p => ({ ...p, problem: stricterProblem(p.problem, options.admittedBy!, CHILD_JOBS.why) })) : found);
  if (rules.parallelism) out.push(...children(pullJobParallelismProblems(s, at, PERCENTAGE)));
  if (options.completionPolicy) out.push(...pullJobCompletionProblems(s, at), ...(rules.deadline ? children(pullJobDeadlineProblems(s, at)) : []));
  out.push(...pullSecretsProblems(s, at));
  return out;
}

/** Who refuses a percentage in an ImageListPullJob's parallelism. */
const PERCENTAGE = 'ImagePullJobs do not support';

/** Why the parallelism and deadline rules of the ImagePullJob webhook apply to an ImageListPullJob, whose own webhook checks neither. */
const CHILD_JOBS = { who: 'the ImageListPullJob webhook', why: 'OpenKruise pulls each image with an ImagePullJob of the same settings, and the ImagePullJob webhook refuses every one' };

function defaults(manifest: Manifest): Manifest {
  const m = clone(manifest);
  if (!isObject(m.spec)) m.spec = {};
  defaultPullJobSpec(m.spec);
  return m;
}

/**
 * Whether the mutating webhook answers with its result. It answers only
 * when its defaults change the object, and a v1beta1 ImageListPullJob's copy
 * shares its spec with the object (apis/apps/v1beta1/imagelistpulljob_types.go
 * DeepCopyInto: out.Spec = in.Spec), so defaults written into a given
 * pullPolicy are no change to it: it answers only when completionPolicy.type
 * or the whole pullPolicy is unset. Otherwise the object is judged as sent:
 * no pull defaults, and empty matchLabels or matchExpressions kept.
 */
function writesBack(m: Manifest): boolean {
  if (!String(m.apiVersion).endsWith('/v1beta1')) return true;
  const spec: Json = isObject(m.spec) ? m.spec : {};
  return !isObject(spec.completionPolicy) || !spec.completionPolicy.type || !isObject(spec.pullPolicy);
}

/** The ImageListPullJob webhooks. */
export const imageListPullJobAdmission: AdmissionModule = {
  group: 'apps.kruise.io',
  kind: 'ImageListPullJob',
  versions: ['v1alpha1', 'v1beta1'],
  defaults,
  writesBack,
  validate: m => imageListPullJobSpecProblems(m.spec, 'spec', { completionPolicy: true, rules: { parallelism: false, deadline: false } })
    .map(p => fieldError(p.field, p.value, p.problem, p.fix)),
  releaseRules: pullJobReleaseRules(PERCENTAGE, CHILD_JOBS),
};
