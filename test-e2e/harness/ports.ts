import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

// Ports for the children are chosen here and bound later by another process. A port from the
// kernel's ephemeral range (listen(0); 32768–60999 on Linux) can be taken in between by any
// outgoing connection (a Kafka or PostgreSQL client of an earlier child), so they come from
// below that range instead, checked free by listening on them.
const FIRST_PORT = 20_000;
const PORTS = 12_000; // 20000–31999
const ATTEMPTS = 200;

// Another harness on the machine (a fault campaign beside `npm test`) checks the same range: a port
// both found free would be bound by two children, and one fails with EADDRINUSE. A port handed out
// is reserved by a file naming this process, honoured by every harness while that process lives and
// for RESERVATION_MS (long enough for its children to bind it, and to restart on it), then taken
// over. This process's files go when it exits.
const RESERVATIONS = path.join(os.tmpdir(), 'qr-payout-port-reservations');
const RESERVATION_MS = 15 * 60_000;
const reservedHere = new Set<number>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function claim(file: string): boolean {
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch {
    return false;
  }
}

/** Reserves the port for this process; false when another live reservation holds it. */
function reserve(port: number): boolean {
  const file = path.join(RESERVATIONS, String(port));
  try {
    mkdirSync(RESERVATIONS, { recursive: true });
  } catch {
    return true; // no place to reserve in: the listen check alone, as before
  }
  if (!claim(file)) {
    try {
      const owner = Number(readFileSync(file, 'utf8'));
      if (Date.now() - statSync(file).mtimeMs < RESERVATION_MS && alive(owner)) return false;
      rmSync(file, { force: true });
    } catch {
      return false;
    }
    // Two harnesses taking over the same stale file: one creates it again, the other skips it.
    if (!claim(file)) return false;
  }
  if (reservedHere.size === 0) {
    process.once('exit', () => {
      for (const held of reservedHere) rmSync(path.join(RESERVATIONS, String(held)), { force: true });
    });
  }
  reservedHere.add(port);
  return true;
}

function tryListen(port: number, host: string): Promise<net.Server | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(undefined));
    server.listen(port, host, () => resolve(server));
  });
}

const close = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** The port held on every one of `hosts`, or undefined (and nothing held) when one refuses it. */
async function tryListenAll(port: number, hosts: readonly string[]): Promise<net.Server[] | undefined> {
  const servers: net.Server[] = [];
  for (const host of hosts) {
    const server = await tryListen(port, host);
    if (!server) {
      await Promise.all(servers.map(close));
      return undefined;
    }
    servers.push(server);
  }
  return servers;
}

/**
 * Several distinct TCP ports free right now on each of `hosts` (loopback addresses; replicas of a
 * component share a port on addresses of their own, docs/testing.md "Replicas"), outside the
 * ephemeral range.
 */
export async function freePorts(count: number, hosts: readonly string[] = ['127.0.0.1']): Promise<number[]> {
  const held: net.Server[][] = [];
  try {
    for (let attempt = 0; held.length < count && attempt < ATTEMPTS; attempt++) {
      // A port already held fails to listen again, so the ports are distinct.
      const candidate = FIRST_PORT + Math.floor(Math.random() * PORTS);
      if (reservedHere.has(candidate)) continue;
      const servers = await tryListenAll(candidate, hosts);
      if (!servers) continue;
      if (reserve(candidate)) held.push(servers);
      else await Promise.all(servers.map(close));
    }
    if (held.length < count) throw new Error(`no ${count} free ports below the ephemeral range`);
    return held.map((servers) => port(servers[0]!));
  } finally {
    await Promise.all(held.flat().map(close));
  }
}

function port(server: net.Server): number {
  return (server.address() as net.AddressInfo).port;
}

/** A TCP port free right now on each of `hosts` (default 127.0.0.1), outside the ephemeral range. */
export async function freePort(hosts?: readonly string[]): Promise<number> {
  const [port] = await freePorts(1, hosts);
  return port!;
}
