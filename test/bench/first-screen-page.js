/* global document, MutationObserver */
// Page side of first-screen.ts (plain JavaScript: the Node typecheck has no DOM types), run before the page's
// own scripts. Times from navigation start (performance.now()): when the message box is in the page and
// enabled, every bridge call (sent, answered), the bridge socket's birth (the app's script has run by then:
// main.tsx makes it after all its imports), its `ready`, and the long tasks, for the split the bench prints.
(() => {
  const now = () => performance.now();
  const seen = { boxReady: undefined, socket: undefined, ready: undefined, calls: [], longTasks: [] };
  globalThis.__firstScreen = seen;

  const boxIsReady = () => {
    const box = document.querySelector('textarea[aria-label="Message"]');
    if (!box || box.disabled || box.readOnly) return false;
    seen.boxReady = now();
    console.log('first-screen: box ready');
    return true;
  };
  new MutationObserver((_records, observer) => {
    if (boxIsReady()) observer.disconnect();
  }).observe(document, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['disabled', 'readonly'],
  });

  new PerformanceObserver((list) => {
    for (const task of list.getEntries()) seen.longTasks.push({ start: task.startTime, ms: task.duration });
  }).observe({ type: 'longtask', buffered: true });

  // The bridge's messages, read as they pass (the app's own handlers run after these).
  const Native = WebSocket;
  globalThis.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      seen.socket ??= now();
      this.addEventListener('message', (event) => {
        const message = JSON.parse(event.data);
        if (message.type === 'ready') seen.ready ??= now();
        if (message.type !== 'result') return;
        const call = seen.calls.find((c) => c.id === message.id && c.answered === undefined);
        if (call) call.answered = now();
      });
    }
    send(data) {
      const message = JSON.parse(data);
      if (message.type === 'call' || message.type === 'subscribe')
        seen.calls.push({ id: message.id, name: message.name, type: message.type, sent: now() });
      super.send(data);
    }
  };
})();
