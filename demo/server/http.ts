// The demo's one HTTP listener: the backend's routes (the payments handler and the demo's own
// endpoints), the widget's script-tag files at /pay-widget/ from dist/, and the built page, whose
// head is told the mode it runs in and the sandbox's magic amounts. Text files go out gzipped to a
// browser that takes it, as a shop's server or CDN sends them.
import { getRequestListener } from '@hono/node-server';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { isLoopbackHost } from '../../src/contract/loopback.js';
import { MAGIC_AMOUNTS } from '../../src/sandbox/index.js';
import type { DemoBackend } from './backend.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};
/** A file name of the folder served, never a path out of it. */
const FILE_NAME = /^[\w-]+(\.[\w-]+)*$/;

export type DemoFolders = {
  /** The built page (index.html, assets/). */
  page: string;
  /** The script tag's files (dist/). */
  script: string;
};

export function demoListener(
  backend: DemoBackend,
  folders: DemoFolders,
  listening: () => string | undefined,
): RequestListener {
  // Not overriding the global Request/Response: the sandbox and the page's server share this process.
  const routes = new Map(
    Object.entries(backend.routes).map(([path, handler]) => [
      path,
      getRequestListener(handler, { overrideGlobalObjects: false }),
    ]),
  );
  const gzipped = new Map<string, Buffer>();

  async function sendFile(
    request: IncomingMessage,
    response: ServerResponse,
    file: string,
    body?: string,
  ): Promise<void> {
    let content: Buffer;
    try {
      content = body === undefined ? await readFile(file) : Buffer.from(body);
    } catch {
      return notFound(response);
    }
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    const compress = /gzip/.test(String(request.headers['accept-encoding'] ?? '')) && type.startsWith('text/');
    if (compress && body === undefined && !gzipped.has(file)) gzipped.set(file, gzipSync(content, { level: 9 }));
    const sent = compress ? (body === undefined ? gzipped.get(file)! : gzipSync(content)) : content;
    response.writeHead(200, {
      'content-type': type,
      'content-length': sent.byteLength,
      'cache-control': 'no-cache',
      vary: 'accept-encoding',
      ...(compress ? { 'content-encoding': 'gzip' } : {}),
    });
    response.end(request.method === 'HEAD' ? undefined : sent);
  }

  async function sendPage(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const html = await readFile(join(folders.page, 'index.html'), 'utf8');
    await sendFile(
      request,
      response,
      join(folders.page, 'index.html'),
      html.replace('</head>', `${headTags(backend)}</head>`),
    );
  }

  return (request, response) => {
    // A page elsewhere whose name was pointed at 127.0.0.1 (DNS rebinding) names its own host: refused,
    // so no other site reads the ledger page or presses "the customer paid".
    const host = request.headers.host ?? '';
    if (!isLoopbackHost(host) && host !== backend.publicHost) {
      response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('This demo answers only on this machine (or PAY_PUBLIC_ORIGIN).');
      return;
    }
    const path = (request.url ?? '/').split('?', 1)[0]!;
    const route = routes.get(path);
    if (route) {
      // Requests only arrive once the server listens, so its URL is known by now.
      const url = listening();
      if (url) backend.listeningAt(url);
      void route(request, response);
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return notFound(response);
    if (path === '/' || path === '/index.html') return void sendPage(request, response);
    const [, folder, name = ''] = /^\/(pay-widget|assets)\/([^/]+)$/.exec(path) ?? [];
    if (!folder || !FILE_NAME.test(name)) return notFound(response);
    void sendFile(
      request,
      response,
      folder === 'pay-widget' ? join(folders.script, name) : join(folders.page, 'assets', name),
    );
  };
}

/** The page's mode, the real gateway's origin, and the sandbox's table (for "Rehearse failures"). */
function headTags(backend: DemoBackend): string {
  const attribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return [
    `<meta name="pay-demo-mode" content="${attribute(backend.mode)}">`,
    backend.gatewayOrigin ? `<meta name="pay-demo-gateway" content="${attribute(backend.gatewayOrigin)}">` : '',
    `<script type="application/json" id="pay-demo-magic-amounts">${JSON.stringify(MAGIC_AMOUNTS).replace(/</g, '\\u003c')}</script>`,
  ].join('');
}

function notFound(response: ServerResponse): void {
  response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
  response.end('Not found');
}
