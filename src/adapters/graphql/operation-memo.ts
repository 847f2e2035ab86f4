import type { DocumentNode, ExecutionArgs } from 'graphql';

/** Per document (the pipeline's cached object for a text), per operation name ('' for the only one). */
export type OperationMemo<T> = WeakMap<DocumentNode, Map<string, T>>;

/** What `make` gives for the operation `args` name, worked out once per document and operation. */
export function perOperation<T>(memo: OperationMemo<T>, args: ExecutionArgs, make: () => T): T {
  const name = args.operationName ?? '';
  let byName = memo.get(args.document);
  if (!byName) {
    byName = new Map();
    memo.set(args.document, byName);
  }
  if (byName.has(name)) return byName.get(name) as T;
  const made = make();
  byName.set(name, made);
  return made;
}
