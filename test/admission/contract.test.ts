/**
 * The contract of every admission module, over the whole admission corpus:
 * defaults return a copy and never change their input, and warnings only
 * read the object (the engine hands both the one render it shares with the
 * other checks).
 */
import { admissionModuleFor, admissionModules } from '../../src/admission';
import { judgeManifest } from '../../src/admission/judge';
import { servedVersions, validateManifest } from '../../src/validation/schemas';
import { admissionCases, rolloutAdmissionCases } from '../fixtures/admission';

const ctx = { gate: () => true };
function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object') {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

// the engine runs a module only on objects that pass the schema
const cases = [...admissionCases(), ...rolloutAdmissionCases()]
  .filter(c => admissionModuleFor(c.manifest.apiVersion, c.manifest.kind) && validateManifest(c.manifest).length === 0);

test('the registry finds each module under its own group, kind and every served version, and nothing else', () => {
  const modules = admissionModules();
  expect(modules.length).toBe(19);
  for (const m of modules) {
    expect(m.versions).toEqual(servedVersions(m.group, m.kind).map(v => v.split('/')[1]));
    for (const v of m.versions) expect(admissionModuleFor(`${m.group}/${v}`, m.kind)).toBe(m);
    expect(admissionModuleFor(`${m.group}/v9`, m.kind)).toBeUndefined();
  }
  expect(admissionModuleFor('apps.kruise.io/v1alpha1', 'NodePodProbe')).toBeUndefined();
  expect(admissionModuleFor('apps/v1', 'Deployment')).toBeUndefined();
});

test('the corpus reaches every registered module', () => {
  expect(cases.length).toBeGreaterThan(300);
});

test.each(cases.map(c => [c.id, c] as const))('%s: defaults and warnings leave the input alone', (_id, c) => {
  const m = admissionModuleFor(c.manifest.apiVersion, c.manifest.kind)!;
  const frozen = deepFreeze(JSON.parse(JSON.stringify(c.manifest)));
  const defaulted = m.defaults ? m.defaults(frozen, ctx) : JSON.parse(JSON.stringify(frozen));
  expect(defaulted).not.toBe(frozen);
  expect(() => m.validate(defaulted, ctx)).not.toThrow();
  if (m.warnings && m.validate(defaulted, ctx).length === 0) expect(() => m.warnings!(frozen, ctx)).not.toThrow();
});

// the judge shares what it does not change with the object it was given (the render the output writes):
// every step after the defaults, the module's rules and the release rules included, only reads
test.each(cases.map(c => [c.id, c] as const))('%s: the whole judgement of a frozen object reads it only, with the same verdict', (_id, c) => {
  const frozen = deepFreeze(JSON.parse(JSON.stringify(c.manifest)));
  const copy = JSON.parse(JSON.stringify(c.manifest));
  expect(judgeManifest(frozen, ctx)).toEqual(judgeManifest(copy, ctx));
  expect(copy).toEqual(c.manifest);
});
