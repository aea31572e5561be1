import type { RunningService } from '../../../src/service/index';

/** Sign-ins of a person the service still honours: token families with no revoked token. */
export function liveSignIns(service: RunningService, email: string): number {
  const personId = service.context.identity.persons.findByEmail(email)?.id;
  const row = service.context.db
    .prepare(
      'SELECT COUNT(DISTINCT family_id) AS n FROM oauth_tokens WHERE person_id = ? AND revoked_at IS NULL',
    )
    .get(personId) as { n: number };
  return row.n;
}
