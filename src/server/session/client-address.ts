// The client's address given to `beforeInitiate`: by default what the server adapter passes beside
// the request (the socket's peer); the ready-made readers for proxies and platforms that name it in
// a header, which only the merchant can know to trust.
import { socketAddress } from '../../contract/socket-address.js';

/**
 * Finds the client's address. `env` is the handler's second argument, whatever the adapter passes
 * (Hono's `c.env`, a worker's `env`, Bun's `server`). The default reads
 * `env.incoming.socket.remoteAddress` (@hono/node-server's `getRequestListener` and `serve`),
 * `env.remoteAddr.hostname` (`Deno.serve`) and `env.requestIP(request).address` (`Bun.serve`), and
 * never a header: a header is the client's to write unless your own proxy overwrites it. Behind a
 * proxy, pass `forwardedFor({ trustedProxies: 1 })`, `addressHeader('cf-connecting-ip')` or your own.
 */
export type ClientAddress = (request: Request, env: unknown) => string | undefined | Promise<string | undefined>;

/** The socket's peer, as @hono/node-server, `Deno.serve` or `Bun.serve` give it; never a header. */
export const adapterClientAddress: ClientAddress = socketAddress;

/**
 * Reads the client's address from a header that your platform sets and a client cannot (it
 * overwrites what the client sent): `addressHeader('cf-connecting-ip')` on Cloudflare,
 * `addressHeader('x-real-ip')` behind an nginx that sets it. Anything that is not an IP address
 * gives `undefined`.
 */
export function addressHeader(name: string): ClientAddress {
  return (request) => plainAddress(request.headers.get(name) ?? '');
}

/** How many proxies you run in front of the server, each appending to `X-Forwarded-For`. */
export type ForwardedForOptions = { trustedProxies: number };

/**
 * Reads `X-Forwarded-For` the only way a client cannot forge it: each proxy appends the address it
 * saw, so with `trustedProxies` proxies of your own in front of the server, the entry that many
 * places from the right is the client as your outermost proxy saw it; whatever a client wrote is
 * to the left of it. Fewer entries than that (a request that bypassed a proxy) or an entry that is
 * not an IP address gives `undefined`.
 */
export function forwardedFor(options: ForwardedForOptions): ClientAddress {
  const hops = options?.trustedProxies;
  if (!Number.isInteger(hops) || hops < 1)
    throw new TypeError('forwardedFor: trustedProxies must be a whole number, 1 or more');
  return (request) => {
    // Several X-Forwarded-For headers arrive joined by ", ", as one list.
    const entries = (request.headers.get('x-forwarded-for') ?? '').split(',').map((entry) => entry.trim());
    const entry = entries.length >= hops ? entries[entries.length - hops] : undefined;
    return entry === undefined ? undefined : plainAddress(entry);
  };
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
// Two colons at least, hex digits, and an IPv4 tail or a zone (`fe80::1%eth0`) allowed.
const IPV6 = /^(?=(?:[^:]*:){2})[0-9a-f:.]+(?:%[\w.-]+)?$/i;

/** The address without a port (`1.2.3.4:5678`, `[::1]:5678`), or undefined when it is not one. */
function plainAddress(text: string): string | undefined {
  let address = text.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(':'));
  if (IPV4.test(address)) return address;
  return IPV6.test(address) && address.length <= 64 ? address : undefined;
}
