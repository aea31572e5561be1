import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { QuickApp } from './QuickApp';
import { installWebSocketBridge } from './bridge/install-websocket-bridge';
import { steadyCaretWhenIdle } from './ui/steady-caret';
import './ui/theme.css';
import './lazy-parts-styles';

// Browser mode: no preload gave us window.desk, so carry the bridge over the page's WebSocket.
installWebSocketBridge();
// Text boxes stop blinking after a while without input, as in native apps (the window then repaints nothing).
steadyCaretWhenIdle();
// The quick chat window (the desktop app's global shortcut) is the same page at #quick (#key=…&quick in browser mode).
const quick = new URLSearchParams(window.location.hash.slice(1)).has('quick');

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
createRoot(root).render(<StrictMode>{quick ? <QuickApp /> : <App />}</StrictMode>);
