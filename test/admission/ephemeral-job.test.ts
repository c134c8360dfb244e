import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Chart, Testing } from 'cdk8s';
import { KruiseContext, KruiseControlPlane } from '../../src';
import { ephemeralJobAdmission as mod } from '../../src/admission/ephemeral-job';
import { asCreated, judgeManifest, manifestWarnings } from '../../src/admission/judge';
import { GATE_DEFAULTS } from '../../src/control-plane/_gates';
import { contextFromFlags } from '../../src/releases/flags';
import { KruiseValidation } from '../../src/validation/register';
import { validateManifest } from '../../src/validation/schemas';
import { cases } from '../fixtures/admission/ephemeral-job';
import { expectCase } from '../util/admission';

const ctx = { gate: (g: string) => GATE_DEFAULTS[g] === true };
const judge = (m: Record<string, any>) => mod.validate(mod.defaults ? mod.defaults(m, ctx) : m, ctx);

describe.each(cases)('$id', c => {
  test('the manifest passes the schema', () => expect(validateManifest(asCreated(c.manifest)).filter(i => !i.missing)).toEqual([]));
  test('the module gives the case verdict, exactly', () => expect(judge(c.manifest)).toEqual(c.allowed ? [] : [c.message]));
  test('every entry path gives the same verdict', () => expectCase(c));
});

test('a forbidden field is set as Go sees it: an empty list or probe is set, resources without fields and an empty subPath are not', () => {
  const m = JSON.parse(JSON.stringify(cases[0].manifest));
  Object.assign(m.spec.template.ephemeralContainers[0], { resources: {}, volumeMounts: [{ name: 'd', mountPath: '/d', subPath: '' }] });
  expect(judge(m)).toEqual([]);
  Object.assign(m.spec.template.ephemeralContainers[0], { ports: [], livenessProbe: {}, resources: { limits: {} } });
  expect(judge(m)).toEqual([
    'spec.template.ephemeralContainers[0].ports: [] is not allowed in an ephemeral container; remove ports',
    'spec.template.ephemeralContainers[0].resources: {"limits":{}} is not allowed in an ephemeral container; remove resources',
    'spec.template.ephemeralContainers[0].livenessProbe: {} is not allowed in an ephemeral container; remove livenessProbe',
  ]);
});

test('only the ephemeral containers are checked: selector and counts are left alone, as upstream does', () => {
  const m = JSON.parse(JSON.stringify(cases[0].manifest));
  m.spec.selector = {};
  m.spec.replicas = -1;
  m.metadata.name = 'Debug.Web';
  expect(judge(m)).toEqual([]);
});

test('validate never throws on odd but schema-valid objects', () => {
  const odd = [
    { spec: { selector: {}, template: { ephemeralContainers: [] } } },
    { spec: { selector: {}, template: { ephemeralContainers: [{ name: 'a', env: [{}], envFrom: [{}], volumeMounts: [{}], securityContext: {} }] } } },
    { spec: { template: {} } },
    {},
  ];
  for (const o of odd) {
    const m = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'EphemeralJob', ...o };
    expect(() => mod.validate(m, ctx)).not.toThrow();
  }
});

