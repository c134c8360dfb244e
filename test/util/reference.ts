/**
 * Upstream material kept beside the project (../shared/reference: the
 * OpenKruise and Kruise Rollouts CRDs, the kruise chart's rendering), which
 * CI has. A group of tests that compares with it runs when it is there; when
 * it is not, the group is one skipped test whose title says what is missing,
 * and test/util/skip-reporter.js prints that as one line at the end of the run.
 */
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..', '..');

/** The folder of upstream reference material. */
export const REFERENCE_DIR = path.resolve(ROOT, '..', 'shared', 'reference');

/**
 * Marks the title of a skipped test that stands for a whole group; the skip
 * reporter prints the rest of the title after the group's name.
 */
export const SKIPPED_GROUP = 'skipped group: ';

/** `describe(name, fn)` when every path exists; otherwise the group as one skipped test naming what is missing. */
export function describeWithReference(name: string, paths: readonly string[], fn: () => void): void {
  const missing = paths.filter(p => !fs.existsSync(p));
  if (missing.length === 0) {
    describe(name, fn);
    return;
  }
  const shown = missing.map(p => path.relative(ROOT, p)).join(', ');
  describe(name, () => {
    test.skip(`${SKIPPED_GROUP}${shown} not found`, () => undefined);
  });
}
