import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { planBundle } from '../../../../src/service/agent-config/bundle';
import { validateMcpServers } from '../../../../src/service/agent-config/mcp-servers';
import {
  NO_VETOES,
  effectiveChannels,
  isToolOn,
  mergeVetoes,
  visibleTools,
} from '../../../../src/service/agent-config/service-tools';
import { readSkillFrontmatter } from '../../../../src/service/agent-kit/skill-frontmatter';
import { isReservedPath, parseRelativePath } from '../../../../src/service/workspace/workspace-paths';
import { isValidPushToken } from '../../../../src/service/connectors/devices';
import { createTokenSealer } from '../../../../src/service/connectors/token-sealer';
import { mimeTypeFor } from '../../../../src/service/library/library-store';
import { checkFileSignature, signFileUrl } from '../../../../src/service/library/signed-urls';
import { isRecognizerReady, readWavFormat } from '../../../../src/service/transcription/wav-header';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('workspace path rules', () => {
  it('accepts plain relative paths, with one trailing slash', () => {
    expect(parseRelativePath('notes/today.md')).toEqual({
      segments: ['notes', 'today.md'],
      rel: 'notes/today.md',
    });
    expect(parseRelativePath('notes/').rel).toBe('notes');
    expect(parseRelativePath('', { allowRoot: true })).toEqual({ segments: [], rel: '' });
    expect(parseRelativePath('.hidden/file').rel).toBe('.hidden/file');
    expect(parseRelativePath('Cafe\u0301.md').rel).toBe('Café.md'); // NFC
  });

  it.each([
    ['', 'empty'],
    ['../x', '".." segment'],
    ['a/../../x', '".." segment'],
    ['./x', '"." segment'],
    ['/etc/passwd', 'absolute'],
    ['C:/Windows', 'drive letter'],
    ['c:x', 'drive letter'],
    ['a\\b', 'backslash'],
    ['a\u0000b', 'NUL'],
    ['a\nb', 'newline'],
    ['a//b', 'empty segment'],
    ['x/.agentdesk-tmp-123', 'temp name'],
    ['a'.repeat(256), 'long segment'],
  ])('refuses %j (%s)', (raw) => {
    expect(() => parseRelativePath(raw)).toThrow(/not allowed/);
  });

  it('knows the reserved skills folder', () => {
    expect(isReservedPath(['.agents', 'skills'])).toBe(true);
    expect(isReservedPath(['.agents', 'skills', 'x', 'SKILL.md'])).toBe(true);
    expect(isReservedPath(['.agents'])).toBe(false);
    expect(isReservedPath(['.agents', 'other'])).toBe(false);
  });
});

describe('SKILL.md frontmatter', () => {
  it('reads name and description', () => {
    expect(readSkillFrontmatter('---\nname: x\ndescription: Does x.\n---\nbody')).toEqual({
      ok: true,
      value: { name: 'x', description: 'Does x.' },
    });
    expect(readSkillFrontmatter('\uFEFF---\r\ndescription: "Quoted: yes"\r\n---\r\n').ok).toBe(true);
  });

  it.each([
    ['# Title only', 'must start with YAML frontmatter'],
    ['---\ndescription: x\n', 'no closing'],
    ['---\ndescription: [unclosed\n---\n', 'not valid YAML'],
    ['---\n- a\n- b\n---\n', 'mapping'],
    ['---\nname: x\n---\n', 'description'],
    ['---\ndescription: "   "\n---\n', 'description'],
    ['---\ndescription: ok\nname: [1]\n---\n', '"name"'],
  ])('refuses %j', (markdown, why) => {
    const result = readSkillFrontmatter(markdown);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.message).toContain(why);
  });
});

