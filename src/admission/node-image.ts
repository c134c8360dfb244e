/**
 * The NodeImage webhooks (apps.kruise.io, v1alpha1 and v1beta1). NodeImages
 * are written by kruise-daemon and the ImagePullJob controller, not by
 * users, so this only matters for an app that writes one by hand: the
 * validating webhook refuses an empty image name, an empty or repeated tag,
 * a negative version and a tag without `pullPolicy.ttlSecondsAfterFinished`
 * (the mutating webhook fills in the creation time and the rest of the pull
 * policy, but never the TTL). Left out: nothing needs cluster state.
 */
import { AdmissionModule, Manifest } from './types';
import { fieldError } from '../validation/field-error';

function nodeImageErrors(m: Manifest): string[] {
  const errors: string[] = [];
  for (const [name, image] of Object.entries<any>(m.spec?.images ?? {})) {
    const at = `spec.images[${JSON.stringify(name)}]`;
    if (name === '') errors.push(fieldError('spec.images', '', 'has an image with an empty name', 'name every image'));
    const seen = new Set<string>();
    (image?.tags ?? []).forEach((t: any, i: number) => {
      const here = `${at}.tags[${i}]`;
      if (!t.tag) {
        errors.push(fieldError(`${here}.tag`, t.tag, 'is empty', 'give the tag to pull'));
        return;
      }
      if (seen.has(t.tag)) errors.push(fieldError(`${here}.tag`, t.tag, `is listed twice for image ${name}`, 'list each tag once'));
      seen.add(t.tag);
      if (typeof t.version === 'number' && t.version < 0) errors.push(fieldError(`${here}.version`, t.version, 'is negative', 'use 0 or more'));
      if (t.pullPolicy?.ttlSecondsAfterFinished === undefined) {
        errors.push(fieldError(`${here}.pullPolicy.ttlSecondsAfterFinished`, undefined, `is required for ${name}/${t.tag}`, 'set how long the pull result is kept, e.g. 300 seconds'));
      }
    });
  }
  return errors;
}

/** The NodeImage webhooks. */
export const nodeImageAdmission: AdmissionModule = {
  group: 'apps.kruise.io',
  kind: 'NodeImage',
  versions: ['v1alpha1', 'v1beta1'],
  validate: m => nodeImageErrors(m),
};
