/**
 * The CRDs of each older release, read from the release's own source:
 *
 * - OpenKruise v1.8.4 and v1.7.4: config/crd/bases of the released sources in
 *   ../shared/vendor (the Go module proxy serves neither), each archive
 *   checked against the sha256 its README lists, extracted once per archive
 *   hash into the system's temporary folder;
 * - Kruise Rollouts v0.5.5 (the newest 0.5 release the Go module proxy
 *   serves): config/crd/bases of the module, downloaded into the Go module
 *   cache with `go mod download`, its checksum and the origin the proxy
 *   records (the tag v0.5.5 and its commit) checked against the values pinned
 *   here. The config/crd/bases CRDs carry no conversion block: the chart adds
 *   it (the same one for 0.5 and 0.6).
 *
 * A group that needs one skips with one line when it is missing (no
 * ../shared, no `go` on the path).
 */
import { execFileSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parse } from 'yaml';
import { REFERENCE_DIR, SKIPPED_GROUP } from '../util/reference';

/** ../shared/vendor. */
export const VENDOR_DIR = path.join(path.dirname(REFERENCE_DIR), 'vendor');

/** The module and version of the Kruise Rollouts 0.5 model, its go.sum hash and the commit of its tag. */
export const ROLLOUTS_0_5 = {
  module: 'github.com/openkruise/rollouts',
  version: 'v0.5.5',
  sum: 'h1:axUUXg4OJIiiaPjj+KLS6KsLXAk9dor+qNheMMEKXZg=',
  tagCommit: '163895a6c9e46af700d13e4d83e3afd1bd695b6c',
};

/** Where an upstream CRD folder comes from, or why it cannot be had here. */
export type CrdSource = { readonly dir: string } | { readonly missing: string };

/** The sha256 the vendor README lists for an archive. */
function listedSha256(archive: string): string | undefined {
  const readme = path.join(VENDOR_DIR, 'README.md');
  if (!fs.existsSync(readme)) return undefined;
  const row = fs.readFileSync(readme, 'utf-8').split('\n').find(l => l.includes(`\`${archive}\``));
  return row?.match(/`([0-9a-f]{64})`/)?.[1];
}

/** config/crd/bases of a vendored OpenKruise release (`1.8.4`), extracted once per archive hash. */
export function kruiseCrds(version: string): CrdSource {
  const archive = `kruise-v${version}-src.tar.gz`;
  const file = path.join(VENDOR_DIR, archive);
  if (!fs.existsSync(file)) return { missing: `${path.relative(path.resolve(__dirname, '..', '..'), file)} not found` };
  const sha = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  const listed = listedSha256(archive);
  if (sha !== listed) throw new Error(`${archive}: sha256 ${sha} is not the one ../shared/vendor/README.md lists (${listed ?? 'none'}); the archive is not the released source`);
  const out = path.join(os.tmpdir(), 'cdk8s-kruise-upstream', sha);
  const bases = path.join(out, `kruise-${version}`, 'config', 'crd', 'bases');
  if (!fs.existsSync(path.join(out, '.done'))) {
    fs.mkdirSync(out, { recursive: true });
    execFileSync('tar', ['-xzf', file, '-C', out, `kruise-${version}/config/crd/bases`]);
    fs.writeFileSync(path.join(out, '.done'), '');
  }
  return { dir: bases };
}

/** config/crd/bases of Kruise Rollouts v0.5.5 from the Go module cache (downloaded there when missing). */
export function rollouts05Crds(): CrdSource {
  let info: any;
  try {
    info = JSON.parse(execFileSync('go', ['mod', 'download', '-json', `${ROLLOUTS_0_5.module}@${ROLLOUTS_0_5.version}`], {
      encoding: 'utf-8', cwd: os.tmpdir(), env: { ...process.env, GOFLAGS: '-mod=mod' }, stdio: ['ignore', 'pipe', 'pipe'],
    }));
  } catch (e: any) {
    if (e?.code === 'ENOENT') return { missing: '`go` not found on the path (the Go module proxy is the source of Kruise Rollouts 0.5)' };
    throw new Error(`go mod download ${ROLLOUTS_0_5.module}@${ROLLOUTS_0_5.version} failed: ${String(e?.stderr ?? e?.message ?? e).trim()}`);
  }
  if (info.Sum !== ROLLOUTS_0_5.sum) throw new Error(`${ROLLOUTS_0_5.module}@${ROLLOUTS_0_5.version}: go.sum hash ${info.Sum}, expected ${ROLLOUTS_0_5.sum}`);
  if (info.Origin?.Hash !== ROLLOUTS_0_5.tagCommit || info.Origin?.Ref !== `refs/tags/${ROLLOUTS_0_5.version}`) {
    throw new Error(`${ROLLOUTS_0_5.module}@${ROLLOUTS_0_5.version}: the proxy records origin ${JSON.stringify(info.Origin)}, not the tag ${ROLLOUTS_0_5.version} at ${ROLLOUTS_0_5.tagCommit}`);
  }
  return { dir: path.join(info.Dir, 'config', 'crd', 'bases') };
}

/** The CRD files of a folder, sorted. */
export function crdFiles(dir: string): string[] {
  return fs.readdirSync(dir).filter(f => f.endsWith('.yaml')).sort();
}

/** One CRD of a folder, parsed. */
export function readCrd(dir: string, file: string): any {
  return parse(fs.readFileSync(path.join(dir, file), 'utf-8'));
}

/** `describe` with the source's folder when it is there; otherwise one skipped test saying what is missing. */
export function describeWithSource(name: string, source: () => CrdSource, fn: (dir: () => string) => void): void {
  let found: CrdSource | undefined;
  const get = () => (found ??= source());
  // the source is looked up when jest collects the tests: a missing one skips the group
  const s = get();
  if ('missing' in s) {
    describe(name, () => {
      test.skip(`${SKIPPED_GROUP}${s.missing}`, () => undefined);
    });
    return;
  }
  describe(name, () => fn(() => s.dir));
}
