import { createServer, type RequestListener, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';

/**
 * Real HTTP servers on 127.0.0.1 for a test file: `listen` starts one on a free port and gives its
 * base URL; `close` ends every one of them, keep-alive connections included.
 */
export function loopbackServers() {
  const servers: Server[] = [];
  return {
    async listen(listener: RequestListener): Promise<string> {
      const server = createServer(listener);
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    },
    async close(): Promise<void> {
      for (const server of servers) server.closeAllConnections();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}

/** A TCP port free on 127.0.0.1 a moment ago, for a server another process starts. */
export async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
