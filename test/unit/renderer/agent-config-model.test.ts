import { describe, expect, it } from 'vitest';
import { buildFileTree, oversizeFiles } from '../../../src/renderer/model/file-tree';
import { checkForm, problemAt } from '../../../src/renderer/model/form-problems';
import {
  checkMcpList,
  maskSecret,
  mcpNameProblem,
  parseMcpImport,
} from '../../../src/renderer/model/mcp-servers';
import { slugify } from '../../../src/renderer/model/slug';
import { checkSkillMarkdown, skillSizeProblem, skillSlug } from '../../../src/renderer/model/skill-folder';
import { AgentConfigPatch } from '../../../src/shared/api';

describe('studio model', () => {
  it('checks a PATCH with the shared schema and keys problems by field', () => {
    const bad = checkForm(AgentConfigPatch, { name: 'n'.repeat(65), starters: ['ok', 's'.repeat(81)] });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(Object.keys(bad.problems).sort()).toEqual(['name', 'starters.1']);
    expect(problemAt(bad.problems, 'starters')).toContain('80');
    expect(checkForm(AgentConfigPatch, { name: 'Fine' })).toEqual({ ok: true, value: { name: 'Fine' } });
  });

  it('imports mcp.json in both usual forms', () => {
    const claude = parseMcpImport(
      JSON.stringify({
        mcpServers: {
          files: { command: 'npx', args: ['-y', 'srv'], env: { KEY: 'v' } },
          docs: { type: 'streamable-http', url: 'https://d.example/mcp', headers: { A: 'b' } },
        },
      }),
    );
    expect(claude).toEqual({
      ok: true,
      servers: [
        { name: 'files', command: 'npx', args: ['-y', 'srv'], env: { KEY: 'v' } },
        { name: 'docs', type: 'http', url: 'https://d.example/mcp', headers: { A: 'b' } },
      ],
    });
    const ours = parseMcpImport(
      JSON.stringify({ servers: [{ name: 'x', type: 'sse', url: 'https://x.example' }] }),
    );
    expect(ours).toEqual({ ok: true, servers: [{ name: 'x', type: 'sse', url: 'https://x.example' }] });
    expect(parseMcpImport('{nope').ok).toBe(false);
    expect(parseMcpImport('{"other": 1}').ok).toBe(false);
  });

  it('refuses what PUT mcp would: bad names, http urls, duplicates, more than 20', () => {
    const result = checkMcpList([
      { name: 'Bad Name', url: 'https://a.example' },
      { name: 'plain', url: 'http://a.example' },
      { name: 'twice', command: 'a' },
      { name: 'twice', command: 'b' },
    ]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.join('\n')).toMatch(/Bad Name: name/);
    expect(result.problems.join('\n')).toMatch(/plain: url: url must be an https URL/);
    expect(result.problems).toContain('Two servers are named "twice"; names must be unique.');
    const many = Array.from({ length: 21 }, (_, i) => ({ name: `s${i}`, command: 'x' }));
    expect(checkMcpList(many).ok).toBe(false);
    expect(checkMcpList([{ name: 'ok', command: 'x' }]).ok).toBe(true);
  });

  it('masks secrets, never showing more than two characters', () => {
    expect(maskSecret('Bearer secret')).toBe('Be••••••••');
    expect(maskSecret('abc')).toBe('••••');
  });

  it('checks a skill folder before sending: size with base64 growth, frontmatter, slug', () => {
    expect(skillSizeProblem([{ path: 'SKILL.md', size: 100 }])).toBeUndefined();
    // 19 MB of assets grow past 25 MB once base64-encoded.
    expect(skillSizeProblem([{ path: 'a.bin', size: 19 * 1024 * 1024 }])).toContain('25 MB');
    expect(checkSkillMarkdown('# no frontmatter').ok).toBe(false);
    expect(checkSkillMarkdown('---\nname: x\n---\n').ok).toBe(false);
    expect(checkSkillMarkdown('---\nname: Prices\ndescription: Finds prices.\n---\nBody')).toEqual({
      ok: true,
      name: 'Prices',
      description: 'Finds prices.',
    });
    expect(skillSlug('Flower Prices!', 'folder')).toEqual({ slug: 'flower-prices' });
    expect(skillSlug(undefined, '---').problem).toBeDefined();
  });

  it('builds the workspace tree with folder sizes, folders first', () => {
    const tree = buildFileTree([
      { path: 'b.txt', size: 1 },
      { path: 'notes/a.md', size: 10 },
      { path: 'notes/deep/c.md', size: 5 },
    ]);
    expect(tree.size).toBe(16);
    expect(tree.children.map((c) => `${c.kind}:${c.path}:${c.size}`)).toEqual([
      'folder:notes:15',
      'file:b.txt:1',
    ]);
    const notes = tree.children[0];
    expect(notes?.kind === 'folder' && notes.children.map((c) => c.path)).toEqual([
      'notes/deep',
      'notes/a.md',
    ]);
    expect(
      oversizeFiles(
        [
          { name: 'big', size: 11 },
          { name: 'ok', size: 10 },
        ],
        10,
      ),
    ).toEqual(['big']);
  });

  it('checks an MCP server name in words and offers a valid one', () => {
    const spaced = mcpNameProblem('Everything Server', []);
    expect(spaced?.suggestion).toBe('everything-server');
    expect(spaced?.problem).toMatch(/^A server name uses only lowercase letters/);
    expect(spaced?.problem).not.toMatch(/[$^{}[\]]/);
    expect(mcpNameProblem('everything-server', [])).toBeNull();
    expect(mcpNameProblem('', [])).toEqual({ problem: 'Give the server a name.', suggestion: null });
    const twice = mcpNameProblem('files', ['files']);
    expect(twice?.problem).toBe('Another server is already named “files”.');
    // The offer is never a name already taken, nor an empty one.
    expect(mcpNameProblem('Files', ['files'])?.suggestion).toBeNull();
    expect(mcpNameProblem('!!!', [])?.suggestion).toBeNull();
    expect(mcpNameProblem('x'.repeat(60), [])?.suggestion).toBe('x'.repeat(41));
  });

  it('makes slugs from typed names', () => {
    expect(slugify('Everything Server', 41, true)).toBe('everything-server');
    expect(slugify('  Café notes!  ', 64)).toBe('cafe-notes');
    expect(slugify('my_tool', 41, true)).toBe('my_tool');
    expect(slugify('my_tool', 64)).toBe('my-tool');
    expect(slugify('ab- cd', 3)).toBe('ab');
  });
});
