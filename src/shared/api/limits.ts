/** Numeric limits of the v2 spec ("Limits" table), in one place so service, client and schemas agree. */
export const LIMITS = {
  agentNameMax: 64,
  promptMax: 20_000,
  startersMax: 5,
  starterMax: 80,
  imagesPerMessageMax: 8,
  mcpServersMax: 20,
  trySessionMax: 32,
  skillSlugMax: 64,
  /** PUT files and each bundle file. The spec says "10 MB"; we read it as MiB (our choice). */
  workspaceFileBytesMax: 10 * 1024 * 1024,
  /** Skill install payload. The spec says "25 MB"; we read it as MiB (our choice). */
  skillPayloadBytesMax: 25 * 1024 * 1024,
  signedUrlTtlMs: 6 * 60 * 60 * 1000,
  authorizationCodeTtlMs: 60 * 1000,
  accessTokenTtlSeconds: 3600,
  refreshTokenTtlMs: 90 * 24 * 60 * 60 * 1000,
  permissionTimeoutMs: 10 * 60 * 1000,
  tryTurnTimeoutMs: 180 * 1000,
  heartbeatMs: 25 * 1000,
  /** How far ahead a turn may be scheduled (`inMinutes`, `dueAt`, `until`): about five years (our choice). */
  scheduleAheadMinutesMax: 5 * 366 * 24 * 60,
  /** A periodic turn runs at most once a minute and at least once a year (our choice). */
  scheduleRepeatMinutesMin: 1,
  scheduleRepeatMinutesMax: 366 * 24 * 60,
  /** `limit` of a conversation's tail (our choice). */
  conversationTailMax: 10_000,
  /** `Retry-After` seconds sent with 503 `reiniciando`. */
  restartRetryAfterSeconds: 10,
} as const;
