/**
 * The outsider's view of `agentdesk sync` (issue 12 tried as the README tells a person to use it):
 * the real CLI process (cli-harness.ts) against the real local service, through a recording proxy
 * (test/support/fault-proxy.ts, forwarding everything unchanged unless a test adds a rule) so a
 * test can say what reached the agent and what never did.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy';
import { useCliWorld, type Running } from './cli-harness';

export function useOutsiderWorld() {
  const w = useCliWorld();
  const o = {
    w,
    proxy: undefined as unknown as FaultProxy,
    watch,
    stop,
    remoteFiles,
    requestsFor,
  };

  beforeAll(async () => {
    o.proxy = await startFaultProxy(w.service.url);
  });
  afterAll(async () => {
    await o.proxy?.close();
  });
  beforeEach(() => {
    o.proxy.clear();
    o.proxy.seen.length = 0;
  });

  /** `agentdesk sync <folder> --agent <id>` watching, through the proxy, once it says it watches. */
  async function watch(...extra: string[]): Promise<Running> {
    const cli = w.startCli([w.folder, '--agent', w.agentId, '--server', o.proxy.url, ...extra]);
    await cli.waitFor('Watching for changes', 30_000);
    return cli;
  }

  /** Ctrl-C, as a person stops it; the run's whole output. */
  async function stop(cli: Running) {
    cli.child.kill('SIGINT');
    return cli.finished;
  }

  /** The agent's workspace as it stands: path → text. */
  async function remoteFiles(): Promise<Map<string, string>> {
    const listing = await w.api.listWorkspace(w.agentId, '');
    if (!listing.ok) throw new Error(listing.error.message);
    const files = new Map<string, string>();
    for (const file of listing.value.files) files.set(file.path, (await w.readRemote(file.path)) ?? '');
    return files;
  }

  /** The requests of one method the proxy forwarded for one workspace path (decoded). */
  function requestsFor(method: string, workspacePath: string): number {
    return o.proxy.seen.filter(
      (s) => s.method === method && decodeURIComponent(s.path).endsWith(`/files/${workspacePath}`),
    ).length;
  }

  return o;
}
