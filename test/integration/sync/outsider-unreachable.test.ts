/**
 * Issue 26, item 2: the service goes away while `agentdesk sync` watches. The real CLI process and
 * real disk; the real service behind the recording proxy (which gives it its own Host, as a reverse
 * proxy does) and, in front, a plain TCP forwarder (test/support/tcp-switch.ts) this test stops and
 * starts again on the same port, so the CLI meets a refused connection as when the service is down.
 * It says once that it can't reach the server and that the changes are kept, once that it is back,
 * and the saves made meanwhile reach the agent. With nothing saved, it says so within 3 seconds of the stop
 * (issue 39, item 5: it took about 12 s while the remote poll had spaced out).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy';
import { startTcpSwitch } from '../../support/tcp-switch';
import { useCliWorld } from './cli-harness';

const w = useCliWorld();
let hostProxy: FaultProxy;
beforeAll(async () => {
  hostProxy = await startFaultProxy(w.service.url);
});
afterAll(() => hostProxy?.close());

const count = (text: string, part: string) => text.split(part).length - 1;

describe('the service down while `agentdesk sync` watches', () => {
  it('says once that it cannot reach it, once that it is back, and sends the saves made meanwhile', async () => {
    const proxy = await startTcpSwitch(hostProxy.url);
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

  it('says so within 3 seconds when the folder is quiet, with nothing saved meanwhile', async () => {
    const proxy = await startTcpSwitch(hostProxy.url);
    const cli = w.startCli([w.folder, '--agent', w.agentId, '--server', proxy.url]);
    try {
      await cli.waitFor('Watching for changes', 30_000);
      const unreachable = `Can't reach ${proxy.url}; your changes are kept and will be sent when it is back.`;
      const stopped = Date.now();
      await proxy.down();
      await cli.waitFor(unreachable, 20_000);
      const saidAfterMs = Date.now() - stopped;
      expect(saidAfterMs).toBeLessThan(3000);
      await proxy.up();
      await cli.waitFor(`Reached ${proxy.url} again; your changes are being sent.`, 30_000);
    } finally {
      cli.child.kill('SIGINT');
      await cli.finished;
    }
  }, 90_000);
});
