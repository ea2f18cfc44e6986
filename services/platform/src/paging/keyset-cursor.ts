import { isId } from '../ids';

// Newest-first lists page by keyset on (created_at, id) (docs/api/resources.md "Paging"): the
// cursor is the last row's position, opaque to clients (base64url JSON), with created_at to the
// microsecond so rows inserted meanwhile neither repeat nor hide older ones. Each service that
// lists owns its limits and renders a bad cursor as its own ValidationError.

type KeysetPosition = {
  /** created_at as PostgreSQL writes it to the microsecond: 2026-11-24T10:00:00.123456Z. */
  createdAt: string;
  id: string;
};

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export function encodeKeysetCursor(position: KeysetPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id]), 'utf8').toString('base64url');
}

/** The position a cursor of ours holds for ids of `idPrefix`, or undefined for anything else. */
export function decodeKeysetCursor(raw: string, idPrefix: string): KeysetPosition | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      CURSOR_TIME.test(value[0]) &&
      !Number.isNaN(Date.parse(value[0])) &&
      typeof value[1] === 'string' &&
      isId(value[1], idPrefix)
    ) {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {
    // not a cursor of ours
  }
  return undefined;
}

/** A page size: 0 (unset) is the default; otherwise an integer from 1 to `max`, or undefined. */
export function pageSizeOf(limit: number, opts: { default: number; max: number }): number | undefined {
  if (limit === 0) return opts.default;
  return Number.isInteger(limit) && limit >= 1 && limit <= opts.max ? limit : undefined;
}
