import type { AccountMethods } from '../../../shared/bridge';
import { noBody } from '../plumbing/call-results';
import type { WithApi } from '../plumbing/with-api';

/** The account area: deleting the account on the active server. */
export function createAccountArea(deps: {
  withApi: WithApi;
  /** Forgets this profile's sign-in; called only once the server said the account is gone. */
  forgetSignIn(): Promise<unknown>;
}): AccountMethods {
  return {
    async deleteAccount() {
      // A 409 blocker passes through with the server's `detalle`; nothing local changes then.
      const result = await deps.withApi((api) => noBody(api.deleteAccount()));
      if (result.ok) await deps.forgetSignIn();
      return result;
    },
  };
}
