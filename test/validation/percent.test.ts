import { parseKruisePercent, parseLegacyPercent, parseStrictPercent, parseUpstreamPercent, scaled } from '../../src/validation/percent';

test('PCT-KRUISE accepts fractional percentages', () => {
  expect(parseKruisePercent(3)).toEqual({ isPercent: false, value: 3 });
  expect(parseKruisePercent('12.5%')).toEqual({ isPercent: true, value: 12.5 });
  expect(parseKruisePercent('-5%')).toEqual({ isPercent: true, value: -5 });
  expect(parseKruisePercent('abc')).toBeUndefined();
  expect(parseKruisePercent('%')).toBeUndefined();
});

test('PCT-UPSTREAM accepts only integer percentages', () => {
  expect(parseUpstreamPercent('25%')).toEqual({ isPercent: true, value: 25 });
  expect(parseUpstreamPercent('-5%')).toEqual({ isPercent: true, value: -5 });
  expect(parseUpstreamPercent('12.5%')).toBeUndefined();
  expect(parseUpstreamPercent('25')).toBeUndefined();
});

test('PCT-LEGACY reads every string that is a whole number once its % signs are out as a percentage (apimachinery GetValueFromIntOrPercent)', () => {
  expect(parseLegacyPercent(2)).toEqual({ isPercent: false, value: 2 });
  expect(parseLegacyPercent('25%')).toEqual({ isPercent: true, value: 25 });
  // no % at all, a leading %, two of them: still a percentage
  expect(parseLegacyPercent('1')).toEqual({ isPercent: true, value: 1 });
  expect(parseLegacyPercent('%5')).toEqual({ isPercent: true, value: 5 });
  expect(parseLegacyPercent('1%%')).toEqual({ isPercent: true, value: 1 });
  // strconv.Atoi: a sign, then digits; nothing else, and within int64
  expect(parseLegacyPercent('+3%')).toEqual({ isPercent: true, value: 3 });
  expect(parseLegacyPercent('-3')).toEqual({ isPercent: true, value: -3 });
  expect(parseLegacyPercent('9223372036854775807%')).toEqual({ isPercent: true, value: 9223372036854775807 });
  for (const v of ['12.5%', ' 1%', '1 %', '', '%', '0x10', '1e2', '1_000', '9223372036854775808', 1.5, null, [], {}]) expect(parseLegacyPercent(v)).toBeUndefined();
});

test('PCT-STRICT accepts non-negative integers and digit percentages', () => {
  expect(parseStrictPercent(0)).toEqual({ isPercent: false, value: 0 });
  expect(parseStrictPercent(-1)).toBeUndefined();
  expect(parseStrictPercent('100%')).toEqual({ isPercent: true, value: 100 });
  expect(parseStrictPercent('-5%')).toBeUndefined();
  expect(parseStrictPercent('5.0%')).toBeUndefined();
});

test('scaled rounds as asked', () => {
  expect(scaled({ isPercent: true, value: 25 }, 10, true)).toBe(3);
  expect(scaled({ isPercent: true, value: 25 }, 10, false)).toBe(2);
  expect(scaled({ isPercent: false, value: 4 }, 10, false)).toBe(4);
});
