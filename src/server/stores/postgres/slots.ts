// A bound on how many run at once: fulfilment takes a slot for each transaction it holds open, so
// that it never holds more than its share of the pool.

/**
 * At most `size` holders at once; the others wait their turn, first come first served, for at most
 * `waitMs` (then `undefined`: no slot). A slot is given back by calling what `take` returned.
 */
export function createSlots(size: number): (waitMs: number | undefined) => Promise<(() => void) | undefined> {
  let free = size;
  const waiting: ((slot: () => void) => void)[] = [];
  const giveBack = () => {
    const next = waiting.shift();
    if (next) next(once());
    else free += 1;
  };
  const once = () => {
    let given = false;
    return () => void (given ? undefined : ((given = true), giveBack()));
  };
  return async (waitMs) => {
    if (free > 0) {
      free -= 1;
      return once();
    }
    return new Promise((resolve) => {
      const turn = (slot: () => void) => {
        clearTimeout(timer);
        resolve(slot);
      };
      waiting.push(turn);
      const timer =
        waitMs === undefined
          ? undefined
          : setTimeout(() => {
              waiting.splice(waiting.indexOf(turn), 1);
              resolve(undefined);
            }, waitMs);
      (timer as { unref?: () => void } | undefined)?.unref?.();
    });
  };
}
