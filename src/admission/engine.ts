/**
 * The admission engine: at synth, every `apps.kruise.io` / `policy.kruise.io` / `rollouts.kruise.io`
 * object of the App goes through what the API server would do with it on
 * create, in the same order: the schema (a body that does not decode is
 * refused before any webhook sees it), the kind's mutating defaults (in
 * memory), then its validating rules on the defaulted object. It does not
 * matter how the object was written: an L2 construct, a `kruise.Kube*` L1
 * class, a raw `ApiObject` or included YAML all take the same path.
 *
 * One pass per synth: the first validation of the App walks the tree once,
 * judges each Kruise object once and hangs the verdict on the construct a
 * user knows (the L2 when the object is its `Resource`, else the object), so
 * cdk8s reports every error under that construct's path.
 */
import { ApiObject, App, IResolver, ResolutionContext } from 'cdk8s';
import { IConstruct } from 'constructs';
import { admissionModuleFor } from './index';
import { AdmissionApp, AdmissionContext, Manifest } from './types';
import { GATE_DEFAULTS } from '../control-plane/_gates';
import { appObjects, placeOf } from '../fleet/objects';
import { _adviseFor } from '../validation/advice';
import { _gateSources } from '../validation/gates';
import { cloneJson } from '../validation/json';
import { _currentRound, _markCheckRounds, _sharedRender } from '../validation/render';
import { _renderProblemsOf } from '../validation/render-problems';
import { Warnings, fieldError } from '../validation/report';
import { _rolloutManagers } from '../validation/rollout-settings';
import { KRUISE_GROUPS, formatIssue, hasStatusSubresource, validateManifest } from '../validation/schemas';

/** Where an object came from, when the construct path alone does not say it (included files). */
export interface _ObjectOrigin {
  /** The file or URL. */
  readonly source: string;
  /** The position of the object in it (1 = the first document). */
  readonly document: number;
  /** The user asked to keep the fields a cluster sets (no warning about them). */
  readonly keepsServerFields?: boolean;
}

/**
 * The metadata a cluster sets on an object, as `kubectl get -o yaml` prints
 * it; never part of a manifest a user writes.
 */
export const SERVER_SET_METADATA = ['uid', 'resourceVersion', 'generation', 'creationTimestamp', 'managedFields'];

const origins = new WeakMap<ApiObject, _ObjectOrigin>();

/**
 * Record where an object was read from, for its messages.
 * @internal
 */
export function _setOrigin(obj: ApiObject, origin: _ObjectOrigin): void {
  origins.set(obj, origin);
}

/** Whether an ApiObject belongs to an OpenKruise API group. */
export function isKruiseObject(obj: ApiObject): boolean {
  return KRUISE_GROUPS.includes(obj.apiGroup);
}

/** The construct that owns an ApiObject: its parent when the ApiObject is the parent's default child. */
function ownerOf(obj: ApiObject): IConstruct {
  const parent = obj.node.scope;
  if (parent && obj.node.id === 'Resource' && parent.node.defaultChild === obj) return parent;
  return obj;
}

/**
 * How every message names its object: `Kind "name" (apiVersion)`, with the
 * file and document for an included object.
 */
function describeObject(manifest: Manifest, origin: _ObjectOrigin | undefined): string {
  const name = manifest.metadata?.name;
  const from = origin ? `; ${origin.source}, document ${origin.document}` : '';
  return `${manifest.kind} ${name ? `"${name}" ` : ''}(${manifest.apiVersion}${from})`;
}

/** The feature gates as the App's control planes set them, else the v1.9.0 defaults; the App's kruise-rollout-managers. */
function contextOf(scope: IConstruct): AdmissionContext {
  const sources = _gateSources(scope);
  const managers = _rolloutManagers(scope);
  return {
    gate: (name: string) => (sources.length > 0 ? sources.every(s => s.isEnabled(name)) : GATE_DEFAULTS[name] === true),
    rollout: managers.length === 0 ? undefined : {
      partitionPercentLimit: Math.min(...managers.map(m => m.partitionPercentLimit)),
      managers,
    },
  };
}

