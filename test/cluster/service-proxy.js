// The cluster tier's stand-in for kube-proxy, for the API server only.
//
//   node service-proxy.js SOCKET ROUTES
//
// kube-apiserver calls a webhook given as a Service at the Service's
// ClusterIP. Nothing on this machine answers a ClusterIP (no kube-proxy, no
// pod network), so cluster.sh gives the API server an egress selector
// (`cluster` traffic through an HTTP CONNECT proxy on the unix socket SOCKET),
// and this process answers each `CONNECT <clusterIP>:<port>` by connecting to
// the first endpoint in ROUTES that accepts: ROUTES is a JSON file
// { "<clusterIP>:<port>": ["127.0.0.1:<port>", ...] } that the tier rewrites
// as it starts and stops kruise-manager processes (each process is one
// endpoint of the webhook Service). It is read on every CONNECT. An address
// with no route, or whose endpoints all refuse, gets 503, as a Service with
// no ready endpoint does.
const fs = require('fs');
const net = require('net');

const [socket, routes] = process.argv.slice(2);
if (!socket || !routes) {
  console.error('usage: node service-proxy.js SOCKET ROUTES');
  process.exit(2);
}

function endpoints(target) {
  try {
    return JSON.parse(fs.readFileSync(routes, 'utf-8'))[target] ?? [];
  } catch {
    return [];
  }
}

function connectFirst(list, done) {
  if (list.length === 0) return done(undefined);
  const [host, port] = [list[0].slice(0, list[0].lastIndexOf(':')), Number(list[0].slice(list[0].lastIndexOf(':') + 1))];
  const upstream = net.connect({ host, port });
  upstream.once('connect', () => done(upstream, list[0]));
  upstream.once('error', () => connectFirst(list.slice(1), done));
}

const server = net.createServer(client => {
  let head = Buffer.alloc(0);
  const onData = chunk => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) {
      if (head.length > 16384) client.destroy();
      return;
    }
    client.off('data', onData);
    const line = head.slice(0, head.indexOf('\r\n')).toString('latin1');
    const m = /^CONNECT (\S+) HTTP\/1\.[01]$/.exec(line);
    if (!m) {
      client.end('HTTP/1.1 405 Method Not Allowed\r\n\r\n');
      return;
    }
    connectFirst(endpoints(m[1]), (upstream, via) => {
      if (!upstream) {
        console.log(`${new Date().toISOString()} CONNECT ${m[1]}: no endpoint accepts`);
        client.end('HTTP/1.1 503 Service Unavailable\r\n\r\n');
        return;
      }
      console.log(`${new Date().toISOString()} CONNECT ${m[1]} -> ${via}`);
      client.write('HTTP/1.1 200 Connection established\r\n\r\n');
      const rest = head.slice(end + 4);
      if (rest.length > 0) upstream.write(rest);
      client.pipe(upstream).pipe(client);
      const close = () => { client.destroy(); upstream.destroy(); };
      client.on('error', close);
      upstream.on('error', close);
      client.on('close', close);
      upstream.on('close', close);
    });
  };
  client.on('data', onData);
  client.on('error', () => client.destroy());
});

try { fs.unlinkSync(socket); } catch { /* not there */ }
server.listen(socket, () => console.log(`service proxy listening on ${socket}, routes from ${routes}`));
process.on('SIGTERM', () => process.exit(0));
