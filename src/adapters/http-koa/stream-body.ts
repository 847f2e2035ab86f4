import { Readable } from 'node:stream';

/** A route's streamed response body (`HttpResponse.body`) from its chunks: Koa pipes the stream to the client as they come. */
export function streamBody(chunks: AsyncIterable<string>): Readable {
  return Readable.from(chunks);
}
