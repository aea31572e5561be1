import './sign-in.css';
import type { SignInProgress } from '../../../shared/bridge';

/** The steps a sign-in walks through, in order; the current one is marked, the earlier ones done. */
const LOCAL_STEPS = ['Starting AgentDesk on this computer', 'Opening your agent'] as const;
const BROWSER_STEPS = [
  'Connecting to the server',
  'Signing in in your browser',
  'Finishing sign-in',
] as const;

function stepIndex(where: 'local' | 'custom', progress: SignInProgress | undefined): number {
  if (where === 'local') return progress?.phase === 'starting-service' || !progress ? 0 : 1;
  if (!progress) return 0;
  return progress.phase === 'exchanging-code' ? 2 : 1;
}

/**
 * The sign-in card while it works: what is happening, what comes next and a way out, instead of a lone
 * spinner. On "this computer" it takes a moment and needs nothing from the person.
 */
export function SignInWaiting(props: {
  where: 'local' | 'custom';
  progress: SignInProgress | undefined;
  onCancel(): void;
}) {
  const { progress } = props;
  // "This computer" goes through the browser too where its service does not trust the app.
  const where = progress && progress.phase !== 'starting-service' ? 'custom' : props.where;
  const steps = where === 'local' ? LOCAL_STEPS : BROWSER_STEPS;
  const current = stepIndex(where, progress);
  const title = where === 'local' ? 'Getting AgentDesk ready' : 'Signing you in';
  return (
    <section className="sign-in-waiting" aria-labelledby="sign-in-waiting-title" aria-busy="true">
      <h2 id="sign-in-waiting-title">{title}</h2>
      <div className="progress-track" aria-hidden="true">
        <div className="progress-bar" />
      </div>
      <ol className="sign-in-steps">
        {steps.map((step, index) => (
          <li
            key={step}
            className={index < current ? 'done' : index === current ? 'current' : 'next'}
            aria-current={index === current ? 'step' : undefined}
          >
            {step}
          </li>
        ))}
      </ol>
      <p role="status" className="muted">
        {where === 'local'
          ? 'This takes a few seconds. Nothing to type: this computer is yours.'
          : 'Waiting for you to finish signing in in your browser. Come back here when it says you’re signed in.'}
      </p>
      <div className="sign-in-waiting-actions">
        {progress?.authorizeUrl ? (
          <a href={progress.authorizeUrl} target="_blank" rel="noreferrer noopener">
            Open the sign-in page again
          </a>
        ) : null}
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}
