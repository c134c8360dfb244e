/**
 * The OpenKruise release a cluster runs, read from the image tag of its
 * kruise-manager, and the one fix every message about a takeover that would
 * change it gives (`KruiseControlPlane.fromHelmRelease`/`fromHelmValues`,
 * `cdk8s-kruise plan --old-live`, the control plane's `imageTag` refusals).
 */
import { _compareTags } from '../_image-tags';
import { PRODUCT_NAME, Product, Release, ReleaseError, lineOf, linesOf, parseRelease, supportedText, versionsOf } from '../releases/registry';

/** What an image tag says about the release it runs. */
export interface _RunningRelease {
  /** The tag as the image has it. */
  readonly tag: string;
  /** `x.y.z` the tag names (`v1.9.1`, `1.9.1`, `v1.9.1-mybuild`), if it names one. */
  readonly version?: string;
  /** The modelled release of that version, if it is one. */
  readonly release?: Release;
  /** The tag is a version with a suffix: a build of that release (kept with `imageTag`). */
  readonly build: boolean;
  /** Why the version is not the release it looks like (a tag on another line's code), if it is so. */
  readonly trap?: string;
}

/** The release an image tag runs. */
export function _runningRelease(tag: string, product: Product = 'openkruise'): _RunningRelease {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(.*)$/.exec(tag.trim());
  if (!m) return { tag, build: false };
  const line = `${Number(m[1])}.${Number(m[2])}`;
  const version = `${line}.${Number(m[3])}`;
  const build = m[4] !== '';
  const trap = lineOf(product, line)?.traps?.[version];
  if (trap) return { tag, version, build, trap };
  try {
    return { tag, version, build, release: parseRelease(product, version, 'image tag') };
  } catch (e) {
    if (!(e instanceof ReleaseError)) throw e;
    return { tag, version, build };
  }
}

/** The fix that installs a release: the `release` prop, which installs it whole (CRDs, webhooks, RBAC, gates, image). */
export function _setReleaseFix(version: string): string {
  return `set release: '${version}' on the control plane`;
}

/**
 * The fix for a control plane that would not install the release an image
 * runs (the cluster's, or the one `imageTag` names): install that release.
 * The same words wherever the change is found.
 */
export function _keepReleaseFix(running: _RunningRelease, product: Product = 'openkruise'): string {
  const name = PRODUCT_NAME[product];
  if (running.release) {
    return _setReleaseFix(running.release.version) + (running.build ? `, and imageTag: '${running.tag}' to keep that build` : '');
  }
  if (running.trap) return `set release on the control plane to the release the image tag ${running.tag} is (${running.trap})`;
  if (running.version) {
    // a release newer than every one modelled of its line (or of all, for a line not modelled) is one a later cdk8s-kruise models
    const [major, minor] = running.version.split('.');
    const own = lineOf(product, `${major}.${minor}`);
    const known = own ? versionsOf(own) : linesOf(product).flatMap(l => versionsOf(l));
    const newest = known[known.length - 1];
    if (_compareTags(`v${running.version}`, `v${newest}`) === 1) {
      return `upgrade cdk8s-kruise to a version that models ${name} ${running.version} (this one models ${supportedText(product)}); `
        + `until then, leave what runs ${running.version} to what installed it`;
    }
    return `set release on the control plane to one of ${supportedText(product)} (this cdk8s-kruise does not model ${name} ${running.version})`;
  }
  return `set release on the control plane to the ${name} release the image tag ${running.tag} is of, and imageTag: '${running.tag}' to keep it`;
}

/** -1, 0 or 1 comparing the running release with a release `x.y.z`, or undefined when the running tag names no version. */
export function _compareRunning(running: _RunningRelease, version: string): number | undefined {
  return running.version === undefined ? undefined : _compareTags(`v${running.version}`, `v${version}`);
}
