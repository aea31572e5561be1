import { contextBridge, ipcRenderer } from 'electron';
import { createPreloadBridge } from './desk-bridge';

// Named, typed functions only: never ipcRenderer or a generic invoke.
contextBridge.exposeInMainWorld('desk', createPreloadBridge(ipcRenderer));