/** The App of `obj` as an app-wide rule reads it: every other object, by group and kind. */
function appOf(obj: ApiObject): AdmissionApp {
  return {
    objects: (group: string, kind: string) => appObjects(obj, group, kind)
      .filter(o => o.apiObject !== obj)
      .map(o => ({ json: o.json, path: o.owner.node.path, place: placeOf(o) })),
  };
}

/** The verdict on one object. */
interface Verdict {
  /** Error lines (empty: admitted). */
  readonly errors: string[];
  /** Whether the object passed the schema (the warnings are asked only of objects that did). */
  readonly decoded: boolean;
}

/**
 * The object as a create request carries it to admission: without `status`
 * when the kind serves it as a subresource (the API server drops it, so
 * `kubectl get -o yaml` output can be applied again).
 */
export function asCreated(manifest: Manifest): Manifest {
  if (manifest.status === undefined || !hasStatusSubresource(String(manifest.apiVersion), String(manifest.kind))) return manifest;
  const { status: _status, ...created } = manifest;
  return created;
}

/**
 * What the API server does with a create, in its order: the object decodes
 * against the schema as written (types, unknown fields); the mutating
 * webhook defaults it; the required fields are checked on the defaulted
 * object (a webhook default may fill one); then the validating webhook's
 * rules. Every line is `Kind "name" (apiVersion) field: value problem; fix`,
 * with fixes in the terms the object was written in (construct advice for an
 * L2's object, manifest fields otherwise).
 */
function judge(obj: ApiObject, ctx: AdmissionContext): Verdict {
  const owner = ownerOf(obj);
  const rendered: Manifest = _sharedRender(obj);
  // the object's name for its messages, built only when there is one (most objects have none)
  const lines = (found: readonly string[]) => {
    if (found.length === 0) return [];
    const head = describeObject(rendered, origins.get(obj));
    return found.map(l => `${head} ${l}`);
  };
  // a construct that could not render its object (a Duration of fractional seconds, ...): that is its verdict
  const renderProblems = _renderProblemsOf(owner);
  if (renderProblems.length > 0) return { errors: lines(renderProblems.map(p => fieldError(p.field, p.value, p.problem, p.fix))), decoded: false };
  const manifest = asCreated(rendered);
  const issues = validateManifest(manifest);
  const structural = issues.filter(i => !i.missing);
  if (structural.length > 0) return { errors: lines(structural.map(formatIssue)), decoded: false };
  const module = admissionModuleFor(String(manifest.apiVersion), String(manifest.kind));
  // the render is shared with the other checks and the output: defaults return a copy, a module without defaults gets one
  const defaulted = module?.defaults ? module.defaults(manifest, ctx) : cloneJson(manifest);
  if (issues.length > 0) {
    const missing = module?.defaults ? validateManifest(defaulted).filter(i => i.missing) : issues;
    if (missing.length > 0) return { errors: lines(missing.map(formatIssue)), decoded: false };
  }
  if (!module) return { errors: [], decoded: true };
  const errors = _adviseFor(owner !== obj, () => {
    const found = module.validate(defaulted, ctx);
    return found.length === 0 && module.appRules ? module.appRules(defaulted, appOf(obj), ctx) : found;
  });
  return { errors: lines(errors), decoded: true };
}

/**
 * Renders a map without `Object.prototype` (`Object.create(null)`, as some
 * libraries build them) as the plain object cdk8s expects: cdk8s reads the
 * constructor of every object it writes and fails with a bare TypeError on
 * such a map, wherever in the App it was given (labels, Secret data, ...).
 */
class PlainMapResolver implements IResolver {
  public resolve(context: ResolutionContext): void {
    const v = context.value;
    if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === null) context.replaceValue({ ...v });
  }
}

/** The engine of one App (one per root construct). */
class Engine {
  private verdicts = new Map<ApiObject, Verdict>();
  private verdictRound = -1;
  /** Whether the pass over the whole App ran in `verdictRound`. */
  private passed = false;
  private readonly hooked = new WeakSet<ApiObject>();

