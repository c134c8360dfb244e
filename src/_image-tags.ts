/**
 * Release tags of container images: which of two OpenKruise images is newer.
 */
import type * as SemverModule from 'semver';

// semver loads with the first comparison, not with the library
const semverModule = (): typeof SemverModule => require('semver') as typeof SemverModule; // eslint-disable-line @typescript-eslint/no-require-imports

/** The tag of an image reference (`repo:tag`, a digest left out), or undefined. */
export function _imageTag(image: string | undefined): string | undefined {
  if (typeof image !== 'string') return undefined;
  const ref = image.split('@')[0];
  const tail = ref.slice(ref.lastIndexOf('/') + 1);
  const i = tail.lastIndexOf(':');
  return i < 0 ? undefined : tail.slice(i + 1);
}

/** -1, 0 or 1 comparing two release tags (`v1.9.0`, `v1.9.0-alpha3`), or undefined when one is no version. */
export function _compareTags(a: string | undefined, b: string | undefined): number | undefined {
  const semver = semverModule();
  const version = (t: string | undefined) => (t === undefined ? null : semver.valid(semver.clean(t) ?? t));
  const va = version(a);
  const vb = version(b);
  if (!va || !vb) return undefined;
  return semver.compare(va, vb);
}
