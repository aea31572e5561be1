import type { PlatformInfo } from '../../../shared/bridge';

/** The bridge's platform description for a Node platform name. */
export function platformInfo(platform: NodeJS.Platform, shell: PlatformInfo['shell']): PlatformInfo {
  const os =
    platform === 'darwin'
      ? 'mac'
      : platform === 'win32'
        ? 'windows'
        : platform === 'linux'
          ? 'linux'
          : 'other';
  return { os, shell, modifierKey: os === 'mac' ? 'Cmd' : 'Ctrl' };
}
