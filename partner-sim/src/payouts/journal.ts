import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import type { Payout } from './payout';

// A real partner does not forget a payout it accepted. The simulator
// keeps its payouts in an append-only JSON-lines file (README "Persistence"): every accepted
// payout and every status change is one line holding the whole payout, written with writeSync
// before the HTTP answer or the callback leaves, so a kill -9 loses nothing it has said. Replay
// keeps the last line per id, in first-seen order (age, as the in-memory store orders them).
// The file is rewritten from the live payouts once it holds twice their bound (compaction).

/** One payout as stored on a line. Dates as ISO strings; everything else as in memory. */
type StoredPayout = Omit<Payout, 'createdAt' | 'settledAt' | 'callbackUrl'> & {
  callbackUrl: string | null;
  createdAt: string;
  settledAt: string | null;
};

export type PayoutJournal = {
  /** The payouts the file holds, oldest first, each as its last line left it. */
  load(): Payout[];
  /** Appends the payout as it now stands; on disk (page cache) when this returns. */
  record(payout: Payout): void;
  /** Lines written since the last compaction (or the load). */
  lines(): number;
  /** Rewrites the file with exactly `payouts` (temp file, fsync, rename: never half a file). */
  compact(payouts: Iterable<Payout>): void;
  close(): void;
};

function toLine(payout: Payout): string {
  const stored: StoredPayout = {
    ...payout,
    callbackUrl: payout.callbackUrl ?? null,
    createdAt: payout.createdAt.toISOString(),
    settledAt: payout.settledAt === null ? null : payout.settledAt.toISOString(),
  };
  return `${JSON.stringify(stored)}\n`;
}

function fromLine(line: string): Payout | undefined {
  try {
    const stored = JSON.parse(line) as StoredPayout;
    if (typeof stored?.id !== 'string' || typeof stored.idempotencyKey !== 'string') return undefined;
    // Spread, so members added to Payout later are kept without a change here.
    return {
      ...stored,
      callbackUrl: stored.callbackUrl ?? undefined,
      references: stored.references ?? {},
      createdAt: new Date(stored.createdAt),
      settledAt: stored.settledAt === null ? null : new Date(stored.settledAt),
    };
  } catch {
    return undefined;
  }
}

/** Opens (or creates) the journal at `file`; its directory is created when missing. */
export function openPayoutJournal(file: string): PayoutJournal {
  mkdirSync(path.dirname(file), { recursive: true });
  let fd = openSync(file, 'a', 0o600);
  let written = 0;

  return {
    load() {
      if (!existsSync(file)) return [];
      const text = readFileSync(file, 'utf8');
      // A torn last line has no newline: end it, or the next record would be glued onto it and
      // be unreadable at the next load.
      if (text !== '' && !text.endsWith('\n')) writeSync(fd, '\n');
      const latest = new Map<string, Payout>();
      for (const line of text.split('\n')) {
        if (line.trim() === '') continue;
        // A line torn by a kill in the middle of a write is the only unreadable one: skipped.
        const payout = fromLine(line);
        if (payout) latest.set(payout.id, payout);
        written += 1;
      }
      return [...latest.values()];
    },
    record(payout) {
      writeSync(fd, toLine(payout));
      written += 1;
    },
    lines: () => written,
    compact(payouts) {
      const live = [...payouts];
      const temp = `${file}.compact`;
      const tempFd = openSync(temp, 'w', 0o600);
      try {
        writeSync(tempFd, live.map(toLine).join(''));
        fsyncSync(tempFd);
      } finally {
        closeSync(tempFd);
      }
      renameSync(temp, file);
      closeSync(fd);
      fd = openSync(file, 'a', 0o600);
      written = live.length;
    },
    close() {
      closeSync(fd);
    },
  };
}
