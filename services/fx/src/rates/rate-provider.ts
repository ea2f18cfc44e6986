import type { Decimal } from '../decimal/decimal';

/** A mid-market rate: units of `target` per one unit of `source`, exact, and when it held. */
export type MidRate = {
  readonly mid: Decimal;
  readonly asOf: Date;
};

/**
 * Where fx gets mid rates (docs/architecture.md "Services and what each owns": a provider adapter;
 * the sandbox and the tests use the configured table). Asynchronous so a remote provider can
 * implement it; `signal` carries the caller's deadline.
 */
export interface RateProvider {
  /** The mid rate source → target, or undefined when the provider cannot quote the pair. */
  getMid(source: string, target: string, signal?: AbortSignal): Promise<MidRate | undefined>;
}
