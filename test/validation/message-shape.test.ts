/**
 * The one shape of every message (test/util/message-shape.ts), and the test
 * setup that holds every message any test makes the library print to it
 * (test/util/every-message-shaped.ts).
 */
import { ApiObject, Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { CloneSet, KruiseControlPlane, KruiseValidation, SidecarSet, Warnings } from '../../src';
import { takePrinted } from '../util/every-message-shaped';
import { MESSAGE_SHAPE, synthErrorLines, unshaped } from '../util/message-shape';

describe('the shape', () => {
  test('holds an object, an included object, an object without a name and a construct that is not one object', () => {
    expect(unshaped([
      '[test/web] CloneSet "web" (apps.kruise.io/v1alpha1) spec.replicas: -1 is negative; use 0 or more',
      '[test/obj/web-cloneset] CloneSet "web" (apps.kruise.io/v1alpha1; objects.yaml, document 2) spec.selector: (unset) is required; set a pod selector',
      '[test/obj] CloneSet (apps.kruise.io/v1alpha1) metadata.name: (unset) is required; name the object',
      '[test/ns] Namespace "payments" (v1) metadata.labels["a"]: "b" is odd; fix it',
      '[kruise/ControlPlane] KruiseControlPlane manager.replicas: 2.5 must be an integer from 0 to 1000; use 2 or more replicas',
      '[test/x] KruiseInclude url: "a.yaml" holds document 2, a second CloneSet "web"; include each object once',
      '[test/thing] ConfigMap "c" (v1) data: {"a":"b"} is read at start; restart the pods (a warning, treated as an error)',
    ])).toEqual([]);
  });

  test('refuses a line without the object, the field, the value or the fix', () => {
    const lines = [
      '[test/ws] WorkloadSpread needs the OpenKruise feature gate WorkloadSpread, which is off; set featureGates: { WorkloadSpread: true }',
      '[billing] chart \'billing\' holds Deployment "api", whose pods a SidecarSet selects; move the policies to a chart of their own',
      '[] warning treated as error: [test/thing] something surprising',
      '[test/web] CloneSet "web" (apps.kruise.io/v1alpha1) spec.scaleStrategy.podsToDelete: OpenKruise only accepts names of pods it owns; add them later',
      '[test/web] CloneSet "web" (apps.kruise.io/v1alpha1) spec.replicas: -1 is negative',
      '[kruise/ControlPlane] manager.replicas: 2.5 must be an integer from 0 to 1000; use 2 or more replicas',
      '[test/web] image pre-download is skipped for 3 replica(s); OpenKruise only pre-downloads for more than 3',
    ];
    expect(unshaped(lines)).toEqual(lines);
  });
});

describe('every message a test makes the library print is held to the shape', () => {
  test('errors of a synth are recorded, each in the shape', () => {
    takePrinted();
    const chart = Testing.chart();
    new ApiObject(chart, 'raw', { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'web' }, spec: { replicas: -1 } });
    KruiseValidation.enable(chart);
    let error = '';
    try { Testing.synth(chart); } catch (e: any) { error = e.message; }
    const lines = synthErrorLines(error);
    expect(lines.length).toBeGreaterThan(0);
    expect(takePrinted()).toEqual(expect.arrayContaining(lines));
    for (const l of lines) expect(l).toMatch(MESSAGE_SHAPE);
  });

  test('warnings are recorded as they are computed, whether printed at synth or listed', () => {
    takePrinted();
    const app = Testing.app();
    const cp = new KruiseControlPlane(new Chart(app, 'kruise'), 'cp', { featureGates: { KruiseDaemon: false, ImagePullJobGate: false }, daemon: { logLevel: 2 } });
    const web = new CloneSet(new Chart(app, 'shop'), 'web', { replicas: 3, containers: [{ image: 'nginx:1.27' }], podsToDelete: ['web-x1'] });
    const warnings = Warnings.of(app);
    expect(warnings).toEqual([
      `[${cp.node.path}] KruiseControlPlane daemon: ["logLevel"] is set but the KruiseDaemon gate is off, so kruise-daemon is not installed and these options have no effect; `
      + 'remove daemon, or set featureGates.KruiseDaemon to true',
      `[${web.node.path}] CloneSet "${web.name}" (apps.kruise.io/v1alpha1) spec.scaleStrategy.podsToDelete: ["web-x1"] names pods to delete, but OpenKruise only accepts names of pods this CloneSet `
      + 'already owns, so the first apply of a new CloneSet with podsToDelete is refused; add them (podsToDelete or deletePods()) once the CloneSet runs',
    ]);
    expect(takePrinted()).toEqual(expect.arrayContaining(warnings));
  });

  test('a message not in the shape is caught', () => {
    takePrinted();
    const chart = Testing.chart();
    new Construct(chart, 'odd').node.addValidation({ validate: () => ['something is wrong'] });
    Warnings.add(new Construct(chart, 'odder'), 'something is surprising');
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(() => Testing.synth(chart)).toThrow('[test/odd] something is wrong');
    warn.mockRestore();
    // taken here, so this test does not fail for them: any other test that printed them would
    expect(unshaped(takePrinted())).toEqual(['[test/odder] something is surprising', '[test/odd] something is wrong']);
  });

  test('the validations of cdk8s-plus-28\'s own constructs speak for that library and are left out', () => {
    takePrinted();
    const chart = Testing.chart();
    new kplus.Ingress(chart, 'ing');
    expect(() => Testing.synth(chart)).toThrow('[test/ing] ingress with no rules or default backend');
    expect(takePrinted()).toEqual([]);
  });

  test('an app-wide check is recorded too: an injection collision names the field of the SidecarSet', () => {
    takePrinted();
    const app = Testing.app();
    new SidecarSet(new Chart(app, 'platform'), 'log', {
      metadata: { name: 'log' }, selector: kplus.LabelSelector.of({ labels: { logging: 'on' } }), containers: [{ name: 'web', image: 'fluent-bit:3.1' }],
    });
    new kplus.Deployment(new Chart(app, 'shop'), 'web', { metadata: { name: 'web' }, podMetadata: { labels: { logging: 'on' } }, containers: [{ name: 'web', image: 'nginx:1.27' }] });
    expect(() => app.synth()).toThrow();
    expect(takePrinted()).toEqual([
      '[platform/log] SidecarSet "log" (apps.kruise.io/v1beta1) spec.containers[0].name: "web" is also the name of a container of the pods of Deployment "web" at \'shop/web\', '
      + 'so OpenKruise silently replaces that container with the sidecar; rename one of them',
    ]);
  });
});