  constructor(private readonly root: IConstruct) {
    if (root instanceof App && !root.resolvers.some(r => r instanceof PlainMapResolver)) root.resolvers.unshift(new PlainMapResolver());
    // the round marker runs first in every validation pass, so the pass, the
    // warnings and the L2 checks share one render of each object
    _markCheckRounds(root);
    root.node.addValidation({ validate: () => this.pass() });
    Warnings._addAppProducer(root, () => this.warnings());
  }

  /**
   * Judge every Kruise object of the App, once per round (the validation
   * passes of one synth share a round); hang each verdict on its owner.
   */
  private pass(): string[] {
    if (this.verdictRound === _currentRound() && this.passed) return [];
    this.verdicts = new Map();
    this.verdictRound = _currentRound();
    this.passed = true;
    const ctx = contextOf(this.root);
    for (const c of this.root.node.findAll()) {
      if (!(c instanceof ApiObject) || !isKruiseObject(c)) continue;
      this.verdicts.set(c, judge(c, ctx));
      this.hook(c);
    }
    return [];
  }

  /** Make the owner of `obj` report its verdict (once per object). */
  public hook(obj: ApiObject): void {
    if (this.hooked.has(obj)) return;
    this.hooked.add(obj);
    ownerOf(obj).node.addValidation({ validate: () => this.verdictOf(obj).errors });
  }

  /** The verdict of this pass; judged now when the object is validated on its own. */
  public verdictOf(obj: ApiObject): Verdict {
    if (this.verdictRound !== _currentRound()) {
      this.verdicts = new Map();
      this.verdictRound = _currentRound();
      this.passed = false;
    }
    let v = this.verdicts.get(obj);
    if (!v) {
      v = judge(obj, contextOf(this.root));
      this.verdicts.set(obj, v);
    }
    return v;
  }

  private warnings(): Array<{ scope: IConstruct; message: string }> {
    const out: Array<{ scope: IConstruct; message: string }> = [];
    const ctx = contextOf(this.root);
    for (const c of this.root.node.findAll()) {
      if (!(c instanceof ApiObject) || !isKruiseObject(c)) continue;
      const v = this.verdictOf(c);
      if (v.errors.length > 0 || !v.decoded) continue;
      const rendered: Manifest = _sharedRender(c);
      const origin = origins.get(c);
      const owner = ownerOf(c);
      const found: string[] = [];
      const server = SERVER_SET_METADATA.filter(f => rendered.metadata?.[f] !== undefined);
      if (server.length > 0 && !origin?.keepsServerFields) {
        found.push(fieldError('metadata', server, 'were set by the cluster the object was read from: the API server refuses to create an object with a resourceVersion, and applies it to nothing but that one object',
          'remove them, or include the file with KruiseInclude, which leaves them out'));
      }
      const manifest = asCreated(rendered);
      const module = admissionModuleFor(String(manifest.apiVersion), String(manifest.kind));
      if (module?.warnings) found.push(..._adviseFor(owner !== c, () => module.warnings!(manifest, ctx, appOf(c))));
      if (found.length === 0) continue;
      const head = describeObject(rendered, origin);
      for (const message of found) out.push({ scope: owner, message: `${head} ${message}` });
    }
    return out;
  }
}

const engines = new WeakMap<IConstruct, Engine>();

/**
 * The admission engine of the App of `scope`, created (and registered as the
 * App's first validation of this library) on first use.
 * @internal
 */
export function _admissionEngine(scope: IConstruct): Engine {
  const root = scope.node.root;
  let e = engines.get(root);
  if (!e) {
    e = new Engine(root);
    engines.set(root, e);
  }
  return e;
}

/**
 * Whether `obj` passes admission on its own (schema, defaults, rules): the
 * app-wide checks only look at objects that do.
 * @internal
 */
export function _admitted(obj: ApiObject): boolean {
  return _admissionEngine(obj).verdictOf(obj).errors.length === 0;
}

/**
 * A message about `obj` in the shape of every message: `Kind "name" (apiVersion) field: value problem; fix`
 * (`line` is the part from the field on).
 * @internal
 */
export function _objectLine(obj: ApiObject, line: string): string {
  return `${describeObject({ kind: obj.kind, apiVersion: obj.apiVersion, metadata: { name: obj.name } }, origins.get(obj))} ${line}`;
}
