import * as fc from 'fast-check';
import {
  isEmptySelector, looseOverlapCandidateKeys, looseOverlapKeys, selectorMatches, selectorProblems, selectorsLooselyOverlap, selectorsOverlap,
} from '../../src/validation/selectors';

test('SEL-VALID reports bad keys, values, operators and value counts by field', () => {
  expect(selectorProblems({
    matchLabels: { 'bad key!': 'ok', 'app': 'not valid!' },
    matchExpressions: [
      { key: 'tier', operator: 'In' },
      { key: 'zone', operator: 'Exists', values: ['a'] },
      { key: 'x', operator: 'Near', values: ['a'] },
    ],
  }).map(p => `${p.field}: ${p.problem}`)).toEqual([
    'matchLabels["bad key!"]: key name part must consist of letters, digits, \'-\', \'_\' or \'.\', starting and ending with a letter or digit',
    'matchLabels["app"]: value must be empty or consist of letters, digits, \'-\', \'_\' or \'.\', starting and ending with a letter or digit',
    'matchExpressions[0].values: must list at least one value for operator In',
    'matchExpressions[1].values: must be empty for operator Exists',
    'matchExpressions[2].operator: must be one of In, NotIn, Exists, DoesNotExist',
  ]);
  expect(selectorProblems({ matchLabels: { 'example.com/app': 'web' } })).toEqual([]);
});

test('SEL-NONEMPTY', () => {
  expect(isEmptySelector({})).toBe(true);
  expect(isEmptySelector({ matchLabels: {}, matchExpressions: [] })).toBe(true);
  expect(isEmptySelector({ matchLabels: { a: 'b' } })).toBe(false);
  expect(isEmptySelector(undefined)).toBe(false);
});

test('SEL-MATCH follows each operator', () => {
  const labels = { app: 'web', tier: 'front' };
  expect(selectorMatches({ matchLabels: { app: 'web' } }, labels)).toBe(true);
  expect(selectorMatches({ matchLabels: { app: 'db' } }, labels)).toBe(false);
  expect(selectorMatches({ matchExpressions: [{ key: 'tier', operator: 'In', values: ['front', 'back'] }] }, labels)).toBe(true);
  expect(selectorMatches({ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['front'] }] }, labels)).toBe(false);
  expect(selectorMatches({ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }, labels)).toBe(true);
  expect(selectorMatches({ matchExpressions: [{ key: 'app', operator: 'Exists' }] }, labels)).toBe(true);
  expect(selectorMatches({ matchExpressions: [{ key: 'app', operator: 'DoesNotExist' }] }, labels)).toBe(false);
  expect(selectorMatches(undefined, labels)).toBe(false);
});

test('OVERLAP: SidecarSet selectors', () => {
  expect(selectorsOverlap({ matchLabels: { app: 'web' } }, { matchLabels: { app: 'web', tier: 'x' } })).toBe(true);
  expect(selectorsOverlap({ matchLabels: { app: 'web' } }, { matchLabels: { app: 'db' } })).toBe(false);
  expect(selectorsOverlap({ matchLabels: { app: 'web' } }, { matchExpressions: [{ key: 'app', operator: 'In', values: ['db', 'web'] }] })).toBe(true);
  expect(selectorsOverlap({ matchLabels: { app: 'web' } }, { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['web'] }] })).toBe(false);
  // an Exists on a key the other selector does not mention counts as disjoint
  expect(selectorsOverlap({ matchLabels: { app: 'web' } }, { matchExpressions: [{ key: 'mesh', operator: 'Exists' }] })).toBe(false);
  expect(selectorsOverlap({ matchLabels: { app: 'web' } }, { matchExpressions: [{ key: 'app', operator: 'DoesNotExist' }] })).toBe(false);
  expect(selectorsOverlap({}, { matchLabels: { app: 'web' } })).toBe(true);
});

test('LOOSE-OVERLAP: PodUnavailableBudget selectors', () => {
  expect(selectorsLooselyOverlap({ matchLabels: { app: 'web' } }, { matchLabels: { app: 'web' } })).toBe(true);
  expect(selectorsLooselyOverlap({ matchLabels: { app: 'web' } }, { matchLabels: { app: 'web', tier: 'x' } })).toBe(false);
  expect(selectorsLooselyOverlap({ matchLabels: { app: 'web' } }, { matchExpressions: [{ key: 'app', operator: 'Exists' }] })).toBe(true);
  expect(selectorsLooselyOverlap({ matchLabels: { app: 'web' } }, { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['web'] }] })).toBe(false);
  expect(selectorsLooselyOverlap(
    { matchExpressions: [{ key: 'app', operator: 'In', values: ['a', 'b'] }] },
    { matchExpressions: [{ key: 'app', operator: 'In', values: ['b', 'c'] }] },
  )).toBe(true);
  expect(selectorsLooselyOverlap(
    { matchExpressions: [{ key: 'app', operator: 'DoesNotExist' }] },
    { matchExpressions: [{ key: 'app', operator: 'Exists' }] },
  )).toBe(false);
});

test('the LOOSE-OVERLAP index finds every selector a selector loosely overlaps (any keys, operators and values)', () => {
  const key = fc.constantFrom('app', 'team', 'zone');
  const value = fc.constantFrom('a', 'b', 'c');
  const expression = fc.record({
    key,
    operator: fc.constantFrom('In', 'NotIn', 'Exists', 'DoesNotExist'),
    values: fc.uniqueArray(value, { maxLength: 2 }),
  }).map(e => (e.operator === 'Exists' || e.operator === 'DoesNotExist' ? { key: e.key, operator: e.operator } : e));
  const selector = fc.record({
    matchLabels: fc.dictionary(key, value, { maxKeys: 2 }),
    matchExpressions: fc.array(expression, { maxLength: 2 }),
  });
  fc.assert(fc.property(selector, selector, (a, b) => {
    if (!selectorsLooselyOverlap(a, b)) return true;
    const indexed = new Set(looseOverlapKeys(b));
    return looseOverlapCandidateKeys(a).some(k => indexed.has(k));
  }), { numRuns: 5000 });
});
