import './dictation.css';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { desk } from '../../desk';
import { errorWords } from '../../error-words';
import { selectDraft, useDraftsStore } from '../../stores/drafts-store';
import { readFiles } from '../../ui/read-files';
import { insertAtCursor } from '../../model/insert-at-cursor';
import { microphoneProblem, startRecording, type Recording } from './recorder';

/** Longest recording; the plan may cap audio lower (413), which is said plainly. */
const MAX_SECONDS = 300;

type Phase = { kind: 'idle' } | { kind: 'recording'; since: number } | { kind: 'transcribing' };

/**
 * The composer's microphone: record (with level and elapsed time), stop, and the transcript from
 * `POST /me/stt` goes in at the cursor. Mod+Shift+M starts and stops it.
 */
export function MicButton(props: {
  sessionId: string;
  input: RefObject<HTMLTextAreaElement | null>;
  onProblem(problem: string): void;
}) {
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [levelNow, setLevelNow] = useState(0);
  const [elapsed, setElapsed] = useState(0);
  const recording = useRef<Recording | null>(null);
  const toggleRef = useRef<() => void>(() => undefined);

  const start = async () => {
    props.onProblem('');
    try {
      recording.current = await startRecording(setLevelNow);
      setElapsed(0);
      setPhase({ kind: 'recording', since: Date.now() });
    } catch (error) {
      props.onProblem(microphoneProblem(error));
      // Nothing is recording: the button must not keep looking pressed, and the person goes on typing.
      props.input.current?.focus();
    }
  };

  const stop = async () => {
    const current = recording.current;
    recording.current = null;
    if (!current) return;
    setPhase({ kind: 'transcribing' });
    const wav = await current.stop();
    const [audio] = await readFiles([new File([wav], 'dictation.wav', { type: 'audio/wav' })]);
    const result = await desk().transcribe({ audioBase64: audio?.data ?? '', mimeType: 'audio/wav' });
    setPhase({ kind: 'idle' });
    setLevelNow(0);
    if (!result.ok) {
      return props.onProblem(
        result.error.status === 413
          ? 'That recording is longer than your plan allows. Record a shorter part and try again.'
          : `Dictation did not work: ${errorWords(result.error)}`,
      );
    }
    if (!result.value.text.trim()) return props.onProblem('No speech was heard in that recording.');
    insert(result.value.text);
  };

  const insert = (spoken: string) => {
    const box = props.input.current;
    const draft = selectDraft(props.sessionId)(useDraftsStore.getState()).text;
    const start = box?.selectionStart ?? draft.length;
    const end = box?.selectionEnd ?? draft.length;
    const next = insertAtCursor(draft, start, end, spoken);
    useDraftsStore.getState().setText(props.sessionId, next.text);
    requestAnimationFrame(() => {
      box?.focus();
      box?.setSelectionRange(next.cursor, next.cursor);
    });
  };

  toggleRef.current = () => {
    if (phase.kind === 'idle') void start();
    else if (phase.kind === 'recording') void stop();
  };

  useEffect(() => {
    if (phase.kind !== 'recording') return;
    const timer = setInterval(() => {
      const seconds = Math.floor((Date.now() - phase.since) / 1000);
      setElapsed(seconds);
      if (seconds >= MAX_SECONDS) toggleRef.current();
    }, 250);
    return () => clearInterval(timer);
  }, [phase]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.shiftKey && event.key.toLowerCase() === 'm') {
        event.preventDefault();
        toggleRef.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      recording.current?.discard();
    };
  }, []);

  if (phase.kind === 'recording') {
    return (
      <div className="dictation" role="group" aria-label="Dictation">
        <span className="rec-dot" aria-hidden="true" />
        <meter className="rec-level" aria-label="Microphone level" min={0} max={1} value={levelNow} />
        <span className="rec-time" aria-label="Recording time">
          {Math.floor(elapsed / 60)}:{String(elapsed % 60).padStart(2, '0')}
        </span>
        <button type="button" className="small primary" onClick={() => void stop()}>
          Stop
        </button>
      </div>
    );
  }
  return (
    <button
      type="button"
      className="icon mic"
      aria-label={phase.kind === 'transcribing' ? 'Transcribing…' : 'Dictate'}
      title="Dictate (Ctrl/Cmd+Shift+M)"
      disabled={phase.kind === 'transcribing'}
      onClick={() => void start()}
    >
      {phase.kind === 'transcribing' ? '…' : <MicIcon />}
    </button>
  );
}

/** A drawn microphone, so no emoji font is needed. */
function MicIcon() {
  return (
    <svg width="14" height="16" viewBox="0 0 14 16" aria-hidden="true">
      <rect x="4" y="1" width="6" height="9" rx="3" fill="currentColor" />
      <path d="M1.5 7.5a5.5 5.5 0 0 0 11 0M7 13v2.5" stroke="currentColor" strokeWidth="1.5" fill="none" />
    </svg>
  );
}
