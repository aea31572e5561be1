import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentPrograms } from '../../../../src/shared/api/routes/model-providers';
import { demoAgentCommand } from '../../../../src/service/engine/agent-command';
import { ensurePerson, signIn } from '../../../support/local-service';
import { createHarness, type Harness } from '../turns/harness';
import { withoutProviderEnvironment } from './models-list-server';

// Agent programs found on the service's PATH: the test makes a real executable named `goose` (a tiny script that
// runs the demo agent, since goose itself is not installed here) and starts the real service with it on the PATH.
// The service finds it, names the engine by it, runs it as `engine-c`, and only the owner changes the places.

let h: Harness;
let bin: string;
let restoreEnv: () => void;
const savedPath = process.env.PATH;

type About = { about: { engines: { id: string; name: string; offered?: boolean }[] } };
const programs = async (token?: string) =>
  AgentPrograms.parse((await h.api('GET', '/api/v2/me/agent-programs', undefined, token)).body).programas;

beforeAll(async () => {
  restoreEnv = withoutProviderEnvironment();
  bin = await mkdtemp(join(tmpdir(), 'agentdesk-path-'));
  const demo = demoAgentCommand()
    .command.map((word) => `'${word}'`)
    .join(' ');
  // Records how it was called, then runs the demo agent (which ignores `acp`).
  await writeFile(join(bin, 'goose'), `#!/bin/sh\necho "$@" > "${bin}/goose-args"\nexec ${demo}\n`);
  await chmod(join(bin, 'goose'), 0o755);
  // Not executable: never offered.
  await writeFile(join(bin, 'codex-acp'), '#!/bin/sh\nexit 0\n');
  process.env.PATH = `${bin}${delimiter}${savedPath ?? ''}`;
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
  process.env.PATH = savedPath;
  restoreEnv?.();
  await rm(bin, { recursive: true, force: true });
});

describe('agent programs on the PATH (our extension /api/v2/me/agent-programs)', () => {
  it('lists each known program, found or not, with the line that installs it and its place', async () => {
    const listed = await programs();
    expect(listed.map((p) => p.id)).toEqual(['goose', 'gemini', 'claude-code', 'codex', 'opencode']);
    expect(listed[0]).toEqual({
      id: 'goose',
      nombre: 'goose',
      comando: [join(bin, 'goose'), 'acp'],
      encontrado: true,
      instalar: expect.stringContaining('goose'),
      necesita: expect.any(String),
      motor: 'engine-c',
    });
    const codex = listed.find((p) => p.id === 'codex')!;
    expect(codex).toMatchObject({
      encontrado: false,
      motor: null,
      instalar: 'npm install -g @zed-industries/codex-acp',
    });
    for (const program of listed) expect(program.instalar).not.toBe('');
  });

  it('names the engine by the program, offers it, and runs it there', async () => {
    const agent = await h.api<About>('GET', `/api/v2/agents/${h.agentId}`);
    const engines = agent.body.about.engines;
    expect(engines.find((e) => e.id === 'engine-c')).toMatchObject({ name: 'goose' });
    expect(engines.find((e) => e.id === 'engine-c')?.offered).toBeUndefined();
    expect(engines.find((e) => e.id === 'engine-d')).toMatchObject({ offered: false });

    expect((await h.api('PATCH', `/api/v2/agents/${h.agentId}`, { engine: 'engine-c' })).status).toBe(200);
    const id = await h.conversation();
    const stream = await h.events(id);
    const sent = await h.send(id, { content: 'hello goose' });
    expect(sent.status).toBe(202);
    const events = await stream.untilDone(String(sent.body['turnId']));
    const text = events
      .filter((e) => e.event === 'chunk')
      .map((e) => e.data.text)
      .join('');
    expect(text).toContain('You said: "hello goose"');
    expect(text).toContain('To use your own model, add a provider in Settings → Models.');
    expect((await readFile(join(bin, 'goose-args'), 'utf8')).trim()).toBe('acp');
  });

  it('lets only the service’s owner choose what a place runs, and keeps the choice in config.json', async () => {
    await ensurePerson(h.service, 'guest@example.test');
    const guest = (await signIn(h.service, { email: 'guest@example.test' })).access_token;
    const refused = await h.api(
      'PUT',
      '/api/v2/me/agent-programs/engine-d',
      { comando: ['/bin/sh'], nombre: 'Mine' },
      guest,
    );
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'solo_propietario', detalle: expect.stringContaining('owner') });

    const unknown = await h.api('PUT', '/api/v2/me/agent-programs/engine-d', { programa: 'nonesuch' });
    expect(unknown).toMatchObject({ status: 400, body: { error: 'body_invalido' } });

    const demo = demoAgentCommand().command;
    const set = await h.api('PUT', '/api/v2/me/agent-programs/engine-d', {
      comando: demo,
      nombre: 'My own agent',
    });
    expect(set.status).toBe(200);
    const mine = AgentPrograms.parse(set.body).programas.find((p) => p.id === 'command');
    expect(mine).toMatchObject({ nombre: 'My own agent', comando: demo, motor: 'engine-d' });
    const config = JSON.parse(await readFile(join(h.service.dataDir, 'config.json'), 'utf8'));
    expect(config.engines['engine-d']).toEqual({ command: demo, name: 'My own agent' });
    const agent = await h.api<About>('GET', `/api/v2/agents/${h.agentId}`);
    expect(agent.body.about.engines.find((e) => e.id === 'engine-d')).toMatchObject({ name: 'My own agent' });

    // Giving the place back: what is found fills it again, and config.json forgets the choice.
    const back = await h.api('PUT', '/api/v2/me/agent-programs/engine-d', {});
    expect(back.status).toBe(200);
    expect(AgentPrograms.parse(back.body).programas.some((p) => p.id === 'command')).toBe(false);
    const after = JSON.parse(await readFile(join(h.service.dataDir, 'config.json'), 'utf8'));
    expect(after.engines['engine-d']).toBeUndefined();
  });
});
