import pg from 'pg';
import pgUtils from 'pg/lib/utils.js';

/**
 * A statement's execution on PostgreSQL, as pg's own Query, less what a named statement repeats.
 *
 * pg asks the server to describe every execution's result (a Describe message, answered by a
 * RowDescription), then looks up a parser per column. A named statement's result columns cannot
 * change while its connection keeps it prepared: a schema change that would change them makes the
 * server refuse the statement instead ("cached plan must not change result type"), and the caller
 * then prepares every statement afresh under new names. So a connection's first execution of a
 * statement describes it, and the executions after reuse that description, its parsers and its
 * empty row, and send Bind, Execute and Sync only: the server builds and sends no RowDescription
 * and the driver parses none.
 *
 * The description is kept per connection, never per process: a connection opened after a migration
 * prepares the statement's text against the new schema, and its columns may differ.
 */
export class LeanQuery extends (pg.Query as unknown as QueryClass) {
  // Set when this execution asked for a description, so its answer (rows or none) can be kept.
  private describing = false;
  // Set when this execution reads its rows by a description an earlier one kept.
  private reusing = false;
  /** false: every run asks for its description (a transaction-mode pooler stands between). */
  keepsDescriptions = true;
  private connection: Connection | undefined;

  override prepare(connection: Connection): void {
    const name = this.name;
    if (name === undefined || !this.hasBeenParsed(connection)) {
      connection.parse({ text: this.text, name, types: this.types });
      if (name !== undefined) connection.submittedNamedStatements[name] = this.text;
    }
    try {
      connection.bind({ statement: name, values: this.values, valueMapper: toWire });
    } catch (error) {
      // Nothing of the execution was written, and what was parsed stays prepared (pg closes it, yet
      // goes on counting it as prepared). The Sync's ReadyForQuery answers the error.
      this._canceledDueToError = error as Error;
      connection.sync();
      return;
    }
    const keeps = name !== undefined && this.keepsDescriptions;
    const known = keeps ? descriptionsOf(connection).get(name) : undefined;
    if (known === undefined) {
      this.describing = keeps;
      connection.describe({ type: 'P', name: '' });
    } else {
      this.reusing = true;
      const result = this._result;
      result.fields = known.fields;
      result._parsers = known.parsers;
      result._prebuiltEmptyResultObject = known.emptyRow;
      this._accumulateRows = true;
    }
    connection.execute({});
    connection.sync();
  }

  override handleRowDescription(message: { fields: FieldDescription[] }): void {
    super.handleRowDescription(message);
    if (this.describing) this.remember(message.fields);
  }

  /**
   * A pooler in transaction mode (PgBouncer's max_prepared_statements) may prepare the statement
   * again on another server connection, after a migration changed its columns, where this
   * connection would have been refused: rows of another width than the kept description are then
   * refused with the code of that refusal and the description forgotten. Unlike that refusal, it
   * comes after the statement ran: the caller must not send it again outside a transaction. Columns
   * changed without a change of width go unseen (DATABASE_POOL_MODE=transaction describes every run).
   */
  override handleDataRow(message: { fields: unknown[] }): void {
    if (this.reusing && message.fields.length !== this._result.fields.length && !this._canceledDueToError) {
      if (this.connection !== undefined && this.name !== undefined)
        descriptionsOf(this.connection).delete(this.name);
      this._canceledDueToError = new StaleDescriptionError();
      return;
    }
    super.handleDataRow(message);
  }

  override handleCommandComplete(message: unknown, connection: Connection): void {
    // A statement that returns no rows is described by NoData, which pg does not pass on: its
    // CommandComplete without a RowDescription before it is that description.
    if (this.describing) this.remember([]);
    super.handleCommandComplete(message, connection);
  }

  private remember(fields: FieldDescription[]): void {
    this.describing = false;
    const connection = this.connection;
    if (connection === undefined || this.name === undefined) return;
    const result = this._result;
    descriptionsOf(connection).set(this.name, {
      fields,
      parsers: fields.length === 0 ? [] : result._parsers,
      emptyRow: fields.length === 0 ? {} : result._prebuiltEmptyResultObject,
    });
  }

  override submit(connection: Connection): Error | null {
    this.connection = connection;
    return super.submit(connection);
  }
}

/**
 * Rows that no longer match their kept description, refused with the code PostgreSQL refuses a
 * prepared statement whose columns changed (isStalePlan knows it), but after the statement ran.
 */
export class StaleDescriptionError extends Error {
  readonly code = '0A000';
  readonly routine = 'RevalidateCachedQuery';
  constructor() {
    super('cached plan must not change result type (its rows no longer match their kept description)');
  }
}

/**
 * Parameters as pg sends them (bigints and arrays of them as decimal text, dates in the process's
 * zone, objects as JSON); a string, most of them, as it is.
 */
const toWire = (value: unknown): unknown => (typeof value === 'string' ? value : pgUtils.prepareValue(value));

interface FieldDescription {
  name: string;
  dataTypeID: number;
  format: string;
}

interface Description {
  fields: FieldDescription[];
  parsers: unknown[];
  emptyRow: object;
}

const descriptions = new WeakMap<Connection, Map<string, Description>>();

function descriptionsOf(connection: Connection): Map<string, Description> {
  let known = descriptions.get(connection);
  if (known === undefined) {
    known = new Map();
    descriptions.set(connection, known);
  }
  return known;
}

/** The parts of pg's connection a query speaks through (pg's own names; untyped in @types/pg). */
interface Connection {
  submittedNamedStatements: Record<string, string>;
  parse(message: { text: string; name?: string; types?: unknown }): void;
  bind(message: { statement?: string; values?: unknown[]; valueMapper: (value: unknown) => unknown }): void;
  describe(message: { type: 'P'; name: string }): void;
  execute(message: object): void;
  sync(): void;
}

/** The parts of pg's Query this class overrides or reads (pg's own names; untyped in @types/pg). */
interface QueryInternals {
  text: string;
  name: string | undefined;
  types: unknown;
  values: unknown[] | undefined;
  callback: ((error: Error | null, result?: unknown) => void) | undefined;
  _accumulateRows: boolean;
  _canceledDueToError: Error | false;
  _result: { fields: FieldDescription[]; _parsers: unknown[]; _prebuiltEmptyResultObject: object };
  prepare(connection: Connection): void;
  hasBeenParsed(connection: Connection): boolean;
  submit(connection: Connection): Error | null;
  handleRowDescription(message: { fields: FieldDescription[] }): void;
  handleDataRow(message: { fields: unknown[] }): void;
  handleCommandComplete(message: unknown, connection: Connection): void;
}

type QueryClass = new (config: { name?: string; text: string; values?: unknown[] }) => QueryInternals;
