/**
 * Access to the upstream OpenKruise v1.9.0 CRDs kept beside the project
 * (../shared/reference/kruise-v1.9.0/crds). Tests that need them skip with one
 * visible line when the folder is absent.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';

export const UPSTREAM_CRDS_DIR = path.resolve(__dirname, '..', '..', '..', 'shared', 'reference', 'kruise-v1.9.0', 'crds');

export function upstreamAvailable(): boolean {
  return fs.existsSync(UPSTREAM_CRDS_DIR);
}

/** Every upstream CRD file name, sorted. */
export function upstreamFiles(): string[] {
  return fs.readdirSync(UPSTREAM_CRDS_DIR).filter(f => f.endsWith('.yaml')).sort();
}

export function readUpstream(file: string): any {
  return parse(fs.readFileSync(path.join(UPSTREAM_CRDS_DIR, file), 'utf-8'));
}

/** `describe` when the reference exists, otherwise one skipped test saying why. */
export function describeWithUpstream(name: string, fn: () => void) {
  if (upstreamAvailable()) {
    describe(name, fn);
  } else {
    describe(name, () => {
      test.skip(`skipped: upstream CRDs not found at ${UPSTREAM_CRDS_DIR}`, () => undefined);
    });
    // eslint-disable-next-line no-console
    console.log(`[conformance] skipped: upstream CRDs not found at ${UPSTREAM_CRDS_DIR}`);
  }
}
