// Link faults (issue 18 point 4; docs/testing.md "Link faults and the fault proxy"): slow, cut,
// half-open and reset links between one process and one dependency, made by Toxiproxy standing in
// the middle. `startLinkFaults()` runs one toxiproxy-server (built by scripts/fault-proxy into the
// tools cache, docs/testing.md "Tools") on a free loopback port; `proxy(name, upstream)` gives a
// listen address to hand to the one process whose link is to fail (e.g. `payout-1→postgres`), and
// the fault helpers act on that link only, while every other process keeps its direct link.
import { execFile, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../harness/ports';
import { REPO_ROOT } from '../harness/processes';

const execFileAsync = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// The HTTP API of toxiproxy-server v2 (the HTTP API section of the README at
// github.com/Shopify/toxiproxy), typed for the calls used here.

/** Which way the data a toxic acts on flows: upstream = client → server, downstream = server → client. */
export type Stream = 'upstream' | 'downstream';

export type ToxicType =
  | 'latency'
  | 'bandwidth'
  | 'slow_close'
  | 'timeout'
  | 'reset_peer'
  | 'slicer'
  | 'limit_data';

export interface Toxic {
  name: string;
  type: ToxicType;
  stream: Stream;
  /** Share of connections the toxic applies to, 0..1 (toxiproxy's default 1). */
  toxicity: number;
  /** Per type: latency {latency, jitter} ms; timeout {timeout} ms; reset_peer {timeout} ms; ... */
  attributes: Record<string, number>;
}

export type ToxicInput = Omit<Toxic, 'toxicity'> & { toxicity?: number };

export interface ProxyState {
  name: string;
  /** host:port toxiproxy listens on for this proxy. */
  listen: string;
  /** host:port it forwards to. */
  upstream: string;
  enabled: boolean;
  toxics: Toxic[];
}

export class ToxiproxyError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    what: string,
  ) {
    super(`toxiproxy: ${what}: HTTP ${status} ${body.trim()}`);
  }
}

/** A thin client of toxiproxy-server's HTTP API. */
export class ToxiproxyClient {
  constructor(readonly baseUrl: string) {}

