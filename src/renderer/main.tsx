import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { installWebSocketBridge } from './bridge/install-websocket-bridge';
import './ui/theme.css';
import './lazy-parts-styles';

// Browser mode: no preload gave us window.desk, so carry the bridge over the page's WebSocket.
installWebSocketBridge();

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
