// The success body's `order.expiresInMs`: the TRANSFER account's time left as this server's clock
// measures it when the answer leaves, so that a phone whose clock is wrong still counts down right
// (the widget counts from the answer's arrival). Stamped on every answer, a replay of a stored one
// too, whose `expiresAt` was fixed by the first.
import type { Reply } from '../http/reply.js';

export function withTimeLeft(reply: Reply, now: number): Reply {
  if (reply.status !== 200 || !reply.body.includes('"expiresAt"')) return reply;
  const body = JSON.parse(reply.body) as { order?: { expiresAt?: unknown; expiresInMs?: number } };
  const order = body.order;
  const expiresAt = typeof order?.expiresAt === 'string' ? Date.parse(order.expiresAt) : NaN;
  if (!order || Number.isNaN(expiresAt)) return reply;
  order.expiresInMs = Math.max(0, expiresAt - now);
  return { ...reply, body: JSON.stringify(body) };
}
