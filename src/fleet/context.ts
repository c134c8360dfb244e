import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, App, Chart, Yaml } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { _contextsOf, _registerContext, contextPlace } from './context-registry';
import { groupOf, ownerOf, podTemplateOf } from './objects';
import { appInjectionProblems } from './sidecar-fleet';
import { _GateSet, _GateSetting } from '../control-plane/_gates';
import { PlanInputError } from '../plan/errors';
import { manifestFiles, parseManifests } from '../plan/sources';
import { _registerGateSource, notOwnedHowToEnable } from '../validation/gates';
import { _markCheckRounds } from '../validation/render';

/** Props of `KruiseContext`. */
export interface KruiseContextProps {
  /**
   * Manifests of another repository's synth output to read into the context:
   * files, folders (every `*.yaml`, `*.yml` and `*.json` in them, recursively,
   * in name order) or http(s) URLs.
   *
   * @default - none; add them with `addManifests()`
   */
  readonly manifests?: string[];
  /**
   * A cluster's live state to read into the context: files saved with
   * `kubectl get sidecarsets,workloadspreads,podunavailablebudgets,namespaces -A -o json`
   * (a `List`; any kinds, `-o yaml` too).
   *
   * @default - none; add them with `addLiveState()`
   */
  readonly liveState?: string[];
}

/** The API groups of OpenKruise and Kruise Rollouts objects. */
const CHECKED_GROUPS = new Set(['apps.kruise.io', 'policy.kruise.io', 'rollouts.kruise.io']);

/** The context objects of an app, by app root. */
const registered = new WeakMap<IConstruct, KruiseContext[]>();

/**
 * Objects an app's checks take into account but the app never writes: the
 * policies another team publishes, the control plane and Namespaces of the
 * cluster the app deploys to.
 *
 * A context takes part in every app-wide check of the app it is created for:
 * SidecarSet conflicts, collisions and the injection preview;
 * PodUnavailableBudget, WorkloadSpread and PersistentPodState overlaps; one
 * Rollout per workload; the feature gates of a control plane; the labels of
 * Namespaces for namespace selectors. Its objects are never written to the
 * app's output, and report nothing themselves: a problem between the app and
 * a context object fails the app's synth under the app's construct, naming
 * where the context object came from, e.g.
 * `SidecarSet "logging-agent" (context: platform/dist/platform.k8s.yaml)`.
 *
 * The objects come from another repository's synth output or a URL
 * (`manifests`), a cluster's live state (`liveState`), or constructs: a
 * platform team's policy library instantiated with the context as their
 * scope. A context is the root of a construct tree of its own (the app is
 * only where it is attached), which is why nothing in it is written or
 * validated. Give such policies explicit names: a name cdk8s generates comes
 * from the construct path, which differs from the platform's own app.
 *
 * Of the files, the context keeps what the checks read: OpenKruise and Kruise
 * Rollouts objects, Namespaces and objects with a pod template (the
 * kruise-manager Deployment among them, whose `--feature-gates` become the
 * context's control plane). An object the app itself writes (same kind,
 * namespace and name) is the app's: the context's copy is left out.
 */
export class KruiseContext extends Chart {
  /**
   * The contexts attached to the app of `scope`.
   *
   * @param scope any construct of the app
   */
  public static attachedTo(scope: IConstruct): KruiseContext[] {
    return [...(registered.get(scope.node.root) ?? [])];
  }

  private readonly origins = new Map<ApiObject, string>();
  private readonly appRoot: IConstruct;
  private count = 0;

  /**
   * @param scope any construct of the app the context is for (the context is attached to its root)
   * @param id the context's id: its objects' construct paths start with it
   * @param props what to read into it
   */
  constructor(scope: Construct, id: string, props: KruiseContextProps = {}) {
    super(new App(), id);
    this.appRoot = scope.node.root;
    _markCheckRounds(this.appRoot);
    registered.set(this.appRoot, [...(registered.get(this.appRoot) ?? []), this]);
    _registerContext(this.appRoot, { scope: this, originOf: o => this.origins.get(o) ?? ownerOf(o).node.path });
    reportContextProblemsOnWorkloads(this.appRoot);
    for (const m of props.manifests ?? []) this.addManifests(m);
    for (const f of props.liveState ?? []) this.addLiveState(f);
  }

  /**
   * Read manifests into the context: a file, a folder (every `*.yaml`,
   * `*.yml` and `*.json` in it, recursively, in name order) or an http(s) URL.
   * Messages name each object's file (relative to the working directory) or URL.
   *
   * @param source the file, folder or URL
   */
  public addManifests(source: string): void {
    if (/^https?:\/\//.test(source)) {
      let docs: any[];
      try {
        docs = Yaml.load(source);
      } catch (e: any) {
        throw new Error(`KruiseContext at '${this.node.path}': cannot read '${source}': ${String(e?.message ?? e).split('\n')[0]}; give a reachable URL of a YAML or JSON manifest`);
      }
      this.addObjects(docs.flatMap(d => (d && d.kind?.endsWith?.('List') && Array.isArray(d.items) ? d.items : [d])), source);
      return;
    }
    for (const file of this.read(() => manifestFiles(source, `KruiseContext at '${this.node.path}': manifests`))) {
      const origin = path.relative(process.cwd(), path.resolve(file)) || file;
      this.addObjects(this.read(() => parseManifests(readText(file), origin)), origin);
    }
  }

