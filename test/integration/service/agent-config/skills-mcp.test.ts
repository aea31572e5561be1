import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startHarness, type Harness } from './harness';
import { readRecord, recordingEngine, spawns } from './recording-engine';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const SKILL =
  '---\nname: greeter\ndescription: Greets people by name.\n---\n\nSay hello and use their name.\n';

describe('skills, MCP servers and restart over HTTP', { timeout: 120_000 }, () => {
  let h: Harness;
  let scratch: string;
  let recordFile: string;
  let skillsDir: string;
  const agent = () => `/api/v2/agents/${h.agentId}`;

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'agentdesk-record-'));
    recordFile = path.join(scratch, 'engine-c.jsonl');
    h = await startHarness({ config: { engines: { 'engine-c': recordingEngine(recordFile) } } });
    skillsDir = path.join(h.service.dataDir, 'agents', h.agentId, 'work', '.agents', 'skills');
  });
  afterAll(async () => {
    await h.close();
    await rm(scratch, { recursive: true, force: true });
  });

  describe('skills', () => {
    it('GET answers {skills, community} with our catalog in the catalog-item shape', async () => {
      const body = await json(await h.call(`${agent()}/skills`));
      expect(body.skills).toEqual([]);
      expect(body.community.length).toBeGreaterThanOrEqual(3);
      for (const item of body.community) {
        expect(Object.keys(item).sort()).toEqual([
          'description',
          'installed',
          'license',
          'repo',
          'slug',
          'url',
        ]);
        expect(item.repo).toMatch(/^[\w.-]+\/[\w.-]+$/);
        expect(item.installed).toBe(false);
      }
      // The url is the vendored folder, pinned, served by the service itself.
      const folder = await fetch(body.community[0].url);
      expect(folder.status).toBe(200);
      expect((await json(folder)).files['SKILL.md']).toMatch(/^---\n/);
    });

    it('PUT installs SKILL.md and its assets where the agent process sees them', async () => {
      const res = await h.call(`${agent()}/skills/greeter`, {
        method: 'PUT',
        json: {
          markdown: SKILL,
          assets: [{ name: 'scripts/names.txt', contentBase64: b64('Ada\nGrace\n') }],
        },
      });
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(body).toMatchObject({ slug: 'greeter', files: ['SKILL.md', 'scripts/names.txt'] });
      expect(body.bytes).toBe(Buffer.byteLength(SKILL) + 10);
      expect(body.nota).toContain('/data/work/.agents/skills/greeter');
      expect(await readFile(path.join(skillsDir, 'greeter', 'scripts', 'names.txt'), 'utf8')).toBe(
        'Ada\nGrace\n',
      );
      // The demo agent, listing its own working folder, finds the skill.
      const seen = await json(
        await h.call(`${agent()}/try`, { method: 'POST', json: { text: 'list files' } }),
      );
      expect(seen.text).toContain('.agents/skills/greeter/SKILL.md');
      const listed = await json(await h.call(`${agent()}/skills`));
      expect(listed.skills).toEqual([
        { slug: 'greeter', description: 'Greets people by name.', files: ['SKILL.md', 'scripts/names.txt'] },
      ]);
    });

    it('refuses a bad slug, a SKILL.md without frontmatter and unsafe asset names', async () => {
      const badSlug = await h.call(`${agent()}/skills/Bad_Slug`, {
        method: 'PUT',
        json: { markdown: SKILL },
      });
      expect(badSlug.status).toBe(400);
      expect((await json(badSlug)).error).toBe('skill_invalida');
      const long = await h.call(`${agent()}/skills/${'a'.repeat(65)}`, {
        method: 'PUT',
        json: { markdown: SKILL },
      });
      expect(long.status).toBe(400);

      const bare = await h.call(`${agent()}/skills/bare`, {
        method: 'PUT',
        json: { markdown: '# Just a title\n' },
      });
      expect(bare.status).toBe(400);
      const answer = await json(bare);
      expect(answer.error).toBe('skill_invalida');
      expect(answer.detalle).toContain('frontmatter');
      const noDescription = await h.call(`${agent()}/skills/bare`, {
        method: 'PUT',
        json: { markdown: '---\nname: bare\n---\nbody\n' },
      });
      expect(noDescription.status).toBe(400);
      expect(existsSync(path.join(skillsDir, 'bare'))).toBe(false);

      for (const name of ['../escape.txt', '/etc/escape.txt', 'a/../../escape.txt', 'SKILL.md']) {
        const res = await h.call(`${agent()}/skills/unsafe`, {
          method: 'PUT',
          json: { markdown: SKILL, assets: [{ name, contentBase64: b64('x') }] },
        });
        expect(res.status, name).toBe(400);
      }
      expect(existsSync(path.join(skillsDir, 'unsafe'))).toBe(false);
      expect(existsSync(path.join(skillsDir, 'escape.txt'))).toBe(false);
      expect(existsSync(path.join(h.service.dataDir, 'agents', h.agentId, 'work', 'escape.txt'))).toBe(false);
    });

    it('installs from the catalog, 404 for a slug not in it', async () => {
      const res = await h.call(`${agent()}/skills/meeting-notes`, {
        method: 'PUT',
        json: { fromCatalog: true },
      });
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(body.files).toEqual(['SKILL.md', 'templates/summary.md']);
      expect(body.nota).toContain('community catalog');
      const listed = await json(await h.call(`${agent()}/skills`));
      expect(listed.community.find((c: { slug: string }) => c.slug === 'meeting-notes').installed).toBe(true);
      const missing = await h.call(`${agent()}/skills/not-in-catalog`, {
        method: 'PUT',
        json: { fromCatalog: true },
      });
      expect(missing.status).toBe(404);
    });

    it('a payload over 25 MB is 413 and installs nothing', async () => {
      const big = Buffer.alloc(25 * 1024 * 1024, 1).toString('base64');
      const res = await h.call(`${agent()}/skills/huge`, {
        method: 'PUT',
        json: { markdown: SKILL, assets: [{ name: 'big.bin', contentBase64: big }] },
      });
      expect(res.status).toBe(413);
      expect((await json(res)).error).toBe('archivo demasiado grande');
      expect(existsSync(path.join(skillsDir, 'huge'))).toBe(false);
    });

    it('DELETE removes a skill; a second DELETE is 404', async () => {
      const res = await h.call(`${agent()}/skills/meeting-notes`, { method: 'DELETE' });
      expect(res.status).toBe(200);
      expect(existsSync(path.join(skillsDir, 'meeting-notes'))).toBe(false);
      expect((await h.call(`${agent()}/skills/meeting-notes`, { method: 'DELETE' })).status).toBe(404);
    });
  });

  describe('MCP servers and restart', () => {
    const remote = { name: 'docs', url: 'https://mcp.example.com/mcp', headers: { 'X-Key': 'k' } };
    const local = { name: 'files_local', command: 'npx', args: ['-y', 'some-mcp'], env: { DEBUG: '1' } };

    beforeAll(async () => {
      expect((await h.call(agent(), { method: 'PATCH', json: { engine: 'engine-c' } })).status).toBe(200);
    });

    it('GET starts empty', async () => {
      expect(await json(await h.call(`${agent()}/mcp`))).toEqual({ servers: [] });
    });

    it('refuses invalid servers with a message that names the server', async () => {
      const cases: [unknown, string][] = [
        [{ servers: [{ name: 'plain', url: 'http://mcp.example.com/mcp' }] }, '"plain"'],
        [{ servers: [remote, { name: 'Bad Name!', url: 'https://x.example' }] }, 'MCP server #2'],
        [{ servers: [{ name: 'both', url: 'https://x.example', command: 'x' }] }, '"both"'],
        [{ servers: [{ name: 'neither' }] }, '"neither"'],
        [{ servers: [{ name: 'weird', url: 'https://x.example', type: 'ws' }] }, '"weird"'],
        [{ servers: [remote, remote] }, '"docs"'],
        [{ servers: Array.from({ length: 21 }, (_, i) => ({ name: `s${i}`, command: 'x' })) }, '20'],
        [{}, 'servers'],
        [{ servers: [{ name: 'agentdesk', command: 'x' }] }, 'reserved'],
      ];
      for (const [body, named] of cases) {
        const res = await h.call(`${agent()}/mcp`, { method: 'PUT', json: body });
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        const answer = await json(res);
        expect(answer.error, JSON.stringify(answer)).toBe('mcp_invalido');
        expect(answer.detalle).toContain(named);
      }
      expect(await json(await h.call(`${agent()}/mcp`))).toEqual({ servers: [] });
    });

    it('PUT replaces the list, writes the machine config, restarts, and session/new gets the servers', async () => {
      const spawnsBefore = spawns(recordFile).length;
      const res = await h.call(`${agent()}/mcp`, { method: 'PUT', json: { servers: [remote, local] } });
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(body).toEqual({ servers: [{ ...remote, type: 'http' }, local], reiniciado: true });
      expect(spawns(recordFile).length).toBe(spawnsBefore + 1);
      const machine = JSON.parse(
        await readFile(path.join(h.service.dataDir, 'agents', h.agentId, 'machine', 'config.json'), 'utf8'),
      );
      expect(machine.mcpServers).toEqual([{ ...remote, type: 'http' }, local]);

      await h.call(`${agent()}/try`, { method: 'POST', json: { text: 'hi', session: 'mcp' } });
      const opened = readRecord(recordFile)
        .filter((e) => e.event === 'session/new')
        .at(-1);
      expect(opened?.mcpServers).toEqual([
        {
          type: 'http',
          name: 'docs',
          url: 'https://mcp.example.com/mcp',
          headers: [{ name: 'X-Key', value: 'k' }],
        },
        {
          name: 'files_local',
          command: 'npx',
          args: ['-y', 'some-mcp'],
          env: [{ name: 'DEBUG', value: '1' }],
        },
        // The tools the service lends, for the channel of the turn (try is `prueba`).
        {
          type: 'http',
          name: 'agentdesk',
          url: `${h.service.url}/gs-mcp/${h.agentId}/prueba`,
          headers: [{ name: 'Authorization', value: expect.stringMatching(/^Bearer [\w-]+$/) }],
        },
      ]);

      const replaced = await h.call(`${agent()}/mcp`, { method: 'PUT', json: { servers: [local] } });
      expect((await json(replaced)).servers).toEqual([local]);
      expect(await json(await h.call(`${agent()}/mcp`))).toEqual({ servers: [local] });
      expect((await json(await h.call(`${agent()}?fields=mcp`))).mcp).toEqual([local]);
    });

    it('restart answers {reiniciado, sandboxId}, spawns a new process and the disk survives', async () => {
      await h.call(`${agent()}/files/keep.txt`, { method: 'PUT', body: 'still here' });
      const pids = spawns(recordFile).map((s) => s.pid);
      const res = await h.call(`${agent()}/restart`, { method: 'POST' });
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(body.reiniciado).toBe(true);
      expect(body.sandboxId).toMatch(/\S/);
      const after = spawns(recordFile);
      expect(after.length).toBe(pids.length + 1);
      expect(pids).not.toContain(after.at(-1)?.pid);
      const kept = await h.call(`${agent()}/files/keep.txt`, {
        headers: { Accept: 'application/octet-stream' },
      });
      expect(await kept.text()).toBe('still here');
      expect(
        (await h.call(`${agent()}/skills`).then(json)).skills.map((s: { slug: string }) => s.slug),
      ).toEqual(['greeter']);
    });
  });
});
