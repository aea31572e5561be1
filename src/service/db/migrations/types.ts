/** One versioned schema step. `id` sorts in apply order (e.g. `001_identity`). */
export interface Migration {
  id: string;
  sql: string;
}
