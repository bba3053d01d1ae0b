// The lease on a ledger entry while `onPaid` runs, kept alive: renewed every third of `leaseMs` (a
// compare-and-set of `lease.until` and `dueAt`, through the store's `update`), for as long as the
// call runs in this process, past its time limit too: it lapses only once this process stops
// renewing it (it died, or the ledger could not be written for two thirds of a lease). Another
// caller takes over only after that. `until` is reckoned by the ledger's clock when it has one
// (PostgreSQL, Redis), so instances whose clocks disagree still agree on when a lease lapses.
import type { Payment } from '../ledger/entry.js';
import { moveEntry } from '../ledger/moves.js';
import { writeMove } from '../ledger/write.js';

/** How long a lease lives unrenewed, unless the caller says. */
export const DEFAULT_LEASE_MS = 60_000;

/** The ledger as the heartbeat uses it: a compare-and-set and a read that never throw (they report), and its clock. */
export type LeaseLedger = {
  write(next: Payment): Promise<boolean>;
  read(paymentReference: string): Promise<Payment | undefined>;
  /** The time leases are reckoned by, ms since the epoch: the ledger's own clock, or this instance's. */
  clock(): Promise<number>;
};

export type HeldLease = {
  /** Settles if the lease is lost: unrenewed until it lapsed, or taken or finished by another caller. */
  lost: Promise<void>;
  /** The entry as last written or read. */
  latest(): Payment;
  /** Whether the lease still holds by its last renewal (on this process's clock), renewed or not since. */
  holds(): boolean;
  /** Stops renewing (after a renewal under way) and gives the entry as last written or read. */
  stop(): Promise<Payment>;
};

/** A renewal that keeps losing to other writers is tried again at the next beat. */
const MAX_WRITES = 4;

/** Renews `owner`'s lease on `leased` until `stop()`; `leaseMs` from each renewal's reading of the ledger's clock. */
export function holdLease(leased: Payment, owner: string, ledger: LeaseLedger, leaseMs: number): HeldLease {
  let current = leased;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let renewing: Promise<void> = Promise.resolve();
  // A lapse is told by elapsed time on this process's own clock: no other clock enters it.
  let renewedAt = performance.now();
  let markLost!: () => void;
  const lost = new Promise<void>((resolve) => (markLost = resolve));
  const lose = () => {
    stopped = true;
    markLost();
  };

  async function renew(): Promise<void> {
    const asked = performance.now();
    const until = await ledger.clock().then(
      (time) => time + leaseMs,
      () => undefined,
    );
    // The ledger is away now: the lease may still hold until the next beat.
    if (until !== undefined && !stopped) {
      const renewal = await writeMove(
        { get: ledger.read, update: ledger.write },
        current,
        (entry) => moveEntry(entry, { type: 'lease-renewed', owner, until }),
        { tries: MAX_WRITES },
      );
      if (renewal.kind === 'written') {
        current = renewal.after;
        renewedAt = asked;
        return;
      }
      // Taken or finished by another caller. Otherwise written meanwhile by someone who left the
      // lease alone (a webhook's check), or unreadable: tried again at the next beat.
      if (renewal.kind === 'not-applicable') return lose();
      if (renewal.kind === 'gave-up') current = renewal.entry;
    }
    if (!stopped && performance.now() - renewedAt >= leaseMs) lose();
  }

  function beat(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      renewing = renew().finally(beat);
    }, leaseMs / 3);
    // A renewal alone does not keep a process alive.
    (timer as { unref?: () => void }).unref?.();
  }

  beat();
  return {
    lost,
    latest: () => current,
    holds: () => performance.now() - renewedAt < leaseMs,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await renewing;
      return current;
    },
  };
}
