import type { RunningService } from '../../../src/service/index';
import { storeRow } from '../../support/store-query';

/** Sign-ins of a person the service still honours: token families with no revoked token. */
export async function liveSignIns(service: RunningService, email: string): Promise<number> {
  const personId = (await service.context.identity.persons.findByEmail(email))?.id;
  const row = await storeRow<{ n: number }>(
    service,
    'SELECT COUNT(DISTINCT family_id) AS n FROM oauth_tokens WHERE person_id = ? AND revoked_at IS NULL',
    personId,
  );
  return row.n;
}
