// The Vite plugin: mounts the demo's routes before Vite's own middlewares, and tells the page which
// mode it is in and the sandbox's magic amounts.
import { getRequestListener } from '@hono/node-server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Plugin } from 'vite';
import { MAGIC_AMOUNTS } from '../../src/sandbox/index.js';
import { createDemoBackend, type DemoBackend } from './backend.js';
import type { Env } from './config.js';

export function payDemo(options: { env?: Env; backend?: DemoBackend } = {}): Plugin {
  let backend = options.backend;
  return {
    name: 'pay-widget:demo-endpoints',
    apply: 'serve',
    async configureServer(server) {
      const logger = server.config.logger;
      if (!backend) {
        const own = await createDemoBackend(options.env, {
          info: (message) => logger.info(message, { timestamp: true }),
          warn: (message) => logger.warn(message, { timestamp: true }),
        });
        // Its own backend's reconciler and webhook retries end with the dev server.
        server.httpServer?.once('close', () => void own.close());
        backend = own;
      }
      const listeners = new Map(
        Object.entries(backend.routes).map(([path, handler]) => [
          path,
          // Not overriding the global Request/Response: Vite and the sandbox share this process.
          getRequestListener(handler, { overrideGlobalObjects: false }),
        ]),
      );
      server.middlewares.use((req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => {
        const path = (req.url ?? '/').split('?', 1)[0]!;
        const listener = listeners.get(path);
        if (!listener) return next();
        // Requests only arrive once Vite listens, so its URL is known by now (startDemo also says it).
        const listening = server.resolvedUrls?.local[0];
        if (listening) backend!.listeningAt(listening);
        listener(req, res).catch(next);
      });
    },
    transformIndexHtml() {
      return [
        { tag: 'meta', attrs: { name: 'pay-demo-mode', content: backend?.mode ?? 'sandbox' }, injectTo: 'head' },
        ...(backend?.gatewayOrigin
          ? [{ tag: 'meta', attrs: { name: 'pay-demo-gateway', content: backend.gatewayOrigin }, injectTo: 'head' as const }]
          : []),
        // The sandbox's table, for the page's "Rehearse failures" (the page itself never loads the sandbox).
        {
          tag: 'script',
          attrs: { type: 'application/json', id: 'pay-demo-magic-amounts' },
          children: JSON.stringify(MAGIC_AMOUNTS).replace(/</g, '\\u003c'),
          injectTo: 'head',
        },
      ];
    },
  };
}
