import type { FastifyRequest } from 'fastify';
import pino from 'pino';
import { toApiError } from './error-reply';

const request = { id: 'req-1' } as FastifyRequest;
const logger = pino({ level: 'silent' });

describe('toApiError', () => {
  it('renders the gateway’s own PostgreSQL being down as 503 ServiceUnavailable with Retry-After', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    for (const err of [refused, new Error('Connection terminated unexpectedly')]) {
      const api = toApiError(err, request, logger);
      expect(api.tag).toBe('ServiceUnavailable');
      expect(api.status).toBe(503);
      expect(api.headers).toEqual({ 'retry-after': '1' });
    }
  });

  it('keeps anything else unexpected a 500 InternalError', () => {
    expect(toApiError(new Error('boom'), request, logger).tag).toBe('InternalError');
  });
});
