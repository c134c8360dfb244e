import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, App, Chart, Yaml } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { _registerContext, contextPlace } from './context-registry';
import { groupOf, ownerOf, podTemplateOf } from './objects';
import { _admissionEngine } from '../admission/engine';
import { _GateSet, _GateSetting } from '../control-plane/_gates';
import { PlanInputError } from '../plan/errors';
import { manifestFiles, parseManifests } from '../plan/sources';
import { KubernetesCluster, fromVersionInfo, parseKubernetes, vendorOnly, versionInfoInText } from '../releases/kubernetes';
import { isManagerOf, managerRelease } from '../releases/live';
import { gateDefaults, parseRelease, Product, Release } from '../releases/registry';
import { _declareRelease } from '../releases/target';
import { _registerGateSource, notOwnedHowToEnable } from '../validation/gates';
import { _markCheckRounds } from '../validation/render';

/**
 * The vendor shape of a cluster's Kubernetes: what its API server's
 * `/version` looks like, and what the vendor adds to a cluster.
 */
export enum KubernetesVendor {
  /** Amazon EKS: gitVersion `v1.31.4-eks-2d5f260`, /version minor `"31+"` (read from the gitVersion). */
  EKS = 'EKS',
  /** Google GKE: gitVersion `v1.31.5-gke.1234000`, /version minor `"31+"` (read from the gitVersion). */
  GKE = 'GKE',
  /** Azure AKS: an upstream gitVersion (`v1.31.2`), so it is declared, never read. */
  AKS = 'AKS',
  /** Any other cluster (kubeadm, k3s, kind, a distribution of one's own). */
  OTHER = 'OTHER',
}

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
   * (a `List`; any kinds, `-o yaml` too), and the API server's version saved
   * with `kubectl get --raw /version > version.json` (the cluster's
   * Kubernetes, as `kubernetes` declares it).
   *
   * @default - none; add them with `addLiveState()`
   */
  readonly liveState?: string[];

  /**
   * The OpenKruise release the app's cluster runs: a line (`"1.8"`, its
   * newest release) or a release of it (`"1.8.2"`, `"v1.8.2"`). Every check,
   * L2 and command of the app follows it (the API versions the L2s write,
   * the fields and rules admission applies, the gate defaults); another
   * declaration of a different release (a control plane in the app, the
   * image of a live kruise-manager) fails synth naming both. Installs nothing.
   *
   * @default - the release of a control plane or live kruise-manager of the app, else "1.9"
   */
  readonly openKruise?: string;

  /**
   * The Kruise Rollouts release the app's cluster runs: a line (`"0.5"`) or a
   * release of it (`"0.5.3"`). Installs nothing.
   *
   * @default - the release of a Kruise Rollouts control plane or live kruise-rollout-manager of the app, else "0.6"
   */
  readonly kruiseRollouts?: string;

  /**
   * The Kubernetes the app's cluster runs: its API server's `/version`
   * gitVersion (`"v1.31.4-eks-2d5f260"`, `"v1.31.5-gke.1234000"`, as
   * `kubectl version` prints the server's), or a minor (`"1.31"`). Known
   * failures of the targeted releases on that Kubernetes fail synth or warn,
   * with the fix (docs/existing-clusters.md, "Managed clusters"); another
   * declaration of a different cluster (another context, a saved `/version`
   * in live state) fails synth naming both. Installs nothing.
   *
   * @default - the Kubernetes of a `/version` in the live state, else none: nothing is checked against the cluster's Kubernetes
   */
  readonly kubernetes?: string;

  /**
   * The vendor shape of the cluster's Kubernetes. EKS and GKE are read from
   * the gitVersion in `kubernetes`; AKS cannot be, so an AKS cluster is
   * declared here.
   *
   * @default - read from `kubernetes` (EKS, GKE), else not declared
   */
  readonly kubernetesVendor?: KubernetesVendor;

  /**
   * The OpenKruise feature gates the cluster's kruise-manager runs with, as
   * its `--feature-gates` sets them (the release's defaults apply to the
   * others). The gate cross-checks judge the app's objects by them; names the
   * release does not have fail synth.
   *
   * @default - the gates of a control plane or live kruise-manager of the app; without one, the release's defaults and no gate cross-check
   */
  readonly featureGates?: { [gate: string]: boolean };
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
  /** The vendor declared (`kubernetesVendor`), for a /version read later. */
  private vendor?: KubernetesVendor;
  private readonly reportOn: IConstruct;
  private count = 0;

  /**
   * @param scope any construct of the app the context is for (the context is attached to its root)
   * @param id the context's id: its objects' construct paths start with it
   * @param props what to read into it
   */
  constructor(scope: Construct, id: string, props: KruiseContextProps = {}) {
    super(new App(), id);
    this.appRoot = scope.node.root;
    this.reportOn = scope;
    _markCheckRounds(this.appRoot);
    registered.set(this.appRoot, [...(registered.get(this.appRoot) ?? []), this]);
    _registerContext(this.appRoot, { scope: this, originOf: o => this.origins.get(o) ?? ownerOf(o).node.path });
    // the app's engine judges the app's objects against the context's (a context SidecarSet's collisions are the app workloads' problems)
    _admissionEngine(this.appRoot);
    this.declareCluster(props);
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
   * `kubectl get ... -A -o json` (a `List`; `-o yaml` works too), whose
   * status and server-owned metadata are dropped; or the API server's
   * version, saved with `kubectl get --raw /version > version.json` (or
   * `kubectl version -o json`), which declares the cluster's Kubernetes as
   * the `kubernetes` prop does.
   *
   * @param file the file
   */
  public addLiveState(file: string): void {
    const origin = path.relative(process.cwd(), path.resolve(file)) || file;
    const text = this.read(() => readText(file));
    const version = versionInfoInText(text);
    if (version !== undefined) {
      const cluster = this.read(() => {
        try {
          return fromVersionInfo(version, `'${origin}'`, this.vendor);
        } catch (e: any) {
          throw new PlanInputError(e.message);
        }
      });
      this.declareKubernetes(cluster, `read from the /version of '${origin}' (context '${this.node.path}')`, `/version (${origin})`);
      return;
    }
    const objects = this.read(() => parseManifests(text, origin));
    this.addObjects(objects.map(o => {
      const { status, ...rest } = o;
      void status;
      const { managedFields, resourceVersion, uid, creationTimestamp, generation, selfLink, ...metadata } = rest.metadata ?? {};
      void managedFields; void resourceVersion; void uid; void creationTimestamp; void generation; void selfLink;
      return { ...rest, metadata };
    }), origin);
  }

  /** `openKruise`, `kruiseRollouts`, `featureGates`, `kubernetes` and `kubernetesVendor`: the app's target, declared here. */
  private declareCluster(props: KruiseContextProps): void {
    const releases: Partial<Record<Product, Release>> = {};
    const at = `KruiseContext at '${this.node.path}'`;
    if (props.openKruise !== undefined) releases.openkruise = parseRelease('openkruise', props.openKruise, `${at}: openKruise`);
    if (props.kruiseRollouts !== undefined) releases.rollouts = parseRelease('rollouts', props.kruiseRollouts, `${at}: kruiseRollouts`);
    if (props.kubernetesVendor !== undefined && !Object.values(KubernetesVendor).includes(props.kubernetesVendor)) {
      throw new Error(`${at}: kubernetesVendor: ${JSON.stringify(props.kubernetesVendor)} is not a vendor; use one of KubernetesVendor.EKS, GKE, AKS or OTHER`);
    }
    this.vendor = props.kubernetesVendor;
    let kubernetes: KubernetesCluster | undefined;
    if (props.kubernetes !== undefined) kubernetes = parseKubernetes(props.kubernetes, `${at}: kubernetes`, props.kubernetesVendor);
    else if (props.kubernetesVendor !== undefined) kubernetes = vendorOnly(props.kubernetesVendor);
    if (Object.keys(releases).length === 0 && props.featureGates === undefined && kubernetes === undefined) return;
    _declareRelease(this.appRoot, {
      by: 'KruiseContext',
      path: this.node.path,
      declared: `declared at '${this.node.path}'`,
      reportOn: this.reportOn,
      prop: { openkruise: 'openKruise', rollouts: 'kruiseRollouts' },
      releases,
      featureGates: props.featureGates ? { ...props.featureGates } : undefined,
      kubernetes,
      kubernetesProp: 'kubernetes',
      moveTo: {
        openkruise: v => `upgrade the cluster's OpenKruise to ${v} and declare openKruise: '${v}'`,
        rollouts: v => `upgrade the cluster's Kruise Rollouts to ${v} and declare kruiseRollouts: '${v}'`,
      },
    });
    if (props.featureGates !== undefined) {
      const settings = new Map<string, _GateSetting>();
      for (const [gate, value] of Object.entries(props.featureGates)) settings.set(gate, { value, origin: `featureGates.${gate}`, explicit: true });
      this.registerGates(settings, releases.openkruise, `at '${this.node.path}'`, `set featureGates: { <gate>: true } on the KruiseContext at '${this.node.path}' if the cluster runs with it, or ask the cluster's owners to turn it on`);
    }
  }

  /** The cluster's Kubernetes, read from live state: a declaration of the app's target. */
  private declareKubernetes(cluster: KubernetesCluster, declared: string, prop: string): void {
    _declareRelease(this.appRoot, {
      by: 'KruiseContext',
      path: this.node.path,
      declared,
      reportOn: this.reportOn,
      prop: {},
      releases: {},
      kubernetes: cluster,
      kubernetesProp: prop,
    });
  }

  /** A gate source of the cluster: its gates, with the release's defaults for the others (1.9's when the release is unknown). */
  private registerGates(settings: Map<string, _GateSetting>, release: Release | undefined, place: string, howTo: string): void {
    const gates = release ? new _GateSet(settings, gateDefaults(release), `v${release.version}`) : new _GateSet(settings);
    const problems = gates.problems();
    if (problems.length > 0) {
      this.reportOn.node.addValidation({ validate: () => problems.map(p => `KruiseContext ${p}`) });
    }
    _registerGateSource(this, {
      path: this.node.path,
      place,
      isEnabled: (gate: string) => {
        try {
          return gates.isEnabled(gate);
        } catch {
          return false;
        }
      },
      howToEnable: (gate: string) => howTo.replace('<gate>', gate),
    });
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
      // the CRDs of OpenKruise kinds say which kinds the cluster has beyond its chart's (admission: a kind the chart leaves out)
      const kruiseCrd = obj.kind === 'CustomResourceDefinition' && groupOf(obj.apiVersion) === 'apiextensions.k8s.io' && String(obj.metadata?.name).endsWith('.kruise.io');
      const checked = CHECKED_GROUPS.has(groupOf(obj.apiVersion)) || (obj.kind === 'Namespace' && obj.apiVersion === 'v1') || podTemplateOf(obj) !== undefined || kruiseCrd;
      if (!checked) return;
      const created = new ApiObject(this, `o${this.count++}`, obj);
      this.origins.set(created, origin);
      if (isManagerOf(obj, 'openkruise')) this.addControlPlane(obj, origin);
      if (isManagerOf(obj, 'rollouts')) this.addRolloutControlPlane(obj, origin);
    });
  }

  /**
   * kruise-manager's Deployment: its image tag is the release of the cluster
   * the app deploys to, its `--feature-gates` the gates.
   */
  private addControlPlane(deployment: any, origin: string): void {
    const manager = (deployment.spec?.template?.spec?.containers ?? []).find((c: any) => c?.name === 'manager');
    const flag = (manager?.args ?? []).find((a: unknown) => typeof a === 'string' && a.startsWith('--feature-gates='));
    const settings = new Map<string, _GateSetting>();
    for (const part of (flag ?? '').slice('--feature-gates='.length).split(',').filter((p: string) => p !== '')) {
      const [gate, value] = part.split('=');
      settings.set(gate, { value: value === 'true', origin: `--feature-gates ${gate}`, explicit: true });
    }
    const release = this.liveRelease('openkruise', deployment, origin);
    const declared: Record<string, boolean> = {};
    for (const [g, s] of settings) declared[g] = s.value;
    _declareRelease(this.appRoot, {
      by: 'KruiseContext',
      path: this.node.path,
      declared: `read from the kruise-manager of '${origin}' (context '${this.node.path}')`,
      reportOn: this.reportOn,
      prop: { openkruise: `kruise-manager image (${origin})` },
      releases: release ? { openkruise: release } : {},
      featureGates: declared,
      moveTo: { openkruise: v => `upgrade the cluster's OpenKruise to ${v}, then save its live state again` },
    });
    // a gate kruise-manager does not know: it would not start, so the live state cannot hold one; the 1.9 names when the tag says nothing
    const gates = release ? new _GateSet(settings, gateDefaults(release), `v${release.version}`) : new _GateSet(settings);
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

  /** kruise-rollout-manager's Deployment: its image tag is the Kruise Rollouts release of the cluster. */
  private addRolloutControlPlane(deployment: any, origin: string): void {
    const release = this.liveRelease('rollouts', deployment, origin);
    if (!release) return;
    _declareRelease(this.appRoot, {
      by: 'KruiseContext',
      path: this.node.path,
      declared: `read from the kruise-rollout-manager of '${origin}' (context '${this.node.path}')`,
      reportOn: this.reportOn,
      prop: { rollouts: `kruise-rollout-manager image (${origin})` },
      releases: { rollouts: release },
    });
  }

  /**
   * The release a live manager's image tag names (none for a tag that is no
   * version); a version tag must be a modelled release.
   */
  private liveRelease(product: Product, deployment: any, origin: string): Release | undefined {
    return this.read(() => {
      try {
        return managerRelease(deployment, product, `the live manager of '${origin}'`);
      } catch (e: any) {
        throw new PlanInputError(`${e.message}; to check the app against another release, declare it with ${product === 'openkruise' ? 'openKruise' : 'kruiseRollouts'} and leave this live state out`);
      }
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

