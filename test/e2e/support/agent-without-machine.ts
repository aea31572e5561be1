import { expect } from '@playwright/test';
import type { AppSession } from './app-session';

/**
 * Makes an agent through the API, as a second client, and moves it to our service's built-in lite assistant,
 * an engine without a machine: its conversations answer the spec's 409 agente_no_acp. Returns its id.
 */
export async function agentWithoutMachine(app: AppSession, name: string): Promise<string> {
  const made = await app.api('/api/v2/me/agents', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ nombre: name }),
  });
  expect(made.status).toBe(201);
  const agentId = ((await made.json()) as { id: string }).id;
  const moved = await app.api(`/api/v2/agents/${agentId}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ engine: 'house-lite' }),
  });
  expect(moved.status).toBe(200);
  return agentId;
}
