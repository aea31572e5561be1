import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BundleEntry } from './bundle';
import { WorkspaceFiles } from './workspace-files';
import { parseRelativePath } from '../workspace/workspace-paths';

/**
 * `house-lite`: the built-in engine without a machine. Its agent is a bundle held by the service; each
 * turn gets a fresh working folder seeded from that bundle (instructions.md, skills/, knowledge/,
 * mcp.json) and removed afterwards. The local service answers with a small deterministic responder of
 * its own (no model, no network), so `try` works offline and tests are exact:
 *
 *   list files     lists the seeded working folder
 *   read <path>    shows a file of it
 *   fail           fails on purpose, with no text (try answers 502)
 *   anything else  a reply that quotes the message and says what the bundle holds
 *
 * Conversation memory is kept per try session in memory only.
 */
export const HOUSE_LITE_MODELS = [{ id: 'house-lite-1', label: 'Lite' }];

export interface HouseLiteTurn {
  text: string;
  error: string | null;
}

export async function runHouseLiteTurn(
  bundle: readonly BundleEntry[],
  message: string,
  history: readonly string[],
  channel: string,
): Promise<HouseLiteTurn> {
  const dir = await mkdtemp(path.join(tmpdir(), 'agentdesk-house-lite-'));
  try {
    const folder = new WorkspaceFiles(dir);
    for (const entry of bundle) await folder.write(parseRelativePath(entry.path), entry.bytes);
    return await respond(folder, bundle, message.trim(), history, channel);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function respond(
  folder: WorkspaceFiles,
  bundle: readonly BundleEntry[],
  message: string,
  history: readonly string[],
  channel: string,
): Promise<HouseLiteTurn> {
  const firstLine = (message.split('\n', 1)[0] ?? '').trim();
  if (/^fail\b/i.test(firstLine))
    return {
      text: '',
      error: 'Failed on purpose: a message that starts with "fail" shows how an error looks.',
    };
  if (/^list files\b/i.test(firstLine)) {
    const listing = await folder.list({ segments: [], rel: '' });
    const lines = listing.files.map((f) => `${f.path} (${f.size} bytes)`);
    return { text: `The working folder has ${lines.length} files:\n${lines.join('\n')}`, error: null };
  }
  const read = /^read\s+(\S+)/i.exec(firstLine);
  if (read?.[1]) {
    try {
      const bytes = await folder.read(parseRelativePath(read[1]));
      return { text: `${read[1]}:\n${bytes.toString('utf8')}`, error: null };
    } catch (err) {
      return { text: `I cannot read ${read[1]}: ${(err as Error).message}`, error: null };
    }
  }
  const instructions = bundle.find((e) => e.path === 'instructions.md');
  const prompt = instructions ? Buffer.from(instructions.bytes).toString('utf8').trim() : '';
  const skills = [
    ...new Set(bundle.filter((e) => e.path.startsWith('skills/')).map((e) => e.path.split('/')[1])),
  ];
  const knowledge = bundle
    .filter((e) => e.path.startsWith('knowledge/'))
    .map((e) => e.path.slice('knowledge/'.length));
  const lines = [
    `House-lite here. You said: "${message}".`,
    prompt
      ? `My instructions begin: "${prompt.split('\n', 1)[0]!.slice(0, 120)}".`
      : 'I have no instructions yet.',
    `Skills: ${skills.length ? skills.join(', ') : 'none'}. Knowledge: ${knowledge.length ? knowledge.join(', ') : 'none'}.`,
    history.length
      ? `This is message ${history.length + 1} of this session; before this you said: "${history[history.length - 1]}".`
      : 'This is the first message of this session.',
    channel === 'msgapp1' ? 'I am answering you as a business chat customer.' : '',
  ];
  return { text: lines.filter(Boolean).join('\n'), error: null };
}
