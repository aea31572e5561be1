import { contextBridge } from 'electron';
import type { DeskBridge } from '../shared/bridge';

// Named, typed functions only: never ipcRenderer or a generic invoke.
const desk: DeskBridge = {};

contextBridge.exposeInMainWorld('desk', desk);
