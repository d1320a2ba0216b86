import { createHash, randomBytes } from "node:crypto";
import type { ExportFileWriter } from "~/services/platform/export-files.server";

/** Writes `pieces` random pieces of `pieceBytes` into a data copy and closes it; returns their SHA-256. */
export async function fillCopy(file: ExportFileWriter, pieces: number, pieceBytes: number): Promise<string> {
  const hash = createHash("sha256");
  for (let i = 0; i < pieces; i++) {
    const piece = randomBytes(pieceBytes);
    hash.update(piece);
    await file.write(piece);
  }
  await file.close();
  return hash.digest("hex");
}

/** The SHA-256 of a stream read to its end, and how many chunks it came in. */
export async function sha256Of(body: ReadableStream<Uint8Array>): Promise<{ hex: string; chunks: number }> {
  const hash = createHash("sha256");
  let chunks = 0;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    hash.update(chunk);
    chunks++;
  }
  return { hex: hash.digest("hex"), chunks };
}
