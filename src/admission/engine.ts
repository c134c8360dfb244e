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
import type * as AppWide from './app-wide';
import { judgeManifest, Judgement, manifestWarnings, SERVER_SET_METADATA } from './judge';
import { AdmissionApp, AdmissionContext, Manifest } from './types';
import type * as AppModel from '../fleet/app-model';
import { _contextsOf } from '../fleet/context-registry';
import { appObjects, placeOf } from '../fleet/objects';
import { _targetOf, targetGate } from '../releases/target';
import { _adviseFor } from '../validation/advice';
import { _gateSources } from '../validation/gates';
import { _objectLine, _originOf, _setOrigin, describeObject } from '../validation/object-line';
import { sharingTemplateViews } from '../validation/pod-template';
import { _currentRound, _markCheckRounds, _sharedRender } from '../validation/render';
import { _renderProblemsOf } from '../validation/render-problems';
import { Warnings, fieldError } from '../validation/report';
import { _rolloutManagers } from '../validation/rollout-settings';
import { KRUISE_GROUPS } from '../validation/schemas';

export { SERVER_SET_METADATA };
// the names of objects in messages (written once in validation/object-line.ts), for the modules that import them from here
export { _objectLine, _setOrigin };

type Verdict = Judgement;

/** The kinds the app-wide checks compare with each other and with workloads (an app without any pays for none of them). */
const POLICY_KINDS: ReadonlySet<string> = new Set([
  'apps.kruise.io/SidecarSet', 'apps.kruise.io/WorkloadSpread', 'policy.kruise.io/PodUnavailableBudget', 'apps.kruise.io/PersistentPodState',
]);

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
 * The names of the CustomResourceDefinitions of the App of `scope` and of its
 * contexts (a cluster's live state, another repo's output).
 */
function crdNames(scope: IConstruct): Set<string> {
  const names = new Set<string>();
  for (const root of [scope.node.root, ..._contextsOf(scope).map(c => c.scope)]) {
    for (const c of root.node.findAll()) {
      if (c instanceof ApiObject && c.kind === 'CustomResourceDefinition' && c.apiGroup === 'apiextensions.k8s.io') names.add(c.name);
    }
  }
  return names;
}

/**
 * The App's target (its releases, where declared); the feature gates as the
 * App's control planes set them, else as the target declares them, else the
 * target release's defaults; the App's kruise-rollout-managers; the CRDs of
 * the App and its contexts (looked for once, when a kind needs one).
 */