  private async call<T>(method: string, apiPath: string, body?: unknown, timeoutMs = 10_000): Promise<T> {
    const res = await fetch(this.baseUrl + apiPath, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    if (!res.ok) throw new ToxiproxyError(res.status, text, `${method} ${apiPath}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  private static proxyPath(name: string): string {
    return `/proxies/${encodeURIComponent(name)}`;
  }

  async version(): Promise<string> {
    const res = await fetch(`${this.baseUrl}/version`, { signal: AbortSignal.timeout(2_000) });
    if (!res.ok) throw new ToxiproxyError(res.status, await res.text(), 'GET /version');
    const text = await res.text();
    // v2.12 answers {"version": "..."}; older servers a bare string.
    try {
      return (JSON.parse(text) as { version: string }).version;
    } catch {
      return text.trim();
    }
  }

  listProxies(): Promise<Record<string, ProxyState>> {
    return this.call('GET', '/proxies');
  }

  createProxy(input: {
    name: string;
    listen: string;
    upstream: string;
    enabled?: boolean;
  }): Promise<ProxyState> {
    return this.call('POST', '/proxies', { enabled: true, ...input });
  }

  getProxy(name: string): Promise<ProxyState> {
    return this.call('GET', ToxiproxyClient.proxyPath(name));
  }

  /**
   * Changes a proxy. A new `upstream` or `listen` stops the proxy (closing its connections) and
   * starts it again on the same listen address; `enabled: false` stops it, `true` starts it.
   */
  updateProxy(
    name: string,
    patch: { upstream?: string; listen?: string; enabled?: boolean },
  ): Promise<ProxyState> {
    return this.call('PATCH', ToxiproxyClient.proxyPath(name), patch);
  }

  async deleteProxy(name: string): Promise<void> {
    await this.call('DELETE', ToxiproxyClient.proxyPath(name));
  }

  listToxics(proxy: string): Promise<Toxic[]> {
    return this.call('GET', `${ToxiproxyClient.proxyPath(proxy)}/toxics`);
  }

  addToxic(proxy: string, toxic: ToxicInput): Promise<Toxic> {
    return this.call('POST', `${ToxiproxyClient.proxyPath(proxy)}/toxics`, { toxicity: 1, ...toxic });
  }

  updateToxic(proxy: string, name: string, patch: Partial<ToxicInput>): Promise<Toxic> {
    return this.call(
      'PATCH',
      `${ToxiproxyClient.proxyPath(proxy)}/toxics/${encodeURIComponent(name)}`,
      patch,
    );
  }

  async removeToxic(proxy: string, name: string, timeoutMs?: number): Promise<void> {
    const path = `${ToxiproxyClient.proxyPath(proxy)}/toxics/${encodeURIComponent(name)}`;
    await this.call('DELETE', path, undefined, timeoutMs);
  }

  /** Every proxy enabled again and every toxic removed. */
  async reset(): Promise<void> {
    await this.call('POST', '/reset');
  }
}

// ---------------------------------------------------------------------------------------------
// The manager: one server process, named proxies, and the faults by name.

/** A proxy made by `LinkFaults.proxy`: give `address` (or host and port) to the one client. */
export interface LinkProxy {
  name: string;
  host: string;
  port: number;
  /** `host:port` the client connects to instead of the upstream. */
  address: string;
  /** `host:port` it was created with (see `repoint`). */
  upstream: string;
}

/** A dependency's address: `host:port`, a URL with host and port, or `{ host, port }`. */
export type Upstream = string | URL | { host: string; port: number };

export type Direction = Stream | 'both';

export interface LinkFaults {
  /** Base URL of the toxiproxy-server HTTP API. */
  readonly apiUrl: string;
  readonly client: ToxiproxyClient;
  /** The server's log (JSON lines), for failure messages. */
  readonly logFile: string;
  logTail(lines?: number): string;
  /**
   * A new proxy `name` listening on a free loopback port (or on `opts.port`, one chosen and
   * reserved before, such as the port a Kafka broker advertises), forwarding to `upstream`.
   */
  proxy(name: string, upstream: Upstream, opts?: { port?: number }): Promise<LinkProxy>;
  /**
   * Every chunk of data held `ms` (± `jitterMs`) before it is passed on, on `direction`
   * (default downstream: each answer arrives `ms` late, so a request/answer exchange takes `ms`
   * longer). Replaces an earlier latency on the same proxy and direction.
   */
  latency(
    proxy: LinkProxy | string,
    ms: number,
    opts?: { jitterMs?: number; direction?: Direction },
  ): Promise<void>;
  /**
   * The link is down: toxiproxy stops listening (a new connection is refused, ECONNREFUSED) and
   * closes every connection it holds (the client sees its socket end). Toxics stay configured.
   */
  cut(proxy: LinkProxy | string): Promise<void>;
  /** A healthy link again: listening (if cut), every toxic removed. */
  restore(proxy: LinkProxy | string): Promise<void>;
  /**
   * A half-open link: connections are accepted (new ones too) and stay open, but every byte either
   * way is swallowed and none is answered, no FIN, no RST: the peer is gone without a word, as
   * after a crash of its host, a dropped NAT entry or a silently dropping firewall. Only the
   * client's own timeout ends a call. See docs/testing.md "Link faults and the fault proxy".
   */
  halfOpen(proxy: LinkProxy | string): Promise<void>;
  /**
   * Connection reset by peer: each connection, existing or new, is reset (TCP RST, unsent data
   * discarded) on the first data sent over it, until `clearToxics` or `restore`.
   */
  resetPeers(proxy: LinkProxy | string): Promise<void>;
  /** Every toxic of the proxy removed (a cut proxy stays cut: see `restore`). */
  clearToxics(proxy: LinkProxy | string): Promise<void>;
  /**
   * Forward to another upstream from now on, on the same listen address (e.g. a PostgreSQL
   * switchover behind one address). Existing connections are closed; toxics stay.
   */
  repoint(proxy: LinkProxy | string, upstream: Upstream): Promise<void>;
  /** The proxy's current state as the server reports it. */
  state(proxy: LinkProxy | string): Promise<ProxyState>;
  /** SIGTERM to the server (SIGKILL after 5 s): every proxy and connection it held goes. */
  stop(): Promise<void>;
}

/** `host:port` of an upstream; a URL's port defaults by scheme (postgres 5432, redis 6379). */
export function upstreamAddress(upstream: Upstream): string {
  if (typeof upstream === 'string' && !/^[a-z][a-z0-9+.-]*:\/\//i.test(upstream)) return upstream;
  if (typeof upstream === 'object' && !(upstream instanceof URL)) return `${upstream.host}:${upstream.port}`;
  const url = upstream instanceof URL ? upstream : new URL(upstream);
  const defaults: Record<string, string> = { 'postgres:': '5432', 'postgresql:': '5432', 'redis:': '6379' };
  const port = url.port || defaults[url.protocol];
  if (!url.hostname || !port) throw new Error(`no host and port in ${url.protocol}//${url.host}`);
  return `${url.hostname}:${port}`;
}

/** `url` with its host and port replaced by the proxy's: the connection URL to hand the one client. */
export function viaProxy(url: string, proxy: LinkProxy): string {
  const parsed = new URL(url);
  parsed.hostname = proxy.host;
  parsed.port = String(proxy.port);
  return parsed.toString();
}

/** The toxiproxy-server binary, built into the tools cache by scripts/fault-proxy when missing. */
export async function faultProxyBinary(): Promise<string> {
  // The first build takes about 45 s on 2 cores (docs/testing.md "Link faults and the fault proxy").
  const { stdout } = await execFileAsync(path.join(REPO_ROOT, 'scripts/fault-proxy'), ['path'], {
    cwd: REPO_ROOT,
    timeout: 300_000,
  });
  return stdout.trim();
}

export interface StartLinkFaultsOptions {
  /** Directory for the server's log (default: a new temporary directory). */
  logDir?: string;
}

const START_ATTEMPTS = 5;

/** Starts one toxiproxy-server on a free loopback port and returns its manager. */
export async function startLinkFaults(opts: StartLinkFaultsOptions = {}): Promise<LinkFaults> {
  const binary = await faultProxyBinary();
  const logDir = opts.logDir ?? mkdtempSync(path.join(os.tmpdir(), 'qr-payout-link-faults-'));
  const logFile = path.join(logDir, 'toxiproxy.log');
  const logTail = (lines = 40) => {
    try {
      return readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    } catch {
      return '(no log)';
    }
  };

  // A port checked free can be taken before the server binds it: try another one then.
  for (let attempt = 1; ; attempt++) {
    const apiPort = await freePort();
    const fd = openSync(logFile, 'a');
    const child = spawn(binary, ['-host', '127.0.0.1', '-port', String(apiPort)], {
      stdio: ['ignore', fd, fd],
    });
    closeSync(fd);
    let exited = false;
    const exit = new Promise<void>((resolve) => {
      child.once('exit', () => {
        exited = true;
        resolve();
      });
    });
    const client = new ToxiproxyClient(`http://127.0.0.1:${apiPort}`);
    const deadline = Date.now() + 10_000;
    let version: string | undefined;
    while (!exited && version === undefined && Date.now() < deadline) {
      version = await client.version().catch(() => undefined);
      if (version === undefined) await sleep(50);
    }
    if (version !== undefined) {
      // Not outliving the test process if it ends without stop() (a crash, a jest worker killed).
      const killOnExit = () => child.kill('SIGKILL');
      process.once('exit', killOnExit);
      void exit.then(() => process.off('exit', killOnExit));
      return manager(client, child, exit, () => exited, logFile, logTail);
    }
    child.kill('SIGKILL');
    await exit;
    if (attempt >= START_ATTEMPTS)
      throw new Error(`toxiproxy-server did not answer on 127.0.0.1:${apiPort}:\n${logTail()}`);
  }
}

function manager(
  client: ToxiproxyClient,
  child: ReturnType<typeof spawn>,
  exit: Promise<void>,
  hasExited: () => boolean,
  logFile: string,
  logTail: (lines?: number) => string,
): LinkFaults {
  const nameOf = (proxy: LinkProxy | string) => (typeof proxy === 'string' ? proxy : proxy.name);
  const directions = (direction: Direction): Stream[] =>
    direction === 'both' ? ['upstream', 'downstream'] : [direction];

  /** Adds the toxic, or changes it when one of that name is already there. */
  const setToxic = async (proxy: string, toxic: ToxicInput) => {
    try {
      await client.addToxic(proxy, toxic);
    } catch (err) {
      if (!(err instanceof ToxiproxyError) || err.status !== 409) throw err;
      await client.updateToxic(proxy, toxic.name, {
        attributes: toxic.attributes,
        toxicity: toxic.toxicity ?? 1,
      });
    }
  };

  /** A toxic with `timeout: 0` on each stream, named `<prefix>-<stream>`. */
  const onBothStreams = async (proxy: LinkProxy | string, prefix: string, type: ToxicInput['type']) => {
    for (const stream of directions('both'))
      await setToxic(nameOf(proxy), {
        name: `${prefix}-${stream}`,
        type,
        stream,
        attributes: { timeout: 0 },
      });
  };

  // Toxiproxy removes a toxic only once each of the proxy's connections lets go of it; a latency
  // toxic holding data for a connection its client has already closed can hold the removal for
  // ever (seen with a gateway that dropped its Redis connections at its socket timeout). A removal
  // that takes longer than REMOVE_TOXIC_MS stops the proxy (closing its connections, which frees
  // the toxic), removes what is left and starts it again if it was running.
  const REMOVE_TOXIC_MS = 3_000;
  const clearToxics = async (proxy: LinkProxy | string) => {
    const name = nameOf(proxy);
    try {
      for (const toxic of await client.listToxics(name))
        await client.removeToxic(name, toxic.name, REMOVE_TOXIC_MS);
      return;
    } catch (err) {
      if (!(err instanceof Error) || err.name !== 'TimeoutError') throw err;
    }
    const { enabled } = await client.getProxy(name);
    await client.updateProxy(name, { enabled: false });
    for (const toxic of await client.listToxics(name)) {
      await client.removeToxic(name, toxic.name).catch((err: unknown) => {
        if (!(err instanceof ToxiproxyError && err.status === 404)) throw err;
      });
    }
    if (enabled) await client.updateProxy(name, { enabled: true });
  };

  return {
    apiUrl: client.baseUrl,
    client,
    logFile,
    logTail,

    async proxy(name, upstream, proxyOpts = {}) {
      const target = upstreamAddress(upstream);
      if (proxyOpts.port !== undefined) {
        const address = `127.0.0.1:${proxyOpts.port}`;
        await client.createProxy({ name, listen: address, upstream: target });
        return { name, host: '127.0.0.1', port: proxyOpts.port, address, upstream: target };
      }
      // A port below the ephemeral range (test-e2e/harness/ports.ts): `cut` and `repoint` close
      // and reopen the listener, and an ephemeral port could be taken by an outgoing connection
      // in between.
      for (let attempt = 1; ; attempt++) {
        const port = await freePort();
        try {
          await client.createProxy({ name, listen: `127.0.0.1:${port}`, upstream: target });
          return { name, host: '127.0.0.1', port, address: `127.0.0.1:${port}`, upstream: target };
        } catch (err) {
          // Taken in between: toxiproxy answers 500 "listen tcp ...: address already in use".
          if (!(err instanceof ToxiproxyError) || !/address already in use/.test(err.body) || attempt >= 5)
            throw err;
        }
      }
    },

    async latency(proxy, ms, latencyOpts = {}) {
      for (const stream of directions(latencyOpts.direction ?? 'downstream'))
        await setToxic(nameOf(proxy), {
          name: `latency-${stream}`,
          type: 'latency',
          stream,
          attributes: { latency: ms, jitter: latencyOpts.jitterMs ?? 0 },
        });
    },

    async cut(proxy) {
      await client.updateProxy(nameOf(proxy), { enabled: false });
    },

    async restore(proxy) {
      await clearToxics(proxy);
      await client.updateProxy(nameOf(proxy), { enabled: true });
    },

    async halfOpen(proxy) {
      // `timeout` with timeout 0 reads and drops every chunk and never closes the connection;
      // on both streams so neither a request nor a server's unprompted message gets through.
      // (`limit_data` would close the connection after N bytes: a FIN the client notices at
      // once, which is a cut, not a half-open link.) Removing it closes the connections it held.
      await onBothStreams(proxy, 'half-open', 'timeout');
    },

    async resetPeers(proxy) {
      // reset_peer acts on the first data of its stream; on both, whichever side speaks first.
      await onBothStreams(proxy, 'reset-peer', 'reset_peer');
    },

    clearToxics,

    async repoint(proxy, upstream) {
      await client.updateProxy(nameOf(proxy), { upstream: upstreamAddress(upstream) });
    },

    state(proxy) {
      return client.getProxy(nameOf(proxy));
    },

    async stop() {
      if (hasExited()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      try {
        await exit;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
