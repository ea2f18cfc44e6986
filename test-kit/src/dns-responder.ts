// A tiny authoritative DNS server for tests: over UDP on loopback it answers A queries for one name
// from a list the test changes (as a headless Service's answers change when pods come and go),
// NODATA for the name's other types and NXDOMAIN for any other name. RFC 1035 messages, no EDNS.
// Used by the platform's load-balancing test and by the e2e harness, which serves one name per
// replicated service (docs/testing.md "Replicas").
import { createSocket, type RemoteInfo } from 'node:dgram';

export type DnsResponder = {
  /** host:port, as grpc-js's `dns://<server>/name:port` target authority takes it. */
  readonly address: string;
  /** Replaces the name's A records (answered from the next query on). */
  setAddresses(addresses: readonly string[]): void;
  /** A queries answered for the name so far. */
  queries(): number;
  close(): Promise<void>;
};

const TYPE_A = 1;
const CLASS_IN = 1;
const RCODE_NXDOMAIN = 3;
const RCODE_FORMERR = 1;

/** Starts the responder on 127.0.0.1 (a free port); `ttlSeconds` short so resolvers ask again. */
export async function startDnsResponder(opts: {
  name: string;
  addresses: readonly string[];
  ttlSeconds?: number;
}): Promise<DnsResponder> {
  const name = opts.name.toLowerCase().replace(/\.$/, '');
  const ttl = opts.ttlSeconds ?? 1;
  let addresses = [...opts.addresses];
  let answered = 0;
  const socket = createSocket('udp4');
  socket.on('message', (query: Buffer, peer: RemoteInfo) => {
    const reply = answer(query);
    if (reply) socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));

  function answer(query: Buffer): Buffer | undefined {
    if (query.length < 12) return undefined;
    const question = readQuestion(query);
    if (!question) return header(query, RCODE_FORMERR, 0, 0);
    const questionBytes = query.subarray(12, question.end);
    if (question.name !== name) return Buffer.concat([header(query, RCODE_NXDOMAIN, 1, 0), questionBytes]);
    if (question.type !== TYPE_A || question.class !== CLASS_IN) {
      return Buffer.concat([header(query, 0, 1, 0), questionBytes]);
    }
    answered += 1;
    const records = addresses.map((address) => {
      const record = Buffer.alloc(16);
      record.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
      record.writeUInt16BE(TYPE_A, 2);
      record.writeUInt16BE(CLASS_IN, 4);
      record.writeUInt32BE(ttl, 6);
      record.writeUInt16BE(4, 10);
      address.split('.').forEach((octet, i) => {
        record.writeUInt8(Number(octet), 12 + i);
      });
      return record;
    });
    return Buffer.concat([header(query, 0, 1, records.length), questionBytes, ...records]);
  }

  return {
    address: `127.0.0.1:${socket.address().port}`,
    setAddresses(next) {
      addresses = [...next];
    },
    queries: () => answered,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/** The first question: its name (lower case, dotted), type, class and where it ends. */
function readQuestion(query: Buffer): { name: string; type: number; class: number; end: number } | undefined {
  if (query.readUInt16BE(4) < 1) return undefined;
  const labels: string[] = [];
  let at = 12;
  while (at < query.length) {
    const length = query[at]!;
    at += 1;
    if (length === 0) break;
    if (length > 63 || at + length > query.length) return undefined; // no compression in questions
    labels.push(query.toString('latin1', at, at + length).toLowerCase());
    at += length;
  }
  if (at + 4 > query.length) return undefined;
  return {
    name: labels.join('.'),
    type: query.readUInt16BE(at),
    class: query.readUInt16BE(at + 2),
    end: at + 4,
  };
}

/** A response header: the query's id, QR and AA set, RD echoed, the given rcode and counts. */
function header(query: Buffer, rcode: number, questions: number, answers: number): Buffer {
  const out = Buffer.alloc(12);
  out.writeUInt16BE(query.readUInt16BE(0), 0);
  const recursionDesired = query[2]! & 0x01;
  out.writeUInt8(0x80 | 0x04 | recursionDesired, 2);
  out.writeUInt8(rcode & 0x0f, 3);
  out.writeUInt16BE(questions, 4);
  out.writeUInt16BE(answers, 6);
  return out;
}
