import { useEffect, useRef, useState } from 'react';
import { LIMITS, TryBody, type TryResult } from '../../../shared/api';
import type { DeskError } from '../../../shared/bridge';
import { desk } from '../../desk';
import { errorWords } from '../../error-words';
import { checkForm } from '../../model/form-problems';
import { useAgentConfigStore } from '../../stores/agent-config-store';

type Answer = { kind: 'reply'; value: TryResult } | { kind: 'failure'; message: string };

/** A try failure in plain words: a busy session (409) and a turn that failed without text (502) by name. */
function tryFailureWords(error: DeskError): string {
  if (error.code === 'turno_en_curso' || error.status === 409)
    return 'A try is still running in this session. Wait for it to finish, or use another session name.';
  if (error.status === 502) return `The try failed without a reply: ${error.message}`;
  if (error.code === 'cancelled') return 'Stopped waiting. The agent may still finish the reply.';
  return errorWords(error);
}

/** The side panel that sends one try turn (POST try) and waits for it, up to 180 s, with cancel. */
export function TryPanel(props: { agentId: string }) {
  const { agentId } = props;
  const [text, setText] = useState('');
  const [session, setSession] = useState('default');
  const [reset, setReset] = useState(false);
  const [asCustomer, setAsCustomer] = useState(false);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [running, setRunning] = useState<{ id: string; since: number } | null>(null);
  const [elapsed, setElapsed] = useState(0);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const input = useRef<HTMLTextAreaElement>(null);

  useEffect(() => input.current?.focus(), []);
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setElapsed(Math.round((Date.now() - running.since) / 1000)), 500);
    return () => clearInterval(timer);
  }, [running]);

  const send = async () => {
    const body = {
      text,
      session,
      ...(reset ? { reset: true } : {}),
      ...(asCustomer ? { as: 'msgapp1' as const } : {}),
    };
    const checked = checkForm(TryBody, body);
    if (!checked.ok) return setProblems(checked.problems);
    if (!text.trim()) return setProblems({ text: 'Write a message to try.' });
    setProblems({});
    setAnswer(null);
    const id = `try-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    setRunning({ id, since: Date.now() });
    setElapsed(0);
    const result = await desk().tryAgent(agentId, body, id);
    setRunning(null);
    setAnswer(
      result.ok
        ? { kind: 'reply', value: result.value }
        : { kind: 'failure', message: tryFailureWords(result.error) },
    );
    if (result.ok && reset) setReset(false);
  };

  return (
    <aside className="studio-try" aria-label="Try panel">
      <div className="studio-try-head">
        <h2>Try it</h2>
        <button
          type="button"
          className="small"
          onClick={() => useAgentConfigStore.getState().toggleTry(false)}
        >
          Close
        </button>
      </div>
      <p className="studio-help">
        A try sends a real message to the agent and waits up to 3 minutes for the reply.
      </p>
      <form
        className="studio-form"
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <label className="studio-toggle-line">
          <input type="checkbox" checked={asCustomer} onChange={(e) => setAsCustomer(e.target.checked)} />
          As a business chat customer (nothing is sent out)
        </label>
        <label htmlFor="try-session">
          {asCustomer ? 'Customer phone number (10 to 15 digits)' : 'Session'}
        </label>
        <input
          id="try-session"
          value={session}
          inputMode={asCustomer ? 'numeric' : 'text'}
          maxLength={LIMITS.trySessionMax}
          aria-invalid={!!problems.session}
          aria-describedby="try-session-problem"
          onChange={(e) => setSession(e.target.value)}
        />
        {problems.session ? (
          <p id="try-session-problem" className="field-problem" role="alert">
            {problems.session}
          </p>
        ) : null}
        <label className="studio-toggle-line">
          <input type="checkbox" checked={reset} onChange={(e) => setReset(e.target.checked)} />
          Forget this session first (reset)
        </label>
        <label htmlFor="try-text">Message</label>
        <textarea
          id="try-text"
          ref={input}
          rows={4}
          value={text}
          aria-invalid={!!problems.text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) void send();
          }}
        />
        {problems.text ? (
          <p className="field-problem" role="alert">
            {problems.text}
          </p>
        ) : null}
        <div className="studio-actions">
          <button type="submit" className="primary" disabled={!!running}>
            Send try
          </button>
          {running ? (
            <button type="button" onClick={() => void desk().cancelTry(running.id)}>
              Cancel
            </button>
          ) : null}
        </div>
      </form>
      {running ? (
        <p className="studio-waiting" role="status">
          <span className="spinner" aria-hidden="true" /> Waiting for the agent… {elapsed} s of up to 180 s (3
          minutes)
        </p>
      ) : null}
      {answer?.kind === 'reply' ? (
        <div className="studio-try-answer" role="region" aria-label="Try reply">
          <p className="muted small-text">Session {answer.value.session}</p>
          {answer.value.text ? <p className="studio-try-text">{answer.value.text}</p> : null}
          {answer.value.error ? (
            <p className="error-text" role="alert">
              The turn reported a problem: {answer.value.error}
            </p>
          ) : null}
        </div>
      ) : null}
      {answer?.kind === 'failure' ? (
        <p className="error-text studio-try-answer" role="alert">
          {answer.message}
        </p>
      ) : null}
    </aside>
  );
}
