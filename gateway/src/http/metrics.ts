// http_server_request_duration_seconds (docs/runbooks.md "High 5xx rate"): every answered request by
// route template, method and status. Labels stay bounded: the route as registered (never the raw
// path, which carries ids), and no tenant.
import type { Attributes } from '@opentelemetry/api';
import { durationHistogram } from '@qr-payout/platform/metrics';
import type { FastifyInstance } from 'fastify';

/** `/v1/transactions/:id` as the semantic conventions write a route: `/v1/transactions/{id}`. */
export function routeTemplate(url: string): string {
  return url.replace(/:(\w+)/g, '{$1}');
}

/** Records each response's duration; call once, before the routes are registered. */
export function registerRequestMetrics(app: FastifyInstance): void {
  const durations = durationHistogram(
    '@qr-payout/gateway',
    'http_server_request_duration_seconds',
    'Duration of the public API requests, by route template, method and status code',
  );
  // One attributes object per route, method and status, made once (the set is bounded).
  const attributesByKey = new Map<string, Attributes>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url;
    const key = `${request.method} ${reply.statusCode} ${route ?? ''}`;
    let attributes = attributesByKey.get(key);
    if (!attributes) {
      // An unknown path has no route: it is recorded without http.route (semantic conventions).
      attributes = {
        'http.request.method': request.method,
        'http.response.status_code': reply.statusCode,
        ...(route ? { 'http.route': routeTemplate(route) } : {}),
      };
      attributesByKey.set(key, attributes);
    }
    durations.record(reply.elapsedTime / 1000, attributes);
    done();
  });
}
