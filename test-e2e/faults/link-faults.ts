// Link faults (docs/testing.md "Link faults and the fault proxy"): slow, cut,
// half-open and reset links between one process and one dependency, made by Toxiproxy standing in
// the middle (built by scripts/fault-proxy into the tools cache, docs/testing.md "Tools").
// `proxy(name, upstream)` starts a toxiproxy-server for that one link and gives a listen address to
// hand to the one process whose link is to fail (e.g. `payout-1→postgres`); the fault helpers act
// on that link only, while every other process keeps its direct link.
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
  constructor(
    readonly baseUrl: string,
    /** Each call's deadline; past it the call rejects with a TimeoutError. */
    readonly timeoutMs = 10_000,
  ) {}

  /** The same server, each call given `timeoutMs`. */
  withTimeout(timeoutMs: number): ToxiproxyClient {
    return new ToxiproxyClient(this.baseUrl, timeoutMs);
  }

  private async call<T>(method: string, apiPath: string, body?: unknown): Promise<T> {
    const res = await fetch(this.baseUrl + apiPath, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(this.timeoutMs),
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

  async removeToxic(proxy: string, name: string): Promise<void> {
    await this.call('DELETE', `${ToxiproxyClient.proxyPath(proxy)}/toxics/${encodeURIComponent(name)}`);
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
  /** Directory of the servers' logs (JSON lines, `toxiproxy-<port>.log`, one per link). */
  readonly logDir: string;
  /**
   * A new proxy `name` listening on a free loopback port (or on `opts.port`, one chosen and
   * reserved before, such as the port a Kafka broker advertises), forwarding to `upstream`. Each
   * link has its own toxiproxy-server process (see `startLinkFaults`).
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
  /** The proxy's current state as its server reports it. */
  state(proxy: LinkProxy | string): Promise<ProxyState>;
  /** The proxy gone: its server stopped, its connections closed, its listen address free. */
  remove(proxy: LinkProxy | string): Promise<void>;
  /** The pid of the toxiproxy-server serving the link (a test freezes it with SIGSTOP). */
  serverPid(proxy: LinkProxy | string): number;
  /** How many times a frozen server was replaced (see `startLinkFaults`), per proxy name. */
  readonly replacements: ReadonlyMap<string, number>;
  /** Every link server stopped (SIGTERM, SIGKILL after 5 s): every proxy and connection goes. */
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
  /** Directory for the servers' logs (default: a new temporary directory). */
  logDir?: string;
}

const START_ATTEMPTS = 5;

/**
 * How long a control call may take. Toxiproxy's control API can freeze for good: a latency
 * toxic that still holds data for a connection whose client has gone blocks the toxic's removal
 * while it holds the proxy's lock, and every later call, reads included, waits behind it
 * (Shopify/toxiproxy#558, open; it froze `clearToxics` after "Redis answers late" in CI). A call
 * slower than this is taken for that freeze and the link's server is replaced.
 */
const CONTROL_TIMEOUT_MS = 3_000;

/** One toxiproxy-server process serving one link. */
interface LinkServer {
  client: ToxiproxyClient;
  child: ReturnType<typeof spawn>;
  exit: Promise<void>;
  hasExited: () => boolean;
  logFile: string;
}

/**
 * Starts toxiproxy-server on a free loopback port, its log in `logDir`. It is not outlived by the
 * test process if that ends without `stop()` (a crash, a jest worker killed).
 */
async function startServer(binary: string, logDir: string): Promise<LinkServer> {
  for (let attempt = 1; ; attempt++) {
    const apiPort = await freePort();
    const logFile = path.join(logDir, `toxiproxy-${apiPort}.log`);
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
      const killOnExit = () => child.kill('SIGKILL');
      process.once('exit', killOnExit);
      void exit.then(() => process.off('exit', killOnExit));
      return { client, child, exit, hasExited: () => exited, logFile };
    }
    // A port checked free can be taken before the server binds it: try another one then.
    child.kill('SIGKILL');
    await exit;
    if (attempt >= START_ATTEMPTS)
      throw new Error(`toxiproxy-server did not answer on 127.0.0.1:${apiPort}:\n${tail(logFile, 40)}`);
  }
}

async function stopServer(server: LinkServer, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (server.hasExited()) return;
  server.child.kill(signal);
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 5_000);
  try {
    await server.exit;
  } finally {
    clearTimeout(timer);
  }
}

