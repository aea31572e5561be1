/** What the person may be working in outside the chat: a field, a slider or separator moved by keys. */
const WORKING = 'input, textarea, select, [contenteditable="true"], [role="separator"], [role="slider"]';

/**
 * Whether the person is working in a control of the sidebar or a dialog (typing in a field, moving the
 * sidebar's edge by keys). A message box that opens by itself (a conversation a slow host opens late, the
 * place remembered from the last run) then leaves the focus where it is: taking it would send the next
 * keys into the message. A box the person asked for (Mod+N, Shift+Escape) takes it all the same.
 */
export function workingElsewhere(): boolean {
  const active = document.activeElement;
  return (
    !!active?.matches(WORKING) && !!active.closest('aside.sidebar, [role="dialog"], [role="alertdialog"]')
  );
}
