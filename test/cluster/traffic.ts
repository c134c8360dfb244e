/**
 * What a user's clients see while something moves on the real node: an HTTP
 * client that asks a URL every 100 ms (a new connection each time, routed
 * afresh by kube-proxy), and a loop that creates and deletes a pod every
 * second, so the pod webhooks (failure policy Fail) are on its path. Both
 * count every failure with what went wrong.
 *
 * They run in a worker thread of their own, as a user's clients run apart
 * from whoever changes the cluster: the test file's synchronous steps
 * (`kubectl` run by spawnSync, a synth) block its own event loop, and a
 * client sharing that loop would time out answers that came in time.
 */
import * as path from 'path';
import { Worker, isMainThread, parentPort, workerData } from 'worker_threads';
import { httpGet } from './http-get';
import { ClusterEnv, Kube, Manifest } from './kube';

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

/** What the clients saw. */
export interface TrafficReport {
  readonly requests: number;
  readonly failedRequests: number;
  readonly podsCreated: number;
  readonly failedPodCreations: number;
  readonly failedPodDeletions: number;
  /** The first failures, one line each (time since the start, what failed, the answer). */
  readonly failures: string[];
  /** The answers' `hostname` fields seen, in order of first sight (which pods answered). */
  readonly hostnames: string[];
  readonly seconds: number;
}

interface TrafficOptions {
  readonly env: ClusterEnv;
  readonly url: string;
  readonly podNamespace: string;
  readonly intervalMs: number;
}

/** The clients, in a worker thread, until `stop()`. */
export class Traffic {
  /**
   * Start both in a worker thread, and resolve once they run: GET `url` every
   * `intervalMs` (a request lasting longer than 3 s is a failure), and every
   * second create a pod in `podNamespace` that is never scheduled (a
   * scheduling gate holds it, so no container starts) and delete the one of
   * the second before.
   */
  public static async start(kube: Kube, o: { url: string; podNamespace: string; intervalMs?: number }): Promise<Traffic> {
    const options: TrafficOptions = { env: kube.env, url: o.url, podNamespace: o.podNamespace, intervalMs: o.intervalMs ?? 100 };
    // the worker loads this module's TypeScript through ts-node, as the build tools do
    const worker = new Worker(
      `require('ts-node').register({ transpileOnly: true, project: ${JSON.stringify(path.join(__dirname, '..', 'tsconfig.json'))} });
       require(${JSON.stringify(__filename)});`,
      { eval: true, workerData: options },
    );
    const traffic = new Traffic(worker);
    await traffic.next('started');
    return traffic;
  }

  private failed?: Error;

  private constructor(private readonly worker: Worker) {
    worker.on('error', (e: Error) => { this.failed = e; });
  }

  /** Stop both loops (each finishes what it is doing) and report. */
  public async stop(): Promise<TrafficReport> {
    this.worker.postMessage('stop');
    const report = await this.next('report');
    await this.worker.terminate();
    return report;
  }

  /** The worker's next message of `type`; its error (or its exit) instead, as one clear line. */
  private next(type: string): Promise<any> {
    return new Promise((resolve, reject) => {
      if (this.failed) return reject(new Error(`cluster tier: the traffic worker failed: ${this.failed.message}`));
      const onMessage = (m: any) => {
        if (m?.type !== type) return;
        off();
        resolve(m.value);
      };
      const onError = (e: Error) => { off(); reject(new Error(`cluster tier: the traffic worker failed: ${e.message}`)); };
      const onExit = (code: number) => { off(); reject(new Error(`cluster tier: the traffic worker exited (${code}) before its ${type}`)); };
      const off = () => {
        this.worker.off('message', onMessage);
        this.worker.off('error', onError);
        this.worker.off('exit', onExit);
      };
      this.worker.on('message', onMessage);
      this.worker.on('error', onError);
      this.worker.on('exit', onExit);
    });
  }
}

/** The HTTP client and the pod loop, running until `stop()` (in the worker). */
class TrafficLoops {
  private stopped = false;
  private readonly started = Date.now();
  private requests = 0;
  private failedRequests = 0;
  private podsCreated = 0;
  private failedPodCreations = 0;
  private failedPodDeletions = 0;
  private readonly failures: string[] = [];
  private readonly hostnames: string[] = [];
  private readonly loops: Array<Promise<void>>;

