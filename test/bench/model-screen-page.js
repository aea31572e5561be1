/* global document, MutationObserver, requestAnimationFrame */
// Page side of model-screen.ts (plain JavaScript: the Node typecheck has no DOM types): times the next agent reply from the Enter that sends it to its last
// character, as the text enters the transcript (a MutationObserver: no frame's wait counted twice), and splits
// the first text: when the send left the page on the bridge's socket, when the first bridge message with text
// came in, and the frame after the text entered the transcript (its paint). Times are ms after the Enter, and
// `enterAt` is the Enter on the wall clock (performance.timeOrigin based) for the Node side's own times.
const bridge = { sendLeft: 0, chunkIn: 0 };
const now = () => performance.timeOrigin + performance.now();
const PageSocket = globalThis.WebSocket;
globalThis.WebSocket = class extends PageSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener('message', (e) => {
      if (!bridge.chunkIn && typeof e.data === 'string' && e.data.includes('"event":"chunk"'))
        bridge.chunkIn = now();
    });
  }
  send(data) {
    if (!bridge.sendLeft && typeof data === 'string' && data.includes('"sendMessage"'))
      bridge.sendLeft = now();
    super.send(data);
  }
};
/** The first task after the next frame (its paint included). */
const afterNextFrame = (done) =>
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => done();
    channel.port2.postMessage(0);
  });

globalThis.__watchNextReply = (expected) => {
  const before = new Set(document.querySelectorAll('[aria-label="Agent reply"]'));
  let enterAt = 0;
  bridge.sendLeft = 0;
  bridge.chunkIn = 0;
  const box = document.querySelector('textarea[aria-label="Message"]');
  box.addEventListener('keydown', (e) => (enterAt = e.key === 'Enter' ? now() : 0), {
    once: true,
    capture: true,
  });
  globalThis.__nextReply = new Promise((done, fail) => {
    const timed = { first: 0, last: 0, chars: 0, split: null };
    // A reply that never shows in full fails the bench with what the transcript holds, instead of hanging it.
    const timeout = setTimeout(() => {
      observer.disconnect();
      const replies = [...document.querySelectorAll('[aria-label="Agent reply"]')].filter(
        (r) => !before.has(r),
      );
      const shown = replies.at(-1)?.textContent ?? '';
      fail(
        new Error(
          `no whole reply in 60 s: ${replies.length} new replies, the last ${shown.length} characters long`,
        ),
      );
    }, 60_000);
    let painted = 0;
    const observer = new MutationObserver(() => {
      const replies = [...document.querySelectorAll('[aria-label="Agent reply"]')].filter(
        (r) => !before.has(r),
      );
      const text = replies.at(-1)?.textContent ?? '';
      const chars = /(?:word)+/.exec(text)?.[0].length ?? 0;
      if (chars === 0 || chars === timed.chars) return;
      const at = now() - enterAt;
      if (timed.chars === 0) {
        timed.first = at;
        afterNextFrame(() => (painted = now() - enterAt));
      }
      timed.last = at;
      timed.chars = chars;
      if (chars >= expected) {
        observer.disconnect();
        clearTimeout(timeout);
        timed.split = {
          enterAt,
          sendLeft: bridge.sendLeft - enterAt,
          chunkIn: bridge.chunkIn - enterAt,
          painted,
        };
        done(timed);
      }
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  });
};
