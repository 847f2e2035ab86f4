/**
 * A write's body: the parsed value (JSON), or a reader the use case calls once the caller is
 * allowed (an upload: its files are streamed into storage only then, never for a refused caller).
 */
export type WriteBody = unknown;

/** The body itself, reading it first when it is an upload's reader. */
export async function readWriteBody(body: WriteBody): Promise<unknown> {
  return typeof body === 'function' ? await (body as () => Promise<unknown>)() : body;
}
