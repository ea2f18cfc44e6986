// The resolve skeleton (bench/README.md "resolve"): the least a resolve can cost on this machine in
// this stack, as three processes shaped like ours and doing none of our work.
//   front:   node:http, parse the JSON body, call decoder, then store, answer JSON;
//   decoder: bare @grpc/grpc-js unary, answers a fixed decoded QR;
//   store:   bare @grpc/grpc-js unary, one INSERT of the instruction row through pg, answers its id.
// No auth, rate limit, protobuf, validation, tracing or logging: whatever our system spends beyond
// this is ours to cut; what this spends is the floor of the transport and the database.
import http from 'node:http';
import { status as grpcStatus } from '@grpc/grpc-js';
import pg from 'pg';
import { bareUnaryClient, SKELETON_DECODED_QR, serveBareUnary } from '../../shared/skeleton';

function decoder(port: number): void {
  serveBareUnary(port, {
    '/skeleton.Decoder/Decode': (_call, callback) => callback(null, SKELETON_DECODED_QR),
  });
}

async function store(port: number, databaseUrl: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  await pool.query(`CREATE TABLE IF NOT EXISTS bench_skeleton_instructions (
    id text PRIMARY KEY, tenant_id text NOT NULL, decoded jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now())`);
  let sequence = 0;
  serveBareUnary(port, {
    '/skeleton.Store/CreateInstruction': (call, callback) => {
      const id = `ins_${process.pid}_${sequence++}`;
      pool
        .query('INSERT INTO bench_skeleton_instructions (id, tenant_id, decoded) VALUES ($1, $2, $3)', [
          id,
          'ten_skeleton',
          call.request.toString(),
        ])
        .then(
          () => callback(null, Buffer.from(id)),
          (err: Error) => callback({ code: grpcStatus.INTERNAL, details: err.message }),
        );
    },
  });
}

function front(port: number, decoderPort: number, storePort: number): void {
  const decode = bareUnaryClient(decoderPort);
  const createInstruction = bareUnaryClient(storePort);
  const answer = (res: http.ServerResponse, status: number, body: string) => {
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  http
    .createServer((req, res) => {
      if (req.method === 'GET') return answer(res, 200, '{"status":"ok"}');
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', async () => {
        try {
          const { qr_string } = JSON.parse(Buffer.concat(chunks).toString()) as { qr_string: string };
          const decoded = await decode('/skeleton.Decoder/Decode', Buffer.from(qr_string), 5_000);
          const id = await createInstruction('/skeleton.Store/CreateInstruction', decoded, 5_000);
          const instruction = { id: id.toString(), ...JSON.parse(decoded.toString()) };
          answer(res, 200, JSON.stringify({ instruction, request_id: 'req_skeleton' }));
        } catch (err) {
          answer(res, 500, JSON.stringify({ error: String(err) }));
        }
      });
    })
    .listen(port, '127.0.0.1');
}

const [role, ...args] = process.argv.slice(2);
const ports = args.map(Number);
if (role === 'decoder') decoder(ports[0]!);
else if (role === 'store') void store(ports[0]!, process.env.DATABASE_URL ?? '');
else if (role === 'front') front(ports[0]!, ports[1]!, ports[2]!);
else throw new Error(`unknown skeleton role ${role}`);
