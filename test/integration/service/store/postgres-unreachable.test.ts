/**
 * A PostgreSQL server that cannot be reached stops the service's start with words that say which one,
 * and never its password: one that refuses at once, and one that takes the connection and never
 * answers (a stuck server, a proxy with nothing behind it), which fails after the connect timeout
 * instead of holding the start for ever. The silent server is a real TCP listener that says nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src/service/db/database';

let dataDir: string;
let silent: Server;
const sockets: Socket[] = [];
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-pg-unreachable-'));
  silent = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
  await rm(dataDir, { recursive: true, force: true });
});

const portOf = (server: Server) => (server.address() as { port: number }).port;

describe('an unreachable PostgreSQL', () => {
  it('that refuses: the start fails naming the server, not the password', async () => {
    const refusing = createServer();
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const port = portOf(refusing);
    await new Promise((resolve) => refusing.close(resolve)); // nothing listens there now
    const opened = openDatabase(dataDir, {
      databaseUrl: `postgres://ana:s3cret@127.0.0.1:${port}/agentdesk`,
    });
    await expect(opened).rejects.toThrow(
      new RegExp(`^PostgreSQL at 127\\.0\\.0\\.1:${port}/agentdesk: .*ECONNREFUSED`),
    );
    await expect(opened).rejects.not.toThrow(/s3cret/);
  });

  it('that never answers: the start fails after the connect timeout, not never', async () => {
    const port = portOf(silent);
    const opened = openDatabase(dataDir, {
      databaseUrl: `postgres://ana:s3cret@127.0.0.1:${port}/agentdesk`,
    });
    await expect(opened).rejects.toThrow(
      new RegExp(`^PostgreSQL at 127\\.0\\.0\\.1:${port}/agentdesk: .*time`, 'i'),
    );
    expect(sockets.length).toBeGreaterThan(0); // it did reach the silent server
  }, 30_000);
});
