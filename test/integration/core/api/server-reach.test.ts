/**
 * The reach watch against a real TCP server on loopback: one connection held while the server is there
 * (not one opened a second), the server's stop said within about a second, a restart on the same port
 * taken back, and the held connection let go when nothing watches.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { watchReach } from '../../../../src/core/api/server-reach';

interface Listener {
  server: Server;
  accepted: number;
  open: Set<Socket>;
}

function listen(port = 0): Promise<Listener> {
  const listener: Listener = { server: createServer(), accepted: 0, open: new Set() };
  listener.server.on('connection', (socket) => {
    listener.accepted += 1;
    listener.open.add(socket);
    socket.on('close', () => listener.open.delete(socket));
    socket.on('error', () => undefined);
  });
  return new Promise((ok) => listener.server.listen(port, '127.0.0.1', () => ok(listener)));
}

/** Stops listening and drops every connection, as a stopped service does. */
function stop(listener: Listener): Promise<void> {
  const closed = new Promise<void>((ok) => listener.server.close(() => ok()));
  for (const socket of listener.open) socket.destroy();
  return closed;
}

const portOf = (listener: Listener) => (listener.server.address() as { port: number }).port;
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));
async function until(check: () => boolean, ms: number): Promise<number> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await sleep(20);
  }
  return Date.now() - start;
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('watchReach', () => {
  it('holds one connection while the server is there, and says its stop within about a second', async () => {
    const listener = await listen();
    const origin = `http://127.0.0.1:${portOf(listener)}`;
    const url = `${origin}/v2`;
    const said: string[] = [];
    const unwatch = watchReach({
      server: () => url,
      skip: () => said.length > 0,
      onUnreachable: (o) => said.push(o),
    });
    cleanups.push(unwatch);
    await until(() => listener.accepted === 1, 3000);
    await sleep(3500); // three more checks
    expect(listener.accepted).toBe(1);
    expect(listener.open.size).toBe(1);
    expect(said).toEqual([]);

    await stop(listener);
    const took = await until(() => said.length > 0, 3000);
    expect(said).toEqual([origin]);
    expect(took).toBeLessThan(2500);
  });

  it('takes a restarted server back, and lets its connection go when the last watcher leaves', async () => {
    const first = await listen();
    const port = portOf(first);
    const url = `http://127.0.0.1:${port}`;
    let known = true;
    const unwatch = watchReach({
      server: () => url,
      skip: () => !known,
      onUnreachable: () => (known = false),
    });
    await until(() => first.open.size === 1, 3000);
    await stop(first);
    await until(() => !known, 3000);

    const second = await listen(port);
    cleanups.push(() => stop(second));
    known = true; // as the app does when a request reaches the server again
    await until(() => second.open.size === 1, 3000);
    expect(known).toBe(true);

    unwatch();
    await until(() => second.open.size === 0, 2000);
    await sleep(1500);
    expect(second.accepted).toBe(1);
  });
});
