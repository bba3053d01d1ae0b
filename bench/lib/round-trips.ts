// Counts the Redis round trips a store makes: every command of `createRedisStores` goes through the
// client's `sendCommand` (one request, one reply), so a wrapper around it counts them.
import type { RedisClientLike } from '../../src/server/stores/redis/index.js';

export type CountedRedis = {
  /** Pass this to `createRedisStores`. */
  client: RedisClientLike;
  /** Round trips since the last `take()` (or since it was made), and the count starts again. */
  take(): number;
};

export function countRoundTrips(client: RedisClientLike): CountedRedis {
  let sent = 0;
  return {
    client: {
      sendCommand: (args) => {
        sent += 1;
        return client.sendCommand(args);
      },
      get isReady() {
        return client.isReady;
      },
    },
    take: () => {
      const taken = sent;
      sent = 0;
      return taken;
    },
  };
}
