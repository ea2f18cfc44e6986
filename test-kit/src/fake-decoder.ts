// @qr-payout/test-kit/fake-decoder: a DecoderService whose answers the request picks, for tests of
// the gRPC plumbing (interceptors, deadlines, error mapping) rather than of decoding.
import { setTimeout as delay } from 'node:timers/promises';
import { create } from '@bufbuild/protobuf';
import { requestContext } from '@qr-payout/platform/context';
import { Code, serviceError } from '@qr-payout/platform/errors';
import type { createGrpcServer } from '@qr-payout/platform/grpc';
import {
  DecodeResponseSchema,
  DecoderService,
  ListSchemesResponseSchema,
} from '@qr-payout/proto/payout/decoder/v1/decoder_pb';

type GrpcRouter = Parameters<Parameters<typeof createGrpcServer>[0]['register']>[0];

/** What the fake handlers saw, for assertions. */
export type Observed = { requestIds: (string | undefined)[] };

/**
 * For createGrpcServer's `register`: ListSchemes returns one scheme; Decode's qr_string picks a
 * behaviour (bad → coded error, crash → plain Error, db-down → a refused PostgreSQL connection,
 * slow:<ms> → waits, hang → until aborted).
 */
export function registerFakeDecoder(observed: Observed = { requestIds: [] }) {
  return (router: GrpcRouter) => {
    router.service(DecoderService, {
      listSchemes() {
        observed.requestIds.push(requestContext.get()?.requestId);
        return create(ListSchemesResponseSchema, {
          schemes: [
            { id: 'BR.PIX', name: 'Pix', country: 'BR', currency: 'BRL', rail: 'pix', qrTypes: ['static'] },
          ],
        });
      },
      async decode(req, ctx) {
        observed.requestIds.push(requestContext.get()?.requestId);
        if (req.qrString === 'bad') {
          throw serviceError('QrDecodeError', 'CRC mismatch: expected 1D3D, got 0000', {
            code: Code.InvalidArgument,
            field: 'qr_string',
            metadata: { expected_crc: '1D3D' },
          });
        }
        if (req.qrString === 'crash') throw new Error('connection to postgres://admin:hunter2@db failed');
        if (req.qrString === 'db-down')
          throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
        if (req.qrString.startsWith('slow:'))
          await delay(Number(req.qrString.slice(5)), undefined, { signal: ctx.signal });
        if (req.qrString === 'hang') await delay(60_000, undefined, { signal: ctx.signal });
        return create(DecodeResponseSchema, {});
      },
    });
  };
}
