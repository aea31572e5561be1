/**
 * The rooms and doors of docs/architecture.md, enforced.
 * Paths are relative to the folder depcruise runs from (the repo root).
 */
const room = (name) => `^src/${name}/`;

/**
 * The rooms of src/service/ from the bottom up (docs/architecture.md, "The local service's rooms"). A room
 * imports only rooms listed before it (and itself), so no arrow inside the service runs back up: a helper
 * two rooms share sits in a room below both (workspace/ under engine/, library/ and agent-config/).
 * A name ending in `/` is a folder; any other is a file at the top of src/service/.
 */
const serviceRooms = [
  // settings and time
  ...['data/', 'outcome.ts', 'config.ts', 'clock.ts', 'timers.ts', 'manual-timers.ts', 'log-writer.ts'],
  ...['serving.ts', 'serve-flags.ts'],
  // stores and the helpers several rooms share
  ...['security/', 'db/', 'identity/', 'workspace/', 'guest-role.ts', 'core-context.ts'],
  // what the first-party ACP agents share (session files, prompt reading, the SKILL.md format), then the model
  // agent, whose handoff contract engine/ reads
  ...['agent-kit/', 'model-agent/'],
  // parts the domain areas stand on; engine/ finds agent programs as transcription/ finds its tools
  ...['pages/', 'transcription/', 'engine/', 'library/', 'connectors/', 'demo-agent/'],
  // the person's model providers: keys sealed as connector tokens are, handed to the model agent through engine/
  ...['providers/'],
  // the conversation area from the bottom up: a shared page and schedules stand alone, the conversation store
  // keeps schedules, turns run on the store (conversations-area.ts builds the area, conversation-service.ts serves routes)
  ...['sharing/', 'schedules/', 'conversations/', 'turns/'],
  // agent-config reads turns (the allowance), never the reverse
  ...['agent-config/'],
  // the context every route receives, the HTTP edge, start-up
  // several processes on one PostgreSQL: shared events, agent leases, forwarding (issue 27)
  ...['context.ts', 'http/', 'auth/', 'cluster/', 'routes/', 'app.ts', 'index.ts', 'cli.ts'],
];
/** A room's path pattern: a name ending in `/` is a folder, any other a file at the top of `base`. */
const roomPath = (base, name) =>
  `^src/${base}/${name.endsWith('/') ? name : `${name.replace(/\./g, '\\.')}$`}`;
/**
 * Rooms listed from the bottom up, with a rule per room: it imports only the rooms listed before it,
 * so no arrow inside `base` runs back up (issue 25). `ruleName` names the rule of one room.
 */
const noBackUpArrows = (base, rooms, ruleName) =>
  rooms.slice(0, -1).map((name, index) => ({
    name: ruleName(name.replace(/\/$/, '').replace(/\.ts$/, '')),
    comment: `src/${base}/${name} imports only the rooms listed before it (${rooms.join(' ')}).`,
    severity: 'error',
    from: { path: roomPath(base, name) },
    to: { path: rooms.slice(index + 1).map((above) => roomPath(base, above)) },
  }));
const serviceRoomPath = (name) => roomPath('service', name);
const serviceBackUpArrows = noBackUpArrows(
  'service',
  serviceRooms,
  (room) => `service-no-back-up-arrow-from-${room}`,
);
const serviceRoomsListed = {
  name: 'service-room-is-listed',
  comment: 'Every folder and top file of src/service/ has its place in serviceRooms, so the order covers it.',
  severity: 'error',
  from: { path: '^src/service/' },
  to: { path: '^src/service/', pathNot: serviceRooms.map(serviceRoomPath) },
};

/**
 * The rooms of src/core/ from the bottom up (docs/architecture.md, layout): a room imports only rooms listed
 * before it, so no arrow inside core runs back up. common/ holds the general helpers (Result, FetchLike,
 * Sleep); auth/ sits below the API client, which asks it for tokens; host/ composes everything.
 */
