import { DomainError } from '../../domain/errors/domain-error.js';
import type { ModelRegistry } from '../../domain/model/model-registry.js';
import type { ModelDef, Value } from '../../domain/model/types.js';
import { fileColumnsOf, isStoredFileValue, UploadedFile, type PresentedFile } from '../../domain/storage/file-value.js';
import type { EventBus } from '../../ports/event-bus.js';
import type { FileStorage } from '../../ports/file-storage.js';
import type { Logger } from '../../ports/logger.js';
import type { MediaLinks } from './media-links.js';
import type { StoreUpload, UploadPart } from './store-upload.js';

/**
 * The files of file columns (`c.file`, issue 51), on every surface: an upload kept for a column
 * under its rule, the answer every surface gives for the column (name, size, type and a signed
 * link; never the key), and the files' lives following their rows. A write that fails after its
 * uploads were kept removes them; a committed replace or hard delete removes the file the row
 * held once the transaction has committed (never before: a rollback keeps it). A soft-deleted row
 * keeps its file, so a restore finds it.
 */
export class StoredFiles {
  constructor(
    private readonly storage: FileStorage,
    private readonly upload: StoreUpload,
    private readonly links: MediaLinks,
    private readonly logger: Logger,
  ) {}

  /**
   * The file columns of `model` an upload to a surface may fill: those it may write. A file sent
   * for any other field is refused before it is kept, so no kept file can go unreferenced.
   */
  fields(model: ModelDef, writable: (column: string) => boolean): ReadonlySet<string> {
    return new Set([...fileColumnsOf(model)].filter(writable));
  }

  /** Keeps one uploaded part for the file column it was sent in, under that column's rule. */
  keep(model: ModelDef, part: UploadPart): Promise<UploadedFile> {
    const rule = model.columns.find((c) => c.name === part.field)?.file;
    if (!rule) throw new DomainError('invalid_input', `${part.field}: takes no file`, [{ field: part.field, message: 'takes no file' }]);
    return this.upload.execute(part, rule, model.table);
  }

  /** Removes files kept for a write that will not happen (a failure is logged: the file is only unreferenced). */
  async discard(files: Iterable<UploadedFile>): Promise<void> {
    for (const file of files) await this.remove(file.key);
  }

  /** Runs `work` (the write of `body`), removing the files `body` uploaded when it fails. */
  async writing<T>(body: unknown, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      await this.discard(uploadsIn(body));
      throw error;
    }
  }

  /** A file column's value as every surface answers it (null for no file). */
  present(value: Value | undefined): PresentedFile | null {
    if (!isStoredFileValue(value)) return null;
    return { name: value.name, size: value.size, content_type: value.content_type, url: this.links.url(value.key, value.name) };
  }

  /**
   * Follows the rows of every model with file columns: a replace (an update that changes a file
   * column) and a hard delete remove the old file after the commit.
   */
  follow(registry: ModelRegistry, events: EventBus): void {
    for (const model of registry.all()) {
      const columns = fileColumnsOf(model);
      if (columns.size === 0) continue;
      events.on('pre_save', model.table, async (event, signal) => {
        const changes = event.changes;
        if (!changes || !signal || ![...columns].some((c) => c in changes)) return;
        const current = await signal.tx.getById(model.table, event.row[model.primaryKey] ?? null);
        const replaced: string[] = [];
        for (const c of columns) {
          const old = keyOf(current?.[c]);
          if (c in changes && old !== undefined && old !== keyOf(changes[c])) replaced.push(old);
        }
        if (replaced.length > 0) await events.onCommit(() => this.removeAll(replaced));
        // Updates only: an insert replaces nothing, and stays one statement.
      }, { updatesOnly: true });
      if (!model.softDelete) {
        events.onCommitted('post_delete', model.table, (event) => this.removeAll([...columns].map((c) => keyOf(event.row[c])).filter((k): k is string => k !== undefined)));
      }
    }
  }

  private async removeAll(keys: readonly string[]): Promise<void> {
    for (const key of keys) await this.remove(key);
  }

  private async remove(key: string): Promise<void> {
    try {
      await this.storage.delete(key);
    } catch (error) {
      this.logger.warn({ key, err: error instanceof Error ? error.message : String(error) }, 'storage: a file no row refers to could not be removed');
    }
  }
}

const keyOf = (value: Value | undefined): string | undefined => (isStoredFileValue(value) ? value.key : undefined);

/** The files a write body carries from an upload. */
function uploadsIn(body: unknown): UploadedFile[] {
  if (typeof body !== 'object' || body === null) return [];
  return Object.values(body).filter((v): v is UploadedFile => v instanceof UploadedFile);
}
