import { describe, expect, it } from 'vitest';
import { toolKindWord, toolStatusWord } from '../../../src/shared/words/tool-words';

describe('toolKindWord', () => {
  it('names the kinds a person can understand in plain words', () => {
    expect(toolKindWord('read')).toBe('Read');
    expect(toolKindWord('edit')).toBe('Edit');
    expect(toolKindWord('execute')).toBe('Run');
  });
  it('shows no badge for other, switch_mode, unknown or missing kinds', () => {
    expect(toolKindWord('other')).toBeUndefined();
    expect(toolKindWord('switch_mode')).toBeUndefined();
    expect(toolKindWord('frobnicate')).toBeUndefined();
    expect(toolKindWord(undefined)).toBeUndefined();
  });
});

describe('toolStatusWord', () => {
  it('says the spec statuses in plain words, and an unknown one as it came', () => {
    expect(toolStatusWord('in_progress')).toBe('Running');
    expect(toolStatusWord('completed')).toBe('Done');
    expect(toolStatusWord('pending')).toBe('Waiting');
    expect(toolStatusWord('later')).toBe('later');
  });
});
