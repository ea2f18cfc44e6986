// The resolve skeleton (bench/README.md "resolve"): the least a resolve can cost on this machine in
// this stack, as three processes shaped like ours and doing none of our work.
//   front:   node:http, parse the JSON body, call decoder, then store, answer JSON;
//   decoder: bare @grpc/grpc-js unary, answers a fixed decoded QR;
//   store:   bare @grpc/grpc-js unary, one INSERT of the instruction row through pg, answers its id.
// No auth, rate limit, protobuf, validation, tracing or logging: whatever our system spends beyond
// this is ours to cut; what this spends is the floor of the transport and the database.
import http from 'node:http';
import * as grpc from '@grpc/grpc-js';
import pg from 'pg';

const identity = (bytes: Buffer) => bytes;
const NO_CHANNELZ = { 'grpc.enable_channelz': 0 };

// About the size of our DecodedQr for a static Pix QR.
const DECODED = Buffer.from(
  JSON.stringify({
    schemeId: 'BR.PIX',
    country: 'BR',
    rail: 'pix',
    currency: 'BRL',
    amountMinor: '1050',
    creditor: { name: 'PADARIA PAO DOURADO LTDA', account: '123e4567-e12b-12d1-a456-426655440000' },
    merchantCity: 'SAO PAULO',
    reference: 'PAG123456789',
    confidence: 0.95,
  }),
);

function serve(port: number, path: string, handler: grpc.handleUnaryCall<Buffer, Buffer>): void {
  const server = new grpc.Server(NO_CHANNELZ);
  server.register(path, handler, identity, identity, 'unary');
  server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (err) => {
    if (err) throw err;
  });
}

function decoder(port: number): void {
  serve(port, '/skeleton.Decoder/Decode', (_call, callback) => callback(null, DECODED));
}

async function store(port: number, databaseUrl: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  await pool.query(`CREATE TABLE IF NOT EXISTS bench_skeleton_instructions (
    id text PRIMARY KEY, tenant_id text NOT NULL, decoded jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now())`);
  let sequence = 0;
  serve(port, '/skeleton.Store/CreateInstruction', (call, callback) => {
    const id = `ins_${process.pid}_${sequence++}`;
    pool
      .query('INSERT INTO bench_skeleton_instructions (id, tenant_id, decoded) VALUES ($1, $2, $3)', [
        id,
        'ten_skeleton',
        call.request.toString(),
      ])
      .then(
        () => callback(null, Buffer.from(id)),
        (err: Error) => callback({ code: grpc.status.INTERNAL, details: err.message }),
      );
  });
}

function front(port: number, decoderPort: number, storePort: number): void {
  const channel = (target: number) =>
    new grpc.Client(`127.0.0.1:${target}`, grpc.credentials.createInsecure(), NO_CHANNELZ);
  const decoderClient = channel(decoderPort);
  const storeClient = channel(storePort);
  const unary = (client: grpc.Client, path: string, request: Buffer) =>
    new Promise<Buffer>((resolve, reject) => {
      client.makeUnaryRequest(
        path,
        identity,
        identity,
        request,
        new grpc.Metadata(),
        { deadline: Date.now() + 5_000 },
        (err, response) => (err || !response ? reject(err) : resolve(response)),
      );
    });
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
          const decoded = await unary(decoderClient, '/skeleton.Decoder/Decode', Buffer.from(qr_string));
          const id = await unary(storeClient, '/skeleton.Store/CreateInstruction', decoded);
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
