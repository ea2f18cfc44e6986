import { generateKeyPairSync } from 'node:crypto';
import { silentLogger } from '@qr-payout/platform/log';
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

  it('a settled Pix payout of its own charge concludes it; a rejected one leaves it ATIVA', async () => {
    const sim = await startPartnerSim(
      { PORT: '0', HOST: '127.0.0.1', PARTNER_SIM_API_KEY: 'k', PARTNER_SIM_SETTLE_MS: '20' },
      { logger: silentLogger() },
    );
    const base = `http://127.0.0.1:${sim.port}`;
    const charge = async (valor: string) => {
      const created = await fetch(`${base}/pix/v2/cob`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ valor, chave: '+5561998765432', nome: 'Loja' }),
      });
      return (await created.json()) as { txid: string; location: string };
    };
    const pay = (key: string, amountMinor: string, references: Record<string, string>) =>
      fetch(`${base}/v1/payouts`, {
        method: 'POST',
        headers: { authorization: 'Bearer k', 'idempotency-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({
          rail: 'pix',
          amount: { currency: 'BRL', amount_minor: amountMinor },
          creditor: { name: 'Loja', account: '+5561998765432', account_type: 'pix_phone' },
          debtor: {
            name: 'QR Payout',
            account: '1',
            residency: 'non_resident',
            document: { type: 'passport', number: 'X1234567', issuing_country: 'US' },
          },
          references,
        }),
      });
    const statusOf = async (txid: string) =>
      (await (await fetch(`${base}/pix/v2/cob/${txid}`)).json()) as { status: string; revisao: number };
    try {
      const paid = await charge('25.90');
      const rejected = await charge('25.53');
      expect((await pay('txn_a', '2590', { pix_location: paid.location, txid: paid.txid })).status).toBe(201);
      expect(
        (await pay('txn_b', '2553', { pix_location: rejected.location, txid: rejected.txid })).status,
      ).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await statusOf(paid.txid)).toMatchObject({ status: 'CONCLUIDA', revisao: 1 });
      expect(await statusOf(rejected.txid)).toMatchObject({ status: 'ATIVA', revisao: 0 });
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
