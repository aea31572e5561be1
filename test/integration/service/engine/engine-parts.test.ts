/**
 * The engine layer's pure parts and small file helpers: config parsing,
 * directive parsing, model selectors, path confinement, prompt blocks.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parseDirective } from '../../../../src/service/demo-agent/directives';
import { buildPromptBlocks } from '../../../../src/service/engine/prompt-blocks';
import { engineOptionsFrom } from '../../../../src/service/engine/engine-area';
import { findModelSelector, UpdateMapper, emptyUsage } from '../../../../src/service/engine/update-mapper';
import { displayPath, resolveLexically } from '../../../../src/service/workspace/agent-folders';
import { base64 } from './engine-harness';

const temps: string[] = [];
afterEach(async () => {
  await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('engine config', () => {
  it('reads engines, the --engine-command flag and numeric flags given as strings', () => {
    const options = engineOptionsFrom({
      engines: {
        'engine-c': { command: ['goose', 'acp'], env: { GOOSE_MODE: 'auto' } },
        'engine-d': 'gemini --experimental-acp',
        broken: { command: 42 },
      },
      engineCommand: '["my agent", "--acp"]',
      maxMachines: '2',
      machineIdleMs: 'soon',
    });
    expect(options.engines).toEqual({
      'engine-c': { command: ['goose', 'acp'], env: { GOOSE_MODE: 'auto' } },
      'engine-d': { command: ['gemini', '--experimental-acp'] },
      'engine-b': { command: ['my agent', '--acp'] },
    });
    expect(options.maxMachines).toBe(2);
    expect(options.idleMs).toBeUndefined();
  });
});

describe('demo agent directives', () => {
  it('parses each directive from the first line', () => {
    expect(parseDirective('List files please')).toEqual({ kind: 'list' });
    expect(parseDirective('read docs/a.md')).toEqual({ kind: 'read', path: 'docs/a.md' });
    expect(parseDirective('write a.txt\n```text\nline 1\nline 2\n```')).toEqual({
      kind: 'write',
      path: 'a.txt',
      text: 'line 1\nline 2',
    });
    expect(parseDirective('write a.txt')).toEqual({ kind: 'write', path: 'a.txt', text: null });
    expect(parseDirective('wait 2.5')).toEqual({ kind: 'wait', seconds: 2.5 });
    expect(parseDirective('wait 999999')).toEqual({ kind: 'wait', seconds: 3600 });
    expect(parseDirective('FAIL')).toEqual({ kind: 'fail' });
    expect(parseDirective('crash')).toEqual({ kind: 'crash' });
    expect(parseDirective('echo  hi there ')).toEqual({ kind: 'echo', text: 'hi there' });
    expect(parseDirective('please read my mind')).toEqual({ kind: 'chat' });
    expect(parseDirective('failure is not an option')).toEqual({ kind: 'chat' });
  });
});

describe('update mapping', () => {
  it('finds the model selector by category, flattening groups', () => {
    expect(
      findModelSelector([
        { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: 'ask', options: [] },
        {
          id: 'llm',
          name: 'Model',
          category: 'model',
          type: 'select',
          currentValue: 'b',
          options: [
            { group: 'g1', name: 'G1', options: [{ value: 'a', name: 'A' }] },
            { group: 'g2', name: 'G2', options: [{ value: 'b', name: 'B' }] },
          ],
        },
      ]),
    ).toEqual({
      configId: 'llm',
      options: [
        { id: 'a', label: 'A' },
        { id: 'b', label: 'B' },
      ],
      current: 'b',
    });
    expect(findModelSelector(undefined)).toBeNull();
  });

  it('merges tool call updates into the whole call, with workspace-relative paths', () => {
    const mapper = new UpdateMapper('/ws', emptyUsage());
    expect(
      mapper.map({
        sessionUpdate: 'tool_call',
        toolCallId: 't1',
        title: 'Edit',
        kind: 'edit',
        status: 'pending',
        locations: [{ path: '/ws/src/a.ts' }],
      }),
    ).toEqual([{ type: 'tool', id: 't1', title: 'Edit', kind: 'edit', status: 'pending', path: 'src/a.ts' }]);
    expect(
      mapper.map({
        sessionUpdate: 'tool_call_update',
        toolCallId: 't1',
        status: 'failed',
        content: [{ type: 'content', content: { type: 'text', text: 'disk full' } }],
      }),
    ).toEqual([
      {
        type: 'tool',
        id: 't1',
        title: 'Edit',
        kind: 'edit',
        status: 'failed',
        path: 'src/a.ts',
        detalle: 'disk full',
      },
    ]);
    // Usage is folded in and reported once per prompt; with no cost reported there is none (never 0).
    expect(mapper.map({ sessionUpdate: 'usage_update', used: 10, size: 100 })).toEqual([]);
    expect(mapper.takeUsage({ inputTokens: 3, outputTokens: 4, totalTokens: 7 })).toEqual({
      type: 'usage',
      used: 10,
      size: 100,
      input: 3,
      output: 4,
    });
    expect(mapper.takeUsage(undefined)).toBeNull();
  });
});

describe('workspace paths', () => {
  it('keeps paths inside the workspace', () => {
    expect(resolveLexically('/ws', 'a/b.txt')).toBe('/ws/a/b.txt');
    expect(resolveLexically('/ws', '/ws/a')).toBe('/ws/a');
    expect(resolveLexically('/ws', '../x')).toBeNull();
    expect(resolveLexically('/ws', '/etc/passwd')).toBeNull();
    expect(resolveLexically('/ws', '/wsx/a')).toBeNull();
    expect(displayPath('/ws', '/ws')).toBe('.');
    expect(displayPath('/ws', '/other/file')).toBe('/other/file');
  });
});

describe('prompt blocks', () => {
  it('uses inline blocks when the agent takes them', async () => {
    const blocks = await buildPromptBlocks(
      'hi',
      [
        { name: 'a.png', mimeType: 'image/png', data: base64('png') },
        { name: 'b.json', mimeType: 'application/json', data: base64('{"x":1}') },
        { name: 'c.bin', mimeType: 'application/octet-stream', data: base64('\u0000\u0001') },
      ],
      { image: true, embeddedContext: true },
      '/unused',
      'batch',
    );
    expect(blocks).toEqual([
      { type: 'text', text: 'hi' },
      { type: 'image', mimeType: 'image/png', data: base64('png'), uri: 'attachment:///a.png' },
      {
        type: 'resource',
        resource: { uri: 'attachment:///b.json', mimeType: 'application/json', text: '{"x":1}' },
      },
      {
        type: 'resource',
        resource: {
          uri: 'attachment:///c.bin',
          mimeType: 'application/octet-stream',
          blob: base64('\u0000\u0001'),
        },
      },
    ]);
  });

  it('saves attachments in the workspace and links them when the agent takes no inline content', async () => {
    const workspace = await mkdtemp(join(tmpdir(), 'agentdesk-blocks-'));
    temps.push(workspace);
    const blocks = await buildPromptBlocks(
      'hi',
      [{ name: '../../evil.png', mimeType: 'image/png', data: base64('png!') }],
      {},
      workspace,
      'b1',
    );
    const link = blocks[1]!;
    expect(link).toMatchObject({ type: 'resource_link', name: 'evil.png', mimeType: 'image/png', size: 4 });
    const file = fileURLToPath((link as { uri: string }).uri);
    expect(file).toBe(join(workspace, '.agentdesk-attachments', 'b1', 'evil.png'));
    expect(await readFile(file, 'utf8')).toBe('png!');
  });
});
