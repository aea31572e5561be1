import { describe, expect, it } from 'vitest';
import {
  largeBlockSize,
  largeFence,
  streamingFence,
  streamingFenceSize,
} from '../../../src/renderer/features/chat/large-block';

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

describe('streamingFence', () => {
  it('takes an open fence from its size on, as code without the fence', () => {
    const body = code(60);
    expect(body.length).toBeGreaterThan(streamingFenceSize);
    expect(streamingFence('```ts\n' + body)).toEqual({ language: 'ts', code: body, closed: false });
  });

  it('leaves a short open fence, a closed one and anything else to the markdown parser', () => {
    expect(streamingFence('```ts\nconst a = 1;')).toBeNull();
    expect(streamingFence('```ts\n' + code(60) + '\n```')).toBeNull();
    expect(streamingFence('A paragraph. '.repeat(400))).toBeNull();
    // A longer closing run closes it; a shorter one is still code.
    expect(streamingFence('````js\n' + code(60) + '\n`````')).toBeNull();
    expect(streamingFence('````js\n' + code(60) + '\n```')?.code).toBe(code(60) + '\n```');
  });
});
