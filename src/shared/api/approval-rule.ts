/**
 * An approval rule as every layer of the client holds it (the wire's `ApprovalRule` in our words): an
 * agent's standing answer to a permission request, for one tool and, optionally, paths under one folder.
 */
export interface ApprovalRuleView {
  id: string;
  effect: 'allow' | 'deny';
  /** The request's tool call `kind` (`edit`, `execute`...) where it has one, else its `tool`. */
  tool: string;
  /** Only paths that are this folder or under it; null for any path. */
  folder: string | null;
  /** Epoch ms. */
  madeAt: number;
}
