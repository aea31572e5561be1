import { useUiStore } from '../../stores/ui-store';
import './message-actions.css';

/** The first Tab stop of the chat: straight to the message box, past the sidebar and the transcript. */
export function SkipToComposer() {
  return (
    <a
      className="skip-link"
      href="#message-box"
      onClick={(event) => {
        event.preventDefault();
        useUiStore.getState().focusComposer();
      }}
    >
      Skip to the message box
    </a>
  );
}
