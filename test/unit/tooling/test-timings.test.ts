import { describe, expect, it } from 'vitest';
import { firstLine, slowestFilesLines, tooLongLine } from '../../../scripts/test-timings';

// What `npm test` prints about its time: the slowest files first, and a plain warning naming
// the stage to blame when the whole run took longer than 10 minutes.

describe('npm test timings', () => {
  const times = Array.from({ length: 12 }, (_, i) => ({
    stage: i % 2 === 0 ? 'unit' : 'e2e',
    file: `test/file-${i}.ts`,
    seconds: i * 1.5,
  }));

  it('lists the ten slowest files, slowest first, with their stage', () => {
    const lines = slowestFilesLines(times);
    expect(lines[0]).toBe('slowest 10 files:');
    expect(lines).toHaveLength(11);
    expect(lines[1]).toBe('   16.5 s  e2e   test/file-11.ts');
    expect(lines[2]).toBe('   15.0 s  unit  test/file-10.ts');
    expect(lines.some((line) => line.includes('test/file-1.ts'))).toBe(false);
  });

  it('prints nothing when no runner recorded a file', () => {
    expect(slowestFilesLines([])).toEqual([]);
  });

  it('says nothing for a run of 10 minutes or less', () => {
    expect(tooLongLine(600, [{ stage: 'unit', seconds: 500 }])).toBeUndefined();
  });

  it('names the stage that took longest when the run passes 10 minutes', () => {
    const line = tooLongLine(1000, [
      { stage: 'check', seconds: 60 },
      { stage: 'e2e', seconds: 600 },
      { stage: 'unit', seconds: 330 },
    ]);
    expect(line).toContain('16.7 minutes');
    expect(line).toContain('the e2e stage took longest (600 s)');
  });
});

describe('firstLine', () => {
  it('gives the first plain line of an error, and a word for one with no string form', () => {
    expect(firstLine(new Error('\u001b[31mboom\u001b[39m\nat somewhere'))).toBe('boom');
    expect(firstLine({ message: 'serialized\nrest' })).toBe('serialized');
    // vitest hands its reporters serialized errors; one made without a prototype has no toString.
    expect(firstLine(Object.create(null))).toBe('an error with no message');
  });
});
