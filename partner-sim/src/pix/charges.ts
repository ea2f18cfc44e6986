import { randomBytes } from 'node:crypto';

// Dynamic Pix charges ("cob", BCB API Pix) held by the simulated receiving PSP. In memory: the
// simulator is one process serving tests and the sandbox, and a restart starting empty is fine.

/** BCB API Pix charge statuses. */
export type ChargeStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';

export type PixCharge = {
  readonly txid: string;
  /** The last path segment of the charge's location; unrelated to the txid, as at real PSPs. */
  readonly locationId: string;
  /** `revisao`: 0 at creation, +1 on every change. */
  readonly revision: number;
  readonly createdAt: Date;
  /** `calendario.expiracao`: seconds after creation during which the charge can be paid. */
  readonly expiresInSeconds: number;
  readonly status: ChargeStatus;
  /** `valor.original`: decimal with two digits after the point. */
  readonly amount: string;
  /** `chave`: the receiver's Pix key. */
  readonly key: string;
  readonly creditorName: string;
  readonly creditorCity: string;
  readonly payerRequest?: string;
};

export type NewCharge = Pick<
  PixCharge,
  'amount' | 'key' | 'creditorName' | 'creditorCity' | 'expiresInSeconds' | 'payerRequest'
>;

export type ChargeStore = {
  create(input: NewCharge): PixCharge;
  byTxid(txid: string): PixCharge | undefined;
  byLocationId(locationId: string): PixCharge | undefined;
  /** Moves an ATIVA charge to `status`; undefined when unknown, the charge unchanged when not ATIVA. */
  changeStatus(txid: string, status: Exclude<ChargeStatus, 'ATIVA'>): PixCharge | undefined;
};

/** BCB txids are 26 to 35 characters of [a-zA-Z0-9]; 32 hex characters fit. */
function randomToken(): string {
  return randomBytes(16).toString('hex');
}

export function createChargeStore(opts: { now: () => Date; maxCharges?: number }): ChargeStore {
  const maxCharges = opts.maxCharges ?? 10_000;
  const byTxid = new Map<string, PixCharge>();
  const txidByLocation = new Map<string, string>();

  function save(charge: PixCharge): void {
    byTxid.set(charge.txid, charge);
    txidByLocation.set(charge.locationId, charge.txid);
  }

  // A long sandbox session must not grow without bound: the oldest charges are forgotten first.
  function evictOldest(): void {
    while (byTxid.size > maxCharges) {
      const oldest = byTxid.values().next().value;
      if (!oldest) return;
      byTxid.delete(oldest.txid);
      txidByLocation.delete(oldest.locationId);
    }
  }

  return {
    create(input) {
      const charge: PixCharge = {
        ...input,
        txid: randomToken(),
        locationId: randomToken(),
        revision: 0,
        createdAt: opts.now(),
        status: 'ATIVA',
      };
      save(charge);
      evictOldest();
      return charge;
    },
    byTxid: (txid) => byTxid.get(txid),
    byLocationId(locationId) {
      const txid = txidByLocation.get(locationId);
      return txid === undefined ? undefined : byTxid.get(txid);
    },
    changeStatus(txid, status) {
      const charge = byTxid.get(txid);
      if (charge?.status !== 'ATIVA') return charge;
      const changed: PixCharge = { ...charge, status, revision: charge.revision + 1 };
      save(changed);
      return changed;
    },
  };
}

export function expiresAt(charge: PixCharge): Date {
  return new Date(charge.createdAt.getTime() + charge.expiresInSeconds * 1000);
}
