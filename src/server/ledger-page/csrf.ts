// The ledger page's CSRF token: a random value the page sets in a cookie only it can read back
// (HttpOnly, SameSite=Strict, its own path) and writes into each of its forms. A POST counts only
// when the two agree: another site can make a browser send the cookie, never read it to put it in
// the form. Stateless, so the page needs no secret and no session store of its own.

const COOKIE = 'pay-ledger-csrf';
const TOKEN = /^[0-9a-f]{32}$/;

/** The token the request's cookie carries, when it is one of ours. */
export function tokenFromCookie(request: Request): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [name, value = ''] = part.trim().split('=');
    if (name === COOKIE && TOKEN.test(value)) return value;
  }
  return undefined;
}

export function newToken(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The Set-Cookie header that keeps `token` for the page at `url`. */
export function tokenCookie(token: string, url: URL): string {
  const secure = url.protocol === 'https:' ? '; Secure' : '';
  return `${COOKIE}=${token}; Path=${url.pathname}; HttpOnly; SameSite=Strict${secure}`;
}

/** Whether a posted form's token is the cookie's, compared without an early exit. */
export function tokensMatch(cookie: string | undefined, posted: string | null): boolean {
  if (cookie === undefined || posted === null || posted.length !== cookie.length) return false;
  let difference = 0;
  for (let index = 0; index < cookie.length; index += 1)
    difference |= cookie.charCodeAt(index) ^ posted.charCodeAt(index);
  return difference === 0;
}
