import { EventEmitter } from 'node:events';
import { Code, ConnectError } from '@connectrpc/connect';
import { cancelReason, GrpcHandlerContext, type ServerCall } from './handler-context';

/** A grpc-js call as the context reads it: a deadline and a 'cancelled' event. */
function fakeCall(deadline: number, cancelled = false): ServerCall & EventEmitter {
  return Object.assign(new EventEmitter(), {
    cancelled,
    metadata: undefined as never,
    getDeadline: () => deadline,
    sendMetadata: () => {},
  }) as unknown as ServerCall & EventEmitter;
}

const context = (call: ServerCall) => new GrpcHandlerContext(undefined as never, undefined as never, call);

describe('GrpcHandlerContext.signal', () => {
  it('aborts with DeadlineExceeded once the deadline passed, Canceled before it', () => {
    const late = fakeCall(Date.now() - 1);
    const lateSignal = context(late).signal;
    expect(lateSignal.aborted).toBe(false);
    late.emit('cancelled');
    expect(lateSignal.reason).toBeInstanceOf(ConnectError);
    expect((lateSignal.reason as ConnectError).code).toBe(Code.DeadlineExceeded);

    const early = fakeCall(Date.now() + 60_000);
    const earlySignal = context(early).signal;
    early.emit('cancelled');
    expect((earlySignal.reason as ConnectError).code).toBe(Code.Canceled);
  });

  it('is aborted at once for a call already cancelled', () => {
    const signal = context(fakeCall(Date.now() + 60_000, true)).signal;
    expect(signal.aborted).toBe(true);
    expect((signal.reason as ConnectError).code).toBe(Code.Canceled);
  });
});

describe('cancelReason', () => {
  it('is a new error per call, with the code the deadline says', () => {
    const call = fakeCall(Date.now() - 1);
    expect(cancelReason(call).code).toBe(Code.DeadlineExceeded);
    expect(cancelReason(call)).not.toBe(cancelReason(call));
    expect(cancelReason(fakeCall(Date.now() + 60_000)).code).toBe(Code.Canceled);
  });
});
