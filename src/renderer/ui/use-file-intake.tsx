import { useRef, type ClipboardEvent } from 'react';

/**
 * Files the person hands over by the OS file picker or by pasting (a drop on the window is
 * `useWindowDrop`). Render `picker` (a hidden input) and call `openPicker` from a button; put
 * `onPaste` on the element that takes pastes: pasted files go to `onFiles`, pasted text is left alone.
 */
export function useFileIntake(onFiles: (files: File[]) => void, pickerLabel: string) {
  const input = useRef<HTMLInputElement>(null);
  const picker = (
    <input
      ref={input}
      type="file"
      multiple
      hidden
      aria-label={pickerLabel}
      onChange={(event) => {
        const chosen = [...(event.target.files ?? [])];
        // Cleared so that choosing the same file again still fires a change.
        event.target.value = '';
        onFiles(chosen);
      }}
    />
  );
  const onPaste = (event: ClipboardEvent<HTMLElement>) => {
    const pasted = [...event.clipboardData.files];
    if (pasted.length === 0) return;
    event.preventDefault();
    onFiles(pasted);
  };
  return { picker, openPicker: () => input.current?.click(), onPaste };
}
