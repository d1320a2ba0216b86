import { json } from "@remix-run/node";
import { AppError } from "~/services/platform/errors.server";
import { getRequestT } from "./i18n.server";

// The unsubscribe pages of the e-mails (a kind's, a saved search's): no sign-in, the signed token
// in the path is a credential of sorts, so the answer is kept out of caches and Referer headers.

export const UNSUBSCRIBE_HEADERS = {
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
  "X-Robots-Tag": "noindex",
};

export type UnsubscribeData<T> = ({ ok: true } & T) | { ok: false; message: string };

/** What `work` answers, or its refusal (a token that does not check out) with its status and message. */
export async function unsubscribeAnswer<T extends object>(request: Request, work: () => Promise<T>) {
  try {
    return json<UnsubscribeData<T>>({ ok: true, ...(await work()) }, { headers: UNSUBSCRIBE_HEADERS });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const { t } = await getRequestT(request);
    return json<UnsubscribeData<T>>(
      { ok: false, message: t(error.key) },
      { status: error.status, headers: UNSUBSCRIBE_HEADERS },
    );
  }
}
