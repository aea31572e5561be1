import { Hono } from 'hono';
import { apiRoutes } from '../../shared/api';
import { callerPersonId, notFound } from '../auth/bearer';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { errorJson } from '../http/errors';
import { registerRoute } from '../http/register-route';
import { mimeTypeFor, type LibraryFile } from '../library/library-store';
import { checkFileSignature, signFileUrl } from '../library/signed-urls';

const NOMBRE_MAX = 255;

/** The person's file library (`/api/v2/me/files`, scope `files`) and the signed URLs that serve its bytes. */
export function libraryRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const area = () => ctx.agentConfig;
  const urlOf = (file: LibraryFile) => signFileUrl(area().signingKey, ctx.baseUrl, file.id, ctx.clock.now());
  const archivo = (file: LibraryFile) => ({
    id: file.id,
    nombre: file.name,
    mimeType: file.mimeType,
    size: file.size,
    url: urlOf(file),
  });

  registerRoute(app, apiRoutes.listFiles, async (c) =>
    c.json({ archivos: (await area().library.list(callerPersonId(c))).map(archivo) }),
  );

  registerRoute(
    app,
    apiRoutes.uploadFile,
    async (c, { query, body }) => {
      const nombre = query.nombre.trim();
      if (!nombre || nombre.length > NOMBRE_MAX || /[\p{Cc}/\\]/u.test(nombre)) {
        return errorJson(
          c,
          400,
          'body_invalido',
          `nombre must be a file name of 1 to ${NOMBRE_MAX} characters, without slashes or control characters.`,
        );
      }
      const mimeType = mimeTypeFor(nombre, c.req.header('Content-Type'));
      return c.json(archivo(await area().library.add(callerPersonId(c), nombre, mimeType, body)));
    },
    {
      maxBytes: () => area().libraryMaxBytes,
      tooLarge: (max) => ({
        error: 'archivo demasiado grande',
        detalle: `An account file is capped at ${max} bytes.`,
      }),
    },
  );

  registerRoute(app, apiRoutes.getFileUrl, async (c, { params }) => {
    const file = await area().library.findOwned(callerPersonId(c), params.id);
    return file ? c.json({ url: urlOf(file) }) : notFound(c, 'No such file in your library.');
  });

  registerRoute(app, apiRoutes.deleteFile, async (c, { params }) =>
    c.json({ deleted: await area().library.delete(callerPersonId(c), params.id) }),
  );

  // The signed URL: no bearer, the HMAC over (id, expiry) is the credential. Served inert: nosniff and a
  // sandbox CSP, so an uploaded HTML or SVG file cannot run script on the service's origin. Unchecked: a
  // missing or malformed signature is a 403 like a wrong one, not a 400.
  // Served at /files/ and, for links handed out earlier, at the old /archivos/.
  for (const route of [apiRoutes.downloadSignedFile, apiRoutes.downloadSignedFileOldPath])
    registerRoute(
      app,
      route,
      async (c) => {
        const id = c.req.param('id') ?? '';
        const check = checkFileSignature(
          area().signingKey,
          id,
          c.req.query('exp'),
          c.req.query('sig'),
          ctx.clock.now(),
        );
        const headers = { 'Cache-Control': 'no-store' };
        if (check === 'tampered')
          return c.json(
            { error: 'firma_invalida', detalle: 'The signature of this URL does not match.' },
            403,
            headers,
          );
        if (check === 'expired') {
          return c.json(
            {
              error: 'url_caducada',
              detalle: `This URL has expired; ask GET ${apiRoutes.getFileUrl.path} for a new one.`,
            },
            403,
            headers,
          );
        }
        const file = await area().library.find(id);
        if (!file) return notFound(c, 'The file was deleted.');
        const bytes = await area().library.read(file);
        return c.body(new Uint8Array(bytes), 200, {
          'Content-Type': file.mimeType,
          'Content-Length': String(bytes.byteLength),
          'Content-Disposition': `inline; filename*=UTF-8''${encodeURIComponent(file.name)}`,
          'X-Content-Type-Options': 'nosniff',
          'Content-Security-Policy': "sandbox; default-src 'none'",
          'Cache-Control': 'private, max-age=300',
        });
      },
      { unchecked: true },
    );

  return app;
}
