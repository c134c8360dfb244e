import { batchesOf, describeBatches, ordinals, partitionReplicas, reservedOrdinals, upstreamValue } from '../../src/plan/rollout';

describe('partition (CloneSet / SidecarSet)', () => {
  test.each([
    [undefined, 4, 0], [1, 4, 1], [9, 4, 4], [-1, 4, 0], ['50%', 4, 2], ['90%', 4, 3], ['100%', 4, 4], ['12.5%', 8, 1], ['1%', 4, 1], ['99%', 1, 1],
  ])('%p of %p replicas keeps %p', (p, r, kept) => {
    expect(partitionReplicas(p as any, r)).toBe(kept);
  });
  test('a non-percent string does not parse', () => {
    expect(partitionReplicas('2', 4)).toBeUndefined();
  });
});

test('int-or-percent with the Kubernetes helper: integer percentages only, rounding chosen by the caller', () => {
  expect(upstreamValue('20%', 4, true)).toBe(1);
  expect(upstreamValue('20%', 4, false)).toBe(0);
  expect(upstreamValue('12.5%', 4, true)).toBeUndefined();
  expect(upstreamValue(3, 4, true)).toBe(3);
});

test('batches', () => {
  expect(batchesOf(5, 2)).toEqual([2, 2, 1]);
  expect(batchesOf(0, 2)).toEqual([]);
  expect(batchesOf(3, 0)).toEqual([]);
  expect(describeBatches([2, 2, 1])).toBe('5 pods in batches of 2, 2, 1');
  expect(describeBatches([1, 1])).toBe('2 pods in 2 batches of 1');
});

test('ordinals skip reserved ones', () => {
  expect(ordinals(4, 0, reservedOrdinals([1, '3-4'])!)).toEqual([0, 2, 5, 6]);
  expect(reservedOrdinals(['5-3'])).toBeUndefined();
});
