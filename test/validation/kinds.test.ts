import { ApiObject, Testing } from 'cdk8s';
import { ALL_KINDS } from '../../src/api';
import { KruiseValidation } from '../../src/validation/register';
import { formatIssue, servedVersions, validateManifest } from '../../src/validation/schemas';
import { FIXTURE_KINDS, ROLLOUT_FIXTURE_KINDS, kindFixtures, rolloutKindFixtures } from '../fixtures/kinds';
import { ENTRY_PATHS, synthOn } from '../util/admission';

const fixtures = [...kindFixtures(servedVersions), ...rolloutKindFixtures(servedVersions)];

test('there is a fixture for every kind and every served version', () => {
  expect([...FIXTURE_KINDS, ...ROLLOUT_FIXTURE_KINDS].sort()).toEqual(ALL_KINDS.map(k => k.kind).sort());
  const expected = ALL_KINDS.flatMap(k => k.versions.map(v => `${k.group}/${v.name} ${k.kind}`)).sort();
  expect(fixtures.map(f => `${f.apiVersion} ${f.kind}`).sort()).toEqual(expected);
});

describe.each(fixtures.map(f => [`${f.apiVersion} ${f.kind}`, f] as const))('%s', (_name, f) => {
  test('a valid object passes', () => {
    expect(validateManifest(f.valid).map(formatIssue)).toEqual([]);
  });

  test('a valid object passes admission on every path (L1, raw, included YAML)', () => {
    for (const p of ENTRY_PATHS) expect({ path: p, error: synthOn(p, f.valid) }).toEqual({ path: p, error: '' });
  });

  test('fails with the exact problem when broken', () => {
    const broken = JSON.parse(JSON.stringify(f.valid));
    f.breakIt(broken);
    expect(validateManifest(broken).map(formatIssue)).toEqual([f.problem]);
  });

  test('fails synth naming the construct path when broken in an app', () => {
    const chart = Testing.chart();
    KruiseValidation.enable(chart);
    const broken = JSON.parse(JSON.stringify(f.valid));
    f.breakIt(broken);
    new ApiObject(chart, 'obj', broken);
    expect(() => Testing.synth(chart)).toThrow(
      `[test/obj] ${f.kind} "${f.valid.metadata.name}" (${f.apiVersion}) ${f.problem}`,
    );
  });
});

test('each schema is compiled once and reused', () => {
  const cs = fixtures.find(f => f.kind === 'CloneSet')!.valid;
  let calls = 0;
  jest.isolateModules(() => {
    // fresh copies of ajv and of the validator module, with an empty cache
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const ajv = require('ajv');
    const compile = jest.spyOn(ajv.default.prototype, 'compile');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fresh = require('../../src/validation/schemas') as typeof import('../../src/validation/schemas');
    fresh.validateManifest(cs);
    fresh.validateManifest({ ...cs, metadata: { name: 'other' } });
    fresh.validateManifest(cs);
    calls = compile.mock.calls.length;
  });
  expect(calls).toBe(1);
});