function contextOf(scope: IConstruct): AdmissionContext {
  const sources = _gateSources(scope);
  const managers = _rolloutManagers(scope);
  const target = _targetOf(scope);
  let crds: Set<string> | undefined;
  return {
    target,
    crdInstalled: (name: string) => (crds ??= crdNames(scope)).has(name),
    gate: (name: string) => (sources.length > 0 ? sources.every(s => s.isEnabled(name)) : targetGate(target, name)),
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

/**
 * The verdict of the API server and the webhooks of the target release on
 * `obj` (see `judgeManifest`), with fixes in the terms the object was written in
 * (construct advice for an L2's object, manifest fields otherwise).
 */
function judge(obj: ApiObject, ctx: AdmissionContext): Verdict {
  const owner = ownerOf(obj);
  const rendered: Manifest = _sharedRender(obj);
  // the object's name for its messages, built only when there is one (most objects have none)
  const lines = (found: readonly string[]) => {
    if (found.length === 0) return [];
    const head = describeObject(rendered, _originOf(obj));
    return found.map(l => `${head} ${l}`);
  };
  // a construct that could not render its object (a Duration of fractional seconds, ...): that is its verdict
  const renderProblems = _renderProblemsOf(owner);
  if (renderProblems.length > 0) return { errors: lines(renderProblems.map(p => fieldError(p.field, p.value, p.problem, p.fix))), decoded: false };
  const v = _adviseFor(owner !== obj, () => judgeManifest(rendered, ctx, appOf(obj)));
  return { errors: lines(v.errors), decoded: v.decoded };
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
  /** The app-wide problems of this round, by object (lines with the object's name). */
  private wide = new Map<ApiObject, string[]>();
  private wideRound = -1;
  /** The defaulted pod templates of this round's objects, read by their judgement and then by their warnings. */
  private views = new WeakMap<object, Record<string, any>>();
  private viewsRound = -1;

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
    this.withViews(() => {
      for (const c of this.root.node.findAll()) {
        if (!(c instanceof ApiObject) || !isKruiseObject(c)) continue;
        this.verdicts.set(c, judge(c, ctx));
        this.hook(c);
      }
    });
    for (const obj of this.appWide().keys()) this.hook(obj);
    return [];
  }

  /** Make the owner of `obj` report its verdict and its app-wide problems (once per object). */
  public hook(obj: ApiObject): void {
    if (this.hooked.has(obj)) return;
    this.hooked.add(obj);
    ownerOf(obj).node.addValidation({
      validate: () => {
        const own = isKruiseObject(obj) ? this.verdictOf(obj).errors : [];
        const wide = this.appWide().get(obj);
        return wide ? [...own, ...wide] : own;
      },
    });
  }

  /**
   * The app-wide checks of this round, on every object however it was
   * written (src/admission/app-wide.ts): the feature gates of the app's
   * control planes, and, when the app or a context has a policy, the
   * conflicts and collisions between objects. An app without either renders
   * nothing for them.
   */
  private appWide(): Map<ApiObject, string[]> {
    if (this.wideRound === _currentRound()) return this.wide;
    this.wideRound = _currentRound();
    const wide = new Map<ApiObject, string[]>();
    this.wide = wide;
    const add = (obj: ApiObject, lines: readonly string[]) => {
      if (lines.length === 0) return;
      const list = wide.get(obj) ?? [];
      for (const l of lines.map(x => _objectLine(obj, x))) if (!list.includes(l)) list.push(l);
      wide.set(obj, list);
    };
    const gates = _gateSources(this.root);
    let policies = _contextsOf(this.root).length > 0;
    // the checks load with the first app that has a control plane, a context or a policy
    /* eslint-disable @typescript-eslint/no-require-imports */
    const checks = () => require('./app-wide') as typeof AppWide;
    for (const c of this.root.node.findAll()) {
      if (!(c instanceof ApiObject) || !isKruiseObject(c)) continue;
      if (!policies && POLICY_KINDS.has(`${c.apiGroup}/${c.kind}`)) policies = true;
      if (gates.length > 0) add(c, checks().gateProblems(_sharedRender(c), gates));
    }
    if (policies) {
      const { _appModelOf } = require('../fleet/app-model') as typeof AppModel;
      const model = _appModelOf(this.root, obj => this.verdictOf(obj).errors.length === 0);
      for (const [o, lines] of checks().appWideProblems(model)) add(o.apiObject, lines);
    }
    /* eslint-enable @typescript-eslint/no-require-imports */
    return wide;
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
      const ctx = contextOf(this.root);
      v = this.withViews(() => judge(obj, ctx));
      this.verdicts.set(obj, v);
    }
    return v;
  }

  /** `fn` with this round's defaulted pod templates (the renders of one round are never changed). */
  private withViews<T>(fn: () => T): T {
    if (this.viewsRound !== _currentRound()) {
      this.views = new WeakMap();
      this.viewsRound = _currentRound();
    }
    return sharingTemplateViews(this.views, fn);
  }

  private warnings(): Array<{ scope: IConstruct; message: string }> {
    const out: Array<{ scope: IConstruct; message: string }> = [];
    const ctx = contextOf(this.root);
    this.withViews(() => {
      for (const c of this.root.node.findAll()) {
        if (!(c instanceof ApiObject) || !isKruiseObject(c)) continue;
        const v = this.verdictOf(c);
        if (v.errors.length > 0 || !v.decoded) continue;
        const rendered: Manifest = _sharedRender(c);
        const origin = _originOf(c);
        const owner = ownerOf(c);
        const found = _adviseFor(owner !== c, () => manifestWarnings(rendered, ctx, appOf(c), origin?.keepsServerFields));
        if (found.length === 0) continue;
        const head = describeObject(rendered, origin);
        for (const message of found) out.push({ scope: owner, message: `${head} ${message}` });
      }
    });
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
