/**
 * Issue 26, item 2: the service goes away while `agentdesk sync` watches. The real CLI process,
 * the real service behind a plain TCP forwarder this test stops and starts again on the same
 * port (in front of the recording proxy, which gives the service its own Host as a reverse proxy does) (so the CLI meets a refused connection, as when the service is down), and real disk: it
 * says once that it can't reach the server and that the changes are kept, once that it is back,
 * and the saves made meanwhile reach the agent.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy';
import { useCliWorld } from './cli-harness';

const w = useCliWorld();
let hostProxy: FaultProxy;
beforeAll(async () => {
  hostProxy = await startFaultProxy(w.service.url);
});
afterAll(() => hostProxy?.close());

/** A TCP forwarder to the service on a fixed port: `down()` refuses connections, `up()` takes them again. */
async function forwarder(target: string) {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const up = async () => {
    server = createServer((client) => {
      const service = connect(Number(upstream.port), upstream.hostname);
      for (const s of [client, service]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(service).pipe(client);
    });
    await new Promise<void>((ok) => server!.listen(port, '127.0.0.1', ok));
    port = (server.address() as { port: number }).port;
  };
  const down = async () => {
    const closed = new Promise<void>((ok) => server!.close(() => ok()));
    for (const s of sockets) s.destroy();
    await closed;
  };
  await up();
  return { url: `http://127.0.0.1:${port}`, up, down };
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe('the service down while `agentdesk sync` watches', () => {
  it('says once that it cannot reach it, once that it is back, and sends the saves made meanwhile', async () => {
    const proxy = await forwarder(hostProxy.url);
    const cli = w.startCli([w.folder, '--agent', w.agentId, '--server', proxy.url]);
    try {
      await cli.waitFor('Watching for changes', 30_000);
      await proxy.down();
      await w.writeLocal('work/first.txt', 'saved while the service was down');
      const unreachable = `Can't reach ${proxy.url}; your changes are kept and will be sent when it is back.`;
      await cli.waitFor(unreachable, 30_000);
      // A second save while it is down: another cycle that cannot reach it, and nothing more said.
      await w.writeLocal('work/second.txt', 'also saved while it was down');
      await proxy.up();
      await cli.waitFor(`Reached ${proxy.url} again; your changes are being sent.`, 30_000);
      await w.until(async () =>
        (await w.readRemote('first.txt')) === 'saved while the service was down' &&
        (await w.readRemote('second.txt')) === 'also saved while it was down'
          ? true
          : undefined,
      );
      const output = cli.output();
      expect(count(output, unreachable)).toBe(1);
      expect(count(output, 'again; your changes are being sent.')).toBe(1);
      expect(output).not.toMatch(/^Error:/m);
    } finally {
      cli.child.kill('SIGINT');
      await cli.finished;
    }
  }, 120_000);
});
