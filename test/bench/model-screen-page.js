/* global document, MutationObserver */
// Page side of model-screen.ts (plain JavaScript: the Node typecheck has no DOM types): times the next agent reply from the Enter that sends it to its last
// character, as the text enters the transcript (a MutationObserver: no frame's wait counted twice).
globalThis.__watchNextReply = (expected) => {
  const before = new Set(document.querySelectorAll('[aria-label="Agent reply"]'));
  let sentAt = 0;
  const box = document.querySelector('textarea[aria-label="Message"]');
  box.addEventListener('keydown', (e) => (sentAt = e.key === 'Enter' ? performance.now() : 0), {
    once: true,
    capture: true,
  });
  globalThis.__nextReply = new Promise((done) => {
    const timed = { first: 0, last: 0, chars: 0 };
    const observer = new MutationObserver(() => {
      const replies = [...document.querySelectorAll('[aria-label="Agent reply"]')].filter(
        (r) => !before.has(r),
      );
      const text = replies.at(-1)?.textContent ?? '';
      const chars = /(?:word)+/.exec(text)?.[0].length ?? 0;
      if (chars === 0 || chars === timed.chars) return;
      const at = performance.now() - sentAt;
      if (timed.chars === 0) timed.first = at;
      timed.last = at;
      timed.chars = chars;
      if (chars >= expected) {
        observer.disconnect();
        done(timed);
      }
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  });
};
