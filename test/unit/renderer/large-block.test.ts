import { describe, expect, it } from 'vitest';
import { largeBlockSize, largeFence } from '../../../src/renderer/features/chat/large-block';

const code = (lines: number) =>
  Array.from({ length: lines }, (_, i) => `const v${i} = ${i}; // ${'x'.repeat(60)}`).join('\n');

describe('largeFence', () => {
  it('leaves blocks within the size to the markdown parser', () => {
    expect(largeFence('```ts\nconst a = 1;\n```')).toBeNull();
  });

  it('takes a large closed fence as language and code, without the fences', () => {
    const body = code(400);
    expect(body.length).toBeGreaterThan(largeBlockSize);
    expect(largeFence('```ts\n' + body + '\n```\n')).toEqual({ language: 'ts', code: body, closed: true });
    expect(largeFence('~~~~python extra\n' + body + '\n~~~~')).toEqual({
      language: 'python',
      code: body,
      closed: true,
    });
  });

  it('keeps an open fence (still streaming) whole, and a shorter closing run as code', () => {
    const body = code(400);
    expect(largeFence('```\n' + body)).toEqual({ language: '', code: body, closed: false });
    expect(largeFence('````js\n' + body + '\n```')?.code).toBe(body + '\n```');
  });

  it('leaves large text that is not a fence to the parser', () => {
    expect(largeFence('A paragraph. '.repeat(2000))).toBeNull();
  });
});
