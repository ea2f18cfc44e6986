import * as grpc from '@grpc/grpc-js';
import { installKeepaliveDrainFix } from './keepalive-drain-fix';

// grpc/grpc-node#3068 as our services meet it (keepalive-drain-fix.ts): the server ages the
// connection out (a graceful GOAWAY) while a call runs, and the client's keepalive ping falls due
// before the call ends. grpc-js alone ends the call with UNAVAILABLE "Connection dropped"; with the
// fix the call gets its answer.
const identity = (b: Buffer) => b;
const SLOW = {
  call: {
    path: '/test.Slow/Call',
    requestStream: false,
    responseStream: false,
    requestSerialize: identity,
    requestDeserialize: identity,
    responseSerialize: identity,
    responseDeserialize: identity,
  },
} satisfies grpc.ServiceDefinition;

const ANSWER_AFTER_MS = 1_200;
let server: grpc.Server;
let port: number;

beforeAll(async () => {
  installKeepaliveDrainFix();
  server = new grpc.Server({
    'grpc.max_connection_age_ms': 200,
    'grpc.max_connection_age_grace_ms': 30_000,
  });
  server.addService(SLOW, {
    call: (_call: unknown, callback: grpc.sendUnaryData<Buffer>) => {
      setTimeout(() => callback(null, Buffer.from('answered')), ANSWER_AFTER_MS);
    },
  });
  port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, bound) =>
      err ? reject(err) : resolve(bound),
    ),
  );
});

afterAll(() => server.forceShutdown());

it('a call still running when its connection is aged out and a keepalive ping falls due gets its answer', async () => {
  const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
    // The ping falls due at 400 ms, after the GOAWAY (200 ms) and before the answer (1,200 ms).
    'grpc.keepalive_time_ms': 400,
    'grpc.keepalive_timeout_ms': 5_000,
  });
  try {
    const started = performance.now();
    const answer = await new Promise<Buffer>((resolve, reject) =>
      client.makeUnaryRequest(
        SLOW.call.path,
        identity,
        identity,
        Buffer.from('ask'),
        { deadline: Date.now() + 10_000 },
        (err, value) => (err ? reject(err) : resolve(value as Buffer)),
      ),
    );
    expect(answer.toString()).toBe('answered');
    expect(performance.now() - started).toBeGreaterThanOrEqual(ANSWER_AFTER_MS - 50);
  } finally {
    client.close();
  }
});
