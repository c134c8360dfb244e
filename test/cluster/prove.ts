/**
 * The checks every synth gets in the cluster tier, as jest tests.
 */
import { Applied, Kube, applyAll, changedObjects, describeRejection } from './kube';
import { Synth } from './sources';

/** Every rejection of an apply, with the object and the server's message. */
export const rejections = (applied: Applied[]) => applied.filter(a => a.response.status >= 300).map(describeRejection);

/**
 * The tests every synth gets: applied with 0 rejections; a second synth is
 * byte-identical and applying it changes no object (same resourceVersion and
 * generation), and a dry run of it says the same.
 */
export function proveSynth(kubeOf: () => Kube, make: () => Synth, before?: () => Promise<void>) {
  let synth: Synth;
  let first: Applied[];

  beforeAll(async () => {
    if (before) await before();
    synth = make();
    first = await applyAll(kubeOf(), synth.objects);
  });

  test('is accepted by the API server (server-side apply, strict field validation)', () => {
    expect(synth.objects.length).toBeGreaterThan(0);
    expect(rejections(first)).toEqual([]);
  });

  test('synthesizing again gives the same bytes, and applying them changes nothing', async () => {
    const second = make();
    expect(second.files).toEqual(synth.files);
    const reapplied = await applyAll(kubeOf(), second.objects);
    expect(rejections(reapplied)).toEqual([]);
    expect(changedObjects(first, reapplied)).toEqual([]);
    const dry = await applyAll(kubeOf(), second.objects, { dryRun: true });
    expect(changedObjects(first, dry)).toEqual([]);
  });
}
