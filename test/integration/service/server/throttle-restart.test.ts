import { describe, expect, it } from 'vitest';
import { addAdmin, ADMIN, dataDir, ProxyClient, SLOW, startServer } from './harness';

// Two failures free, then a ten-minute wait: long enough that no restart on a busy machine outlasts it.
const config = { signInThrottle: { freeFailures: 2, firstDelaySeconds: 600 } };

describe('sign-in throttle in the database', () => {
  it(
    'holds across two processes on one data folder, and through a restart',
    async () => {
      const data = await dataDir(config);
      await addAdmin(data);
      const first = await startServer(data);
      const second = await startServer(data);
      const on = (service: { url: string }) => new ProxyClient(service.url);

      for (let n = 0; n < 3; n++)
        expect((await on(first).signIn(ADMIN.email, 'wrong password')).status).toBe(401);
      // The other process, which saw none of those failures, holds even the right password back.
      const held = await on(second).signIn(ADMIN.email, ADMIN.password);
      expect(held.status).toBe(429);
      expect(Number(held.headers['retry-after'])).toBeGreaterThan(500);
      expect(held.body).toContain('Too many failed attempts');

      await Promise.all([first.kill('SIGTERM'), second.kill('SIGTERM')]);
      const restarted = await startServer(data);
      const still = await on(restarted).signIn(ADMIN.email, ADMIN.password);
      expect(still.status).toBe(429);
      expect(Number(still.headers['retry-after'])).toBeGreaterThan(500);
      // Another account from the same address is not held: two failures per account, eight per address.
      expect((await on(restarted).signIn('someone@example.test', 'wrong password')).status).toBe(401);
    },
    SLOW,
  );
});
