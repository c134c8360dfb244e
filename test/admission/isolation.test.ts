/**
 * Apps built one after another in one process do not share state: an App
 * that fails validation leaves nothing behind that changes how a later,
 * unrelated App synthesizes.
 */
import { ApiObject, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  CloneSet, DistributedResource, PodUnavailableBudget, ResourceDistribution, SidecarSet,
} from '../../src';
import { KruiseValidation } from '../../src/validation/register';

beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());

/** Synthesize; the error text, or '' when synth succeeds. */
const synth = (build: (chart: any) => void): string => {
  const chart = Testing.chart();
  try {
    build(chart);
    Testing.synth(chart);
    return '';
  } catch (e: any) {
    return String(e.message);
  }
};

type Builder = { readonly name: string; readonly valid: boolean; readonly build: (chart: any, i: number) => void };

const builders: Builder[] = [
  {
    name: 'PodUnavailableBudget on a CloneSet',
    valid: true,
    build: (c, i) => {
      const w = new CloneSet(c, 'web', { metadata: { name: `web-${i}` }, containers: [{ image: 'nginx:1.27' }] });
      new PodUnavailableBudget(c, 'pub', { target: w, maxUnavailable: kplus.PercentOrAbsolute.percent(25) });
    },
  },
  {
    name: 'PodUnavailableBudget with a fractional budget',
    valid: false,
    build: c => new PodUnavailableBudget(c, 'pub', { selector: kplus.LabelSelector.of({ labels: { app: 'web' } }), maxUnavailable: kplus.PercentOrAbsolute.percent(12.5) }),
  },
  {
    name: 'SidecarSet',
    valid: true,
    build: (c, i) => new SidecarSet(c, 'sc', {
      metadata: { name: `log-${i}` },
      selector: kplus.LabelSelector.of({ labels: { app: 'web' } }),
      containers: [{ name: 'log', image: 'fluent-bit:3.1' }],
    }),
  },
  {
    name: 'SidecarSet with an empty selector',
    valid: false,
    build: c => new SidecarSet(c, 'sc', { selector: kplus.LabelSelector.of({}), containers: [{ name: 'Log', image: ' x' }] }),
  },
  {
    name: 'ResourceDistribution of a ConfigMap',
    valid: true,
    build: (c, i) => {
      const cm = new kplus.ConfigMap(c, 'cm', { metadata: { name: `settings-${i}` }, data: { a: 'b' } });
      new ResourceDistribution(c, 'rd', { metadata: { name: `settings-${i}` }, resource: DistributedResource.fromConfigMap(cm), includedNamespaces: ['team-a'] });
    },
  },
  {
    name: 'ResourceDistribution of a ServiceAccount without targets',
    valid: false,
    build: c => {
      const sa = new kplus.ServiceAccount(c, 'sa', { metadata: { name: 'Bad' } });
      new ResourceDistribution(c, 'rd', { metadata: { name: 'RD' }, resource: DistributedResource.fromApiObject(ApiObject.of(sa)) });
    },
  },
  {
    name: 'raw PodUnavailableBudget with neither budget',
    valid: false,
    build: c => {
      new ApiObject(c, 'raw', { apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodUnavailableBudget', metadata: { name: 'raw' }, spec: { selector: { matchLabels: { a: 'b' } } } });
      KruiseValidation.enable(c);
    },
  },
  {
    name: 'a SidecarSet whose constructor throws (unnamed container)',
    valid: false,
    build: c => new SidecarSet(c, 'sc', { selector: kplus.LabelSelector.of({ labels: { app: 'web' } }), containers: [{ image: 'x' } as any] }),
  },
];

test('thousands of Apps, good and bad, interleaved: each gets the verdict it gets in a fresh process, with no TypeError', () => {
  const fresh = new Map(builders.map(b => [b.name, synth(c => b.build(c, 0))]));
  for (const b of builders) expect({ name: b.name, refused: fresh.get(b.name) !== '' }).toEqual({ name: b.name, refused: !b.valid });
  const started = Date.now();
  let n = 0;
  for (let round = 0; round < 400; round++) {
    for (const b of builders) {
      const error = synth(c => b.build(c, round % 2 === 0 ? 0 : round));
      n++;
      expect(error).not.toMatch(/TypeError|Cannot read properties/);
      expect({ name: b.name, refused: error !== '' }).toEqual({ name: b.name, refused: !b.valid });
      if (round % 2 === 0) expect({ name: b.name, error }).toEqual({ name: b.name, error: fresh.get(b.name) });
    }
  }
  expect(n).toBe(builders.length * 400);
  expect(Date.now() - started).toBeLessThan(60_000);
});
