import type { DescMethod, DescService } from '@bufbuild/protobuf';
import {
  Code,
  ConnectError,
  type ContextValues,
  createContextValues,
  type HandlerContext,
} from '@connectrpc/connect';
import type { Metadata, ServerUnaryCall } from '@grpc/grpc-js';
import { headersToMetadata, metadataToHeaders } from './status';

/** The part of a grpc-js server call (unary or streaming) a handler context reads. */
export type ServerCall = Pick<
  ServerUnaryCall<unknown, unknown>,
  'cancelled' | 'metadata' | 'getDeadline' | 'sendMetadata' | 'once'
>;

function newCancelReason(timedOut: boolean): ConnectError {
  return timedOut
    ? new ConnectError('the operation timed out', Code.DeadlineExceeded)
    : new ConnectError('the call was cancelled by the client', Code.Canceled);
}

function deadlinePassed(call: ServerCall): boolean {
  return Date.now() >= Number(call.getDeadline());
}

/**
 * Why a call stopped before its handler answered: its deadline passed (grpc-js has already sent
 * DEADLINE_EXCEEDED) or the client went away.
 */
export function cancelReason(call: ServerCall): ConnectError {
  return newCancelReason(deadlinePassed(call));
}

/**
 * The reasons a handler's signal is aborted with, made once: grpc-js also emits 'cancelled' after
 * every answered call, and building a ConnectError (with its stack trace) per call cost measurable
 * CPU for a reason nobody reads once the call is over. Never mutated: only read as the reason.
 */
const ABORT_REASONS = Object.freeze({ deadline: newCancelReason(true), cancelled: newCancelReason(false) });

function abortReason(call: ServerCall): ConnectError {
  return deadlinePassed(call) ? ABORT_REASONS.deadline : ABORT_REASONS.cancelled;
}

/**
 * connect's HandlerContext over a grpc-js call, so service code written against connect's
 * ServiceImpl runs unchanged. Every part a handler may not read (the abort signal, Headers
 * copies of the metadata, context values) is made on first access: most calls touch none.
 */
export class GrpcHandlerContext implements HandlerContext {
  readonly requestMethod = 'POST';
  readonly protocolName = 'grpc';
  #controller: AbortController | undefined;
  #requestHeader: Headers | undefined;
  #responseHeader: Headers | undefined;
  #responseTrailer: Headers | undefined;
  #values: ContextValues | undefined;

  constructor(
    readonly service: DescService,
    readonly method: DescMethod,
    private readonly call: ServerCall,
  ) {}

  /** Aborted when the deadline passes, the client cancels, or the call is over. */
  get signal(): AbortSignal {
    if (!this.#controller) {
      const controller = new AbortController();
      this.#controller = controller;
      // grpc-js emits 'cancelled' on deadline, on client cancel and after sending any status.
      if (this.call.cancelled) controller.abort(abortReason(this.call));
      else this.call.once('cancelled', () => controller.abort(abortReason(this.call)));
    }
    return this.#controller.signal;
  }

  timeoutMs(): number | undefined {
    const deadline = Number(this.call.getDeadline());
    return Number.isFinite(deadline) ? Math.max(0, deadline - Date.now()) : undefined;
  }

  get url(): string {
    return `/${this.service.typeName}/${this.method.name}`;
  }

  get requestHeader(): Headers {
    this.#requestHeader ??= metadataToHeaders(this.call.metadata);
    return this.#requestHeader;
  }

  get responseHeader(): Headers {
    this.#responseHeader ??= new Headers();
    return this.#responseHeader;
  }

  get responseTrailer(): Headers {
    this.#responseTrailer ??= new Headers();
    return this.#responseTrailer;
  }

  get values(): ContextValues {
    this.#values ??= createContextValues();
    return this.#values;
  }

  /** Sends the response headers a handler set (before the first message). */
  sendResponseHeader(): void {
    if (this.#responseHeader && [...this.#responseHeader.keys()].length > 0) {
      this.call.sendMetadata(headersToMetadata(this.#responseHeader));
    }
  }

  /** The trailers a handler set, as metadata for the status. */
  responseTrailerMetadata(): Metadata | undefined {
    return this.#responseTrailer ? headersToMetadata(this.#responseTrailer) : undefined;
  }
}
