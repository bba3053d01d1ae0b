// Which hosts and addresses are this machine's: for the checks that answer the person at this
// machine only (the sandbox's "the customer paid", the demo's server) and for the one that refuses a
// publicUrl the live gateway could never reach. Shared code: no lit, no node: imports.

/** This machine's names as a URL or a Host header writes them: localhost, 127.0.0.0/8, [::1]. */
const LOOPBACK_NAME = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/i;
/** A Host header's port. */
const PORT = /:\d+$/;

/** A Host header (or a URL's `host`) naming this machine, on any port. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_NAME.test(host.replace(PORT, ''));
}

/**
 * A URL's `hostname` that only this machine can reach: a loopback name, and also `0.0.0.0` (the
 * address a server listens on, never one another machine reaches it by) and any name under
 * `.localhost`. Wider than isLoopbackHost on purpose: that one lets a request in, so it admits no
 * more than it must; this one refuses a setting, so it refuses everything that cannot work.
 */
export function isLocalOnlyHostname(hostname: string): boolean {
  return LOOPBACK_NAME.test(hostname) || hostname === '0.0.0.0' || /\.localhost$/i.test(hostname);
}

/** A socket's peer address on this machine: 127.0.0.0/8 (IPv4-mapped too) or ::1. */
export function isLoopbackAddress(address: string): boolean {
  return /^(::ffff:)?127\.\d+\.\d+\.\d+$|^::1$/.test(address);
}
