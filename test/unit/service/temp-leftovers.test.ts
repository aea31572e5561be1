import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearTempLeftovers } from '../../../src/service/agent-config/temp-leftovers';
import { TEMP_PREFIX } from '../../../src/service/workspace/workspace-paths';

// The start's sweep of a killed service's temp files (issue 38, item 2), on real folders: exactly the service's
// own names go, under the agents' folders and the library; links are not followed; in a cluster only old ones.
let data: string;
let outside: string;
beforeEach(() => {
  data = mkdtempSync(join(tmpdir(), 'temp-leftovers-'));
  outside = mkdtempSync(join(tmpdir(), 'temp-leftovers-outside-'));
});
afterEach(() => {
  rmSync(data, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

function put(path: string, text = 'x'): string {
  const full = join(data, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, text);
  return full;
}

describe('clearing a killed service’s temp files', () => {
  it('removes the service’s temp files and staging folders, and nothing that merely looks like one', async () => {
    put('agents/a1/work/deep/.agentdesk-tmp-0123456789ab');
    put('agents/a1/work/.agents/skills/.agentdesk-tmp-aaaaaaaaaaaa/SKILL.md');
    put('agents/a1/bundle/knowledge/.agentdesk-tmp-bbbbbbbbbbbb');
    put('library/p1/.agentdesk-tmp-cccccccccccc');
    const kept = [
      'agents/a1/work/.agentdesk-tmp-notes.txt',
      'agents/a1/work/.agentdesk-tmp-0123456789AB',
      'agents/a1/work/.agentdesk-tmp-0123456789abc',
      'agents/a1/work/agentdesk-tmp-0123456789ab',
      'agents/a1/work/x.agentdesk-tmp-0123456789ab',
      'elsewhere/.agentdesk-tmp-0123456789ab',
    ];
    for (const path of kept) put(path);
    // A link the agent made to a folder outside: never followed.
    writeFileSync(join(outside, '.agentdesk-tmp-dddddddddddd'), 'not the service’s');
    symlinkSync(outside, join(data, 'agents/a1/work/link'));

    expect(await clearTempLeftovers(data)).toBe(4);
    for (const path of kept) expect(existsSync(join(data, path)), path).toBe(true);
    expect(readdirSync(join(data, 'agents/a1/work/.agents/skills'))).toEqual([]);
    expect(existsSync(join(data, 'agents/a1/work/deep/.agentdesk-tmp-0123456789ab'))).toBe(false);
    expect(existsSync(join(outside, '.agentdesk-tmp-dddddddddddd'))).toBe(true);
  });

  it('in a cluster, leaves one another process may be writing now', async () => {
    const young = put('agents/a1/work/.agentdesk-tmp-0123456789ab');
    const old = put('agents/a1/work/.agentdesk-tmp-ba9876543210');
    const hourAgo = (Date.now() - 3_600_000) / 1000;
    utimesSync(old, hourAgo, hourAgo);
    expect(await clearTempLeftovers(data, { minAgeMs: 600_000 })).toBe(1);
    expect(existsSync(young)).toBe(true);
    expect(existsSync(old)).toBe(false);
  });

  it('puts back a skill whose swap the kill cut between its two renames', async () => {
    put(`agents/a1/work/.agents/skills/${TEMP_PREFIX}old-notes-0123456789ab/SKILL.md`, 'the old skill');
    await clearTempLeftovers(data);
    expect(readdirSync(join(data, 'agents/a1/work/.agents/skills'))).toEqual(['notes']);
  });
});
