// @ts-check
// How the dashboard writes values (docs/dashboard.md "What each side shows"): money, times and
// durations; pure functions, no DOM.

/** Shown where the API answered null or nothing. */
export const NONE = '—';

/**
 * Digits a currency is usually written with (2 for BRL, 0 for CLP); 0 for a code Intl does not know.
 * @param {string} currency
 */
function usualDigits(currency) {
  try {
    return (
      new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 0
    );
  } catch {
    return 0;
  }
}

/**
 * An amount as the API gives it (major units) with its ISO code: "1,250.50 BRL". Padded to the
 * currency's usual digits but never rounded, so the page shows exactly what the API holds.
 * @param {number | null | undefined} amount
 * @param {string | null | undefined} currency
 */
export function formatMoney(amount, currency) {
  if (amount === null || amount === undefined || !currency) return NONE;
  const digits = Math.min(usualDigits(currency), 20);
  const number = amount.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: 20 });
  return `${number} ${currency}`;
}

/**
 * An ISO 8601 timestamp in UTC to the second: "2026-11-24 12:00:05 UTC".
 * @param {string | null | undefined} iso
 */
export function formatTime(iso) {
  if (!iso) return NONE;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * A duration in milliseconds: "850 ms", "1.2 s", "3 min 5 s".
 * @param {number | null | undefined} ms
 */
export function formatDuration(ms) {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return NONE;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
