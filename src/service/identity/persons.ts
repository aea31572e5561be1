import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import type { ServiceDatabase } from '../db/database';
import { hashPassword, verifyPassword } from '../security/password';

export interface Person {
  id: string;
  email: string;
}

export type CreatePersonResult =
  { ok: true; person: Person } | { ok: false; code: 'email_taken' | 'invalid' };

// Verified against when the e-mail is unknown, so a miss costs as much time as a wrong password.
let decoyHash: Promise<string> | undefined;

export function createPersonStore(db: ServiceDatabase, clock: Clock) {
  const byEmail = db.prepare('SELECT id, email, password_hash FROM persons WHERE email = ?');
  const byId = db.prepare('SELECT id, email FROM persons WHERE id = ?');
  const insert = db.prepare('INSERT INTO persons (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)');
  const count = db.prepare('SELECT COUNT(*) AS n FROM persons');
  const firstStmt = db.prepare('SELECT id, email FROM persons ORDER BY created_at, rowid LIMIT 1');

  return {
    async create(email: string, password: string): Promise<CreatePersonResult> {
      const clean = email.trim();
      if (!isEmail(clean) || password.length < 8 || password.length > 1024)
        return { ok: false, code: 'invalid' };
      const hash = await hashPassword(password);
      if (byEmail.get(clean)) return { ok: false, code: 'email_taken' };
      const person = { id: randomUUID(), email: clean };
      insert.run(person.id, person.email, hash, clock.now());
      return { ok: true, person };
    },
    /**
     * The owner made by the app's own trust path (identity/launch-trust.ts): no password, so no form ever
     * signs in as them ('' is no scrypt hash, and verifyPassword refuses it). A taken e-mail gets a suffix.
     */
    createWithoutPassword(email: string): Person {
      const [local, domain] = email.split('@');
      let candidate = email;
      for (let n = 2; byEmail.get(candidate); n++) candidate = `${local}${n}@${domain}`;
      const person = { id: randomUUID(), email: candidate };
      insert.run(person.id, person.email, '', clock.now());
      return person;
    },
    /** The first account made on this service (the computer's owner for the app's trust path). */
    first(): Person | null {
      return (firstStmt.get() as Person | undefined) ?? null;
    },
    async authenticate(email: string, password: string): Promise<Person | null> {
      const row = byEmail.get(email.trim()) as
        { id: string; email: string; password_hash: string } | undefined;
      if (!row) {
        decoyHash ??= hashPassword('decoy password');
        await verifyPassword(password, await decoyHash);
        return null;
      }
      return (await verifyPassword(password, row.password_hash)) ? { id: row.id, email: row.email } : null;
    },
    findById(id: string): Person | null {
      return (byId.get(id) as Person | undefined) ?? null;
    },
    findByEmail(email: string): Person | null {
      const row = byEmail.get(email.trim()) as Person | undefined;
      return row ? { id: row.id, email: row.email } : null;
    },
    count(): number {
      return (count.get() as { n: number }).n;
    },
  };
}

export type PersonStore = ReturnType<typeof createPersonStore>;

export function isEmail(text: string): boolean {
  return text.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(text);
}
