import type { UserRow } from "../../db/schema";
import { informeCsv, informeFor, informePdf } from "~/services/fiscal/informe.server";
import { notaXml } from "~/services/fiscal/nota-views.server";
import { attachmentResponse } from "~/services/platform/uploads.server";

// The notas' files for pages and the API: a nota's XML, and the informe de rendimentos as CSV or PDF.

/** A nota's XML as a download named after its chave de acesso. */
export async function notaXmlResponse(user: UserRow, id: string) {
  const { name, xml } = await notaXml(user, id);
  return attachmentResponse({ name, contentType: "application/xml", body: Buffer.from(xml, "utf8") });
}

/** The informe of `freelancerId` for the path's year, as a file (see informeFor for who may). */
export async function informeResponse(
  user: UserRow,
  freelancerId: string,
  year: string | undefined,
  format: "csv" | "pdf",
) {
  const informe = await informeFor(user, freelancerId, year);
  const name = `informe-rendimentos-${informe.year}.${format}`;
  return format === "csv"
    ? attachmentResponse({
        name,
        contentType: "text/csv; charset=utf-8",
        body: Buffer.from(informeCsv(informe), "utf8"),
      })
    : attachmentResponse({ name, contentType: "application/pdf", body: await informePdf(informe) });
}