describe('MCP server validation', () => {
  it('accepts both shapes and defaults the remote type to http', () => {
    const result = validateMcpServers([
      { name: 'remote', url: 'https://x.example/mcp' },
      { name: 'sse_one', type: 'sse', url: 'https://x.example/sse', headers: { A: 'b' } },
      { name: 'local-1', command: 'run', args: ['--a'], env: { K: 'v' } },
    ]);
    expect(result).toEqual({
      ok: true,
      servers: [
        { name: 'remote', type: 'http', url: 'https://x.example/mcp' },
        { name: 'sse_one', type: 'sse', url: 'https://x.example/sse', headers: { A: 'b' } },
        { name: 'local-1', command: 'run', args: ['--a'], env: { K: 'v' } },
      ],
    });
  });

  it('accepts plain http to the agent’s own machine only (local development)', () => {
    for (const url of ['http://localhost:3001/mcp', 'http://127.0.0.1:8931/mcp', 'http://[::1]:9000/'])
      expect(validateMcpServers([{ name: 'dev', url }]).ok, url).toBe(true);
    for (const url of ['http://localhost.example/mcp', 'http://10.0.0.2/mcp', 'http://127.0.0.2/mcp'])
      expect(validateMcpServers([{ name: 'dev', url }]), url).toEqual({
        ok: false,
        message: 'MCP server "dev": the url must use https (plain http only to localhost or 127.0.0.1).',
      });
  });

  it.each([
    [[{ name: 'a', url: 'http://x.example' }], 'MCP server "a": the url must use https'],
    [[{ name: 'a', url: 'not a url' }], 'MCP server "a": "not a url" is not a valid URL'],
    [[{ name: 'a', url: 'https://x', headers: { A: 1 } }], 'MCP server "a": "headers"'],
    [[{ name: 'a', command: '' }], 'MCP server "a": "command"'],
    [[{ name: 'a', command: 'x', args: [1] }], 'MCP server "a": "args"'],
    [[{ name: 'a', command: 'x', env: [] }], 'MCP server "a": "env"'],
    [[{ name: 'a' }], 'MCP server "a" needs either'],
    [[{ url: 'https://x' }], 'MCP server #1 needs a "name"'],
    [[{ name: '-bad', url: 'https://x' }], 'MCP server #1 has the name "-bad"'],
    [[{ name: 'x'.repeat(42), url: 'https://x' }], 'MCP server #1 has the name'],
    [
      [
        { name: 'a', command: 'x' },
        { name: 'a', command: 'y' },
      ],
      'MCP server "a" appears more than once',
    ],
    [Array.from({ length: 21 }, (_, i) => ({ name: `s${i}`, command: 'x' })), 'At most 20'],
    ['nope', 'must be an array'],
  ])('refuses %j naming the server', (servers, message) => {
    const result = validateMcpServers(servers);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.message).toContain(message);
  });
});

describe('signed file URLs', () => {
  const key = randomBytes(32);
  const now = Date.UTC(2025, 0, 1, 12);

  it('are valid for 6 hours and no longer', () => {
    const url = new URL(signFileUrl(key, 'http://127.0.0.1:1', 'file-1', now));
    const exp = url.searchParams.get('exp')!;
    const sig = url.searchParams.get('sig')!;
    expect(Number(exp) * 1000).toBe(now + 6 * 3600 * 1000);
    expect(checkFileSignature(key, 'file-1', exp, sig, now)).toBe('ok');
    expect(checkFileSignature(key, 'file-1', exp, sig, now + 6 * 3600 * 1000 - 1)).toBe('ok');
    expect(checkFileSignature(key, 'file-1', exp, sig, now + 6 * 3600 * 1000)).toBe('expired');
  });

  it('refuses any change to id, expiry or signature, and another key', () => {
    const url = new URL(signFileUrl(key, 'http://127.0.0.1:1', 'file-1', now));
    const exp = url.searchParams.get('exp')!;
    const sig = url.searchParams.get('sig')!;
    expect(checkFileSignature(key, 'file-2', exp, sig, now)).toBe('tampered');
    expect(checkFileSignature(key, 'file-1', String(Number(exp) + 1), sig, now)).toBe('tampered');
    expect(checkFileSignature(key, 'file-1', exp, `${sig.slice(1)}x`, now)).toBe('tampered');
    expect(checkFileSignature(key, 'file-1', exp, undefined, now)).toBe('tampered');
    expect(checkFileSignature(key, 'file-1', '1e9', sig, now)).toBe('tampered');
    expect(checkFileSignature(randomBytes(32), 'file-1', exp, sig, now)).toBe('tampered');
  });
});

describe('bundle planning', () => {
  it('takes the posted files as the whole bundle and ignores what it cannot use', () => {
    const result = planBundle([
      { path: 'instructions.md', contentBase64: b64('Hi') },
      { path: 'skills/ok/SKILL.md', contentBase64: b64('---\ndescription: fine\n---\n') },
      { path: 'skills/ok/a/b.txt', contentBase64: b64('asset') },
      { path: 'skills/nofront/SKILL.md', contentBase64: b64('plain') },
      { path: 'skills/noskillmd/readme.txt', contentBase64: b64('x') },
      { path: 'skills/Bad_Slug/SKILL.md', contentBase64: b64('---\ndescription: x\n---\n') },
      { path: 'knowledge/k.md', contentBase64: b64('k') },
      { path: 'knowledge/k.md', contentBase64: b64('again') },
      { path: 'other.txt', contentBase64: b64('?') },
    ]);
    if (!result.ok) throw new Error('expected a plan');
    const { plan } = result;
    expect(plan.prompt).toBe('Hi');
    expect(plan.mcp).toEqual([]); // no mcp.json: the whole bundle has no servers
    expect([...plan.skills.keys()]).toEqual(['ok']);
    expect(plan.skills.get('ok')?.assets.map((a) => a.name)).toEqual(['a/b.txt']);
    expect(plan.knowledge.map((k) => Buffer.from(k.bytes).toString())).toEqual(['k']);
    expect(plan.applied).toEqual([
      'instructions.md',
      'knowledge/k.md',
      'skills/ok/SKILL.md',
      'skills/ok/a/b.txt',
    ]);
    expect(plan.ignored.sort()).toEqual(
      [
        'knowledge/k.md',
        'other.txt',
        'skills/Bad_Slug/SKILL.md',
        'skills/nofront/SKILL.md',
        'skills/noskillmd/readme.txt',
      ].sort(),
    );
  });

  it('keeps the saved prompt and servers when their files are unusable', () => {
    const result = planBundle([
      { path: 'instructions.md', contentBase64: b64('p'.repeat(20_001)) },
      { path: 'mcp.json', contentBase64: b64('{not json') },
    ]);
    if (!result.ok) throw new Error('expected a plan');
    expect(result.plan.prompt).toBeNull();
    expect(result.plan.mcp).toBeNull();
  });

  it('refuses the whole bundle when one file is over 10 MB', () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1).toString('base64');
    expect(planBundle([{ path: 'knowledge/big.bin', contentBase64: big }])).toEqual({
      ok: false,
      tooLarge: 'knowledge/big.bin',
    });
  });
});

