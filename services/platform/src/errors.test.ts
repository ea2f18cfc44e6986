import { create, toBinary } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import { ErrorDetailSchema } from '@qr-payout/proto/payout/common/v1/common_pb';
import { readErrorDetail, serviceError } from './errors';

describe('serviceError', () => {
  it('round trips its ErrorDetail through the gRPC status detail encoding', () => {
    const err = serviceError('QrDecodeError', 'CRC mismatch: expected 1D3D, got 0000', {
      code: Code.InvalidArgument,
      field: 'qr_string',
      metadata: { expected_crc: '1D3D' },
    });
    expect(err.code).toBe(Code.InvalidArgument);
    // What a client receives: the detail as type name + protobuf bytes.
    const [raw] = err.details;
    if (!raw || !('desc' in raw)) throw new Error('expected a typed detail');
    const wire = {
      type: raw.desc.typeName,
      value: toBinary(ErrorDetailSchema, create(ErrorDetailSchema, raw.value)),
    };
    const received = new ConnectError(err.rawMessage, err.code);
    received.details.push(wire);
    expect(readErrorDetail(received)).toEqual({
      tag: 'QrDecodeError',
      message: 'CRC mismatch: expected 1D3D, got 0000',
      field: 'qr_string',
      metadata: { expected_crc: '1D3D' },
      code: Code.InvalidArgument,
    });
  });

  it('has no field when none is given', () => {
    const detail = readErrorDetail(
      serviceError('QuoteExpired', 'quote expired', { code: Code.FailedPrecondition }),
    );
    expect(detail?.field).toBeUndefined();
    expect(detail?.metadata).toEqual({});
  });

  it('reads nothing from errors without a detail', () => {
    expect(readErrorDetail(new ConnectError('x', Code.Internal))).toBeUndefined();
    expect(readErrorDetail(new Error('x'))).toBeUndefined();
  });
});
