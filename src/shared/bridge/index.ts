/**
 * The contract between the renderer and its host (Electron preload, browser
 * mode, or a test double), assembled from one module per area. The renderer
 * reaches the host only through `window.desk`, which implements `DeskBridge`.
 * A new area is one file beside this one (see bridge-area.ts) plus its lines
 * in areas.ts; the rules every method keeps are in desk-result.ts.
 *
 * Platform-free: these files import only types from `../api`.
 */
export type * from './areas';
export * from './desk-result';
export * from './bridge-contract';
export * from './bridge-channels';
export * from './library-read';
