import type * as Pg from 'pg';
import { createRequire } from 'node:module';
import type { PgField } from './pg-row-shapes.js';

const require = createRequire(import.meta.url);

/** node-pg's row parser (its exported `Result`), loaded with the first pipeline (a SQLite app never loads pg). */
interface PgDriver {
  readonly Result: new (rowMode: 'array', types: unknown) => PgResultParser;
}
let driver: PgDriver | undefined;
const pg = (): PgDriver => (driver ??= { Result: (require('pg') as typeof Pg & PgDriver).Result });

/**
 * A parameter as the wire carries it, in text: what node-pg does for a query's values, written
 * here because node-pg keeps its mapping in a module that is not part of its API. The values
 * come encoded by `sql-codec.ts` (text, numbers, booleans, null, JSON text, id lists).
 */
export function wireValue(value: unknown): string | Buffer | null {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return arrayLiteral(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A PostgreSQL array literal: `{1,2}`, `{"a b","c\\"d"}`, NULL for null. */
function arrayLiteral(values: readonly unknown[]): string {
  const items = values.map((v) => {
    if (v === null || v === undefined) return 'NULL';
    if (Array.isArray(v)) return arrayLiteral(v);
    const text = wireValue(v);
    return `"${String(text).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  });
  return `{${items.join(',')}}`;
}

/** One statement of a pipeline: its `$n` text and values. */
export interface PipelinedStatement {
  readonly text: string;
  readonly values: readonly unknown[];
}

/** A statement's rows (arrays in the order of `fields`) and the fields naming them. */
export interface PipelinedResult {
  readonly rows: unknown[][];
  readonly fields: readonly PgField[];
}

/** The failure of a pipeline, with the index of the statement the server was running. */
export type PipelineError = Error & { statementIndex?: number };

interface PgResultParser {
  fields: PgField[];
  addFields(fields: unknown[]): void;
  parseRow(values: unknown[]): unknown[];
}

/** node-pg's wire connection, as far as a submittable writes to it (what pg-cursor writes too). */
interface WireConnection {
  stream: { cork?(): void; uncork?(): void };
  parse(config: { text: string; name?: string }): void;
  bind(config: { statement: string; values: unknown[] }): void;
  describe(config: { type: 'P'; name: string }): void;
  execute(config: { portal: string }): void;
  sync(): void;
  sendCopyFail(message: string): void;
}

/** Where a statement's column types are read: the pg client (its type overrides). */
export interface TypeSource {
  getTypeParser(oid: number, format?: string): unknown;
}

/**
 * Several statements in one round trip, with PostgreSQL's extended protocol: for each, a Parse
 * (unnamed), a Bind, a Describe and an Execute; then one Sync. Outside a BEGIN, the server runs
 * what comes before a Sync as one implicit transaction: the statements commit together, or the
 * first error rolls back all of them and the server skips the rest up to the Sync.
 *
 * A node-pg submittable (`client.query(submittable)`, the interface pg-cursor and
 * pg-query-stream are built on): the client hands it each backend message; `text` names the
 * statement the server is at.
 */
export class PgPipeline {
  /** The statement the server is at: the number of statements completed so far. */
  private current = 0;
  private readonly results: { rows: unknown[][]; fields: readonly PgField[] }[];
  private parser: PgResultParser | undefined;
  /** A row that failed to parse: reported once the server is ready again. */
  private failure: Error | undefined;

  constructor(
    private readonly statements: readonly PipelinedStatement[],
    private readonly types: TypeSource,
    /** node-pg wraps it when the connection has a read timeout. */
    public callback: (error: PipelineError | null, results?: PipelinedResult[]) => void,
  ) {
    this.results = statements.map(() => ({ rows: [], fields: [] }));
  }

  /** Unnamed: every statement of a pipeline is parsed afresh (node-pg records nothing as prepared for it). */
  get name(): undefined {
    return undefined;
  }

  get text(): string | undefined {
    return this.statements[this.current]?.text;
  }

  submit(connection: WireConnection): Error | null {
    let values: unknown[][];
    try {
      // Mapped before anything is written: a value that cannot be sent leaves the connection untouched.
      values = this.statements.map((s) => s.values.map(wireValue));
    } catch (error) {
      return error as Error;
    }
    connection.stream.cork?.();
    try {
      // Unnamed statements: which named ones this connection holds is node-pg's own state, not its API.
      this.statements.forEach((statement, i) => {
        connection.parse({ text: statement.text, name: '' });
        connection.bind({ statement: '', values: values[i] as unknown[] });
        connection.describe({ type: 'P', name: '' });
        connection.execute({ portal: '' });
      });
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(message: { fields: unknown[] }): void {
    const parser = new (pg().Result)('array', this.types);
    parser.addFields(message.fields);
    this.parser = parser;
    (this.results[this.current] as { fields: readonly PgField[] }).fields = parser.fields;
  }

  handleDataRow(message: { fields: unknown[] }): void {
    if (this.failure || !this.parser) return;
    try {
      this.results[this.current]?.rows.push(this.parser.parseRow(message.fields));
    } catch (error) {
      this.failure = error as Error;
    }
  }

  handleCommandComplete(): void {
    this.parser = undefined;
    this.current++;
  }

  handleEmptyQuery(): void {
    this.current++;
  }

  handleError(error: PipelineError): void {
    if (error && typeof error === 'object') error.statementIndex = Math.min(this.current, this.statements.length - 1);
    this.callback(error);
  }

  handleReadyForQuery(): void {
    if (this.failure) return this.handleError(this.failure);
    this.callback(null, this.results);
  }

  handlePortalSuspended(): void {}

  handleCopyInResponse(connection: WireConnection): void {
    connection.sendCopyFail('a pipeline sends no COPY data');
  }

  handleCopyData(): void {}
}
