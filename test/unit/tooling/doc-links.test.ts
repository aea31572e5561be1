import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { anchorsOf, brokenLinks, headingAnchor } from '../../support/doc-links';

const repoRoot = join(import.meta.dirname, '../../..');

describe('the README and docs/ link only to what exists', () => {
  it('every relative link and anchor of README.md and docs/ resolves', () => {
    const broken = brokenLinks(repoRoot).map((b) => `${b.file}:${b.line} ${b.target}: ${b.why}`);
    expect(broken).toEqual([]);
  });
});

describe('the link check itself', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('fails on a missing file and a missing heading, and passes a good link, an anchor and code', () => {
    dir = mkdtempSync(join(tmpdir(), 'doc-links-'));
    mkdirSync(join(dir, 'docs', 'guide'), { recursive: true });
    writeFileSync(join(dir, 'docs', 'guide', 'sync.md'), '# Sync a folder\n\n## Keep both: mine & theirs\n');
    writeFileSync(
      join(dir, 'README.md'),
      [
        '[good](docs/guide/sync.md) and [anchor](docs/guide/sync.md#keep-both-mine--theirs)',
        '[gone](docs/guide/missing.md)',
        '[wrong heading](docs/guide/sync.md#keep-all)',
        '`[in code](nowhere.md)` and [web](https://example.com/x.md) and [self](#readme-heading)',
        '```',
        '[fenced](nowhere.md)',
        '```',
        '## README heading',
      ].join('\n'),
    );
    const broken = brokenLinks(dir);
    expect(broken.map((b) => [b.line, b.target])).toEqual([
      [2, 'docs/guide/missing.md'],
      [3, 'docs/guide/sync.md#keep-all'],
    ]);
    expect(broken[0]!.why).toContain('no file');
    expect(broken[1]!.why).toContain('no heading');
  });

  it('makes anchors as GitHub does, numbering repeated headings', () => {
    expect(headingAnchor('Run it on a server')).toBe('run-it-on-a-server');
    expect(headingAnchor('`agentdesk sync`: the CLI')).toBe('agentdesk-sync-the-cli');
    expect([...anchorsOf('# Notes\n## Notes\n## Notes\n')]).toEqual(['notes', 'notes-1', 'notes-2']);
  });
});
