// Round robin that leaves out the replicas that say they cannot serve (docs/architecture.md
// "Internal load balancing", "Replicas that say NOT_SERVING"). A replica that lost its database
// turns its grpc.health.v1 status NOT_SERVING; Kubernetes then drops it from the headless Service,
// but a client only re-resolves when a connection closes, so plain round robin keeps sending it a
// share of the calls for up to a connection age. gRPC's client-side health checking (gRFC A17)
// closes that gap; grpc-js does not implement it, so this balancer does what it specifies: it
// watches `grpc.health.v1.Health/Watch` on each connection it balances over and reports a replica
// whose last answer was NOT_SERVING as unhealthy, which makes grpc-js's own round_robin skip it.
//
// Two rules of our own: when every connected replica is NOT_SERVING, all of them stay in the
// rotation (a lone replica that lost its database answers its own UNAVAILABLE, as without the
// check; no channel ends up with nothing to pick), and a server without the health service
// (UNIMPLEMENTED) or without the name (SERVICE_UNKNOWN) is taken as serving.
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import * as grpc from '@grpc/grpc-js';
import { experimental } from '@grpc/grpc-js';
import {
  HealthCheckRequestSchema,
  HealthCheckResponse_ServingStatus,
  HealthCheckResponseSchema,
} from '@qr-payout/proto/grpc/health/v1/health_pb';

/** The grpc-js load-balancing policy name, for a service config's loadBalancingConfig. */
export const HEALTH_CHECKED_ROUND_ROBIN = 'qr_payout_health_checked_round_robin';

const WATCH_PATH = '/grpc.health.v1.Health/Watch';
/** The wait before watching again after a Watch stream ended on a connection that is still up. */
const REWATCH_DELAY_MS = 1_000;

class HealthCheckedRoundRobinConfig implements experimental.TypedLoadBalancingConfig {
  /** The grpc.health.v1 name to watch; '' is the whole server. */
  constructor(readonly serviceName: string) {}
  getLoadBalancerName(): string {
    return HEALTH_CHECKED_ROUND_ROBIN;
  }
  toJsonObject(): object {
    return { [HEALTH_CHECKED_ROUND_ROBIN]: { serviceName: this.serviceName } };
  }
  static createFromJson(obj: { serviceName?: unknown }): HealthCheckedRoundRobinConfig {
    return new HealthCheckedRoundRobinConfig(typeof obj?.serviceName === 'string' ? obj.serviceName : '');
  }
}

/**
 * One of the channel's subchannels as grpc-js's round_robin sees it. round_robin makes new ones for
 * the same address at every re-resolution and drops the old, so what a replica said is kept by the
 * balancer per address; each wrapper runs the watch while its connection is up.
 */
class WatchedSubchannel extends experimental.BaseSubchannelWrapper {
  private watch: grpc.ClientReadableStream<unknown> | undefined;
  private rewatch: NodeJS.Timeout | undefined;
  /** The server has no health service: not asked again on this subchannel. */
  private unimplemented = false;
  private destroyed = false;
  readonly address: string;

  constructor(
    child: experimental.SubchannelInterface,
    private readonly balancer: HealthCheckedRoundRobin,
  ) {
    super(child);
    this.address = child.getAddress();
    child.addConnectivityStateListener(this.onConnectivity);
    if (this.isConnected()) this.startWatch();
  }

  /** Set by the balancer's rule (see the file comment). */
  applyHealth(healthy: boolean): void {
    this.setHealthy(healthy);
  }

  isConnected(): boolean {
    return this.child.getConnectivityState() === grpc.connectivityState.READY;
  }

  /** Its connection failed (and is waiting to retry): it takes no call for now. */
  isFailing(): boolean {
    return this.child.getConnectivityState() === grpc.connectivityState.TRANSIENT_FAILURE;
  }

  protected override destroy(): void {
    this.destroyed = true;
    this.child.removeConnectivityStateListener(this.onConnectivity);
    this.stopWatch();
    this.balancer.forget(this);
    super.destroy();
  }

  // This runs before round_robin's own listener sees the change (it was added first), so a
  // connection comes up already judged.
  private readonly onConnectivity: experimental.ConnectivityStateListener = () => {
    if (this.isConnected()) this.startWatch();
    else this.stopWatch();
    this.balancer.reconsider();
  };

