/**
 * The clients of traffic.ts measure while the test thread is blocked: a real-node
 * file runs `kubectl` by spawnSync in the very moment it measures (the apply of
 * a takeover), and a client sharing the test's event loop would send nothing
 * then and time out answers that came in time. An HTTP server in a process of
 * its own answers; the test thread blocks for 5 s; the client must have kept
 * asking every 100 ms and seen every answer.
 */
import { ChildProcess, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { httpGet } from './http-get';
import { Kube } from './kube';
import { Traffic } from './traffic';

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

let server: ChildProcess | undefined;
let dir: string;
let kube: Kube;

afterAll(() => {
  server?.kill();
  kube?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('the traffic clients keep asking, and see every answer, while the test thread is blocked for 5 s', async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'traffic-'));
  const port = 20_000 + (process.pid % 20_000);
  server = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1'], { cwd: dir, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 50 && (await httpGet(url, 1000)).status !== 200; i++) await sleep(200);
  kube = new Kube();
  const traffic = await Traffic.start(kube, { url, podNamespace: 'traffic-check' });
  spawnSync('sleep', ['5']);
  const report = await traffic.stop();
  expect(report.failures.filter(f => / GET /.test(f))).toEqual([]);
  expect(report.failedRequests).toBe(0);
  // about 10 a second for the 5 s the test thread was blocked, and more
  expect(report.requests).toBeGreaterThanOrEqual(45);
}, 60_000);
