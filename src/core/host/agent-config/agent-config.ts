import { resolve } from 'node:path';
import {
  AgentConfigPatch,
  Bundle,
  LIMITS,
  McpPutBody,
  MsgappPutBody,
  SkillPutBody,
  SkillSlug,
  TryBody,
} from '../../../shared/api';
import type { AgentConfigMethods } from '../../../shared/bridge';
import { agentCheck, checkBody, checkId } from '../plumbing/argument-checks';
import { fail, noBody } from '../plumbing/call-results';
import type { WithApi } from '../plumbing/with-api';
import { expandHome, readBundle, writeBundleFolder, writeBundleZip } from './bundle-on-disk';

/**
 * The agent-config area: an agent's configuration (GET, PATCH), workspace files, skills, MCP servers, restart, try turns, bundle and
 * msgapp1 numbers, each argument checked with the shared schemas before it leaves the host.
 */
export function createAgentConfigArea(deps: { withApi: WithApi }): AgentConfigMethods & { close(): void } {
  const { withApi } = deps;
  const tries = new Map<string, AbortController>();

  const pathCheck = (path: unknown) =>
    typeof path === 'string' ? undefined : fail<never>('invalid_argument', 'A file path is needed.');

  return {
    async getAgentConfig(agentId, query = {}) {
      return (
        agentCheck(agentId) ??
        withApi((api) =>
          api.getAgentConfig(agentId, {
            full: query.full === '1',
            ...(query.fields ? { fields: query.fields.split(',').map((f) => f.trim()) } : {}),
          }),
        )
      );
    },

    async patchAgentConfig(agentId, patch) {
      const invalid = agentCheck(agentId);
      if (invalid) return invalid;
      const body = checkBody(AgentConfigPatch, patch);
      if (!body.ok) return body;
      return withApi((api) => api.updateAgentConfig(agentId, body.value));
    },

    async listWorkspaceFiles(agentId, path = '') {
      return agentCheck(agentId) ?? pathCheck(path) ?? withApi((api) => api.listWorkspace(agentId, path));
    },

    async readWorkspaceFile(agentId, path) {
      const invalid = agentCheck(agentId) ?? pathCheck(path);
      if (invalid) return invalid;
      const read = await withApi((api) => api.readWorkspaceFile(agentId, path));
      if (!read.ok) return read;
      // A server without the byte route answers the listing: it only lists files.
      if (read.value.kind === 'listing') return { ok: true, value: { kind: 'listing-only' } };
      return {
        ok: true,
        value: {
          kind: 'bytes',
          contentBase64: Buffer.from(read.value.bytes).toString('base64'),
          contentType: read.value.contentType,
        },
      };
    },

    async writeWorkspaceFile(agentId, path, contentBase64) {
      const invalid = agentCheck(agentId) ?? pathCheck(path);
      if (invalid) return invalid;
      if (typeof contentBase64 !== 'string') return fail('invalid_argument', 'The file has no contents.');
      const bytes = new Uint8Array(Buffer.from(contentBase64, 'base64'));
      if (bytes.length > LIMITS.workspaceFileBytesMax)
        return fail('demasiado_grande', `${path} is over the 10 MB limit for a workspace file.`);
      return withApi((api) => api.writeWorkspaceFile(agentId, path, bytes));
    },

    async deleteWorkspaceFile(agentId, path) {
      const invalid = agentCheck(agentId) ?? pathCheck(path);
      if (invalid) return invalid;
      return withApi((api) => noBody(api.deleteWorkspaceFile(agentId, path)));
    },

    async listSkills(agentId) {
      return agentCheck(agentId) ?? withApi((api) => api.listSkills(agentId));
    },

    async installSkill(agentId, slug, body) {
      const invalid = agentCheck(agentId);
      if (invalid) return invalid;
      const validSlug = checkBody(SkillSlug, slug);
      if (!validSlug.ok) return validSlug;
      const valid = checkBody(SkillPutBody, body);
      if (!valid.ok) return valid;
      return withApi((api) => api.installSkill(agentId, validSlug.value, valid.value));
    },

    async deleteSkill(agentId, slug) {
      const invalid = agentCheck(agentId);
      if (invalid) return invalid;
      const noSlug = checkId(slug, 'skill');
      if (noSlug) return { ok: false, error: noSlug };
      return withApi((api) => noBody(api.deleteSkill(agentId, slug)));
    },

    async getMcpServers(agentId) {
      return agentCheck(agentId) ?? withApi((api) => api.getMcpServers(agentId));
    },

    async setMcpServers(agentId, servers) {
      const invalid = agentCheck(agentId);
      if (invalid) return invalid;
      const body = checkBody(McpPutBody, { servers });
      if (!body.ok) return body;
      return withApi((api) => api.setMcpServers(agentId, body.value.servers));
    },

    async getMcpStatus(agentId) {
      return agentCheck(agentId) ?? withApi((api) => api.getMcpStatus(agentId));
    },

    async restartAgent(agentId) {
      return agentCheck(agentId) ?? withApi((api) => api.restartAgent(agentId));
    },

    async tryAgent(agentId, body, tryId) {
      const invalid = agentCheck(agentId);
      if (invalid) return invalid;
      const noId = checkId(tryId, 'try');
      if (noId) return { ok: false, error: noId };
      const valid = checkBody(TryBody, body);
      if (!valid.ok) return valid;
      if (tries.has(tryId)) return fail('invalid_argument', 'That try is already running.');
      const abort = new AbortController();
      tries.set(tryId, abort);
      try {
        return await withApi((api) => api.tryAgent(agentId, valid.value, { signal: abort.signal }));
      } finally {
        tries.delete(tryId);
      }
    },

    async cancelTry(tryId) {
      const abort = typeof tryId === 'string' ? tries.get(tryId) : undefined;
      abort?.abort();
      return { ok: true, value: !!abort };
    },

    async exportBundle(agentId, target) {
      const invalid = agentCheck(agentId);
      if (invalid) return invalid;
      if (typeof target?.path !== 'string' || !target.path.trim())
        return fail('invalid_argument', 'Say where to write the bundle.');
      const bundle = await withApi((api) => api.getBundle(agentId));
      if (!bundle.ok) return bundle;
      const path = resolve(expandHome(target.path.trim()));
      try {
        const written =
          target.kind === 'zip'
            ? await writeBundleZip(bundle.value, path)
            : await writeBundleFolder(bundle.value, path);
        return written.ok
          ? { ok: true, value: { path, files: written.value } }
          : fail('invalid_argument', written.message);
      } catch (error) {
        return fail('disk', `The bundle could not be written to ${path}: ${(error as Error).message}`);
      }
    },

    async importBundle(agentId, path) {
      const invalid = agentCheck(agentId);
      if (invalid) return invalid;
      if (typeof path !== 'string' || !path.trim())
        return fail('invalid_argument', 'Say which folder or .zip to import.');
      const bundle = await readBundle(path.trim());
      if (!bundle.ok) return fail('invalid_argument', bundle.message);
      // Paths the API would refuse (absolute, `..`) are said here, before anything is sent.
      const valid = checkBody(Bundle, bundle.value);
      if (!valid.ok) return valid;
      return withApi((api) => api.applyBundle(agentId, valid.value));
    },

    async getMsgappNumbers(agentId) {
      return agentCheck(agentId) ?? withApi((api) => api.getMsgappNumbers(agentId));
    },

    async setMsgappNumbers(agentId, numbers) {
      const invalid = agentCheck(agentId);
      if (invalid) return invalid;
      const body = checkBody(MsgappPutBody, { numbers });
      if (!body.ok) return body;
      return withApi((api) => api.setMsgappNumbers(agentId, body.value.numbers));
    },

    close() {
      for (const abort of tries.values()) abort.abort();
      tries.clear();
    },
  };
}
