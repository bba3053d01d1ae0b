// Reading a request body within a size and a time limit (the reader itself, shared with the
// sandbox and the check, is contract/bounded-body.ts).
import { readBodyWithin } from './bounded-body.js';

type BodyResult = { ok: true; text: string } | { ok: false; reason: 'too-large' | 'unreadable' | 'timeout' };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads the body as UTF-8 text, counting bytes as they arrive: `Content-Length` may be absent
 * (chunked uploads) or lie, so it only serves to refuse early. A body still arriving after
 * `timeoutMs` (when given) is abandoned: a client trickling it byte by byte cannot hold the handler.
 */
export async function readBodyText(request: Request, maxBytes: number, timeoutMs?: number): Promise<BodyResult> {
  const body = await readBodyWithin(request, maxBytes, timeoutMs);
  if (!body.ok) return { ok: false, reason: body.reason };
  try {
    return { ok: true, text: utf8.decode(body.bytes) };
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
}
