/**
 * Free loopback ports for the tier's servers (API servers, etcd, managers,
 * Flux), taken below the kernel's ephemeral range. A port the kernel picks
 * for `listen(0)` comes from that range, and so does the local port of every
 * outgoing connection: between releasing such a port and the server binding
 * it, any client of the machine (another lane's clusters) could take it, and
 * the server then fails with "address already in use". Below the range only
 * another explicit bind competes. Each port is checked by binding it, and a
 * process never hands out the same port twice. Bounded: 500 tries.
 */
const fs = require('fs');
const net = require('net');

const handedOut = new Set();

/** The first port of the kernel's ephemeral range (32768 unless the machine says otherwise). */
function ephemeralLow() {
  try {
    const low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf-8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 2048 ? low : 32768;
  } catch {
    return 32768;
  }
}

function bindable(port) {
  return new Promise(ok => {
    const s = net.createServer();
    s.once('error', () => ok(false));
    s.listen(port, '127.0.0.1', () => s.close(() => ok(true)));
  });
}

/** One free port on 127.0.0.1, below the ephemeral range. */
async function freePort() {
  const high = ephemeralLow() - 1;
  const low = Math.max(1025, high - 12000);
  for (let i = 0; i < 500; i++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (handedOut.has(port)) continue;
    if (await bindable(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`cluster tier: no free port on 127.0.0.1 between ${low} and ${high} after 500 tries`);
}

module.exports = { freePort };
