import { describe, expect, it } from 'vitest';
import { admitFiles, maxAttachmentBytes, sendProblems } from '../../../src/renderer/model/attachment-limits';
import { searchConversations } from '../../../src/renderer/model/conversation-search';
import { conversationMarkdown, exportFileName } from '../../../src/renderer/model/conversation-markdown';
import { matchShortcut, type KeyFacts } from '../../../src/renderer/features/shortcuts/shortcut-map';
import { emptyStream, reduceTurnEvents, userMessageSent } from '../../../src/renderer/model/turn-reducer';
import { usageWords } from '../../../src/renderer/features/chat/usage-words';
import { relativeTime } from '../../../src/renderer/ui/relative-time';

const key = (k: string, extra: Partial<KeyFacts> = {}): KeyFacts => ({
  key: k,
  metaKey: false,
  ctrlKey: false,
  altKey: false,
  shiftKey: false,
  ...extra,
});

describe('matchShortcut', () => {
  it('uses Cmd on macOS and Ctrl elsewhere', () => {
    expect(matchShortcut(key('n', { metaKey: true }), true)).toBe('new-conversation');
    expect(matchShortcut(key('n', { ctrlKey: true }), true)).toBeUndefined();
    expect(matchShortcut(key('n', { ctrlKey: true }), false)).toBe('new-conversation');
    expect(matchShortcut(key('n', { metaKey: true }), false)).toBeUndefined();
  });
  it('maps search, next/previous and focus composer, with browser-safe second bindings', () => {
    expect(matchShortcut(key('K', { ctrlKey: true }), false)).toBe('search');
    expect(matchShortcut(key('O', { ctrlKey: true, shiftKey: true }), false)).toBe('new-conversation');
    expect(matchShortcut(key(']', { ctrlKey: true }), false)).toBe('next-conversation');
    expect(matchShortcut(key('[', { metaKey: true }), true)).toBe('previous-conversation');
    expect(matchShortcut(key('ArrowDown', { altKey: true }), false)).toBe('next-conversation');
    expect(matchShortcut(key('/', { ctrlKey: true }), false)).toBe('focus-composer');
    expect(matchShortcut(key('Escape', { shiftKey: true }), false)).toBe('focus-composer');
    expect(matchShortcut(key('k'), false)).toBeUndefined();
  });
  it('folds the sidebar with Mod+\\ or Mod+B, and leaves Mod+Shift+B to the browser', () => {
    expect(matchShortcut(key('\\', { ctrlKey: true }), false)).toBe('toggle-sidebar');
    expect(matchShortcut(key('b', { metaKey: true }), true)).toBe('toggle-sidebar');
    expect(matchShortcut(key('B', { ctrlKey: true, shiftKey: true }), false)).toBeUndefined();
    expect(matchShortcut(key('\\'), false)).toBeUndefined();
  });
});

describe('attachment limits', () => {
  const file = (name: string, size = 10) => ({ name, size });
  it('admits at most 8 attachments and says which were left out', () => {
    const attached = Array.from({ length: 6 }, (_, i) => file(`a${i}`));
    const { accepted, problems } = admitFiles(attached, [file('x'), file('y'), file('z')]);
    expect(accepted.map((f) => f.name)).toEqual(['x', 'y']);
    expect(problems).toEqual(['z was not added: a message can carry at most 8 attachments.']);
  });
  it('refuses a file over the per-file cap with its size in plain words', () => {
    const { accepted, problems } = admitFiles([], [file('big.zip', maxAttachmentBytes + 1)]);
    expect(accepted).toEqual([]);
    expect(problems[0]).toMatch(/^big\.zip is 10 MB; each attachment can be at most 10 MB\.$/);
  });
  it('checks again before sending', () => {
    expect(sendProblems([file('a')])).toEqual([]);
    expect(sendProblems(Array.from({ length: 9 }, (_, i) => file(`f${i}`)))[0]).toMatch(
      /at most 8 per message/,
    );
  });
});

describe('relativeTime', () => {
  const now = Date.parse('2026-03-10T12:00:00Z');
  it('says how long ago in short words', () => {
    expect(relativeTime('2026-03-10T11:59:30Z', now)).toBe('just now');
    expect(relativeTime('2026-03-10T11:55:00Z', now)).toBe('5 min ago');
    expect(relativeTime('2026-03-10T09:00:00Z', now)).toBe('3 h ago');
    expect(relativeTime('2026-03-09T11:00:00Z', now)).toBe('yesterday');
    expect(relativeTime('2026-03-06T12:00:00Z', now)).toBe('4 days ago');
    expect(relativeTime(null, now)).toBe('');
  });
});

describe('searchConversations', () => {
  const items = [
    { id: 'a', title: 'Trip to Lisbon', updatedAt: null, lastTurn: null },
    { id: 'b', title: null, updatedAt: null, lastTurn: null },
    { id: 'c', title: 'Budget', updatedAt: null, lastTurn: null },
  ];
  it('matches titles, live titles and loaded message text, all words, any case', () => {
    const threads = {
      c: { messages: [{ role: 'user' as const, content: 'numbers for Q3 please', at: '' }] },
    };
    expect(searchConversations(items, 'lisbon', threads).map((i) => i.id)).toEqual(['a']);
    expect(searchConversations(items, 'Q3 numbers', threads).map((i) => i.id)).toEqual(['c']);
    expect(searchConversations(items, 'recipe', threads, { b: 'Pasta recipe' }).map((i) => i.id)).toEqual([
      'b',
    ]);
    expect(searchConversations(items, '  ', threads)).toHaveLength(3);
  });
});

describe('conversationMarkdown', () => {
  it('writes history and the live timeline, with tool calls and errors noted', () => {
    let stream = userMessageSent(emptyStream, {
      key: 'u',
      text: 'Write the file',
      attachments: [{ name: 'a.png', mimeType: 'image/png', size: 3 }],
    });
    stream = reduceTurnEvents(stream, [
      { event: 'started', data: { turnId: 't' } },
      { event: 'thought', data: { text: 'private' } },
      { event: 'tool', data: { id: 'x', title: 'Write notes.md', path: 'notes.md', status: 'completed' } },
      { event: 'chunk', data: { text: 'Done **now**.', turnId: 't' } },
      { event: 'error', data: { message: 'Quota low' } },
    ]);
    const md = conversationMarkdown('My chat', [{ role: 'assistant', content: 'Hello', at: '' }], stream, 2);
    expect(md).toBe(
      [
        '# My chat',
        '',
        '_2 earlier messages are not included._',
        '',
        '## Agent',
        '',
        'Hello',
        '',
        '## You',
        '',
        'Write the file',
        '',
        '- Attachment: a.png (image/png)',
        '',
        '## Agent',
        '',
        '> Tool: Write notes.md (notes.md) — completed',
        '',
        'Done **now**.',
        '',
        '> Error: Quota low',
        '',
      ].join('\n'),
    );
    expect(exportFileName('Trip: Lisbon / 2026?')).toBe('Trip-Lisbon-2026.md');
  });
});

describe('usageWords', () => {
  it('is quiet and short', () => {
    expect(usageWords({ input: 1200, output: 34, cost: 0.0042 })).toBe('1,234 tokens · $0.0042');
    expect(usageWords({ used: 50 })).toBe('50 tokens');
    expect(usageWords(undefined)).toBe('');
  });
});
