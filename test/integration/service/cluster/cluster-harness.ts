import { expect, onTestFinished } from 'vitest';
import { freshDatabase } from '../../../support/postgres';
import { freePort, startServiceProcess, type ServiceProcess } from '../../../support/service-process';
import { startSharedServer } from '../../../support/shared-server';
import { openEvents, type EventStreamReader } from '../../../support/sse';

// Two real service processes (`npm run service`, spawned) on one fresh PostgreSQL, one signed-in person and
// their first agent, and the calls the cluster tests make.

/** Short, so a dead process's agent moves within seconds; long enough for a busy machine's heartbeats. */
const LEASE_MS = 4000;

export async function cluster() {
  const database = await freshDatabase();
  const server = await startSharedServer({
    processes: 2,
    database,
    config: { cluster: { leaseMs: LEASE_MS } },
  });
  onTestFinished(() => server.stop());
  const [a, b] = server.processes as [ServiceProcess, ServiceProcess];
  const { token, agentId } = server.people[0]!;
  const call = (
    service: ServiceProcess,
    path: string,
    init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) =>
    fetch(`${service.url}/api/v2/me/agents/${agentId}/conversations${path}`, {
      method: init.method ?? 'GET',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...init.headers },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
  const newConversation = async (service: ServiceProcess): Promise<string> => {
    const created = await call(service, '', { method: 'POST' });
    expect(created.status).toBe(201);
    return ((await created.json()) as { id: string }).id;
  };
  const send = async (service: ServiceProcess, conversation: string, content: string, extra: object = {}) => {
    const sent = await call(service, `/${conversation}/messages`, {
      method: 'POST',
      body: { content, ...extra },
    });
    expect(sent.status).toBe(202);
    return ((await sent.json()) as { turnId: string }).turnId;
  };
  const events = (
    service: ServiceProcess,
    conversation: string,
    lastEventId?: string,
  ): Promise<EventStreamReader> =>
    openEvents(
      `${service.url}/api/v2/me/agents/${agentId}/conversations/${conversation}/events`,
      token,
      lastEventId ? { lastEventId } : {},
    );
  /** One more process on the same server, started after what the test set up. */
  const another = async (): Promise<ServiceProcess> => {
    const service = await startServiceProcess({ port: await freePort(), dataDir: server.dataDir });
    onTestFinished(() => service.kill('SIGKILL'));
    return service;
  };
  return { a, b, agentId, token, database, call, newConversation, send, events, another };
}

/** Whether the process started a machine for the agent (its machine pool says so in its own log). */
export const runsAgent = (service: ServiceProcess, agentId: string) =>
  service.output().includes(`[${agentId}] starting `);
