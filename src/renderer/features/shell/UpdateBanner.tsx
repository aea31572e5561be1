import { useEffect, useState } from 'react';
import type { UpdateState } from '../../../shared/bridge';
import { desk } from '../../desk';
import { errorWords } from '../../error-words';

/** "Restart to update" once an update has downloaded; the app never restarts by itself. */
export function UpdateBanner() {
  const [state, setState] = useState<UpdateState | null>(null);
  const [problem, setProblem] = useState('');
  useEffect(() => {
    void desk()
      .getUpdateState()
      .then((result) => result.ok && setState(result.value));
    return desk().onUpdateState(setState);
  }, []);
  if (state?.phase !== 'ready') return null;
  const restart = async () => {
    setProblem('');
    const result = await desk().restartToUpdate();
    if (!result.ok) setProblem(errorWords(result.error));
  };
  return (
    <div className="banner update-banner" role="status" aria-label="Update">
      <span>AgentDesk {state.version ?? ''} is ready to install.</span>{' '}
      <button type="button" onClick={() => void restart()}>
        Restart to update
      </button>
      {problem ? <span className="error-text"> {problem}</span> : null}
    </div>
  );
}
