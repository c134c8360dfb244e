import { eachObject, isObject, listShapeProblem } from '../../src/validation/shape';

describe('isObject', () => {
  test.each([[{}, true], [{ a: 1 }, true], [null, false], [[], false], ['x', false], [1, false], [undefined, false]])('%j -> %s', (v, want) => {
    expect(isObject(v)).toBe(want);
  });
});

describe('eachObject', () => {
  test('visits the object items with their index in the list, and nothing of a value that is not a list', () => {
    const seen: Array<[unknown, number]> = [];
    eachObject([{ a: 1 }, 'x', null, { b: 2 }], (item, i) => seen.push([item, i]));
    expect(seen).toEqual([[{ a: 1 }, 0], [{ b: 2 }, 3]]);
    eachObject('abc', () => { throw new Error('visited a string'); });
    eachObject({ 0: { a: 1 } }, () => { throw new Error('visited a map'); });
  });
});

describe('listShapeProblem', () => {
  test('unset, null and lists of objects are fine', () => {
    expect(listShapeProblem(undefined)).toBeUndefined();
    expect(listShapeProblem(null)).toBeUndefined();
    expect(listShapeProblem([])).toBeUndefined();
    expect(listShapeProblem([{ name: 'a' }])).toBeUndefined();
  });

  test('a value that is not a list, and the first item that is not an object', () => {
    expect(listShapeProblem('logs')).toEqual({ problem: 'is not a list, so the webhook cannot decode the object', fix: 'give a list (or leave it out)' });
    expect(listShapeProblem({ 0: {} })).toEqual({ problem: 'is not a list, so the webhook cannot decode the object', fix: 'give a list (or leave it out)' });
    expect(listShapeProblem([{}, 'x', 3])).toEqual({ problem: 'holds "x" at [1], which is not an object, so the webhook cannot decode the object', fix: 'give each item as an object' });
  });
});
