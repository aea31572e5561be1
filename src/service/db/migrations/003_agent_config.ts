import type { Migration } from './types';

/**
 * Agent configuration beyond identity (name and engine stay in `agents`), msgapp1 number pairings,
 * the account file library, connector links (provider tokens sealed, never plain) and push devices
 * (token hashes only).
 */
export const agentConfig003: Migration = {
  id: '003_agent_config',
  sql: `
CREATE TABLE agent_configs (
  agent_id TEXT PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
  -- NULL: the engine's default model.
  model TEXT,
  prompt TEXT NOT NULL DEFAULT '',
  prompt_mode TEXT NOT NULL DEFAULT 'append' CHECK (prompt_mode IN ('append', 'replace')),
  -- JSON {workchat, web, msgapp1, msgapp2} booleans.
  channels TEXT NOT NULL DEFAULT '{}',
  web_search INTEGER NOT NULL DEFAULT 0,
  -- JSON array of strings.
  starters TEXT NOT NULL DEFAULT '[]',
  msgapp2_page INTEGER NOT NULL DEFAULT 0,
  -- Saved vetoes only (JSON tool -> false); a tool switched back on is removed.
  tools_gs TEXT NOT NULL DEFAULT '{}',
  tools_extensions TEXT NOT NULL DEFAULT '{}',
  -- JSON channel -> {tool -> false}.
  tools_canales TEXT NOT NULL DEFAULT '{}',
  -- JSON array of McpServer.
  mcp TEXT NOT NULL DEFAULT '[]',
  updated_at INTEGER NOT NULL
);

-- A msgapp1 number of the workspace paired to one agent; active = 0 when unticked (silenced, still paired).
CREATE TABLE msgapp1_links (
  number_id TEXT PRIMARY KEY,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  active INTEGER NOT NULL DEFAULT 1,
  updated_at INTEGER NOT NULL
);
CREATE INDEX msgapp1_links_agent ON msgapp1_links(agent_id);

CREATE TABLE account_files (
  id TEXT PRIMARY KEY,
  person_id TEXT NOT NULL REFERENCES persons(id) ON DELETE CASCADE,
  nombre TEXT NOT NULL,
  mime_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX account_files_person ON account_files(person_id, created_at);

-- A started connector flow, waiting for the provider's callback (state hashed, expires in 10 minutes).
CREATE TABLE connector_starts (
  state_hash TEXT PRIMARY KEY,
  person_id TEXT NOT NULL REFERENCES persons(id) ON DELETE CASCADE,
  connector_id TEXT NOT NULL,
  code_verifier TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);

-- A connected provider. Tokens are sealed (AES-256-GCM, key in <dataDir>/keys) because revoking needs them.
CREATE TABLE connector_links (
  person_id TEXT NOT NULL REFERENCES persons(id) ON DELETE CASCADE,
  connector_id TEXT NOT NULL,
  access_token_sealed TEXT NOT NULL,
  refresh_token_sealed TEXT,
  scope TEXT,
  connected_at INTEGER NOT NULL,
  PRIMARY KEY (person_id, connector_id)
);

-- Push devices, identified by the SHA-256 of their push token (the local service sends no pushes).
CREATE TABLE devices (
  token_hash TEXT PRIMARY KEY,
  person_id TEXT NOT NULL REFERENCES persons(id) ON DELETE CASCADE,
  plataforma TEXT NOT NULL CHECK (plataforma IN ('ios', 'android')),
  entorno TEXT NOT NULL CHECK (entorno IN ('production', 'sandbox')),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX devices_person ON devices(person_id);
`,
};
