import net from 'node:net';
import { Writable } from 'node:stream';
import { requestContext } from '@qr-payout/platform/context';
import { Code, ConnectError } from '@qr-payout/platform/errors';
import { closeGrpcClients, createGrpcClient, createGrpcServer } from '@qr-payout/platform/grpc';
import { createLogger, silentLogger } from '@qr-payout/platform/log';
import { DecoderService } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { registerFakeDecoder } from '@qr-payout/test-kit/fake-decoder';
import { eventually } from '@qr-payout/test-kit/wait';

async function startServer(logger = silentLogger()) {
  const server = createGrpcServer({
    serviceName: 'decoder',
    logger,
    register: registerFakeDecoder({ requestIds: [] }),
  });
  const port = await server.listen(0, '127.0.0.1');
  return { server, baseUrl: `http://127.0.0.1:${port}` };
}

afterEach(() => closeGrpcClients());

describe('gRPC server close', () => {
  it('stops serving and lets in-flight calls finish within the grace', async () => {
    const { server, baseUrl } = await startServer();
    const decoder = createGrpcClient(DecoderService, { baseUrl, timeoutMs: 5_000 });
    const inFlight = decoder.decode({ qrString: 'slow:1000' });
    // Wait for the call to reach the handler: on a busy machine the channel may take longer than
    // any fixed sleep to connect, and closing first would refuse the call instead of draining it.
    await eventually(() => (server.inFlight() === 1 ? true : undefined), 4_000);
    const started = Date.now();
    await server.close({ graceMs: 5_000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(Date.now() - started).toBeLessThan(3_000);
    await expect(inFlight).resolves.toBeDefined();
    expect(server.health.getStatus('')).toBe('NOT_SERVING');
    await closeGrpcClients();
    const after = createGrpcClient(DecoderService, { baseUrl, timeoutMs: 1_000 });
    await expect(after.listSchemes({})).rejects.toMatchObject({ code: Code.Unavailable });
  });

  it('drops calls still running when the grace is over', async () => {
    const { server, baseUrl } = await startServer();
    const decoder = createGrpcClient(DecoderService, { baseUrl });
    const stuck = decoder
      .decode({ qrString: 'hang' }, { timeoutMs: 0 })
      .catch((e: unknown) => ConnectError.from(e));
    await eventually(() => (server.inFlight() === 1 ? true : undefined), 4_000);
    const started = Date.now();
    await server.close({ graceMs: 200 });
    expect(Date.now() - started).toBeLessThan(2_000);
    const err = await stuck;
    expect(err).toBeInstanceOf(ConnectError);
    expect([Code.Unavailable, Code.Canceled, Code.Internal, Code.Unknown]).toContain(
      (err as ConnectError).code,
    );
  });
});

describe('gRPC client reconnect', () => {
  it('serves the first call made after a target that refused calls comes up', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const decoder = createGrpcClient(DecoderService, {
      baseUrl: `http://127.0.0.1:${port}`,
      timeoutMs: 1_000,
    });
    await expect(decoder.listSchemes({})).rejects.toMatchObject({ code: Code.Unavailable });
    const server = createGrpcServer({
      serviceName: 'decoder',
      logger: silentLogger(),
      register: registerFakeDecoder({ requestIds: [] }),
    });
    await server.listen(port, '127.0.0.1');
    try {
      // No reconnect backoff to wait out: the first call after the target is up is served.
      await expect(decoder.listSchemes({})).resolves.toBeDefined();
    } finally {
      await server.close({ graceMs: 500 });
    }
  });
});

describe('gRPC call logs', () => {
  it('writes one line per call with rpc, code, duration and request id; logs the real cause of Internal', async () => {
    const lines: Record<string, unknown>[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const { server, baseUrl } = await startServer(
      createLogger({ service: 'decoder', level: 'info', destination }),
    );
    const decoder = createGrpcClient(DecoderService, { baseUrl, timeoutMs: 2_000 });
    await requestContext.run({ requestId: 'req_log_1' }, () => decoder.listSchemes({}));
    await requestContext.run({ requestId: 'req_log_2' }, () =>
      decoder.decode({ qrString: 'crash' }).catch(() => {}),
    );
    await server.close({ graceMs: 1_000 });

    const calls = lines.filter((line) => line['msg'] === 'grpc call');
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({
      rpc: 'payout.decoder.v1.DecoderService/ListSchemes',
      code: 'ok',
      request_id: 'req_log_1',
    });
    expect(typeof calls[0]!['duration_ms']).toBe('number');
    expect(calls[1]).toMatchObject({ code: 'internal', level: 'error', request_id: 'req_log_2' });
    const cause = lines.find((line) => line['msg'] === 'unhandled error in handler');
    expect(JSON.stringify(lines)).not.toContain('hunter2');
    expect(cause).toMatchObject({
      level: 'error',
      err: { message: expect.stringContaining('connection to postgres') },
    });
  });
});
