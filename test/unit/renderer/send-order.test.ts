import { describe, expect, it } from 'vitest';
import { inSendOrder } from '../../../src/renderer/features/chat/send-order';

/** A step that records when it starts and ends, and ends when `finish` is called. */
function heldStep(log: string[], name: string) {
  let finish: (value: string) => void = () => {};
  let fail: (error: Error) => void = () => {};
  const step = () => {
    log.push(`${name} starts`);
    return new Promise<string>((resolve, reject) => {
      finish = (value) => {
        log.push(`${name} ends`);
        resolve(value);
      };
      fail = reject;
    });
  };
  return { step, finish: (value = name) => finish(value), fail: (error: Error) => fail(error) };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('inSendOrder', () => {
  it('starts a step at once when nothing of its conversation is on its way', async () => {
    const log: string[] = [];
    void inSendOrder('c1', heldStep(log, 'send').step);
    await Promise.resolve();
    expect(log).toEqual(['send starts']);
  });

  it('holds a send asked during a Retry until the Retry has sent, and gives each its own answer', async () => {
    const log: string[] = [];
    const retry = heldStep(log, 'retry');
    const send = heldStep(log, 'send');
    const retried = inSendOrder('c2', retry.step);
    const sent = inSendOrder('c2', send.step);
    await settled();
    expect(log).toEqual(['retry starts']);
    retry.finish();
    await settled();
    expect(log).toEqual(['retry starts', 'retry ends', 'send starts']);
    send.finish();
    expect(await retried).toBe('retry');
    expect(await sent).toBe('send');
  });

  it('lets other conversations go meanwhile', async () => {
    const log: string[] = [];
    const retry = heldStep(log, 'retry in c3');
    void inSendOrder('c3', retry.step);
    void inSendOrder('c4', heldStep(log, 'send in c4').step);
    await settled();
    expect(log).toEqual(['retry in c3 starts', 'send in c4 starts']);
  });

  it('a step that fails still lets the next one go, and its caller sees the failure', async () => {
    const log: string[] = [];
    const retry = heldStep(log, 'retry');
    const send = heldStep(log, 'send');
    const retried = inSendOrder('c5', retry.step);
    const sent = inSendOrder('c5', send.step);
    await settled();
    retry.fail(new Error('offline'));
    await expect(retried).rejects.toThrow('offline');
    await settled();
    expect(log).toEqual(['retry starts', 'send starts']);
    send.finish();
    expect(await sent).toBe('send');
  });

  it('three sends asked at once leave in the order asked', async () => {
    const log: string[] = [];
    const steps = ['a', 'b', 'c'].map((name) => heldStep(log, name));
    const runs = steps.map((s) => inSendOrder('c6', s.step));
    for (const s of steps) {
      await settled();
      s.finish();
    }
    expect(await Promise.all(runs)).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['a starts', 'a ends', 'b starts', 'b ends', 'c starts', 'c ends']);
  });
});
