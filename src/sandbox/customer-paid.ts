// The sandbox's "the customer paid" endpoint, for a demo page's button: `POST` with the payment's
// reference as the body marks it paid, and the sandbox posts its webhook as the gateway would. It
// answers only the person at this machine: a request that came through a proxy or a tunnel (a
// forwarding header of any kind), names another host, or arrived on a socket from elsewhere is
// refused, whatever it claims, so nobody who can reach the shop can "pay" for an order.
import { readBodyText } from '../contract/body-text.js';
import { isLoopbackAddress, isLoopbackHost } from '../contract/loopback.js';
import { socketAddress } from '../contract/socket-address.js';

/** Headers a proxy, a tunnel or a platform adds: any of them means the request came from elsewhere. */
const FORWARDING_HEADERS = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-real-ip',
  'x-client-ip',
  'cf-connecting-ip',
  'true-client-ip',
  'fly-client-ip',
  'x-vercel-forwarded-for',
  'ngrok-trace-id',
  'tailscale-funnel-request',
];

/** A reference is short plain text; anything longer is not one. */
const MAX_REFERENCE_BYTES = 512;

/** Why `request` is not from the person at this machine, or undefined when it is. */
export function notFromThisMachine(request: Request, env: unknown): string | undefined {
  const forwarded = FORWARDING_HEADERS.find((name) => request.headers.has(name));
  if (forwarded) return `it came through a proxy or tunnel (${forwarded})`;
  if (!isLoopbackHost(request.headers.get('host') ?? new URL(request.url).host)) return 'it names another host';
  const address = socketAddress(request, env);
  if (address === undefined || !isLoopbackAddress(address)) return 'it did not come from this machine';
  const site = request.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none') return 'another site sent it';
  return undefined;
}

/** The reference a body names: the text itself, or a JSON body's `paymentReference`. */
function referenceIn(body: string | undefined, contentType: string | null): string | undefined {
  if (body === undefined || !/json/i.test(contentType ?? '')) return body?.trim() || undefined;
  try {
    const named = (JSON.parse(body) as { paymentReference?: unknown } | null)?.paymentReference;
    return typeof named === 'string' && named.trim() ? named.trim() : undefined;
  } catch {
    return undefined;
  }
}

/** `POST` body: the reference, as text or JSON `{ paymentReference }`. 204 when it was marked paid, 404 for an unknown one, 403 from elsewhere. */
export function customerPaidHandler(
  setStatus: (paymentReference: string, status: 'SUCCESS') => boolean,
): (request: Request, env?: unknown) => Promise<Response> {
  return async (request, env) => {
    if (request.method !== 'POST') return new Response('Use POST.', { status: 405, headers: { allow: 'POST' } });
    const refused = notFromThisMachine(request, env);
    if (refused)
      return new Response(`The sandbox's "customer paid" answers only the person at this machine: ${refused}.`, {
        status: 403,
      });
    const body = await readBodyText(request, MAX_REFERENCE_BYTES);
    const reference = referenceIn(body.ok ? body.text : undefined, request.headers.get('content-type'));
    if (!reference)
      return new Response('Send the payment reference as the body, or as JSON { "paymentReference": … }.', {
        status: 400,
      });
    return new Response(null, { status: setStatus(reference, 'SUCCESS') ? 204 : 404 });
  };
}
