// Reading a request body within a size and a time limit.

type BodyResult =
  | { ok: true; text: string }
  | { ok: false; reason: 'too-large' | 'unreadable' | 'timeout' };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads the body as UTF-8 text, counting bytes as they arrive: `Content-Length` may be absent
 * (chunked uploads) or lie, so it only serves to refuse early. A body still arriving after
 * `timeoutMs` (when given) is abandoned: a client trickling it byte by byte cannot hold the handler.
 */
export async function readBodyText(request: Request, maxBytes: number, timeoutMs?: number): Promise<BodyResult> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > maxBytes) return { ok: false, reason: 'too-large' };
  if (!request.body) return { ok: true, text: '' };

  const reader = request.body.getReader();
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
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        void reader.cancel().catch(() => {});
        return { ok: false, reason: 'too-large' };
      }
      chunks.push(value);
    }
    return { ok: true, text: utf8.decode(chunks.length === 1 ? chunks[0] : concat(chunks, total)) };
  } catch {
    return { ok: false, reason: timedOut ? 'timeout' : 'unreadable' };
  } finally {
    clearTimeout(timer);
  }
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const all = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return all;
}
