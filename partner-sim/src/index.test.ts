import { generateKeyPairSync } from 'node:crypto';
import { silentLogger } from '@qr-payout/platform';
import { startPartnerSim } from './index';

describe('startPartnerSim', () => {
  it('signs with the configured PARTNER_SIM_SIGNING_KEY and publishes it with its public URL', async () => {
    const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ format: 'pem', type: 'pkcs8' })
      .toString();
    const sim = await startPartnerSim(
      {
        PORT: '0',
        HOST: '127.0.0.1',
        PARTNER_SIM_SIGNING_KEY: pem,
        PARTNER_SIM_PUBLIC_URL: 'https://sim.example/psp/',
      },
      { logger: silentLogger() },
    );
    try {
      expect(sim.baseUrl).toBe('https://sim.example/psp/');
      expect(sim.signingKey.alg).toBe('PS256');
      const jwks = (await (await fetch(`http://127.0.0.1:${sim.port}/.well-known/jwks.json`)).json()) as {
        keys: unknown[];
      };
      expect(jwks.keys).toEqual([
        expect.objectContaining({ kty: 'RSA', alg: 'PS256', kid: sim.signingKey.kid }),
      ]);
      const created = await fetch(`http://127.0.0.1:${sim.port}/pix/v2/cob`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ valor: '1.00', chave: '+5561998765432', nome: 'Loja' }),
      });
      expect(((await created.json()) as { location: string }).location).toMatch(
        /^sim\.example\/psp\/pix\/v2\/qr\/[a-f0-9]{32}$/,
      );
    } finally {
      await sim.close();
    }
  });

  it('fails at start when the public URL leaves no room for a 77-character location', async () => {
    await expect(
      startPartnerSim(
        { PORT: '0', HOST: '127.0.0.1', PARTNER_SIM_PUBLIC_URL: `https://${'a'.repeat(40)}.example` },
        { logger: silentLogger() },
      ),
    ).rejects.toThrow(/PARTNER_SIM_PUBLIC_URL is too long/);
  });

  it('names the bad variable when the signing key is not a key', async () => {
    await expect(
      startPartnerSim({ PORT: '0', PARTNER_SIM_SIGNING_KEY: 'secret-garbage' }, { logger: silentLogger() }),
    ).rejects.toThrow(/PARTNER_SIM_SIGNING_KEY is not a readable PEM/);
  });
});
