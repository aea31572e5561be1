/**
 * A machine agent's skills: each is sent whole from the local folder (PUT /skills/{slug} with its
 * assets), or deleted when its folder is gone, once per cycle however many of its files changed.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiClient } from '../../api/api-client';
import { unwrap } from './api-remote-error';
import { hashBytes } from '../local/file-hash';
import { RemoteError } from '../plan/remote-side';
import { withDeadline, type DeadlineTiming } from './request-deadline';
import { isAlwaysIgnored } from '../plan/sync-paths';

const skillPath = /^skills\/([^/]+)\/(.+)$/;

export interface SkillSenderOptions {
  api: ApiClient;
  agentId: string;
  /** The local sync root, where the skill folders are read. */
  root: string;
  deadline?: DeadlineTiming;
}

export class SkillSender {
  /** Per skill: the last content sent this cycle, and the send in flight, so a skill goes out once. */
  private sent = new Map<string, string>();
  private sending = new Map<string, Promise<void>>();

  constructor(private readonly options: SkillSenderOptions) {}

  /** A new cycle: what was sent before is sent again if asked. */
  reset(): void {
    this.sent = new Map();
  }

  /**
   * Sends a skill whole from the local folder, or deletes it when its folder is gone. Several files
   * of one skill changing in one cycle send it once: calls for a slug run one after another, and a
   * call that finds the content already sent does nothing.
   */
  send(path: string): Promise<void> {
    const match = skillPath.exec(path);
    if (!match) {
      return Promise.reject(
        new RemoteError(`${path} is not part of a skill folder (skills/<name>/…).`, 400, undefined, true),
      );
    }
    const slug = match[1]!;
    const previous = this.sending.get(slug) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.sendNow(slug));
    this.sending.set(slug, next);
    return next;
  }

  private async sendNow(slug: string): Promise<void> {
    const { api, agentId, root, deadline } = this.options;
    const files = await readSkillFolder(join(root, 'skills', slug), `skills/${slug}`);
    const markdown = files.get('SKILL.md');
    const digest =
      markdown === undefined
        ? 'deleted'
        : hashBytes(Buffer.from(JSON.stringify([...files].map(([n, b]) => [n, hashBytes(b)]))));
    if (this.sent.get(slug) === digest) return;
    if (markdown === undefined) {
      const result = await withDeadline((o) => api.deleteSkill(agentId, slug, o), { timing: deadline });
      if (!result.ok && result.error.status !== 404) unwrap(result, `Removing the skill ${slug}`);
    } else {
      const assets = [...files]
        .filter(([name]) => name !== 'SKILL.md')
        .map(([name, bytes]) => ({ name, contentBase64: Buffer.from(bytes).toString('base64') }));
      const body = { markdown: Buffer.from(markdown).toString('utf8'), assets };
      const size = assets.reduce((sum, asset) => sum + asset.contentBase64.length, markdown.length);
      unwrap(
        await withDeadline((o) => api.installSkill(agentId, slug, body, o), {
          bytes: size,
          timing: deadline,
        }),
        `skills/${slug}/SKILL.md`,
      );
    }
    this.sent.set(slug, digest);
  }
}

/** A skill's files by name relative to its folder, leaving out what sync never sends. */
async function readSkillFolder(dir: string, syncPath: string, prefix = ''): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  const entries = await readdir(join(dir, prefix), { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const name = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (isAlwaysIgnored(`${syncPath}/${name}`)) continue;
    if (entry.isDirectory()) for (const [n, b] of await readSkillFolder(dir, syncPath, name)) files.set(n, b);
    else if (entry.isFile()) files.set(name, await readFile(join(dir, name)));
  }
  return files;
}