describe('tool vetoes', () => {
  it('merge: false vetoes, true returns to the default', () => {
    expect(mergeVetoes({ a: false }, { b: false })).toEqual({ a: false, b: false });
    expect(mergeVetoes({ a: false, b: false }, { a: true })).toEqual({ b: false });
  });

  it('the effective state combines channel defaults, global and channel vetoes', () => {
    const vetoes = {
      ...NO_VETOES,
      gs: { connectors: false as const },
      channels: { chat: { send_file: false as const } },
    };
    expect(isToolOn(vetoes, 'chat', 'send_file')).toBe(false);
    expect(isToolOn(vetoes, 'workchat', 'send_file')).toBe(true);
    expect(isToolOn(vetoes, 'workchat', 'connectors')).toBe(false);
    expect(isToolOn(NO_VETOES, 'msgapp1', 'account_files')).toBe(false);
    expect(isToolOn(NO_VETOES, 'chat', 'no_such_tool')).toBe(false);
    expect(effectiveChannels(vetoes).chat).toEqual({
      account_files: true,
      send_file: false,
      connectors: false,
    });
    expect(visibleTools(vetoes, 'chat').map((t) => t.name)).toEqual(['account_files']);
  });
});

describe('small helpers', () => {
  it('reads a WAV header', () => {
    const header = Buffer.alloc(44);
    header.write('RIFF', 0);
    header.write('WAVE', 8);
    header.write('fmt ', 12);
    header.writeUInt32LE(16, 16);
    header.writeUInt16LE(1, 20);
    header.writeUInt16LE(1, 22);
    header.writeUInt32LE(16000, 24);
    header.writeUInt16LE(16, 34);
    expect(readWavFormat(header)).toEqual({
      audioFormat: 1,
      channels: 1,
      sampleRate: 16000,
      bitsPerSample: 16,
    });
    expect(isRecognizerReady(readWavFormat(header))).toBe(true);
    header.writeUInt32LE(22050, 24);
    expect(isRecognizerReady(readWavFormat(header))).toBe(false);
    expect(readWavFormat(Buffer.from('OggS....'))).toBeNull();
  });

  it('seals provider tokens so that only the key opens them, and notices tampering', () => {
    const sealer = createTokenSealer(randomBytes(32));
    const sealed = sealer.seal('secret-token');
    expect(sealed).not.toContain('secret-token');
    expect(sealer.open(sealed)).toBe('secret-token');
    expect(sealer.seal('secret-token')).not.toBe(sealed); // fresh IV each time
    const parts = sealed.split('.');
    parts[3] = Buffer.from('forged').toString('base64url');
    expect(() => sealer.open(parts.join('.'))).toThrow();
    expect(() => createTokenSealer(randomBytes(32)).open(sealed)).toThrow();
  });

  it('checks push tokens per platform', () => {
    expect(isValidPushToken('0f'.repeat(32), 'ios')).toBe(true);
    expect(isValidPushToken('0f'.repeat(31), 'ios')).toBe(false);
    expect(isValidPushToken('zz'.repeat(32), 'ios')).toBe(false);
    expect(isValidPushToken(`abc:${'A_b-1'.repeat(30)}`, 'android')).toBe(true);
    expect(isValidPushToken('short', 'android')).toBe(false);
  });

  it('picks the served type from the upload, else from the name', () => {
    expect(mimeTypeFor('a.bin', 'image/png')).toBe('image/png');
    expect(mimeTypeFor('a.txt', 'text/plain; charset=UTF-8')).toBe('text/plain; charset=utf-8');
    expect(mimeTypeFor('a.png', 'application/octet-stream')).toBe('image/png');
    expect(mimeTypeFor('notes.md', undefined)).toBe('text/markdown; charset=utf-8');
    expect(mimeTypeFor('mystery', undefined)).toBe('application/octet-stream');
    expect(mimeTypeFor('a.txt', 'text/html\r\nX-Injected: 1')).toBe('text/plain; charset=utf-8');
  });
});
