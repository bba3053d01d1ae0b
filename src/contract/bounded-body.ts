// Reading a body from outside (a request's or an answer's) within a size limit, with the Fetch API
// only, for the server, the sandbox and `pay-widget check` alike: bytes are counted as they arrive,
// the read stops at the limit and the rest is cancelled, so an endless or enormous body costs at
// most the limit. Not for browser code (it needs no `node:` module, but nothing there reads one).

export type BoundedBody =
  | { ok: true; bytes: Uint8Array }
  /** Longer than the limit: `head` is its first `maxBytes` bytes (empty when its Content-Length said so first). */
  | { ok: false; reason: 'too-large'; head: Uint8Array }
  /** The stream failed: a dropped connection, an aborted fetch. */
  | { ok: false; reason: 'unreadable'; error: unknown }
  | { ok: false; reason: 'timeout' };

/**
 * Reads `stream` to its end, or to `maxBytes` and then cancels it. Still arriving after
 * `timeoutMs` (when given), it is abandoned: a sender trickling it byte by byte cannot hold the reader.
 */
export async function readBounded(
  stream: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  timeoutMs?: number,
): Promise<BoundedBody> {
  if (!stream) return { ok: true, bytes: new Uint8Array(0) };
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let timedOut = false;
  // Cancelling ends the pending read (as if the body had ended) and stops the stream.
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          void reader.cancel().catch(() => {});
        }, timeoutMs);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (timedOut) return { ok: false, reason: 'timeout' };
      if (done) return { ok: true, bytes: concat(chunks, total) };
      chunks.push(value);
      total += value.byteLength;
      if (total > maxBytes) {
        void reader.cancel().catch(() => {});
        return { ok: false, reason: 'too-large', head: concat(chunks, total).subarray(0, maxBytes) };
      }
    }
  } catch (error) {
    return timedOut ? { ok: false, reason: 'timeout' } : { ok: false, reason: 'unreadable', error };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A request's (or an answer's) body within `maxBytes`, refused at once when its `Content-Length`
 * already says more: that header may be absent (a chunked upload) or lie, so bytes are counted too.
 */
export function readBodyWithin(
  message: Request | Response,
  maxBytes: number,
  timeoutMs?: number,
): Promise<BoundedBody> {
  const declared = Number(message.headers.get('content-length') ?? 0);
  if (declared > maxBytes) return Promise.resolve({ ok: false, reason: 'too-large', head: new Uint8Array(0) });
  return readBounded(message.body, maxBytes, timeoutMs);
}

/**
 * An answer's text up to `maxBytes`, read for what it says: a longer one is `cut` there and the rest
 * is not read. Rejects as `response.text()` does when the stream fails (a time-out's abort included).
 */
export async function readTextCut(
  message: Request | Response,
  maxBytes: number,
): Promise<{ text: string; cut: boolean }> {
  const read = await readBounded(message.body, maxBytes);
  if (read.ok) return { text: decoder.decode(read.bytes), cut: false };
  if (read.reason === 'too-large') return { text: decoder.decode(read.head), cut: true };
  throw read.reason === 'unreadable' ? read.error : new Error('The body took too long to arrive.');
}

/** Parses `text` as JSON, undefined when it is not. */
export function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** UTF-8, a malformed sequence replaced as `response.text()` does (a cut may end in half a character). */
const decoder = new TextDecoder();

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const all = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return all;
}
