/**
 * The release a control plane installs, from its `release` and `imageTag`
 * props: the image runs the release whose CRDs, webhooks, RBAC and gates the
 * control plane renders, so a tag of another line is refused.
 */
import { _keepReleaseFix, _runningRelease, _setReleaseFix } from './_running-release';
import { PRODUCT_NAME, Release, ReleaseError, imageTagOf, lineOf, parseRelease, releaseText, versionsOf } from '../releases/registry';

/** What `imageTag` does to the release a control plane installs. */
export interface _InstalledRelease {
  /** The release installed: the tag's when it names a release of the line, else the `release` prop's. */
  readonly release: Release;
  /** The image tag: the prop, or the release's (its entry's `imageTag`). */
  readonly tag: string;
  /** Why the tag is refused (`[field, value, problem, fix]` for `fieldError`), if it is. */
  readonly refusal?: readonly [string, unknown, string, string];
}

/**
 * The release a control plane of `release` installs with image tag `tag`.
 * A tag that reads as a version (`v1.8.2`, `1.8`, `v1.8.2-hotfix`) must be
 * of the release's line, and a release of it when the `release` prop names
 * one release: it then decides the release installed. A tag that is no
 * version (a digest, a build name) is taken as the release's.
 *
 * @param release the release the `release` prop gives
 * @param releaseProp the `release` prop as written (undefined: the default)
 * @param tag the `imageTag` prop (undefined: the release's image tag)
 */
export function _installedRelease(release: Release, releaseProp: string | undefined, tag: string | undefined): _InstalledRelease {
  if (tag === undefined) return { release, tag: imageTagOf(release) };
  const name = PRODUCT_NAME[release.product];
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?(.*)$/.exec(tag.trim());
  if (!m) return { release, tag };
  const line = `${Number(m[1])}.${Number(m[2])}`;
  const version = m[3] === undefined ? undefined : `${line}.${Number(m[3])}`;
  const given = releaseProp === undefined ? `release (unset: ${releaseText(release)})` : `release "${releaseProp}"`;
  const plain = m[4] === '';
  // a tag on another line's code (v1.7.5 is 1.8.3) is refused as parseRelease refuses it
  const trap = version && plain ? lineOf(release.product, line)?.traps?.[version] : undefined;
  if (trap) {
    return { release, tag, refusal: ['imageTag', tag, trap, 'remove imageTag and set release on the control plane to that release'] };
  }
  if (line !== release.line.line) {
    const wanted = version ?? line;
    let modelled = true;
    try {
      parseRelease(release.product, wanted, 'imageTag');
    } catch (e) {
      if (!(e instanceof ReleaseError)) throw e;
      modelled = false;
    }
    return {
      release,
      tag,
      refusal: ['imageTag', tag,
        `runs ${name} ${line}, but this control plane installs ${name} ${release.line.line} (${given}): its CRDs, webhook configuration, RBAC and feature gates would not be the ones that manager expects`,
        modelled ? `remove imageTag and ${_setReleaseFix(wanted)}, which installs ${name} ${wanted} whole`
          : `remove imageTag and ${_keepReleaseFix(_runningRelease(version !== undefined ? `v${version}` : `v${line}.0`, release.product), release.product)}`],
    };
  }
  if (version === undefined || !plain) return { release, tag };
  const versions = versionsOf(release.line);
  if (!versions.includes(version)) {
    return {
      release,
      tag,
      refusal: ['imageTag', tag, `is not a release of ${name} ${line}, whose releases are ${versions.join(', ')}`,
        `remove imageTag and ${_keepReleaseFix(_runningRelease(tag, release.product), release.product)}`],
    };
  }
  if (!release.lineOnly && release.version !== version) {
    return {
      release,
      tag,
      refusal: ['imageTag', tag, `names ${name} ${version}, but release "${releaseProp}" names ${release.version}`,
        `remove imageTag and ${_setReleaseFix(version)}, which installs ${name} ${version} whole`],
    };
  }
  return { release: parseRelease(release.product, version, 'imageTag'), tag };
}
