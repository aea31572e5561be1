/**
 * The contract between the renderer and its host (Electron preload, browser
 * mode, or a test double). The renderer reaches the host only through
 * `window.desk`, which implements `DeskBridge`. Every `on*` returns an
 * unsubscribe function.
 */
export type Unsubscribe = () => void;

// Filled in by the desktop-core work; the foundation ships the empty contract.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface DeskBridge {}

/** The method names the bridge exposes, so carriers can check calls by name. */
export const bridgeMethodNames = [] as const satisfies readonly (keyof DeskBridge)[];
