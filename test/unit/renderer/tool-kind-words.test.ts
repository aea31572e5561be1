import { describe, expect, it } from 'vitest';
import { toolKindWord } from '../../../src/renderer/model/tool-kind-words';

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
