import * as fc from 'fast-check';
import { cloneJson } from '../../src/validation/json';

const viaJson = (v: unknown) => JSON.stringify(JSON.parse(JSON.stringify(v) ?? 'null'));

test('cloneJson copies like a JSON round trip (the oracle), for JSON data and for anything JSON accepts', () => {
  fc.assert(fc.property(fc.jsonValue(), v => JSON.stringify(cloneJson(v)) === viaJson(v)), { numRuns: 2000 });
  fc.assert(fc.property(fc.anything({ withNullPrototype: true, withObjectString: true }), v => {
    let expected: string;
    try { expected = viaJson(v); } catch { return true; } // e.g. BigInt: JSON refuses it, and wire data has none
    return JSON.stringify(cloneJson(v) ?? null) === expected;
  }), { numRuns: 2000 });
});

test('cloneJson shares nothing with its input and keeps "__proto__" an own key', () => {
  const input = JSON.parse('{"a":{"b":[1,{"c":2}]},"__proto__":{"polluted":true}}');
  const copy = cloneJson(input);
  copy.a.b[1].c = 3;
  expect(input.a.b[1].c).toBe(2);
  expect(Object.keys(copy)).toEqual(['a', '__proto__']);
  expect(({} as any).polluted).toBeUndefined();
  expect((copy as any).polluted).toBeUndefined();
});
