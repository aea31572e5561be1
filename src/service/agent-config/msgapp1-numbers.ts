import type { Clock } from '../clock';
import type { ServiceDatabase } from '../db/database';
import { lockTable, prepare } from '../db/statement';

/**
 * The service's workspace config (`workspace` in `<dataDir>/config.json`). Without it there is no
 * workspace, so no numbers to link. The numbers belong to the workspace, not to one person: every agent
 * of the service can answer them, and pairing one to an agent takes it from whichever agent had it.
 *
 *   "workspace": { "msgapp1": { "numbers": [{ "id": "n1", "label": "+34 600 000 001" }], "salesUrl": "https://…" } }
 */
export interface WorkspaceConfig {
  msgapp1?: {
    numbers?: { id: string; label: string }[];
    /** Where to pair a new number; absent or null when the workspace has no sales channel. */
    salesUrl?: string | null;
  };
}

export interface MsgappNumbersView {
  numbers: { id: string; label: string; mine: boolean; takenByOther: boolean }[];
  hasWorkspace: boolean;
  hasSales: boolean;
  salesUrl: string | null;
}

interface LinkRow {
  number_id: string;
  agent_id: string;
  active: number;
}

export function createMsgappNumbers(
  db: ServiceDatabase,
  clock: Clock,
  workspace: () => WorkspaceConfig | undefined,
) {
  const links = prepare(db, 'SELECT number_id, agent_id, active FROM msgapp1_links');
  const upsert = prepare(
    db,
    `INSERT INTO msgapp1_links (number_id, agent_id, active, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (number_id) DO UPDATE SET agent_id = excluded.agent_id, active = excluded.active, updated_at = excluded.updated_at`,
  );

  const numbersOf = () => workspace()?.msgapp1?.numbers ?? [];

  async function view(agentId: string): Promise<MsgappNumbersView> {
    const byNumber = new Map(((await links.all()) as LinkRow[]).map((row) => [row.number_id, row]));
    const ws = workspace();
    const salesUrl = ws?.msgapp1?.salesUrl ?? null;
    return {
      numbers: numbersOf().map((n) => {
        const link = byNumber.get(n.id);
        const answered = link !== undefined && link.active === 1;
        return {
          id: n.id,
          label: n.label,
          mine: answered && link.agent_id === agentId,
          takenByOther: answered && link.agent_id !== agentId,
        };
      }),
      hasWorkspace: ws !== undefined,
      hasSales: salesUrl !== null,
      salesUrl,
    };
  }

  /**
   * The agent answers exactly `ids` from now on: each listed number is paired to it and active (taken from
   * another agent if needed); each of its numbers not listed is silenced but stays paired. Returns how many
   * numbers changed, or the unknown ids.
   */
  const put = (
    agentId: string,
    ids: string[],
  ): Promise<{ ok: true; changed: number } | { ok: false; unknown: string[] }> =>
    db.transaction().execute(async (trx) => {
      // Two agents taking the same number at once: the second waits, then sees the first's pairing.
      await lockTable(trx, 'msgapp1_links');
      const known = new Set(numbersOf().map((n) => n.id));
      const unknown = ids.filter((id) => !known.has(id));
      if (unknown.length) return { ok: false, unknown };
      const wanted = new Set(ids);
      const now = clock.now();
      let changed = 0;
      const byNumber = new Map(((await links.on(trx).all()) as LinkRow[]).map((row) => [row.number_id, row]));
      for (const id of known) {
        const link = byNumber.get(id);
        if (wanted.has(id)) {
          if (!link || link.agent_id !== agentId || link.active !== 1) {
            await upsert.on(trx).run(id, agentId, 1, now);
            changed += 1;
          }
        } else if (link && link.agent_id === agentId && link.active === 1) {
          await upsert.on(trx).run(id, agentId, 0, now);
          changed += 1;
        }
      }
      return { ok: true as const, changed };
    });

  return { view, put };
}

export type MsgappNumbers = ReturnType<typeof createMsgappNumbers>;
