/**
 * Objects of another cdk8s-plus given to our constructs fail with a sentence
 * naming the construct, the prop and the fix. cdk8s-plus-33 is what
 * `cdk8s init typescript-app` installs today; TypeScript refuses these calls,
 * so each is written as JavaScript (or a transpile-only ts-node) would make it.
 */
import { Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as kplus33 from 'cdk8s-plus-33';
import {
  AdvancedCronJob, AdvancedCronJobTemplate, CloneSet, CloneSetUpdateStrategy, DistributedResource, KruiseControlPlane,
  PodUnavailableBudget, SidecarSet,
} from '../../src';

const foreign = (x: unknown): any => x;
let chart: Chart;
beforeEach(() => {
  chart = Testing.chart();
});

const FIX = "but cdk8s-kruise is built on cdk8s-plus-28 and takes only its objects; create it with cdk8s-plus-28 (import * as kplus from 'cdk8s-plus-28'; npm install cdk8s-plus-28@^2.5.6)";
// eslint-disable-next-line @typescript-eslint/no-require-imports
const V33 = require('cdk8s-plus-33/package.json').version;

test('an EnvFrom of a cdk8s-plus-33 ConfigMap in a container', () => {
  const cm = new kplus33.ConfigMap(chart, 'settings');
  expect(() => new CloneSet(chart, 'web', { containers: [{ image: 'nginx', envFrom: [foreign(kplus33.Env.fromConfigMap(cm))] }] }))
    .toThrow(`CloneSet at 'test/web': props.containers[0].envFrom[0] holds a cdk8s-plus-33 object (EnvFrom, ${V33}), ${FIX}`);
});

test('a cdk8s-plus-33 Volume mounted by a container', () => {
  const v = kplus33.Volume.fromEmptyDir(chart, 'cache', 'cache');
  expect(() => new CloneSet(chart, 'web', { containers: [{ image: 'nginx', volumeMounts: [{ path: '/cache', volume: foreign(v) }] }] }))
    .toThrow(`CloneSet at 'test/web': props.containers[0].volumeMounts[0].volume holds a cdk8s-plus-33 object (Volume, ${V33}), ${FIX}`);
});

test('a cdk8s-plus-33 value inside one of our strategies', () => {
  expect(() => new CloneSet(chart, 'web', {
    containers: [{ image: 'nginx' }],
    updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible({ partition: foreign(kplus33.PercentOrAbsolute.percent(50)) }),
  })).toThrow(/^CloneSet at 'test\/web': props\.updateStrategy\.\w+\.partition holds a cdk8s-plus-33 object \(PercentOrAbsolute, /);
});

test('a cdk8s-plus-33 Deployment as the target of a PodUnavailableBudget', () => {
  const d = new kplus33.Deployment(chart, 'api', { containers: [{ image: 'nginx' }] });
  expect(() => new PodUnavailableBudget(chart, 'budget', { target: foreign(d), maxUnavailable: kplus.PercentOrAbsolute.absolute(1) }))
    .toThrow(`PodUnavailableBudget at 'test/budget': props.target holds a cdk8s-plus-33 object (Deployment, ${V33}), ${FIX}`);
});

test('a cdk8s-plus-33 Secret to distribute', () => {
  const s = new kplus33.Secret(chart, 'pull', { stringData: { token: 'x' } });
  expect(() => DistributedResource.fromSecret(foreign(s)))
    .toThrow(`DistributedResource.fromSecret(): secret holds a cdk8s-plus-33 object (Secret, ${V33}), ${FIX}`);
});

test('a cdk8s-plus-33 LabelSelector of a SidecarSet, an EnvValue of the control plane, a job template container', () => {
  expect(() => new SidecarSet(chart, 'agent', { selector: foreign(kplus33.LabelSelector.of({ labels: { a: 'b' } })), containers: [{ name: 'agent', image: 'agent' }] }))
    .toThrow(`SidecarSet at 'test/agent': props.selector holds a cdk8s-plus-33 object (LabelSelector, ${V33}), ${FIX}`);
  expect(() => new KruiseControlPlane(chart, 'kruise', { daemon: { extraEnv: { HTTPS_PROXY: foreign(kplus33.EnvValue.fromValue('http://proxy:3128')) } } }))
    .toThrow(`KruiseControlPlane at 'test/kruise': props.daemon.extraEnv.HTTPS_PROXY holds a cdk8s-plus-33 object (EnvValue, ${V33}), ${FIX}`);
  const cm = new kplus33.ConfigMap(chart, 'cm');
  expect(() => new AdvancedCronJob(chart, 'nightly', {
    schedule: '0 3 * * *',
    template: AdvancedCronJobTemplate.job({ containers: [{ image: 'busybox', envFrom: [foreign(kplus33.Env.fromConfigMap(cm))] }] }),
  })).toThrow(/^AdvancedCronJob at 'test\/nightly': props\.template\.[\w.]+\.containers\[0\]\.envFrom\[0\] holds a cdk8s-plus-33 object \(EnvFrom, /);
});

test('an object of another copy of cdk8s-plus-28', () => {
  let other: any;
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    other = require('cdk8s-plus-28');
  });
  expect(() => new CloneSet(chart, 'web', { containers: [{ image: 'nginx' }], updateStrategy: CloneSetUpdateStrategy.recreate({ partition: other.PercentOrAbsolute.absolute(1) }) }))
    .toThrow(/^CloneSet at 'test\/web': props\.updateStrategy\.\w+\.partition holds a cdk8s-plus-28 object \(PercentOrAbsolute, 2\.5\.6\) from another copy of cdk8s-plus-28 than the one cdk8s-kruise uses \(2\.5\.6\); install one copy, so that `npm ls cdk8s-plus-28` shows one version \(npm dedupe\)$/);
});

test('cdk8s-plus-28 objects, our own objects and plain values pass', () => {
  const cm = new kplus.ConfigMap(chart, 'settings');
  const web = new CloneSet(chart, 'web', {
    containers: [{ image: 'nginx', envFrom: [kplus.Env.fromConfigMap(cm)], volumeMounts: [{ path: '/c', volume: kplus.Volume.fromEmptyDir(chart, 'c', 'c') }] }],
    updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible({ partition: kplus.PercentOrAbsolute.percent(50) }),
  });
  new PodUnavailableBudget(chart, 'budget', { target: web, maxUnavailable: kplus.PercentOrAbsolute.absolute(1) });
  // the budget before the CloneSet it protects
  expect(Testing.synth(chart).map(o => o.kind)).toEqual(['ConfigMap', 'PodUnavailableBudget', 'CloneSet']);
});
