import { execFileSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { freePorts, reservePort } from './free-port';

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

describe('freePorts', () => {
  it('picks distinct ports that are free once it returns', async () => {
    const ports = await freePorts(5);
    expect(new Set(ports).size).toBe(5);
    for (const port of ports) expect(await bind(port)).toBeUndefined();
  });
});

describe('free-ports-cli (scripts/lib/sandbox.sh)', () => {
  it('prints the given number of distinct ports on one line', () => {
    const printed = execFileSync(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, 'free-ports-cli.ts'), '2'],
      {
        encoding: 'utf8',
      },
    );
    expect(printed).toMatch(/^\d+ \d+\n$/);
    const [first, second] = printed.trim().split(' ');
    expect(first).not.toBe(second);
  });
});