  /**
   * Read a cluster's live state into the context: a file saved with
   * `kubectl get ... -A -o json` (a `List`; `-o yaml` works too). Status and
   * server-owned metadata are dropped.
   *
   * @param file the file
   */
  public addLiveState(file: string): void {
    const origin = path.relative(process.cwd(), path.resolve(file)) || file;
    const objects = this.read(() => parseManifests(readText(file), origin));
    this.addObjects(objects.map(o => {
      const { status, ...rest } = o;
      void status;
      const { managedFields, resourceVersion, uid, creationTimestamp, generation, selfLink, ...metadata } = rest.metadata ?? {};
      void managedFields; void resourceVersion; void uid; void creationTimestamp; void generation; void selfLink;
      return { ...rest, metadata };
    }), origin);
  }

  /** The objects of the context, in wire form (what the checks read). */
  public get manifests(): any[] {
    return this.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject).map(o => o.toJson());
  }

  private read<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      if (e instanceof PlanInputError) throw new Error(`KruiseContext at '${this.node.path}': ${e.message.replace(/^KruiseContext at '[^']*': /, '')}`);
      throw e;
    }
  }

  private addObjects(objects: any[], origin: string): void {
    objects.forEach((obj, i) => {
      if (obj === null || typeof obj !== 'object' || Array.isArray(obj) || typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') {
        throw new Error(`KruiseContext at '${this.node.path}': '${origin}', object ${i + 1} is ${JSON.stringify(obj)?.slice(0, 80)}, not a Kubernetes object with apiVersion and kind; keep only manifests there`);
      }
      const checked = CHECKED_GROUPS.has(groupOf(obj.apiVersion)) || (obj.kind === 'Namespace' && obj.apiVersion === 'v1') || podTemplateOf(obj) !== undefined;
      if (!checked) return;
      const created = new ApiObject(this, `o${this.count++}`, obj);
      this.origins.set(created, origin);
      if (isKruiseManager(obj)) this.addControlPlane(obj, origin);
    });
  }

  /** kruise-manager's Deployment: its `--feature-gates` are the gates of the cluster the app deploys to. */
  private addControlPlane(deployment: any, origin: string): void {
    const manager = (deployment.spec?.template?.spec?.containers ?? []).find((c: any) => c?.name === 'manager');
    const flag = (manager?.args ?? []).find((a: unknown) => typeof a === 'string' && a.startsWith('--feature-gates='));
    const settings = new Map<string, _GateSetting>();
    for (const part of (flag ?? '').slice('--feature-gates='.length).split(',').filter((p: string) => p !== '')) {
      const [gate, value] = part.split('=');
      settings.set(gate, { value: value === 'true', origin: `--feature-gates ${gate}`, explicit: true });
    }
    const gates = new _GateSet(settings);
    _registerGateSource(this, {
      path: this.node.path,
      place: contextPlace(origin),
      isEnabled: (gate: string) => {
        try {
          return gates.isEnabled(gate);
        } catch {
          return false;
        }
      },
      howToEnable: notOwnedHowToEnable,
    });
  }
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e: any) {
    throw new PlanInputError(`cannot read '${file}' (${e?.code ?? e}); give a manifest file or a synth output folder`);
  }
}

/** Whether `obj` is the kruise-manager Deployment of an OpenKruise install. */
function isKruiseManager(obj: any): boolean {
  return obj.kind === 'Deployment' && groupOf(obj.apiVersion) === 'apps' && obj.metadata?.name === 'kruise-controller-manager'
    && (obj.spec?.template?.spec?.containers ?? []).some((c: any) => c?.name === 'manager');
}

const checkedApps = new WeakSet<IConstruct>();
const hookedOwners = new WeakSet<IConstruct>();

/**
 * A context SidecarSet's collisions with the app's pods are reported by the
 * app's workloads (the SidecarSet reports nothing): once per synth, each
 * workload with such a problem gets a validation that returns it.
 */
function reportContextProblemsOnWorkloads(root: IConstruct): void {
  if (checkedApps.has(root)) return;
  checkedApps.add(root);
  root.node.addValidation({
    validate: () => {
      if (_contextsOf(root).length === 0) return [];
      for (const owner of appInjectionProblems(root).byOwner.keys()) {
        if (hookedOwners.has(owner)) continue;
        hookedOwners.add(owner);
        owner.node.addValidation({ validate: () => appInjectionProblems(owner).byOwner.get(owner) ?? [] });
      }
      return [];
    },
  });
}
