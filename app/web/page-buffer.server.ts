import { Writable } from "node:stream";

/**
 * React 18's stream (renderToPipeableStream) encodes text into 2 kB views. When a string's next
 * character does not fit in what is left of a view (a multi-byte one: "ç", "ã", "–"), it sends
 * the whole view anyway, its unused end (1 to 3 bytes) still zero: a NUL in the middle of the
 * page ("Reda\0ção"). Fixed in React 19 (facebook/react#26228); here those bytes are left out.
 */
const VIEW_SIZE = 2048;

/** A chunk without the zero padding of a view React sent before it was full. */
export function withoutViewPadding(chunk: Buffer): Buffer {
  if (chunk.length !== VIEW_SIZE) return chunk;
  let end = chunk.length;
  while (end > chunk.length - 3 && chunk[end - 1] === 0) end--;
  return end === chunk.length ? chunk : chunk.subarray(0, end);
}

/** Where a rendered page is piped: its chunks, unpadded, handed over as one buffer once it ends. */
export function pageBufferSink(done: (body: ReturnType<typeof Buffer.concat>) => void): Writable {
  const chunks: Buffer[] = [];
  return new Writable({
    write(chunk: Buffer, _encoding, next) {
      chunks.push(withoutViewPadding(chunk));
      next();
    },
    final(next) {
      done(Buffer.concat(chunks));
      next();
    },
  });
}
