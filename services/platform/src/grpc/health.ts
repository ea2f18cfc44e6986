import { create } from '@bufbuild/protobuf';
import type { ServiceImpl } from '@connectrpc/connect';
import { Code, ConnectError } from '@connectrpc/connect';
import {
  type Health,
  type HealthCheckResponse,
  HealthCheckResponse_ServingStatus,
  HealthCheckResponseSchema,
} from '@qr-payout/proto/grpc/health/v1/health_pb';

type ServingStatus = 'SERVING' | 'NOT_SERVING' | 'UNKNOWN';

/**
 * A grpc.health.v1 name that is SERVING from listen until close whatever the dependencies do: for
 * a liveness probe, which must not restart a replica because its database is away
 * (docs/architecture.md "Deadlines"; the chart's liveness probes ask for it).
 */
export const LIVENESS_HEALTH_SERVICE = 'liveness';

/** The per-service statuses behind `grpc.health.v1.Health`; '' is the whole server. */
export interface HealthRegistry {
  setStatus(service: string, status: ServingStatus): void;
  getStatus(service: string): ServingStatus | undefined;
  /** Sets every known service (and '') to the status, e.g. NOT_SERVING on shutdown. */
  setAll(status: ServingStatus): void;
  /** Ends every open Watch stream (the server is closing). */
  endWatches(): void;
}

type Listener = (status: HealthCheckResponse_ServingStatus) => void;

const WIRE: Record<ServingStatus, HealthCheckResponse_ServingStatus> = {
  SERVING: HealthCheckResponse_ServingStatus.SERVING,
  NOT_SERVING: HealthCheckResponse_ServingStatus.NOT_SERVING,
  UNKNOWN: HealthCheckResponse_ServingStatus.UNKNOWN,
};

function response(status: HealthCheckResponse_ServingStatus): HealthCheckResponse {
  return create(HealthCheckResponseSchema, { status });
}

export function createHealth(): { registry: HealthRegistry; impl: ServiceImpl<typeof Health> } {
  const statuses = new Map<string, ServingStatus>();
  const listeners = new Map<string, Set<Listener>>();
  const closing = new AbortController();

  const registry: HealthRegistry = {
    setStatus(service, status) {
      if (statuses.get(service) === status) return;
      statuses.set(service, status);
      for (const listener of listeners.get(service) ?? []) listener(WIRE[status]);
    },
    getStatus: (service) => statuses.get(service),
    setAll(status) {
      for (const service of [...statuses.keys()]) registry.setStatus(service, status);
    },
    endWatches: () => closing.abort(),
  };

  const current = (service: string) => {
    const status = statuses.get(service);
    return status === undefined ? HealthCheckResponse_ServingStatus.SERVICE_UNKNOWN : WIRE[status];
  };

  const impl: ServiceImpl<typeof Health> = {
    check(req) {
      const status = statuses.get(req.service);
      if (status === undefined) throw new ConnectError(`unknown service ${req.service}`, Code.NotFound);
      return response(WIRE[status]);
    },
    list() {
      const all: Record<string, HealthCheckResponse> = {};
      for (const [service, status] of statuses) all[service] = response(WIRE[status]);
      return { statuses: all };
    },
    // Sends the current status, then every change, until the client or the server goes away. A
    // closing server first sends what is pending (its NOT_SERVING), then ends the stream.
    async *watch(req, ctx) {
      const pending: HealthCheckResponse_ServingStatus[] = [current(req.service)];
      let wake: (() => void) | undefined;
      const listener: Listener = (status) => {
        pending.push(status);
        wake?.();
      };
      const stop = () => wake?.();
      const set = listeners.get(req.service) ?? new Set<Listener>();
      listeners.set(req.service, set);
      set.add(listener);
      ctx.signal.addEventListener('abort', stop);
      closing.signal.addEventListener('abort', stop);
      try {
        while (!ctx.signal.aborted) {
          const next = pending.shift();
          if (next !== undefined) {
            yield response(next);
            continue;
          }
          if (closing.signal.aborted) break;
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = undefined;
        }
      } finally {
        set.delete(listener);
        ctx.signal.removeEventListener('abort', stop);
        closing.signal.removeEventListener('abort', stop);
      }
    },
  };
  return { registry, impl };
}