  private startWatch(): void {
    if (this.watch || this.unimplemented || this.destroyed) return;
    clearTimeout(this.rewatch);
    this.rewatch = undefined;
    // The Watch runs on this very connection, as gRFC A17 does.
    const client = new grpc.Client('health-watch', grpc.credentials.createInsecure(), {
      channelOverride: this.child.getChannel(),
    });
    const request = Buffer.from(
      toBinary(
        HealthCheckRequestSchema,
        create(HealthCheckRequestSchema, { service: this.balancer.serviceName }),
      ),
    );
    const watch = client.makeServerStreamRequest(
      WATCH_PATH,
      (message: Buffer) => message,
      (bytes: Buffer) => fromBinary(HealthCheckResponseSchema, bytes),
      request,
    );
    this.watch = watch;
    watch.on('data', (response: { status: HealthCheckResponse_ServingStatus }) => {
      this.balancer.record(this.address, response.status !== HealthCheckResponse_ServingStatus.NOT_SERVING);
    });
    watch.on('error', (err: grpc.ServiceError) => {
      if (err.code === grpc.status.UNIMPLEMENTED) this.unimplemented = true;
    });
    watch.on('status', () => {
      if (this.watch !== watch) return;
      this.watch = undefined;
      if (this.unimplemented) this.balancer.record(this.address, true);
      else if (!this.destroyed && this.isConnected()) {
        this.rewatch = setTimeout(() => this.startWatch(), REWATCH_DELAY_MS);
        this.rewatch.unref();
      }
    });
  }

  private stopWatch(): void {
    clearTimeout(this.rewatch);
    this.rewatch = undefined;
    const watch = this.watch;
    this.watch = undefined;
    watch?.cancel();
  }
}

/** grpc-js's round_robin over WatchedSubchannels. */
class HealthCheckedRoundRobin implements experimental.LoadBalancer {
  serviceName = '';
  private readonly child: experimental.ChildLoadBalancerHandler;
  private readonly subchannels = new Set<WatchedSubchannel>();
  /**
   * What each resolved address said last: true for SERVING (or no health service), false for
   * NOT_SERVING; absent before its first answer. Kept across reconnections and re-resolutions, so
   * a replica that said NOT_SERVING stays out until it says SERVING, and a new one waits for its
   * first answer as gRFC A17's connections do (while another replica may serve).
   */
  private readonly serving = new Map<string, boolean>();
  private readonly roundRobin = experimental.parseLoadBalancingConfig({ round_robin: {} });

  constructor(helper: experimental.ChannelControlHelper) {
    this.child = new experimental.ChildLoadBalancerHandler(
      experimental.createChildChannelControlHelper(helper, {
        createSubchannel: (address, args) => {
          const subchannel = new WatchedSubchannel(helper.createSubchannel(address, args), this);
          this.subchannels.add(subchannel);
          this.reconsider();
          return subchannel;
        },
      }),
    );
  }

  record(address: string, serving: boolean): void {
    if (this.serving.get(address) === serving) return;
    this.serving.set(address, serving);
    this.reconsider();
  }

  /**
   * Unhealthy: not known to serve while another address said SERVING and its connection is up or
   * coming (a call then waits a moment for it rather than going to one that cannot serve). When no
   * other address did, every one stays in (see the file comment).
   */
  reconsider(): void {
    const failing = new Map<string, boolean>();
    for (const s of this.subchannels)
      failing.set(s.address, (failing.get(s.address) ?? true) && s.isFailing());
    const servingAddresses = [...this.serving]
      .filter(([address, serving]) => serving && failing.get(address) !== true)
      .map(([address]) => address);
    for (const subchannel of this.subchannels) {
      const othersServe = servingAddresses.some((address) => address !== subchannel.address);
      subchannel.applyHealth(this.serving.get(subchannel.address) === true || !othersServe);
    }
  }

  forget(subchannel: WatchedSubchannel): void {
    if (this.subchannels.delete(subchannel)) this.reconsider();
  }

  updateAddressList(
    endpoints: Parameters<experimental.LoadBalancer['updateAddressList']>[0],
    config: experimental.TypedLoadBalancingConfig,
    options: grpc.ChannelOptions,
    resolutionNote: string,
  ): boolean {
    if (config instanceof HealthCheckedRoundRobinConfig) this.serviceName = config.serviceName;
    // An address no longer resolved is forgotten: if it comes back, it is asked again.
    if (endpoints.ok) {
      const resolved = new Set(
        endpoints.value.flatMap((e) => e.addresses.map((a) => experimental.subchannelAddressToString(a))),
      );
      for (const address of this.serving.keys()) if (!resolved.has(address)) this.serving.delete(address);
    }
    return this.child.updateAddressList(endpoints, this.roundRobin, options, resolutionNote);
  }

  exitIdle(): void {
    this.child.exitIdle();
  }

  resetBackoff(): void {
    this.child.resetBackoff();
  }

  destroy(): void {
    this.child.destroy();
  }

  getTypeName(): string {
    return HEALTH_CHECKED_ROUND_ROBIN;
  }
}

let registered = false;

/** Registers the policy with grpc-js once per process; idempotent. */
export function registerHealthCheckedRoundRobin(): void {
  if (registered) return;
  registered = true;
  experimental.registerLoadBalancerType(
    HEALTH_CHECKED_ROUND_ROBIN,
    HealthCheckedRoundRobin,
    HealthCheckedRoundRobinConfig,
  );
}
