import * as path from 'path';
import { ApiObject, Testing } from 'cdk8s';
import { ALL_KINDS } from '../../src/api';
import { KruiseValidation } from '../../src/validation/register';
import { findSchemaDir, formatIssue, servedVersions, validateManifest, validatorFileName } from '../../src/validation/schemas';
import { FIXTURE_KINDS, ROLLOUT_FIXTURE_KINDS, kindFixtures, rolloutKindFixtures } from '../fixtures/kinds';
import { ENTRY_PATHS, synthOn, warningsOfLastSynth } from '../util/admission';

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
    for (const p of ENTRY_PATHS) {
      expect({ path: p, error: synthOn(p, f.valid), warned: warningsOfLastSynth() }).toEqual({ path: p, error: '', warned: [] });
    }
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
      `[test/obj] ${f.kind} "${f.valid.metadata.name}" (${f.apiVersion}) ${f.afterWebhook ?? f.problem}`,
    );
  });
});

test('a synth compiles no schema: each kind loads its build-time validator once, and ajv\'s compiler never loads', () => {
  const cs = fixtures.find(f => f.kind === 'CloneSet')!;
  const module = path.join(findSchemaDir(), validatorFileName('apps.kruise.io', 'v1alpha1', 'CloneSet'));
  let loads = 0;
  let issues: string[] = [];
  jest.isolateModules(() => {
    // fresh copies of the validator module and of schemas.ts, with an empty cache
    jest.doMock('ajv', () => {
      throw new Error('ajv\'s compiler was loaded at synth');
    });
    jest.doMock(module, () => {
      loads++;
      return jest.requireActual(module);
    });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fresh = require('../../src/validation/schemas') as typeof import('../../src/validation/schemas');
    fresh.validateManifest(cs.valid);
    fresh.validateManifest({ ...cs.valid, metadata: { name: 'other' } });
    const broken = JSON.parse(JSON.stringify(cs.valid));
    cs.breakIt(broken);
    issues = fresh.validateManifest(broken).map(fresh.formatIssue);
  });
  expect(loads).toBe(1);
  expect(issues).toEqual([cs.problem]);
});
