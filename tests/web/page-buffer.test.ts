import { createElement } from "react";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { pageBufferSink } from "~/web/page-buffer.server";

// A page is rendered by React's stream and sent as one buffer (app/entry.server.tsx). React 18
// pads a 2 kB view it sends early with zero bytes when the next character does not fit: those
// must not reach the page as NULs.

/** A list of many short texts with accented letters: one of them straddles a view's end. */
const page = (lead: number) =>
  createElement(
    "ul",
    null,
    createElement("li", null, "x".repeat(lead)),
    ...Array.from({ length: 400 }, (_, i) => createElement("li", { key: i }, `Redação ${i}`)),
  );

function rendered(element: ReturnType<typeof page>, sink: (done: (body: Buffer) => void) => Writable) {
  return new Promise<Buffer>((resolve, reject) => {
    const { pipe } = renderToPipeableStream(element, {
      onAllReady: () => pipe(sink(resolve)),
      onShellError: reject,
    });
  });
}

/** React's chunks as they come, joined. */
const raw = (done: (body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  return new Writable({
    write(chunk: Buffer, _encoding, next) {
      chunks.push(chunk);
      next();
    },
    final(next) {
      done(Buffer.concat(chunks));
      next();
    },
  });
};

describe("the page's buffer", () => {
  it("has the page as renderToString writes it, without React's padding, whatever the text's offset", async () => {
    let padded = 0;
    for (let lead = 0; lead < 12; lead++) {
      const expected = renderToString(page(lead));
      if ((await rendered(page(lead), raw)).includes(0)) padded += 1;
      const body = (await rendered(page(lead), pageBufferSink)).toString("utf8");
      expect(body).not.toContain("\u0000");
      expect(body).toBe(expected);
    }
    // React's own chunks did carry the padding for some of these offsets (what this guards against).
    expect(padded).toBeGreaterThan(0);
  });
});
