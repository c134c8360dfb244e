/**
 * Flux on the cluster tier: a git repository served over git's smart HTTP on
 * 127.0.0.1 (`git http-backend` as a CGI program behind node's http server),
 * and Flux's source-controller and kustomize-controller (built by
 * build-flux.sh) run as local processes with the tier's kubeconfig, as
 * manager.ts runs kruise-manager: every address they listen on is a free
 * port on 127.0.0.1, and kustomize-controller fetches artifacts from
 * source-controller's file server there.
 */
import { ChildProcess, execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as net from 'net';
import * as path from 'path';
import { freePort } from './manager';

const ROOT = path.resolve(__dirname, '..', '..');


/** A bare repository served read-only over git's smart HTTP, and a working clone that pushes to it. */
export interface GitServer {
  /** The clone URL of the repository. */
  readonly url: string;
  /** The working clone. */
  readonly work: string;
  /** Write files (paths relative to the clone; `undefined` removes one), commit and push; returns the commit. */
  commit(message: string, files: Record<string, string | undefined>): string;
  close(): Promise<void>;
}

export async function serveGit(dir: string, name = 'app.git'): Promise<GitServer> {
  const bare = path.join(dir, name);
  const work = path.join(dir, 'work');
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 'cluster tier', GIT_AUTHOR_EMAIL: 'tier@cdk8s-kruise.invalid', GIT_COMMITTER_NAME: 'cluster tier', GIT_COMMITTER_EMAIL: 'tier@cdk8s-kruise.invalid' },
  }).trim();
  fs.mkdirSync(bare, { recursive: true });
  git(bare, 'init', '--quiet', '--bare', '--initial-branch=main');
  git(dir, 'clone', '--quiet', bare, work);
  git(work, 'checkout', '--quiet', '-b', 'main');

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const cgi = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: dir,
        GIT_HTTP_EXPORT_ALL: '1',
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.replace(/^\?/, ''),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_ADDR: '127.0.0.1',
        ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: String(req.headers['content-encoding']) } : {}),
        ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
      },
    });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let headersDone = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) { res.write(chunk); return; }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n') >= 0 ? head.indexOf('\r\n\r\n') : head.indexOf('\n\n');
      if (end < 0) return;
      const sep = head[end] === 0x0d ? 4 : 2;
      let status = 200;
      for (const line of head.subarray(0, end).toString().split(/\r?\n/)) {
        const i = line.indexOf(':');
        const [k, v] = [line.slice(0, i).trim(), line.slice(i + 1).trim()];
        if (k.toLowerCase() === 'status') status = Number(v.split(' ')[0]);
        else if (k) res.setHeader(k, v);
      }
      res.statusCode = status;
      headersDone = true;
      res.write(head.subarray(end + sep));
    });
    cgi.on('close', () => res.end());
    cgi.on('error', () => { res.statusCode = 500; res.end(); });
  });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as net.AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/${name}`,
    work,
    commit(message, files) {
      for (const [f, text] of Object.entries(files)) {
        const p = path.join(work, f);
        if (text === undefined) {
          fs.rmSync(p, { force: true });
        } else {
          fs.mkdirSync(path.dirname(p), { recursive: true });
          fs.writeFileSync(p, text);
        }
      }
      git(work, 'add', '--all');
      git(work, 'commit', '--quiet', '-m', message);
      git(work, 'push', '--quiet', 'origin', 'main');
      return git(work, 'rev-parse', 'HEAD');
    },
    close: () => new Promise(r => server.close(() => r())),
  };
}

/** The folder of Flux's controllers and CRDs (built by build-flux.sh on first use). */
export function fluxBuild(): { bin: string; crds: string } {
  const out = execFileSync('bash', [path.join(ROOT, 'test', 'cluster', 'build-flux.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  return { bin: path.join(out, 'bin'), crds: path.join(out, 'crds') };
}

/** Flux's two controllers running against the tier's API server. */
export interface FluxControllers {
  /** The lines kustomize-controller logged (JSON), read now. */
  kustomizeLog(): any[];
  stop(): Promise<void>;
}

function startController(bin: string, args: string[], log: string, namespace: string): ChildProcess {
  const fd = fs.openSync(log, 'a');
  // dies with the test process (as cluster.sh's own processes do)
  const child = spawn('setpriv', ['--pdeathsig', 'KILL', '--', bin, ...args], {
    env: { ...process.env, RUNTIME_NAMESPACE: namespace },
    stdio: ['ignore', fd, fd],
  });
  fs.closeSync(fd);
  return child;
}

export async function startFlux(o: { bin: string; dir: string; namespace: string }): Promise<FluxControllers> {
  const [storage, sMetrics, sHealth, kMetrics, kHealth] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  const storagePath = path.join(o.dir, 'storage');
  fs.mkdirSync(storagePath, { recursive: true });
  const sourceLog = path.join(o.dir, 'source-controller.log');
  const kustomizeLog = path.join(o.dir, 'kustomize-controller.log');
  const common = ['--enable-leader-election=false', '--log-encoding=json', '--log-level=info', '--events-addr='];
  const children = [
    startController(path.join(o.bin, 'source-controller'), [...common,
      `--storage-path=${storagePath}`, `--storage-addr=127.0.0.1:${storage}`, `--storage-adv-addr=127.0.0.1:${storage}`,
      `--metrics-addr=127.0.0.1:${sMetrics}`, `--health-addr=127.0.0.1:${sHealth}`], sourceLog, o.namespace),
    startController(path.join(o.bin, 'kustomize-controller'), [...common,
      `--metrics-addr=127.0.0.1:${kMetrics}`, `--health-addr=127.0.0.1:${kHealth}`, '--requeue-dependency=5s'], kustomizeLog, o.namespace),
  ];
  return {
    kustomizeLog: () => fs.readFileSync(kustomizeLog, 'utf8').split('\n').filter(l => l.startsWith('{')).map(l => JSON.parse(l)),
    stop: async () => {
      await Promise.all(children.map(c => new Promise<void>(r => {
        if (c.exitCode !== null || c.signalCode !== null) return r();
        c.once('exit', () => r());
        c.kill('SIGTERM');
        setTimeout(() => c.kill('SIGKILL'), 10_000).unref();
      })));
    },
  };
}
