/**
 * The HTTP GET of the cluster tier's clients, in a module of its own so that
 * the traffic worker (traffic.ts) loads it without the rest of node.ts.
 */
import * as http from 'http';

/** One HTTP GET (at most `timeoutMs`); a connection error is status 0 with the error as body. */
export function httpGet(url: string, timeoutMs = 3000): Promise<{ status: number; body: string; json?: any }> {
  return new Promise(resolve => {
    // a new connection each time (no keep-alive): each request is routed afresh, as a new client's would be
    const req = http.get(url, { agent: false }, res => {
      const chunks: Buffer[] = [];
      res.on('data', c => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf-8');
        let json: any;
        try { json = JSON.parse(body); } catch { /* not JSON */ }
        resolve({ status: res.statusCode ?? 0, body, json });
      });
    });
    req.on('error', e => resolve({ status: 0, body: e.message }));
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
  });
}
