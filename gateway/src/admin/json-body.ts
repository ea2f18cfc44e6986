import {
  Code,
  ConnectError,
  createContextKey,
  createContextValues,
  type Interceptor,
} from '@connectrpc/connect';
import { createAsyncIterable, type UniversalServerRequest } from '@connectrpc/connect/protocol';
import { describeJsonProblem, JsonRefused, parseStrictJson } from '@qr-payout/platform/json';

// The admin API reads JSON under the rules of every other body we take (docs/api/errors.md "Bodies
// we refuse"): a key once per object, numbers as written, bounded nesting. Connect's parser rounds
// a number it cannot keep (`50.0000000000000000001` is 50) and, depending on the protobuf version,
// may let a duplicate key win; so the body is read here first, by @qr-payout/platform/json, and a
// refusal is answered by an interceptor as a Connect error before any handler runs.

/** Why the request's JSON body is refused, set by `withCheckedJsonBody` for `refuseCheckedJsonBody`. */
const kJsonBodyProblem = createContextKey<string | undefined>(undefined, {
  description: 'why the JSON request body is refused',
});

// Connect's unary JSON: the body is one JSON text.
const WHOLE_BODY_JSON = /^application\/json(?:;|$)/i;
// gRPC and Connect streaming with the JSON codec: each message is a JSON text in a 5-byte envelope.
const ENVELOPED_JSON = /^application\/(?:grpc|connect)\+json(?:;|$)/i;
const ENVELOPE_HEADER_BYTES = 5;
const EMPTY_OBJECT = new TextEncoder().encode('{}');
// One uncompressed message `{}`: flags 0, length 2.
const EMPTY_ENVELOPE = Uint8Array.of(0, 0, 0, 0, 2, ...EMPTY_OBJECT);

/** The messages of an enveloped body; what does not parse as envelopes is left to connect. */
function envelopedMessages(body: Uint8Array): Uint8Array[] {
  const messages: Uint8Array[] = [];
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  for (let at = 0; at + ENVELOPE_HEADER_BYTES <= body.length; ) {
    const flags = view.getUint8(at);
    const end = at + ENVELOPE_HEADER_BYTES + view.getUint32(at + 1);
    // A compressed message is refused by connect itself (the admin API accepts no compression).
    if (flags === 0 && end <= body.length) messages.push(body.subarray(at + ENVELOPE_HEADER_BYTES, end));
    at = end;
  }
  return messages;
}

/**
 * Why one JSON text is refused, or undefined. Text that is not JSON at all is left to connect's
 * parser, which refuses it with its own invalid_argument, as before.
 */
function problemOf(text: Uint8Array): string | undefined {
  try {
    parseStrictJson(Buffer.from(text).toString('utf8'));
    return undefined;
  } catch (err) {
    if (!(err instanceof JsonRefused)) throw err;
    return err.problem.kind === 'syntax' ? undefined : describeJsonProblem(err.problem);
  }
}

/** The body's bytes, at most `limit` of them (more than connect's readMaxBytes is its refusal). */
async function readAtMost(body: AsyncIterable<Uint8Array>, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    length += chunk.length;
    if (length >= limit) break;
  }
  return Buffer.concat(chunks, Math.min(length, limit));
}

/**
 * Reads a JSON request body (Connect unary JSON, or each message of gRPC / Connect streaming JSON)
 * and notes why it is refused, if it is; connect gets the same bytes to parse. Other bodies pass
 * untouched. A body over `readMaxBytes` is not read further: connect refuses it as before.
 */
export async function withCheckedJsonBody(
  req: UniversalServerRequest,
  readMaxBytes: number,
): Promise<UniversalServerRequest> {
  const contentType = req.header.get('content-type') ?? '';
  const enveloped = ENVELOPED_JSON.test(contentType);
  if (!enveloped && !WHOLE_BODY_JSON.test(contentType)) return req;
  if (typeof req.body !== 'object' || req.body === null || !(Symbol.asyncIterator in req.body)) return req;
  const body = await readAtMost(req.body as AsyncIterable<Uint8Array>, readMaxBytes + 1);
  const contextValues = req.contextValues ?? createContextValues();
  const problem =
    body.length > readMaxBytes
      ? undefined
      : (enveloped ? envelopedMessages(body) : [body]).map(problemOf).find((p) => p !== undefined);
  if (problem === undefined) return { ...req, contextValues, body: createAsyncIterable([body]) };
  // The refused text never reaches connect's parser, whose own refusal would answer first: it
  // parses an empty message instead, and refuseCheckedJsonBody answers with the reason.
  contextValues.set(kJsonBodyProblem, problem);
  const standIn = enveloped ? EMPTY_ENVELOPE : EMPTY_OBJECT;
  const header = new Headers(req.header);
  header.set('content-length', String(standIn.length));
  return { ...req, header, contextValues, body: createAsyncIterable([standIn]) };
}

/** Answers a body `withCheckedJsonBody` refused: invalid_argument saying why, before the handler. */
export function refuseCheckedJsonBody(): Interceptor {
  return (next) => async (req) => {
    const problem = req.contextValues.get(kJsonBodyProblem);
    if (problem !== undefined) throw new ConnectError(problem, Code.InvalidArgument);
    return next(req);
  };
}
