import type { LoaderFunctionArgs } from "@remix-run/node";
import { fileRoute } from "~/web/errors.server";
import { readPhoto } from "~/services/platform/uploads.server";

export async function loader({ params }: LoaderFunctionArgs) {
  return fileRoute(async () => {
    const photo = await readPhoto(params.file ?? "");
    if (!photo) return null;
    return new Response(photo.body, {
      headers: {
        "Content-Type": photo.contentType,
        "Content-Length": String(photo.body.byteLength),
        // Names are never reused, so the file can be cached for good.
        "Cache-Control": "public, max-age=31536000, immutable",
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; sandbox",
        "Content-Disposition": "inline",
      },
    });
  });
}