  constructor(private readonly kube: Kube, private readonly url: string, private readonly ns: string, private readonly intervalMs: number) {
    this.loops = [this.httpLoop(), this.podLoop()];
  }

  /** Stop both loops (each finishes what it is doing) and report. */
  public async stop(): Promise<TrafficReport> {
    this.stopped = true;
    await Promise.all(this.loops);
    return {
      requests: this.requests,
      failedRequests: this.failedRequests,
      podsCreated: this.podsCreated,
      failedPodCreations: this.failedPodCreations,
      failedPodDeletions: this.failedPodDeletions,
      failures: [...this.failures],
      hostnames: [...this.hostnames],
      seconds: Math.round((Date.now() - this.started) / 100) / 10,
    };
  }

  private note(what: string): void {
    if (this.failures.length < 20) this.failures.push(`+${((Date.now() - this.started) / 1000).toFixed(1)}s ${what}`);
  }

  private async httpLoop(): Promise<void> {
    // a request every intervalMs whatever the answers take: a slow answer does not slow the client down
    const inFlight = new Set<Promise<void>>();
    let next = Date.now();
    while (!this.stopped) {
      const p = this.ask().finally(() => inFlight.delete(p));
      inFlight.add(p);
      next += this.intervalMs;
      await sleep(Math.max(0, next - Date.now()));
    }
    await Promise.all(inFlight);
  }

  private async ask(): Promise<void> {
    const r = await httpGet(this.url, 3000);
    this.requests++;
    if (r.status !== 200) {
      this.failedRequests++;
      this.note(`GET ${this.url}: ${r.status} ${r.body.slice(0, 120)}`);
    } else if (r.json?.hostname && !this.hostnames.includes(r.json.hostname)) {
      this.hostnames.push(r.json.hostname);
    }
  }

  private pod(i: number): Manifest {
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `churn-${i}`, namespace: this.ns, labels: { 'cdk8s-kruise.test/churn': 'true' } },
      spec: {
        schedulingGates: [{ name: 'cdk8s-kruise.test/never' }],
        terminationGracePeriodSeconds: 0,
        containers: [{ name: 'pause', image: 'registry.k8s.io/pause:3.10' }],
      },
    };
  }

  private async podLoop(): Promise<void> {
    let i = 0;
    while (!this.stopped) {
      const next = Date.now() + 1000;
      const created = await this.kube.request('POST', `/api/v1/namespaces/${this.ns}/pods`, this.pod(i));
      if (created.status === 201) {
        this.podsCreated++;
      } else {
        this.failedPodCreations++;
        this.note(`create pod churn-${i}: HTTP ${created.status} ${created.body?.message ?? created.body}`);
      }
      if (i > 0) {
        const deleted = await this.kube.request('DELETE', `/api/v1/namespaces/${this.ns}/pods/churn-${i - 1}?gracePeriodSeconds=0`);
        if (deleted.status !== 200 && deleted.status !== 404) {
          this.failedPodDeletions++;
          this.note(`delete pod churn-${i - 1}: HTTP ${deleted.status} ${deleted.body?.message ?? deleted.body}`);
        }
      }
      i++;
      await sleep(Math.max(0, next - Date.now()));
    }
    await this.kube.request('DELETE', `/api/v1/namespaces/${this.ns}/pods/churn-${i - 1}?gracePeriodSeconds=0`);
  }
}

// the worker: run the loops until the test thread says stop, then send the report
if (!isMainThread && parentPort && (workerData as TrafficOptions | undefined)?.url) {
  const o = workerData as TrafficOptions;
  const port = parentPort;
  const kube = new Kube(o.env);
  const loops = new TrafficLoops(kube, o.url, o.podNamespace, o.intervalMs);
  port.on('message', async m => {
    if (m !== 'stop') return;
    const report = await loops.stop();
    kube.close();
    port.postMessage({ type: 'report', value: report });
  });
  port.postMessage({ type: 'started' });
}