function tail(file: string, lines: number): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** What a link should be; its server is brought to it, and a replacement server starts from it. */
interface LinkSpec {
  listen: string;
  upstream: string;
  enabled: boolean;
  toxics: Map<string, ToxicInput>;
}

/**
 * The link-fault manager. Each proxy gets its own toxiproxy-server process, so that a server
 * whose control API froze (see CONTROL_TIMEOUT_MS) can be killed and replaced without touching
 * any other link: the replacement listens on the same address with the link's intended state
 * (upstream, cut or not, its toxics). Killing a server closes the connections it held, which is
 * what ending a toxic does anyway (docs/testing.md "Link faults and the fault proxy").
 */
export async function startLinkFaults(opts: StartLinkFaultsOptions = {}): Promise<LinkFaults> {
  const binary = await faultProxyBinary();
  const logDir = opts.logDir ?? mkdtempSync(path.join(os.tmpdir(), 'qr-payout-link-faults-'));
  const servers = new Map<string, LinkServer>();
  const specs = new Map<string, LinkSpec>();
  const replacements = new Map<string, number>();

  const nameOf = (proxy: LinkProxy | string) => (typeof proxy === 'string' ? proxy : proxy.name);
  const directions = (direction: Direction): Stream[] =>
    direction === 'both' ? ['upstream', 'downstream'] : [direction];
  const serverOf = (name: string): LinkServer => {
    const server = servers.get(name);
    if (!server) throw new Error(`no link proxy named ${name}`);
    return server;
  };
  const specOf = (name: string): LinkSpec => {
    const spec = specs.get(name);
    if (!spec) throw new Error(`no link proxy named ${name}`);
    return spec;
  };

  /** A server running the proxy `name` as `spec` says (created enabled, then cut if it is). */
  const serve = async (name: string, spec: LinkSpec): Promise<LinkServer> => {
    const server = await startServer(binary, logDir);
    try {
      await server.client.createProxy({
        name,
        listen: spec.listen,
        upstream: spec.upstream,
        enabled: spec.enabled,
      });
      for (const toxic of spec.toxics.values()) await server.client.addToxic(name, toxic);
    } catch (err) {
      await stopServer(server, 'SIGKILL');
      throw err;
    }
    return server;
  };

  /** The frozen server of `name` killed and a new one started from the link's spec. */
  const replace = async (name: string) => {
    await stopServer(serverOf(name), 'SIGKILL');
    replacements.set(name, (replacements.get(name) ?? 0) + 1);
    // The old listener's port is free once the process is gone; a connection of the killed
    // server in TIME_WAIT does not keep a new listener from binding (Go sets SO_REUSEADDR).
    servers.set(name, await serve(name, specOf(name)));
  };

  /**
   * Brings the server of `name` to its spec with `apply`; when the server does not answer within
   * CONTROL_TIMEOUT_MS, replaces it (the replacement starts from the spec, so `apply` is done).
   */
  const converge = async (name: string, apply: (client: ToxiproxyClient) => Promise<void>) => {
    const client = serverOf(name).client;
    try {
      await apply(client);
    } catch (err) {
      // AbortSignal.timeout's DOMException: not `instanceof Error` inside jest's sandbox realm.
      if ((err as { name?: unknown } | undefined)?.name !== 'TimeoutError') throw err;
      await replace(name);
    }
  };

  const timed = (client: ToxiproxyClient) => client.withTimeout(CONTROL_TIMEOUT_MS);

  /** Sets each toxic on the link, adding it or changing the one of that name. */
  const setToxics = async (proxy: LinkProxy | string, toxics: ToxicInput[]) => {
    const name = nameOf(proxy);
    const spec = specOf(name);
    for (const toxic of toxics) spec.toxics.set(toxic.name, toxic);
    await converge(name, async (client) => {
      for (const toxic of toxics) {
        try {
          await timed(client).addToxic(name, toxic);
        } catch (err) {
          if (!(err instanceof ToxiproxyError) || err.status !== 409) throw err;
          await timed(client).updateToxic(name, toxic.name, {
            attributes: toxic.attributes,
            toxicity: toxic.toxicity ?? 1,
          });
        }
      }
    });
  };

  /** A toxic with `timeout: 0` on each stream, named `<prefix>-<stream>`. */
  const onBothStreams = (proxy: LinkProxy | string, prefix: string, type: ToxicInput['type']) =>
    setToxics(
      proxy,
      directions('both').map((stream) => ({
        name: `${prefix}-${stream}`,
        type,
        stream,
        attributes: { timeout: 0 },
      })),
    );

  const clearToxics = async (proxy: LinkProxy | string) => {
    const name = nameOf(proxy);
    specOf(name).toxics.clear();
    await converge(name, async (client) => {
      for (const toxic of await timed(client).listToxics(name))
        await timed(client)
          .removeToxic(name, toxic.name)
          .catch((err: unknown) => {
            if (!(err instanceof ToxiproxyError && err.status === 404)) throw err;
          });
    });
  };

  const setEnabled = async (proxy: LinkProxy | string, enabled: boolean) => {
    const name = nameOf(proxy);
    specOf(name).enabled = enabled;
    await converge(name, async (client) => {
      await timed(client).updateProxy(name, { enabled });
    });
  };

  const stopAll = async () => {
    const running = [...servers.values()];
    servers.clear();
    await Promise.all(running.map((server) => stopServer(server)));
  };

  return {
    logDir,
    replacements,

    async proxy(name, upstream, proxyOpts = {}) {
      if (specs.has(name)) throw new Error(`a link proxy named ${name} exists already`);
      const target = upstreamAddress(upstream);
      const create = async (port: number): Promise<LinkProxy> => {
        const spec: LinkSpec = {
          listen: `127.0.0.1:${port}`,
          upstream: target,
          enabled: true,
          toxics: new Map(),
        };
        servers.set(name, await serve(name, spec));
        specs.set(name, spec);
        return { name, host: '127.0.0.1', port, address: spec.listen, upstream: target };
      };
      if (proxyOpts.port !== undefined) return create(proxyOpts.port);
      // A port below the ephemeral range (test-e2e/harness/ports.ts): `cut` and `repoint` close
      // and reopen the listener, and an ephemeral port could be taken by an outgoing connection
      // in between.
      for (let attempt = 1; ; attempt++) {
        try {
          return await create(await freePort());
        } catch (err) {
          // Taken in between: toxiproxy answers 500 "listen tcp ...: address already in use".
          if (!(err instanceof ToxiproxyError) || !/address already in use/.test(err.body) || attempt >= 5)
            throw err;
        }
      }
    },

    async latency(proxy, ms, latencyOpts = {}) {
      await setToxics(
        proxy,
        directions(latencyOpts.direction ?? 'downstream').map((stream) => ({
          name: `latency-${stream}`,
          type: 'latency' as const,
          stream,
          attributes: { latency: ms, jitter: latencyOpts.jitterMs ?? 0 },
        })),
      );
    },

    cut: (proxy) => setEnabled(proxy, false),

    async restore(proxy) {
      await clearToxics(proxy);
      await setEnabled(proxy, true);
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
      const name = nameOf(proxy);
      const target = upstreamAddress(upstream);
      specOf(name).upstream = target;
      await converge(name, async (client) => {
        await timed(client).updateProxy(name, { upstream: target });
      });
    },

    state(proxy) {
      const name = nameOf(proxy);
      return serverOf(name).client.getProxy(name);
    },

    async remove(proxy) {
      const name = nameOf(proxy);
      const server = serverOf(name);
      servers.delete(name);
      specs.delete(name);
      await stopServer(server);
    },

    serverPid(proxy) {
      const pid = serverOf(nameOf(proxy)).child.pid;
      if (pid === undefined) throw new Error(`the server of ${nameOf(proxy)} has no pid`);
      return pid;
    },

    stop: stopAll,
  };
}
