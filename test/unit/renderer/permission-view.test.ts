import { describe, expect, it } from 'vitest';
import { lineDiff, permissionView } from '../../../src/renderer/features/chat/permission-view';

describe('permissionView', () => {
  it('shows an edit as the file and the lines it changes, with the raw request behind', () => {
    const toolCall = {
      kind: 'edit',
      locations: [{ path: '/w/notes.md' }],
      content: [{ type: 'diff', path: '/w/notes.md', oldText: 'a\nb\nc\nd', newText: 'a\nb\nC\nd' }],
      rawInput: { path: 'notes.md', content: 'a\nb\nC\nd' },
    };
    const view = permissionView(toolCall);
    expect(view).toMatchObject({ kind: 'edit', path: '/w/notes.md' });
    expect(view.diff?.lines).toEqual([
      { sign: ' ', text: 'a' },
      { sign: ' ', text: 'b' },
      { sign: '-', text: 'c' },
      { sign: '+', text: 'C' },
      { sign: ' ', text: 'd' },
    ]);
    expect(view.command).toBeUndefined();
    expect(JSON.parse(view.raw)).toEqual(toolCall);
  });

  it('reads the diff the local service forwards beside the tool', () => {
    const view = permissionView({
      kind: 'edit',
      path: 'a.md',
      diff: { path: 'a.md', oldText: 'x', newText: 'y' },
    });
    expect(view.diff).toMatchObject({
      path: 'a.md',
      created: false,
      lines: [
        { sign: '-', text: 'x' },
        { sign: '+', text: 'y' },
      ],
    });
  });

  it('shows a new file as all added lines', () => {
    const view = permissionView({
      kind: 'edit',
      content: [{ type: 'diff', oldText: null, newText: 'x\ny' }],
    });
    expect(view.diff).toMatchObject({
      created: true,
      lines: [
        { sign: '+', text: 'x' },
        { sign: '+', text: 'y' },
      ],
    });
  });

  it('shows a command as its command line', () => {
    expect(
      permissionView({ kind: 'execute', rawInput: { command: 'npm', args: ['run', 'a b'] } }).command,
    ).toBe('npm run "a b"');
    expect(permissionView({ kind: 'execute', rawInput: { command: ['ls', '-la'] } }).command).toBe('ls -la');
  });

  it('falls back to the tool part it is about', () => {
    expect(permissionView(undefined, { kind: 'read', path: 'a.txt', detail: 'why' })).toMatchObject({
      kind: 'read',
      path: 'a.txt',
      raw: '"why"',
    });
  });
});

describe('lineDiff', () => {
  it('caps a large change and says so', () => {
    const big = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join('\n');
    const diff = lineDiff(null, big);
    expect(diff.lines).toHaveLength(400);
    expect(diff.truncated).toBe(true);
  });
});
