/* global window, document, requestAnimationFrame, MutationObserver, addEventListener */
// Page side of test/bench/ui.ts (plain JavaScript: the Node typecheck has no DOM types).
//
// It stands in for window.desk so the benchmark measures the renderer alone (reducer, batching,
// markdown, virtual list) with no network or agent timing in the figures. Benchmarks only:
// behaviour is tested end to end against the real service in test/e2e.
(() => {
  const historySize = globalThis.__benchHistorySize ?? 5000;
  const listeners = new Map();
  // A streamed reply the server now holds: the app reads the thread again when a turn it did not
  // send ends, as it does for a scheduled turn, so the history must have the reply by then.
  const finished = new Map();
  const ok = (value) => Promise.resolve({ ok: true, value });
  const at = new Date(Date.UTC(2026, 0, 1)).toISOString();
  // Messages are made when asked for, so a thread of 500,000 costs the page only the part it reads.
  const threadMessage = (i) => ({
    role: i % 2 === 0 ? 'user' : 'assistant',
    content:
      i % 2 === 0
        ? `Question number ${i}: how does part ${i} work?`
        : `Answer ${i}. It works like this:\n\n- first point about ${i}\n- second point\n\n\`\`\`ts\nconst value${i} = ${i};\n\`\`\`\n`,
    at,
  });
  // The same thread as the host's memory area serves it: each reply with its stored turn detail.
  const storedMessage = (i) => {
    const m = threadMessage(i);
    return {
      position: i,
      role: m.role,
      content: m.content,
      at: Date.UTC(2026, 0, 1) + i * 1000,
      ...(m.role === 'assistant'
        ? {
            detail: {
              turnId: `t${i}`,
              startedAt: Date.UTC(2026, 0, 1) + i * 1000,
              estado: 'done',
              state: 'done',
              events: [
                { event: 'thought', data: { text: `Thinking about part ${i}.` } },
                {
                  event: 'tool',
                  data: { id: `x${i}`, title: 'Read notes', kind: 'read', status: 'completed' },
                },
                { event: 'chunk', data: { text: m.content } },
              ],
              usage: { input: 100, output: 200 },
              attachments: [],
            },
          }
        : {}),
    };
  };
  const range = (from, to, make) => Array.from({ length: Math.max(0, to - from) }, (_, k) => make(from + k));
  // Each answer carries both the bridge's own words and the wire's (`titulo`, `agentes`...), which the bridge
  // spoke before issue 25: `npm run bench -- --against <older revision>` runs this page on both.
  const conversation = (id, title) => ({
    id,
    title,
    updatedAt: at,
    lastTurn: null,
    titulo: title,
    actualizada: at,
    ultimoTurno: null,
  });
  const conversations = [
    conversation('stream', 'Streaming'),
    conversation('long', 'Long thread'),
    conversation('code', 'Big code block'),
  ];
  const known = {
    getSession: () =>
      ok({
        status: 'signed-in',
        profile: { id: 'bench', kind: 'local', name: 'Bench', clientId: 'bench' },
        user: { id: 'u', email: 'bench@example.test' },
        secretStore: { kind: 'memory' },
      }),
    onSessionChange: () => () => undefined,
    listProfiles: () => ok({ profiles: [], activeProfileId: null }),
    getPlatform: () => ok({ os: 'linux', shell: 'browser', modifierKey: 'Ctrl' }),
    listAgents: () =>
      ok({
        agents: [
          {
            id: 'a',
            name: 'Bench agent',
            origin: 'gs',
            protocol: 'acp',
            connection: null,
            needsToken: false,
          },
        ],
        user: { id: 'u' },
        agentes: [
          {
            id: 'a',
            nombre: 'Bench agent',
            origen: 'gs',
            protocolo: 'acp',
            conexion: null,
            necesitaToken: false,
          },
        ],
        usuario: { id: 'u' },
      }),
    getAgentConfig: () => ok({ id: 'a', starters: [], models: [], model: 'm' }),
    listConversations: () => ok(Object.assign([...conversations], { conversaciones: conversations })),
    // The whole thread, whatever the limit: the worst case of a thread fully in the store.
    getConversation: (_agent, sessionId) =>
      ok({
        messages:
          sessionId === 'long' ? range(0, historySize, threadMessage) : (finished.get(sessionId) ?? []),
        skipped: 0,
        lastTurn: null,
        saltados: 0,
        ultimoTurno: null,
      }),
    // The host reads only the tail it is asked for from SQLite (its cost is in test/bench/memory.ts).
    openConversation: (_agent, sessionId, options = {}) => {
      const all =
        sessionId === 'long'
          ? null
          : (finished.get(sessionId) ?? []).map((m, position) => ({ ...m, position, at: Date.parse(m.at) }));
      const total = all ? all.length : historySize;
      const from = Math.max(0, total - (options.limit ?? total));
      const tail = all ? all.slice(from) : range(from, total, storedMessage);
      return ok({
        messages: tail,
        skipped: total - tail.length,
        agentId: 'a',
        conversationId: sessionId,
        title: null,
        lastTurn: null,
        ultimoTurno: null,
        models: { options: [{ id: 'm', label: 'Model' }], current: 'm' },
        offline: false,
      });
    },
    onConnectivity: (listener) => {
      listener({ online: true });
      return () => undefined;
    },
    getShare: () => ok({ shared: false, compartida: false, publicUrl: null }),
    onConversationEvent: (_agent, sessionId, listener) => {
      listeners.set(sessionId, listener);
      listener({ kind: 'connection', connection: { state: 'open' } });
      return () => listeners.delete(sessionId);
    },
    notify: () => ok(undefined),
  };
  // Anything else the app asks for (other areas' features) answers plainly and does nothing.
  window.desk = new Proxy(known, {
    get: (target, name) =>
      name in target
        ? target[name]
        : String(name).startsWith('on')
          ? () => () => undefined
          : () =>
              Promise.resolve({
                ok: false,
                error: { code: 'unknown_method', message: 'Not in the benchmark.' },
              }),
  });

  /** Resolves after the next frame has been painted. */
  const afterPaint = () =>
    new Promise((done) =>
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => done();
        channel.port2.postMessage(0);
      }),
    );

  /** Calls `each(i)` for every chunk, one task per chunk, as socket messages arrive. */
  const paced = (count, each) =>
    new Promise((finish) => {
      const channel = new MessageChannel();
      let i = 0;
      channel.port1.onmessage = () => {
        each(i);
        i += 1;
        if (i < count) channel.port2.postMessage(0);
        else finish();
      };
      channel.port2.postMessage(0);
    });

  globalThis.__uiBench = {
    ready: (sessionId) => listeners.has(sessionId),
    /**
     * Streams the chunks into the app; resolves when the last text is painted. With `settledBy` (a CSS
     * selector), long tasks are counted until it matches too (work the reply leaves for later, such as
     * highlighting in a worker), and `settledMs` says when that was.
     */
    async streamIntoApp(chunks, sessionId = 'stream', settledBy) {
      const emit = (update) => listeners.get(sessionId)?.(update);
      const event = (id, name, data) => ({ kind: 'event', event: { id: `bench.${id}`, event: name, data } });
      const longTasks = [];
      const observer = new PerformanceObserver((list) =>
        list.getEntries().forEach((e) => longTasks.push(e.duration)),
      );
      observer.observe({ type: 'longtask' });
      const start = performance.now();
      emit(event(0, 'started', { turnId: 'bench' }));
      await paced(chunks.length, (i) => emit(event(i + 1, 'chunk', { text: chunks[i], turnId: 'bench' })));
      finished.set(sessionId, [{ role: 'assistant', content: chunks.join(''), at }]);
      emit(event(chunks.length + 1, 'done', { turnId: 'bench' }));
      await afterPaint();
      const totalMs = performance.now() - start;
      const until = performance.now() + 20_000;
      while (settledBy && !document.querySelector(settledBy) && performance.now() < until) {
        await new Promise((r) => setTimeout(r, 20));
      }
      const settledMs = settledBy && document.querySelector(settledBy) ? performance.now() - start : null;
      await new Promise((r) => setTimeout(r, 100));
      observer.disconnect();
      return { totalMs, longTasks, settledMs };
    },
    /** The same chunks at the same pace, each appended as a text node: the floor to compare with. */
    async plainAppend(chunks) {
      const box = document.createElement('div');
      box.style.whiteSpace = 'pre-wrap';
      document.body.replaceChildren(box);
      const start = performance.now();
      await paced(chunks.length, (i) => box.append(chunks[i]));
      await afterPaint();
      return performance.now() - start;
    },
    /** Resolves with the time from the next click to the first painted message. */
    timeNextOpen() {
      return new Promise((done) => {
        let start = 0;
        addEventListener('click', () => (start = performance.now()), { capture: true, once: true });
        const observer = new MutationObserver(() => {
          if (!start || !document.querySelector('[aria-label="Messages"] .message-row .markdown')) return;
          observer.disconnect();
          void afterPaint().then(() => done(performance.now() - start));
        });
        observer.observe(document.body, { childList: true, subtree: true });
      });
    },
  };
})();
