import { useEffect, useState } from 'react';

/**
 * Gives focus back to the element that had it when a dialog opened, once the dialog goes away (Escape,
 * a button, a click outside). Without it a removed dialog leaves focus on the page body, and a keyboard
 * user starts again from the top. Nothing is done when something else already took focus meanwhile,
 * or when the opener itself is gone.
 */
export function useReturnFocus(): void {
  // Read while rendering: by the time effects run, an autoFocus field inside the dialog has focus.
  const [opener] = useState(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );
  useEffect(
    () => () => {
      const now = document.activeElement;
      const lost = !now || now === document.body || !now.isConnected;
      if (lost && opener?.isConnected) opener.focus();
    },
    [opener],
  );
}
