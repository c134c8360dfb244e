/**
 * A throwaway npm registry on 127.0.0.1 that serves the packages installed
 * in this repository's node_modules (every name and version `npm ci` put
 * there), so a new app can `npm install` with no network. A name or version
 * that is not there is answered 404, as the real registry answers an unknown
 * name: nothing is fetched from anywhere else.
 *
 * Each version is served as the package.json it was published with plus a
 * tarball packed on request from its installed folder (with the folders of
 * its bundled dependencies, which ship inside it).
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import { AddressInfo } from 'net';
import * as path from 'path';
import * as semver from 'semver';

/** name → version → installed folder */
export type Inventory = Map<string, Map<string, string>>;

/** Every package folder under `nodeModules`, nested node_modules included. */
export function inventory(nodeModules: string): Inventory {
  const out: Inventory = new Map();
  const scan = (dir: string) => {
    for (const entry of fs.readdirSync(dir)) {
      if (entry.startsWith('.')) continue;
      const at = path.join(dir, entry);
      if (entry.startsWith('@')) {
        scan(at);
        continue;
      }
      const manifest = path.join(at, 'package.json');
      if (!fs.existsSync(manifest)) continue;
      const { name, version } = JSON.parse(fs.readFileSync(manifest, 'utf-8'));
      if (typeof name === 'string' && typeof version === 'string') {
        if (!out.has(name)) out.set(name, new Map());
        if (!out.get(name)!.has(version)) out.get(name)!.set(version, at);
      }
      if (fs.existsSync(path.join(at, 'node_modules'))) scan(path.join(at, 'node_modules'));
    }
  };
  scan(nodeModules);
  return out;
}

/** The version of `name` the inventory holds that satisfies `range`, else the oldest newer one, else none. */
export function nearest(inv: Inventory, name: string, range: string): { version?: string; satisfies: boolean } {
  const versions = [...(inv.get(name)?.keys() ?? [])].sort(semver.compare);
  const match = semver.maxSatisfying(versions, range);
  if (match) return { version: match, satisfies: true };
  const floor = semver.minVersion(range);
  return { version: versions.find(v => floor === null || semver.gt(v, floor.version)), satisfies: false };
}

/** A gzipped tarball of an installed package, laid out as npm publishes it (`package/...`). */
function pack(dir: string, bundles: boolean): Promise<Buffer> {
  const args = ['-czf', '-', '-C', dir, '--transform', 's,^\\.,package,', '--exclude=./node_modules/.bin'];
  if (!bundles) args.push('--exclude=./node_modules');
  args.push('.');
  return new Promise((resolve, reject) => {
    const tar = spawn('tar', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let err = '';
    tar.stdout.on('data', c => chunks.push(c));
    tar.stderr.on('data', c => (err += c));
    tar.on('close', code => (code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(`tar of ${dir}: ${err}`))));
  });
}

export interface LocalRegistry {
  readonly url: string;
  /** How many packuments and tarballs it served. */
  readonly served: { packuments: number; tarballs: number; missing: string[] };
  close(): Promise<void>;
}

/** Starts the registry on a free port of 127.0.0.1. */
export async function startRegistry(inv: Inventory): Promise<LocalRegistry> {
  const served = { packuments: 0, tarballs: 0, missing: [] as string[] };
  let base = '';
  const manifestOf = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf-8'));

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = decodeURIComponent((req.url ?? '/').split('?')[0]).replace(/^\/+/, '');
      const tarball = /^-\/tarball\/(.+)\/-\/([^/]+)\.tgz$/.exec(url);
      if (tarball) {
        const dir = inv.get(tarball[1])?.get(tarball[2]);
        if (!dir) {
          res.writeHead(404).end();
          return;
        }
        const m = manifestOf(dir);
        const body = await pack(dir, Boolean(m.bundleDependencies ?? m.bundledDependencies));
        served.tarballs++;
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body);
        return;
      }
      const versions = inv.get(url);
      if (!versions) {
        served.missing.push(url);
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Not found' }));
        return;
      }
      const all = [...versions.keys()].sort(semver.compare);
      const packument = {
        'name': url,
        'dist-tags': { latest: all[all.length - 1] },
        'versions': Object.fromEntries(all.map(v => {
          const m = manifestOf(versions.get(v)!);
          return [v, { ...m, name: url, version: v, dist: { tarball: `${base}/-/tarball/${encodeURIComponent(url)}/-/${v}.tgz` } }];
        })),
      };
      served.packuments++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(packument));
    })().catch(e => {
      res.writeHead(500).end(String(e));
    });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/`,
    served,
    close: () => new Promise(resolve => server.close(() => resolve())),
  };
}
