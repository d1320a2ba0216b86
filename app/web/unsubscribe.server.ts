import { json } from "@remix-run/node";
import { AppError } from "~/services/platform/errors.server";
import { getRequestT } from "./i18n.server";
import { TOKEN_PAGE_HEADERS } from "./security.server";

// The unsubscribe pages of the e-mails (a kind's, a saved search's): no sign-in, the signed token
// in the path is a credential of sorts, so the answer is kept out of caches, Referer headers and
// search engines (TOKEN_PAGE_HEADERS; the routes' `headers` export is tokenPageHeaders).

export type UnsubscribeData<T> = ({ ok: true } & T) | { ok: false; message: string };

/** What `work` answers, or its refusal (a token that does not check out) with its status and message. */
export async function unsubscribeAnswer<T extends object>(request: Request, work: () => Promise<T>) {
  try {
    return json<UnsubscribeData<T>>({ ok: true, ...(await work()) }, { headers: TOKEN_PAGE_HEADERS });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const { t } = await getRequestT(request);
    return json<UnsubscribeData<T>>(
      { ok: false, message: t(error.key) },
      { status: error.status, headers: TOKEN_PAGE_HEADERS },
    );
  }
}
