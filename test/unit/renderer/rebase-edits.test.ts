import { describe, expect, it } from 'vitest';
import { rebaseEdits } from '../../../src/renderer/features/agent-config/rebase-edits';

describe('rebaseEdits', () => {
  type Draft = { gs: Record<string, boolean>; extensions: Record<string, boolean> };
  const before: Draft = { gs: { connectors: true, send_file: true }, extensions: {} };

  it('keeps a tick made before a later part of the section arrived', () => {
    const draft = { ...before, gs: { ...before.gs, connectors: false } };
    const next = { ...before, extensions: { developer: true, todo: true } };
    expect(rebaseEdits(before, draft, next)).toEqual({
      gs: { connectors: false, send_file: true },
      extensions: { developer: true, todo: true },
    });
  });

  it('takes the new value whole when nothing was edited', () => {
    const next: Draft = { gs: { connectors: false }, extensions: { todo: false } };
    expect(rebaseEdits(before, structuredClone(before), next)).toBe(next);
  });

  it('takes what the server changed where the draft did not edit, and keeps what it did', () => {
    const draft = { ...before, gs: { ...before.gs, send_file: false } };
    const next = { ...before, gs: { connectors: false, send_file: true } };
    expect(rebaseEdits(before, draft, next).gs).toEqual({ connectors: false, send_file: false });
  });

  it('keeps an edited array or value whole, and a key the draft dropped stays dropped', () => {
    expect(rebaseEdits({ list: [1, 2] }, { list: [1] }, { list: [1, 2, 3] })).toEqual({ list: [1] });
    expect(rebaseEdits({ a: 1, b: 2 } as Record<string, number>, { a: 1 }, { a: 5, b: 6 })).toEqual({ a: 5 });
  });
});