describe('the chart of 1.7 and 1.8 installs no EphemeralJob CRD (openkruise/charts versions/kruise/1.7.5 and 1.8.3: 17 CRDs, none of them EphemeralJob\'s)', () => {
  const CRD = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'ephemeraljobs.apps.kruise.io' } };
  const appWith = (openKruise: string, extra: (app: App, chart: Chart, context: KruiseContext) => void = () => undefined): App => {
    const app = Testing.app();
    const context = new KruiseContext(app, 'cluster', { openKruise });
    const chart = new Chart(app, 'c');
    new ApiObject(chart, 'debug', cases[0].manifest as any);
    extra(app, chart, context);
    KruiseValidation.enable(chart);
    return app;
  };
  const errorsOf = (app: App): string[] => {
    try {
      app.synthYaml();
      return [];
    } catch (e: any) {
      return String(e.message).split('\n').slice(1).map(l => l.trim()).filter(l => l !== '');
    }
  };

  test('an app targeting 1.8 is refused an EphemeralJob, as such a cluster answers it', () => {
    expect(errorsOf(appWith('1.8'))).toEqual([
      '[c/debug] EphemeralJob "debug-web" (apps.kruise.io/v1alpha1) kind: "EphemeralJob" has no resource in a cluster of OpenKruise 1.8: its chart does not install the CRD '
      + 'ephemeraljobs.apps.kruise.io, so the API server answers "no matches for kind EphemeralJob in version apps.kruise.io/v1alpha1"; this app targets 1.8 (declared at \'cluster\'); '
      + 'install the CRD (config/crd/bases/apps.kruise.io_ephemeraljobs.yaml of the release\'s sources) and add it to the app, '
      + 'or read the cluster\'s CRDs into its KruiseContext (addLiveState), or upgrade the cluster to OpenKruise 1.9 and declare that release',
    ]);
    expect(errorsOf(appWith('1.9'))).toEqual([]);
  });

  test('the CRD in the app, or in the cluster\'s live state, is the cluster having it', () => {
    expect(errorsOf(appWith('1.7', (_app, chart) => { new ApiObject(chart, 'crd', CRD); }))).toEqual([]);
    const live = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kruise-crds-')), 'crds.json');
    fs.writeFileSync(live, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [CRD] }));
    expect(errorsOf(appWith('1.8', (_app, _chart, context) => context.addLiveState(live)))).toEqual([]);
  });

  test('a control plane of 1.8 does not install it either', () => {
    const app = Testing.app();
    new KruiseControlPlane(new Chart(app, 'kruise'), 'kruise', { release: '1.8' });
    expect(app.charts.flatMap(c => c.toJson()).filter(o => o.kind === 'CustomResourceDefinition').map(o => o.metadata.name)).not.toContain('ephemeraljobs.apps.kruise.io');
    expect(app.charts.flatMap(c => c.toJson()).filter(o => o.kind === 'CustomResourceDefinition')).toHaveLength(17);
  });
});

test('with the CRD installed, 1.7 and 1.8 judge an ephemeral container\'s security context with their Kubernetes libraries', () => {
  const m = JSON.parse(JSON.stringify(cases[0].manifest));
  m.spec.template.ephemeralContainers[0].securityContext = { procMount: 'Unmasked', appArmorProfile: { type: 'Localhost' } };
  const judged = (openkruise: string) => {
    const withCrd = { ...contextFromFlags({ openkruise }), crdInstalled: (name: string) => name === 'ephemeraljobs.apps.kruise.io' };
    const { errors } = judgeManifest(m, withCrd);
    return errors.length > 0 ? errors : manifestWarnings(m, withCrd, { objects: () => [] });
  };
  // Kubernetes 1.28's ValidateSecurityContext knows no appArmorProfile and lets procMount Unmasked be
  expect(judged('1.7')).toEqual([
    'spec.template.ephemeralContainers[0].securityContext.appArmorProfile: {"type":"Localhost"} is ignored by OpenKruise 1.7, whose Kubernetes 1.28 pod types have no such field, '
    + 'so its pods never get it (OpenKruise 1.8 has it); the target is 1.7 (given with --openkruise); remove it, or keep it for when the cluster runs OpenKruise 1.8 (it takes effect then)',
  ]);
  for (const release of ['1.8', '1.9']) {
    expect(judged(release)).toEqual([
      'spec.template.ephemeralContainers[0].securityContext.appArmorProfile.localhostProfile: (unset) must be set when the type is Localhost; name the profile loaded on the node',
      'spec.template.ephemeralContainers[0].securityContext.procMount: "Unmasked" needs a pod with its own user namespace (spec.securityContext.hostUsers: false); '
      + 'set hostUsers: false in the pod\'s securityContext, or use procMount Default',
    ]);
  }
});