const coreRooms = [
  ...['common/', 'log/', 'renderer-csp.ts', 'renderer-content-types.ts'],
  ...['auth/', 'api/', 'events/', 'profiles/', 'memory/', 'sync/', 'host/'],
];
const coreBackUpArrows = noBackUpArrows('core', coreRooms, (room) => `core-no-back-up-arrow-from-${room}`);
const coreRoomsListed = {
  name: 'core-room-is-listed',
  comment: 'Every folder and top file of src/core/ has its place in coreRooms, so the order covers it.',
  severity: 'error',
  from: { path: '^src/core/' },
  to: { path: '^src/core/', pathNot: coreRooms.map((name) => roomPath('core', name)) },
};

/**
 * core/sync's rooms from the bottom up (docs/sync.md): a room imports only rooms below it, so no
 * arrow runs back up. plan/ is pure; folders/ opens folders; index.ts is the door above them all.
 */
const syncRooms = [
  'plan/',
  'state/',
  'local/',
  'remote/',
  'history/',
  'run/',
  'engine/',
  'folders/',
  'index.ts',
];
const syncRoomRules = noBackUpArrows('core/sync', syncRooms, (room) => `sync-${room}-imports-no-room-above`);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'shared-imports-nothing-of-ours',
      comment: 'shared/ is imported by everyone and imports nothing of ours but itself.',
      severity: 'error',
      from: { path: room('shared') },
      to: { path: '^src/', pathNot: room('shared') },
    },
    {
      name: 'shared-is-platform-free',
      comment: 'shared/ runs anywhere: no Node built-ins, no electron.',
      severity: 'error',
      from: { path: room('shared') },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'core-imports-only-shared',
      comment: 'core/ is plain Node on top of shared/.',
      severity: 'error',
      from: { path: room('core') },
      to: { path: '^src/', pathNot: [room('core'), room('shared')] },
    },
    {
      name: 'core-never-imports-electron',
      severity: 'error',
      from: { path: room('(core|shared|service|browser|cli|renderer)') },
      to: { path: '^electron$|node_modules/electron/' },
    },
    {
      name: 'renderer-imports-only-shared',
      comment: 'The renderer reaches the host only through window.desk.',
      severity: 'error',
      from: { path: room('renderer') },
      to: { path: '^src/', pathNot: [room('renderer'), room('shared')] },
    },
    {
      name: 'renderer-has-no-node',
      severity: 'error',
      from: { path: room('renderer') },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'preload-imports-only-shared',
      severity: 'error',
      from: { path: room('preload') },
      to: { path: '^src/', pathNot: [room('preload'), room('shared')] },
    },
    {
      name: 'service-imports-only-shared-api',
      comment:
        'The local service knows the API contract and nothing of the client side, but the safe Markdown rules the public page shares with the app, the SQLite store check both stores run, the words every process says the same (a full disk), and timing helpers with no side of their own (one shared interval).',
      severity: 'error',
      from: { path: room('service') },
      to: {
        path: '^src/',
        pathNot: [
          room('service'),
          '^src/shared/api/',
          '^src/shared/markdown/',
          '^src/shared/storage/',
          '^src/shared/words/',
          '^src/shared/timing/',
        ],
      },
    },
    {
      name: 'hosts-import-core-shared-and-the-service-entry',
      comment:
        'main/, browser/ and cli/ build on core/; they may start the embedded service through its entry.',
      severity: 'error',
      from: { path: room('(main|browser|cli)') },
      to: {
        path: '^src/',
        pathNot: [room('core'), room('shared'), '^src/service/index\\.ts$', '^src/$1/'],
      },
    },
    {
      name: 'cli-loads-the-service-only-when-used',
      comment:
        "cli/ starts the embedded service through import(): a command on a server, a sync or --help does not load the service (most of the CLI's code).",
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: '^src/service/', dependencyTypesNot: ['dynamic-import', 'type-only'] },
    },
    {
      name: 'renderer-model-is-pure',
      comment:
        'renderer/model/ is the pure model: no React, no zustand, no bridge, nothing of the renderer but itself.',
      severity: 'error',
      from: { path: '^src/renderer/model/' },
      to: {
        path: ['^src/renderer/', 'node_modules/(react|react-dom|zustand)/'],
        pathNot: ['^src/renderer/model/'],
      },
    },
    {
      name: 'renderer-stores-never-import-features',
      comment: 'Stores hold state for features; what both need lives in model/ or ui/.',
      severity: 'error',
      from: { path: '^src/renderer/(stores|ui)/' },
      to: { path: '^src/renderer/features/' },
    },
    {
      name: 'renderer-no-feature-imports-another',
      comment:
        'A feature stands alone; what two features share lives in model/ or ui/ (features/*.tsx compose them).',
      severity: 'error',
      from: { path: '^src/renderer/features/([^/]+)/' },
      to: { path: '^src/renderer/features/', pathNot: ['^src/renderer/features/$1/'] },
    },
    {
      name: 'host-area-imports-no-other-area',
      comment:
        'A host area (src/core/host/<area>/) talks to another only through createHost or host/plumbing/, never its internals.',
      severity: 'error',
      from: { path: '^src/core/host/([^/]+)/', pathNot: '^src/core/host/plumbing/' },
      to: {
        path: '^src/core/host/',
        pathNot: ['^src/core/host/$1/', '^src/core/host/plumbing/', '^src/core/host/host-options\\.ts$'],
      },
    },
    {
      name: 'host-plumbing-imports-no-area',
      comment: 'The plumbing every host area shares knows no area.',
      severity: 'error',
      from: { path: '^src/core/host/plumbing/' },
      to: {
        path: '^src/core/host/',
        pathNot: ['^src/core/host/plumbing/', '^src/core/host/host-options\\.ts$'],
      },
    },
    {
      name: 'core-common-imports-no-feature',
      comment:
        'core/common/ holds the general helpers (Result, FetchLike, Sleep) every core room uses; it imports no room of core.',
      severity: 'error',
      from: { path: '^src/core/common/' },
      to: { path: '^src/core/', pathNot: '^src/core/common/' },
    },
    {
      name: 'core-auth-never-imports-api',
      comment:
        'The API client asks core/auth for its token, so auth sits below it and never imports core/api (issue 25: no arrow runs back up).',
      severity: 'error',
      from: { path: '^src/core/auth/' },
      to: { path: '^src/core/api/' },
    },
    {
      name: 'service-http-never-imports-auth',
      comment:
        'http/ is the plumbing auth/ builds on (errors, raw target, app env); it imports no auth code ' +
        '(the AuthInfo type the guard puts on every request lives in identity/principal.ts).',
      severity: 'error',
      from: { path: '^src/service/http/' },
      to: { path: '^src/service/auth/' },
    },
    {
      name: 'sync-only-through-its-door',
      comment:
        'Outside core/sync, the sync is reached through core/sync/index.ts only, never a module of its rooms (issue 25).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/core/sync/' },
      to: { path: '^src/core/sync/[^/]+/' },
    },
    {
      name: 'sync-plan-is-pure',
      comment:
        'Planning is pure: no Node built-ins (no disk, no network), nothing of ours but plan/ and shared/.',
      severity: 'error',
      from: { path: '^src/core/sync/plan/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'sync-plan-imports-only-plan-and-shared',
      comment: 'The planner and its vocabulary stand alone: they import no other room of ours.',
      severity: 'error',
      from: { path: '^src/core/sync/plan/' },
      to: { path: '^src/', pathNot: ['^src/core/sync/plan/', room('shared')] },
    },
    ...coreBackUpArrows,
    coreRoomsListed,
    ...syncRoomRules,
    ...serviceBackUpArrows,
    serviceRoomsListed,
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
