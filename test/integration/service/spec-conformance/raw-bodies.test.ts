import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstAgentId, signIn, startTestService, type TestService } from '../../../support/local-service';

// The spec takes files as raw bytes: "raw bytes (not multipart)" for the library, `application/octet-stream`
// for a workspace file. A client that sends a multipart form instead would have the form's boundaries and
// headers stored as the file's content; the service says so instead, and stores nothing.
let service: TestService;
let token: string;
let agentId: string;

beforeAll(async () => {
  service = await startTestService();
  token = (await signIn(service)).access_token;
  agentId = await firstAgentId(service, token);
}, 60_000);
afterAll(() => service.cleanup());

const api = (path: string) => `${service.url}/api/v2${path}`;
const bearer = () => ({ Authorization: `Bearer ${token}` });

function multipartForm(): FormData {
  const form = new FormData();
  form.append('file', new Blob(['hello'], { type: 'text/plain' }), 'hello.txt');
  return form;
}

async function libraryNames(): Promise<string[]> {
  const answer = await fetch(api('/me/files'), { headers: bearer() });
  return ((await answer.json()) as { archivos: { nombre: string }[] }).archivos.map((file) => file.nombre);
}

async function workspacePaths(): Promise<string[]> {
  const answer = await fetch(api(`/agents/${agentId}/files/`), { headers: bearer() });
  return ((await answer.json()) as { files: { path: string }[] }).files.map((file) => file.path);
}

describe('a multipart form where the spec takes raw bytes', () => {
  it('POST /me/files → 400 body_invalido, nothing stored', async () => {
    const answer = await fetch(api('/me/files?nombre=hello.txt'), {
      method: 'POST',
      headers: bearer(),
      body: multipartForm(),
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      error: 'body_invalido',
      detalle: expect.stringMatching(/raw bytes/),
    });
    expect(await libraryNames()).toEqual([]);
  });

  it('PUT /agents/{id}/files/{path} → 400, nothing written', async () => {
    const answer = await fetch(api(`/agents/${agentId}/files/hello.txt`), {
      method: 'PUT',
      headers: bearer(),
      body: multipartForm(),
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      error: 'body_invalido',
      detalle: expect.stringMatching(/raw bytes/),
    });
    expect(await workspacePaths()).not.toContain('hello.txt');
  });

  it('raw bytes of any type are still taken as they are', async () => {
    const stored = await fetch(api('/me/files?nombre=notes.md'), {
      method: 'POST',
      headers: { ...bearer(), 'Content-Type': 'text/markdown' },
      body: '# notes',
    });
    expect(stored.status).toBe(200);
    expect(await stored.json()).toMatchObject({ nombre: 'notes.md', size: 7 });
    const written = await fetch(api(`/agents/${agentId}/files/notes.md`), {
      method: 'PUT',
      headers: { ...bearer(), 'Content-Type': 'application/octet-stream' },
      body: '# notes',
    });
    expect(written.status).toBe(200);
    expect(await written.json()).toMatchObject({ path: 'notes.md', bytes: 7 });
  });
});
