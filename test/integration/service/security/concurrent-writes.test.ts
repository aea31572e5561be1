import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMP_PREFIX } from '../../../../src/service/workspace/workspace-paths';
import { json, startHarness, type Harness } from '../agent-config/harness';

// Conflicting writes on one agent, in parallel, against the real service and its real files: no 5xx, no temp
// folder left behind, and the result is one of the versions written, whole.
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(() => h?.close());

const agent = () => `/api/v2/agents/${h.agentId}`;
const skill = (n: number) => `---\nname: racer\ndescription: Version ${n}.\n---\n\nBody of version ${n}.\n`;
const b64 = (text: string) => Buffer.from(text).toString('base64');

/** Every name under the agent's folder that the service uses for a write in progress. */
async function leftovers(): Promise<string[]> {
  const root = path.join(h.service.dataDir, 'agents', h.agentId);
  const entries = await readdir(root, { recursive: true }).catch(() => [] as string[]);
  return entries.filter((name) => name.split(path.sep).some((part) => part.startsWith(TEMP_PREFIX)));
}

describe('concurrent writes on one agent', () => {
  it('six PUT skills/{slug} of one slug: all answered, one whole version installed, no temp folder', async () => {
    const answers = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((n) =>
        h.call(`${agent()}/skills/racer`, {
          method: 'PUT',
          json: { markdown: skill(n), assets: [{ name: 'notes.txt', contentBase64: b64(`notes ${n}`) }] },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await leftovers()).toEqual([]);
    const listed = await json(await h.call(`${agent()}/skills`));
    const racer = listed.skills.find((s: { slug: string }) => s.slug === 'racer');
    expect(racer.description).toMatch(/^Version [1-6]\.$/);
    expect([...racer.files].sort()).toEqual(['SKILL.md', 'notes.txt']);
  });

  it('six POST bundle with different skills and knowledge: all answered, one bundle whole, no temp folder', async () => {
    const bundle = (n: number) => ({
      layout: 'dir',
      files: [
        { path: 'instructions.md', contentBase64: b64(`Prompt ${n}`) },
        { path: `skills/skill-${n}/SKILL.md`, contentBase64: b64(skill(n)) },
        { path: `knowledge/doc-${n}.md`, contentBase64: b64(`doc ${n}`) },
      ],
    });
    const answers = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((n) => h.call(`${agent()}/bundle`, { method: 'POST', json: bundle(n) })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await leftovers()).toEqual([]);
    const after = await json(await h.call(`${agent()}/bundle`));
    const paths: string[] = after.files.map((f: { path: string }) => f.path);
    const n = /skills\/skill-(\d)\//.exec(paths.join('\n'))?.[1];
    expect(n).toBeDefined();
    // Everything comes from the same bundle: its skill, its knowledge, its prompt, and nothing of the others.
    expect(paths.filter((p) => p.startsWith('skills/'))).toEqual([`skills/skill-${n}/SKILL.md`]);
    expect(paths.filter((p) => p.startsWith('knowledge/'))).toEqual([`knowledge/doc-${n}.md`]);
  });

  it('PUT skill, PUT file and PATCH in parallel on one agent never answer 5xx', async () => {
    const calls = [];
    for (let n = 0; n < 4; n++) {
      calls.push(h.call(`${agent()}/skills/racer`, { method: 'PUT', json: { markdown: skill(n) } }));
      calls.push(
        h.call(`${agent()}/files/shared.txt`, {
          method: 'PUT',
          headers: { 'Content-Type': 'application/octet-stream' },
          body: `version ${n}`,
        }),
      );
      calls.push(h.call(agent(), { method: 'PATCH', json: { name: `Racer ${n}` } }));
    }
    const statuses = (await Promise.all(calls)).map((a) => a.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(await leftovers()).toEqual([]);
  });
});
