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
import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import type * as Registry from './index';
import { AdmissionApp, AdmissionContext, Manifest } from './types';
import { GATE_DEFAULTS } from '../control-plane/_gates';
import { appObjects, placeOf } from '../fleet/objects';
import { _gateSources } from '../validation/gates';
import { cloneJson } from '../validation/json';
import { _currentRound, _markCheckRounds, _sharedRender } from '../validation/render';
import { Warnings } from '../validation/report';
import { _rolloutManagers } from '../validation/rollout-settings';
import { KRUISE_GROUPS, formatIssue, validateManifest } from '../validation/schemas';

/** The registry of the admission modules (every kind's rules), loaded at the first synth. */
let registry: typeof Registry | undefined;
function admissionModuleFor(apiVersion: string, kind: string) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  registry ??= require('./index') as typeof Registry;
  return registry.admissionModuleFor(apiVersion, kind);
}

/** Where an object came from, when the construct path alone does not say it (included files). */
export interface _ObjectOrigin {
  /** The file or URL. */
  readonly source: string;
  /** The position of the object in it (1 = the first document). */
  readonly document: number;
}

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

function describeObject(manifest: Manifest): string {
  const name = manifest.metadata?.name;
  return `${manifest.kind} ${name ? `"${name}" ` : ''}(${manifest.apiVersion})`;
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

function judge(obj: ApiObject, manifest: Manifest, ctx: AdmissionContext): Verdict {
  const origin = origins.get(obj);
  const from = origin ? `(${origin.source}, document ${origin.document}) ` : '';
  const schema = validateManifest(manifest);
  if (schema.length > 0) {
    return { errors: schema.map(i => `${from}${describeObject(manifest)} ${formatIssue(i)}`), decoded: false };
  }
  const module = admissionModuleFor(String(manifest.apiVersion), String(manifest.kind));
  if (!module) return { errors: [], decoded: true };
  // the render is shared with the other checks and the output: defaults return a copy, a module without defaults gets one
  const defaulted = module.defaults ? module.defaults(manifest, ctx) : cloneJson(manifest);
  let errors = module.validate(defaulted, ctx);
  if (errors.length === 0 && module.appRules) errors = module.appRules(defaulted, appOf(obj), ctx);
  return { errors: errors.map(line => `${from}${line}`), decoded: true };
}

/** The engine of one App (one per root construct). */
class Engine {
  private verdicts = new Map<ApiObject, Verdict>();
  private verdictRound = -1;
  /** Whether the pass over the whole App ran in `verdictRound`. */
  private passed = false;
  private readonly hooked = new WeakSet<ApiObject>();

  constructor(private readonly root: IConstruct) {
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
      this.verdicts.set(c, judge(c, _sharedRender(c), ctx));
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
      v = judge(obj, _sharedRender(obj), contextOf(this.root));
      this.verdicts.set(obj, v);
    }
    return v;
  }

  private warnings(): Array<{ scope: IConstruct; message: string }> {
    const out: Array<{ scope: IConstruct; message: string }> = [];
    const ctx = contextOf(this.root);
    for (const c of this.root.node.findAll()) {
      if (!(c instanceof ApiObject) || !isKruiseObject(c)) continue;
      const manifest = _sharedRender(c);
      const module = admissionModuleFor(String(manifest.apiVersion), String(manifest.kind));
      if (!module?.warnings) continue;
      const v = this.verdictOf(c);
      if (v.errors.length > 0 || !v.decoded) continue;
      for (const message of module.warnings(manifest, ctx)) out.push({ scope: ownerOf(c), message });
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
