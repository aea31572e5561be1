/**
 * A person's model providers on two real service processes (`npm run service`, spawned) on one real
 * PostgreSQL: a key added or removed through one process is seen by the other at once. A single service keeps
 * each person's providers in memory between their changes (providers/kept-provider-store.ts); a process of
 * a cluster must not, since the change may come through another process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelProvider, ModelProviders } from '../../../../src/shared/api/routes/model-providers';
import type { ServiceProcess } from '../../../support/service-process';
import { startListServer, type ListServer } from '../providers/models-list-server';
import { cluster } from './cluster-harness';

const KEY = 'test-key.across-processes';
let models: ListServer;
beforeAll(async () => {
  models = await startListServer({ protocol: 'openai', apiKey: KEY, models: ['model-across'] });
});
afterAll(() => models?.close());

describe('model providers on two service processes', { timeout: 180_000 }, () => {
  it('a key added or removed through one process is seen by the other at once', async () => {
    const { a, b, token } = await cluster();
    const providers = async (service: ServiceProcess, method = 'GET', path = '', body?: unknown) =>
      fetch(`${service.url}/api/v2/me/model-providers${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const added = async (service: ServiceProcess) =>
      ModelProviders.parse(await (await providers(service)).json())
        .proveedores.filter((p) => p.origen === 'ajustes')
        .map((p) => p.nombre);

    // Each process has read the person's (empty) list before the change.
    expect(await added(a)).toEqual([]);
    expect(await added(b)).toEqual([]);

    const made = await providers(a, 'POST', '', {
      tipo: 'openai-compatible',
      clave: KEY,
      urlBase: models.baseURL,
      nombre: 'Shared server',
    });
    expect(made.status).toBe(201);
    const { id } = ModelProvider.parse(await made.json());
    expect(await added(b)).toEqual(['Shared server']);
    expect(await added(a)).toEqual(['Shared server']);

    expect((await providers(b, 'DELETE', `/${id}`)).status).toBe(200);
    expect(await added(a)).toEqual([]);
  });
});
