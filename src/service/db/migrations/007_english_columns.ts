import type { Migration } from './types';

/**
 * The store's own words are English (issue 25): the columns that were named after the wire's Spanish fields
 * are renamed in place, so a database made before keeps every row. Spanish stays on the wire, where the
 * routes translate it. Both engines rename a column with its checks and indexes.
 */
export const englishColumns007: Migration = {
  id: '007_english_columns',
  sql: `
ALTER TABLE turns RENAME COLUMN estado TO state;
ALTER TABLE agents RENAME COLUMN origen TO origin;
ALTER TABLE agents RENAME COLUMN protocolo TO protocol;
ALTER TABLE agent_configs RENAME COLUMN tools_canales TO tools_channels;
ALTER TABLE account_files RENAME COLUMN nombre TO name;
ALTER TABLE devices RENAME COLUMN plataforma TO platform;
ALTER TABLE devices RENAME COLUMN entorno TO environment;
`,
};
