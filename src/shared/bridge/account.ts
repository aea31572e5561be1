/** The account area: the person's account on the active server, beyond signing in and out. */
import { bridgeArea } from './bridge-area';
import type { DeskResult } from './desk-result';

export interface AccountMethods {
  /**
   * `DELETE /api/v2/me`. Only when the server answers that the account is gone does the host forget
   * this profile's sign-in; a 409 blocker comes back as the failure with the server's `detalle`.
   */
  deleteAccount(): Promise<DeskResult<void>>;
}

export const accountArea = bridgeArea<AccountMethods>()({
  calls: ['deleteAccount'],
});
