import type { LibraryMethods } from '../../../shared/bridge';
import { checkId } from '../plumbing/argument-checks';
import { fail } from '../plumbing/call-results';
import type { WithApi } from '../plumbing/with-api';

/** The library area: the account's file library (uploads travel as base64 over the bridge). */
export function createLibraryArea({ withApi }: { withApi: WithApi }): LibraryMethods {
  return {
    async listFiles() {
      return withApi((api) => api.listFiles());
    },

    async uploadFile(input) {
      if (typeof input !== 'object' || input === null) return fail('invalid_argument', 'A file is needed.');
      const invalid = checkId(input.nombre, 'file name');
      if (invalid) return { ok: false, error: invalid };
      if (typeof input.dataBase64 !== 'string') return fail('invalid_argument', 'The file has no contents.');
      const bytes = new Uint8Array(Buffer.from(input.dataBase64, 'base64'));
      return withApi((api) =>
        api.uploadFile(input.nombre, bytes, input.mimeType ?? 'application/octet-stream'),
      );
    },

    async deleteFile(fileId) {
      const invalid = checkId(fileId, 'file');
      if (invalid) return { ok: false, error: invalid };
      return withApi((api) => api.deleteFile(fileId));
    },

    async getFileUrl(fileId) {
      const invalid = checkId(fileId, 'file');
      if (invalid) return { ok: false, error: invalid };
      return withApi((api) => api.getFileUrl(fileId));
    },
  };
}
