import type { FastifyInstance } from 'fastify';

/** Liveness and readiness are the same for an in-memory simulator: it serves once it listens. */
export function registerHealthRoutes(app: FastifyInstance): void {
  app.get('/healthz', (_request, reply) => reply.send({ status: 'ok' }));
}
