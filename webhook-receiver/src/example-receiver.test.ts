import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { join } from 'node:path';

// examples/receiver.js as a new integrator runs it (docs/quick-start.md "2. Run a webhook
// receiver"): with the wrong secret it says what to compare, once, however often the event is
// retried.

const EXAMPLE = join(__dirname, '..', 'examples', 'receiver.js');

type Receiver = { child: ChildProcess; port: number; output: () => { stdout: string; stderr: string } };

async function startReceiver(secret: string): Promise<Receiver> {
  // `development` resolves @qr-payout/webhook-receiver to its sources, so no build is needed.
  const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', EXAMPLE], {
    env: { ...process.env, PORT: '0', QR_PAYOUT_SIGNING_SECRET: secret },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const listening = /listening on 127\.0\.0\.1:(\d+)\/hook/.exec(stdout);
      if (listening) resolve(Number(listening[1]));
    });
    child.once('exit', (code) => reject(new Error(`receiver exited ${code}: ${stderr}`)));
  });
  return { child, port, output: () => ({ stdout, stderr }) };
}

function postSigned(port: number, secret: string): Promise<Response> {
  const body = JSON.stringify({ schema_version: '1', event_id: 'e1', event_type: 'webhook.ping', data: {} });
  const t = Math.floor(Date.now() / 1000);
  const digest = createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
  return fetch(`http://127.0.0.1:${port}/hook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'service-signature': `t=${t},v1=${digest}` },
    body,
  });
}

describe('examples/receiver.js with a signing secret other than the sender’s', () => {
  let receiver: Receiver | undefined;
  afterEach(async () => {
    if (receiver && receiver.child.exitCode === null) {
      receiver.child.kill();
      await once(receiver.child, 'exit');
    }
  });

  it('refuses every attempt and says once to compare QR_PAYOUT_SIGNING_SECRET with the sandbox’s', async () => {
    receiver = await startReceiver('whsec_the_receivers_secret');
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await postSigned(receiver.port, 'whsec_the_senders_secret')).status).toBe(401);
    }
    const { stderr } = receiver.output();
    expect(stderr.match(/webhook refused: 401 no_matching_signature/g)).toHaveLength(3);
    const hints = stderr.match(/compare it with the signing secret/g) ?? [];
    expect(hints).toHaveLength(1);
    expect(stderr).toContain('QR_PAYOUT_SIGNING_SECRET');
    expect(stderr).toContain('.data/sandbox.json');
  }, 20_000);
});
