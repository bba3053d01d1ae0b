// The lease on a ledger entry while `onPaid` runs, kept alive: renewed every third of `leaseMs` (a
// compare-and-set of `lease.until` and `dueAt`, through the store's `update`), so that it lapses
// only once this process stops renewing it: it died, `onPaid` outlived its time limit, or the
// ledger could not be written for two thirds of a lease. Another caller takes over only after that.
import type { Payment } from './stores/types.js';

/** The ledger as the heartbeat uses it: a compare-and-set and a read that never throw (they report). */
export type LeaseLedger = {
  write(next: Payment): Promise<boolean>;
  read(paymentReference: string): Promise<Payment | undefined>;
};

export type HeldLease = {
  /** Settles if the lease is lost: unrenewed until it lapsed, or taken or finished by another caller. */
  lost: Promise<void>;
  /** Stops renewing (after a renewal under way) and gives the entry as last written or read. */
  stop(): Promise<Payment>;
};

/** A renewal that keeps losing to other writers is tried again at the next beat. */
const MAX_WRITES = 4;

/** Renews `owner`'s lease on `leased` until `stop()`; `leaseMs` from each renewal's `now()`. */
export function holdLease(leased: Payment, owner: string, ledger: LeaseLedger, leaseMs: number, now: () => number): HeldLease {
  let current = leased;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let renewing: Promise<void> = Promise.resolve();
  let markLost!: () => void;
  const lost = new Promise<void>((resolve) => (markLost = resolve));
  const lose = () => {
    stopped = true;
    markLost();
  };

  async function renew(): Promise<void> {
    for (let attempt = 1; attempt <= MAX_WRITES && !stopped; attempt += 1) {
      const until = now() + leaseMs;
      const next: Payment = { ...current, lease: { owner, until }, dueAt: until };
      if (await ledger.write(next)) {
        current = { ...next, version: current.version + 1 };
        return;
      }
      const reread = await ledger.read(current.paymentReference);
      if (!reread) break; // unreadable now: the lease may still hold until the next beat
      if (reread.lease?.owner !== owner || reread.fulfilledAt !== undefined) return lose();
      current = reread; // written meanwhile by someone who left the lease alone (a webhook's check)
    }
    if (!stopped && (current.lease?.until ?? 0) <= now()) lose();
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
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await renewing;
      return current;
    },
  };
}
