/**
 * Deploy order of an app that installs OpenKruise or Kruise Rollouts: each
 * control plane's chart before every chart holding objects that need it, and
 * inside a control plane the Namespaces and CRDs before everything else. The
 * app's policies come next, before the workloads they select
 * (fleet/deploy-order.ts).
 */
import { ApiObject, Chart } from 'cdk8s';
import { IConstruct } from 'constructs';
import type * as PolicyOrder from '../fleet/deploy-order';
import { ownerOf } from '../fleet/objects';
import { ARGO_CD_SYNC_WAVE, SYNC_WAVES, _markControlPlane, _reaches } from '../validation/deploy-waves';
import { _objectLine } from '../validation/object-line';
import { Warnings, fieldError } from '../validation/report';

// the waves and the dependency walk are shared with the app's policies (validation/deploy-waves.ts)
export { ARGO_CD_SYNC_WAVE, SYNC_WAVES, _inControlPlane, _reaches } from '../validation/deploy-waves';

/** API groups whose objects need OpenKruise's CRDs and webhooks. */
const KRUISE_GROUPS = ['apps.kruise.io', 'policy.kruise.io'];

const REGISTRY = Symbol.for('cdk8s-kruise.deploy-order');

/** What a control plane orders after itself. */
export interface _DeployDependents {
  /** The control plane kind, for messages, e.g. `KruiseControlPlane`. */
  readonly kind: string;
  /** What the objects are, for messages, e.g. `OpenKruise objects`. */
  readonly what: string;
  /** Whether an object needs the control plane installed before it. */
  readonly needs: (o: ApiObject) => boolean;
}

interface Registered {
  readonly controlPlane: IConstruct;
  readonly dependents: _DeployDependents;
}

interface Registry {
  readonly controlPlanes: Registered[];
  readonly warned: Set<string>;
}

/** Control planes whose own objects need OpenKruise (kruise-rollout-manager watches the kinds it discovers at start). */
const needsOpenKruise = new WeakSet<IConstruct>();

/**
 * Mark a control plane whose objects must come after OpenKruise's.
 * @internal
 */
export function _needsOpenKruise(controlPlane: IConstruct): void {
  needsOpenKruise.add(controlPlane);
}

/** OpenKruise's control plane: charts with OpenKruise objects (or with a control plane that needs OpenKruise) come after it. */
const OPENKRUISE_DEPENDENTS: _DeployDependents = {
  kind: 'KruiseControlPlane',
  what: 'OpenKruise objects',
  needs: o => isKruiseObject(o) || o.node.scopes.some(s => needsOpenKruise.has(s)),
};

function isFirstWave(o: ApiObject): boolean {
  return (o.kind === 'CustomResourceDefinition' && o.apiVersion.startsWith('apiextensions.k8s.io/'))
    || (o.kind === 'Namespace' && o.apiVersion === 'v1');
}

function isKruiseObject(o: ApiObject): boolean {
  const group = o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : '';
  return KRUISE_GROUPS.includes(group);
}

function apiObjectsOf(scope: IConstruct): ApiObject[] {
  return scope.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject);
}

/**
 * Order the deploy of `controlPlane`: annotate its objects with Argo CD sync
 * waves when asked (now, so that a later annotation of the user wins), and
 * register, once per app, a check that adds the chart and object
 * dependencies at synth, when every chart of the app exists. `App.synth`
 * validates the app before it orders charts, so the dependencies added here
 * decide file names and order.
 *
 * @internal
 */
export function _orderDeploy(controlPlane: IConstruct, argoCdSyncWaves: boolean, dependents: _DeployDependents = OPENKRUISE_DEPENDENTS): void {
  _markControlPlane(controlPlane);
  if (argoCdSyncWaves) {
    for (const o of apiObjectsOf(controlPlane)) {
      o.metadata.addAnnotation(ARGO_CD_SYNC_WAVE, isFirstWave(o) ? SYNC_WAVES.controlPlaneFirst : SYNC_WAVES.controlPlane);
    }
    // the app's policies go between the control plane and the workloads
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    (require('../fleet/deploy-order') as typeof PolicyOrder).KruiseDeployOrder.argoCdSyncWaves(controlPlane);
  }
  const root = controlPlane.node.root as IConstruct & { [REGISTRY]?: Registry };
  let registry = root[REGISTRY];
  if (!registry) {
    const created: Registry = { controlPlanes: [], warned: new Set() };
    registry = created;
    Object.defineProperty(root, REGISTRY, { value: created });
    root.node.addValidation({ validate: () => { applyOrder(root, created); return []; } });
  }
  registry.controlPlanes.push({ controlPlane, dependents });
}

function applyOrder(root: IConstruct, registry: Registry): void {
  // Inside each control plane chart: its Namespaces and CRDs first.
  for (const { controlPlane: cp } of registry.controlPlanes) {
    const chart = Chart.of(cp);
    const first = apiObjectsOf(cp).filter(isFirstWave);
    if (first.length === 0) continue;
    const rest = apiObjectsOf(chart).filter(o => Chart.of(o) === chart && !isFirstWave(o));
    for (const o of rest) {
      // an object a Namespace or CRD already depends on stays before it
      const deps = first.filter(f => !_reaches(f, o));
      if (deps.length > 0) o.node.addDependency(...deps);
    }
  }

  // Every chart holding objects that need a control plane after that control plane's chart.
  const charts = root.node.findAll().filter((c): c is Chart => Chart.isChart(c));
  for (const { controlPlane, dependents } of registry.controlPlanes) {
    const cpChart = Chart.of(controlPlane);
    for (const chart of charts) {
      if (cpChart === chart) continue;
      const needing = apiObjectsOf(chart).find(o => Chart.of(o) === chart && dependents.needs(o));
      if (!needing) continue;
      if (_reaches(cpChart, chart)) {
        const key = `${chart.node.path} ${cpChart.node.path}`;
        if (!registry.warned.has(key)) {
          registry.warned.add(key);
          // the first object of the chart that needs the control plane says it for the chart (its L2, when it is one's)
          Warnings.add(ownerOf(needing), _objectLine(needing, fieldError('kind', needing.kind,
            `needs the ${dependents.kind} at '${controlPlane.node.path}' installed first, but the control plane's chart '${cpChart.node.path}' depends on chart '${chart.node.path}' `
            + `(or contains it), so the manifests of chart '${chart.node.path}' cannot be ordered after the control plane`,
            `apply the control plane first yourself, or move the ${dependents.what} to a chart the control plane chart does not depend on`)));
        }
        continue;
      }
      chart.addDependency(cpChart);
    }
  }
}
