import { useState, type RefObject } from 'react';
import { MicButton } from './dictation/MicButton';
import { lazyPart, WhenLoaded } from '../ui/lazy-part';

const LibraryPicker = lazyPart(() => import('./library/LibraryPicker').then((m) => m.LibraryPicker));

/** The composer's dictation and "attach from library" buttons (handed to the chat as its tools slot). */
export function ComposerTools(props: {
  sessionId: string;
  input: RefObject<HTMLTextAreaElement | null>;
  onProblems(problems: string[]): void;
}) {
  const [picking, setPicking] = useState(false);
  return (
    <>
      <button
        type="button"
        className="icon"
        aria-label="Attach from library"
        title="Attach files from your library"
        onClick={() => setPicking(true)}
      >
        <LibraryIcon />
      </button>
      <MicButton
        sessionId={props.sessionId}
        input={props.input}
        onProblem={(problem) => props.onProblems(problem ? [problem] : [])}
      />
      {picking ? (
        <WhenLoaded fallback={null}>
          <LibraryPicker
            sessionId={props.sessionId}
            onDone={(problems) => {
              setPicking(false);
              props.onProblems(problems);
            }}
          />
        </WhenLoaded>
      ) : null}
    </>
  );
}

/** A drawn stack of files, so no emoji font is needed. */
function LibraryIcon() {
  return (
    <svg width="15" height="15" viewBox="0 0 15 15" aria-hidden="true">
      <rect
        x="4.5"
        y="1"
        width="9"
        height="11"
        rx="1.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.3"
      />
      <path d="M2 4v8.5A1.5 1.5 0 0 0 3.5 14H11" fill="none" stroke="currentColor" strokeWidth="1.3" />
    </svg>
  );
}
