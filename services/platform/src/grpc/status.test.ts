import { Code, ConnectError } from '@connectrpc/connect';
import { Metadata, type ServiceError } from '@grpc/grpc-js';
import { readErrorDetail, serviceError } from '../errors';
import { fromServiceError, headersToMetadata, metadataToHeaders, toGrpcStatus } from './status';

// What a grpc-js client hands over for a status the server sent.
function received(status: ReturnType<typeof toGrpcStatus>): ServiceError {
  return Object.assign(new Error(`${status.code} ${status.details}`), {
    code: status.code as number,
    details: status.details ?? '',
    metadata: status.metadata ?? new Metadata(),
  });
}

describe('gRPC status conversion', () => {
  it('carries a serviceError code, message and ErrorDetail through grpc-status-details-bin', () => {
    const sent = toGrpcStatus(
      serviceError('QrDecodeError', 'CRC mismatch: 100% wrong', {
        code: Code.InvalidArgument,
        field: 'qr_string',
        metadata: { expected_crc: '1D3D' },
      }),
    );
    expect(sent.code).toBe(3);
    expect(sent.details).toBe('CRC mismatch: 100% wrong');
    expect(sent.metadata?.get('grpc-status-details-bin')[0]).toBeInstanceOf(Buffer);

    const err = fromServiceError(received(sent));
    expect(err).toBeInstanceOf(ConnectError);
    expect(err.code).toBe(Code.InvalidArgument);
    expect(err.rawMessage).toBe('CRC mismatch: 100% wrong');
    expect(readErrorDetail(err)).toEqual({
      tag: 'QrDecodeError',
      message: 'CRC mismatch: 100% wrong',
      field: 'qr_string',
      metadata: { expected_crc: '1D3D' },
      code: Code.InvalidArgument,
    });
  });

  it('relays a received error (incoming details) unchanged to the next caller', () => {
    const first = fromServiceError(
      received(
        toGrpcStatus(serviceError('QuoteExpired', 'quote expired', { code: Code.FailedPrecondition })),
      ),
    );
    const relayed = fromServiceError(received(toGrpcStatus(first)));
    expect(readErrorDetail(relayed)).toMatchObject({ tag: 'QuoteExpired', code: Code.FailedPrecondition });
  });

  it('sends a plain ConnectError without details and reads it back by its status', () => {
    const sent = toGrpcStatus(new ConnectError('no such quote', Code.NotFound));
    expect(sent.metadata?.get('grpc-status-details-bin')).toEqual([]);
    const err = fromServiceError(received(sent));
    expect(err.code).toBe(Code.NotFound);
    expect(err.rawMessage).toBe('no such quote');
    expect(readErrorDetail(err)).toBeUndefined();
  });

  it('keeps an unreachable target Unavailable and names the socket error in the cause', () => {
    const err = fromServiceError(
      received({
        code: 14,
        details: 'No connection established. Last error: connect ECONNREFUSED 127.0.0.1:1',
      }),
    );
    expect(err.code).toBe(Code.Unavailable);
    expect((err.cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it('copies application metadata, never transport headers or text grpc-js cannot send', () => {
    const headers = new Headers({
      'x-app': 'yes',
      'content-type': 'application/grpc',
      'grpc-status': '3',
      'x-trace-bin': Buffer.from([1, 2, 3]).toString('base64'),
      'x-accented': 'caf\u00e9',
    });
    const metadata = headersToMetadata(headers);
    expect(metadata.get('x-app')).toEqual(['yes']);
    expect(metadata.get('content-type')).toEqual([]);
    expect(metadata.get('grpc-status')).toEqual([]);
    expect(metadata.get('x-trace-bin')).toEqual([Buffer.from([1, 2, 3])]);
    expect(metadata.get('x-accented')).toEqual([]);
    expect(metadataToHeaders(metadata).get('x-trace-bin')).toBe(Buffer.from([1, 2, 3]).toString('base64'));
  });
});
