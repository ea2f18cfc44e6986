import net from 'node:net';
import { reservePort } from './free-port';

function bind(port: number): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(undefined)));
  });
}

describe('reservePort', () => {
  it('holds the port until released: nobody else can bind it meanwhile', async () => {
    const reservation = await reservePort('127.0.0.1');
    expect((await bind(reservation.port))?.code).toBe('EADDRINUSE');
    await reservation.release();
    expect(await bind(reservation.port)).toBeUndefined();
  });
});
