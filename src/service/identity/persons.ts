import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import type { ServiceDatabase } from '../db/database';
import { prepare } from '../db/statement';
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
  const byEmail = prepare(db, 'SELECT id, email, password_hash FROM persons WHERE email = ?');
  const byId = prepare(db, 'SELECT id, email FROM persons WHERE id = ?');
  const insert = prepare(
    db,
    'INSERT INTO persons (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)',
  );
  const count = prepare(db, 'SELECT COUNT(*) AS n FROM persons');
  const firstStmt = prepare(db, 'SELECT id, email FROM persons ORDER BY created_at, rowid LIMIT 1');

  return {
    async create(email: string, password: string): Promise<CreatePersonResult> {
      const clean = email.trim();
      if (!isEmail(clean) || password.length < 8 || password.length > 1024)
        return { ok: false, code: 'invalid' };
      const hash = await hashPassword(password);
      if (await byEmail.get(clean)) return { ok: false, code: 'email_taken' };
      const person = { id: randomUUID(), email: clean };
      await insert.run(person.id, person.email, hash, clock.now());
      return { ok: true, person };
    },
    /**
     * The owner made by the app's own trust path (identity/launch-trust.ts): no password, so no form ever
     * signs in as them ('' is no scrypt hash, and verifyPassword refuses it). A taken e-mail gets a suffix.
     */
    async createWithoutPassword(email: string): Promise<Person> {
      const [local, domain] = email.split('@');
      let candidate = email;
      for (let n = 2; await byEmail.get(candidate); n++) candidate = `${local}${n}@${domain}`;
      const person = { id: randomUUID(), email: candidate };
      await insert.run(person.id, person.email, '', clock.now());
      return person;
    },
    /** The first account made on this service (the computer's owner for the app's trust path). */
    async first(): Promise<Person | null> {
      return ((await firstStmt.get()) as Person | undefined) ?? null;
    },
    async authenticate(email: string, password: string): Promise<Person | null> {
      const row = (await byEmail.get(email.trim())) as
        { id: string; email: string; password_hash: string } | undefined;
      if (!row) {
        decoyHash ??= hashPassword('decoy password');
        await verifyPassword(password, await decoyHash);
        return null;
      }
      return (await verifyPassword(password, row.password_hash)) ? { id: row.id, email: row.email } : null;
    },
    async findById(id: string): Promise<Person | null> {
      return ((await byId.get(id)) as Person | undefined) ?? null;
    },
    async findByEmail(email: string): Promise<Person | null> {
      const row = (await byEmail.get(email.trim())) as Person | undefined;
      return row ? { id: row.id, email: row.email } : null;
    },
    async count(): Promise<number> {
      return ((await count.get()) as { n: number }).n;
    },
  };
}

export type PersonStore = ReturnType<typeof createPersonStore>;

export function isEmail(text: string): boolean {
  return text.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(text);
}
