import type { Session } from 'electron';

export interface PermissionAsk {
  permission: string;
  /** The origin (or URL) of the page asking. */
  origin: string;
  /** For `media`: what is asked (`audio`, `video`); empty when unknown. */
  mediaTypes: readonly string[];
}

/**
 * The renderer may use the microphone (dictation) and nothing else, and only its own page may: camera,
 * screen, notifications (sent by the main process instead), geolocation, MIDI... are all refused.
 */
export function permissionAllowed(ask: PermissionAsk, appOrigin: string): boolean {
  let origin: string;
  try {
    const url = new URL(ask.origin);
    origin = `${url.protocol}//${url.host}`;
  } catch {
    return false;
  }
  if (origin !== appOrigin) return false;
  if (ask.permission !== 'media') return false;
  return ask.mediaTypes.length > 0 && ask.mediaTypes.every((type) => type === 'audio');
}

/** Both handlers: Electron grants every permission when none is set. */
export function installPermissionHandlers(
  session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>,
  appOrigin: string,
): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    const mediaTypes = 'mediaTypes' in details ? (details.mediaTypes ?? []) : [];
    callback(permissionAllowed({ permission, origin: details.requestingUrl, mediaTypes }, appOrigin));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) => {
    const mediaType = 'mediaType' in details ? details.mediaType : undefined;
    const mediaTypes = mediaType && mediaType !== 'unknown' ? [mediaType] : [];
    return permissionAllowed({ permission, origin: requestingOrigin, mediaTypes }, appOrigin);
  });
}
