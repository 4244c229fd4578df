import type { PoolClient, QueryResult, QueryResultRow } from 'pg';

/** Whether COMMIT has been sent (a connection lost after that leaves the outcome unknown). */
export interface CommitState {
  committing: boolean;
}

/**
 * A transaction on one pooled connection whose opening statements (`BEGIN`, the `SET LOCAL`s) are
 * not sent alone: they travel with the first message. `batch` sends several statements (their
 * values already inlined as literals) as one simple-protocol message, so a write whose statements
 * do not need each other's results is one round trip, and `COMMIT` can end that message.
 */
export class Transaction {
  readonly #client: PoolClient;
  readonly #state: CommitState;
  /** Citus forwards a SET's whole message text to the workers, so there the opening goes alone. */
  readonly #openAlone: boolean;
  #opening: string[] | undefined;
  #done = false;

  constructor(client: PoolClient, opening: string[], state: CommitState, openAlone: boolean) {
    this.#client = client;
    this.#opening = opening;
    this.#state = state;
    this.#openAlone = openAlone;
  }

  /** One statement with bind parameters (its own round trip; the opening statements go first). */
  async query<R extends QueryResultRow = QueryResultRow>(sql: string, params?: unknown[]): Promise<QueryResult<R>> {
    await this.#open();
    return this.#client.query<R>(sql, params);
  }

  /**
   * `statements` as one message (after the opening ones when they have not been sent), ended by
   * `COMMIT` when `commit` is true; resolves to the result of each statement given. If one fails,
   * PostgreSQL skips the rest (COMMIT included) and the transaction is rolled back.
   */
  async batch<R extends QueryResultRow = QueryResultRow>(
    statements: readonly string[],
    commit = false,
  ): Promise<QueryResult<R>[]> {
    let lead: string[] = [];
    if (this.#opening && !this.#openAlone) {
      lead = this.#opening;
      this.#opening = undefined;
    } else await this.#open();
    if (commit) {
      this.#state.committing = true;
      this.#done = true;
    }
    const all = [...lead, ...statements, ...(commit ? ['COMMIT'] : [])];
    const r = (await this.#client.query(all.join(';\n'))) as unknown as QueryResult<R> | QueryResult<R>[];
    const results = Array.isArray(r) ? r : [r];
    return results.slice(lead.length, lead.length + statements.length);
  }

  /** COMMIT, unless a batch already did (or nothing was ever sent). */
  async commit(): Promise<void> {
    if (this.#done) return;
    this.#done = true;
    if (this.#opening) return;
    this.#state.committing = true;
    await this.#client.query('COMMIT');
  }

  async #open(): Promise<void> {
    if (!this.#opening) return;
    const opening = this.#opening;
    this.#opening = undefined;
    await this.#client.query(opening.join('; '));
  }
}
