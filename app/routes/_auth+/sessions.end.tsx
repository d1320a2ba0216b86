import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AccountFrame as Frame } from "~/components/accounts/auth-layout";
import { DeviceName } from "~/components/accounts/sessions";
import { Alert } from "~/components/ui/form";
import { formatDateTime } from "~/lib/format";
import { titleMeta } from "~/lib/meta";
import { usePending } from "~/lib/pending";
import { endNoticedSession, findNoticedSession } from "~/services/accounts/sessions.server";
import { AppError } from "~/services/platform/errors.server";
import { assertSameOrigin } from "~/web/auth.server";
import { formValues, readForm } from "~/web/bodies.server";
import { getRequestT } from "~/web/i18n.server";
import { TOKEN_PAGE_HEADERS, tokenPageHeaders } from "~/web/security.server";
import { getOptionalUser } from "~/web/session.server";

/** The link holds the notice's token: not stored, not sent on, not indexed. */
export const headers = tokenPageHeaders;

export const meta = titleMeta("titles.end_session");

/**
 * The link of a sign-in notice (`?token=`): shows the session it names and asks to end it (a
 * link opened by a mail scanner changes nothing; the button does). Signed in or not: the link is
 * the proof. A link whose session has ended already says so.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const signedIn = Boolean(await getOptionalUser(request));
  const token = new URL(request.url).searchParams.get("token") ?? "";
  try {
    return json(
      { token, signedIn, session: await findNoticedSession({ token }), failure: null },
      { headers: TOKEN_PAGE_HEADERS },
    );
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const { t } = await getRequestT(request);
    return json(
      { token, signedIn, session: null, failure: t(error.key, error.params) },
      { status: error.status, headers: TOKEN_PAGE_HEADERS },
    );
  }
}

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  const { t } = await getRequestT(request);
  try {
    await endNoticedSession(formValues(await readForm(request)));
    return json({ done: true, failure: null });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return json({ done: false, failure: t(error.key, error.params) }, { status: error.status });
  }
}

export default function EndSessionPage() {
  const { t, i18n } = useTranslation("account");
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = usePending();
  const failure = result?.failure ?? data.failure;
  const next = (
    <div className="row-between wrap">
      <Link to={data.signedIn ? "/account/security" : "/forgot-password"} className="btn btn-primary">
        {t("end_session.forgot")}
      </Link>
      <Link to="/" className="btn btn-ghost">
        {t("end_session.home")}
      </Link>
    </div>
  );
  if (result?.done) {
    return (
      <Frame signedIn={data.signedIn} title={t("end_session.title")}>
        <Alert type="success">{t("end_session.done")}</Alert>
        {next}
      </Frame>
    );
  }
  return (
    <Frame signedIn={data.signedIn} title={t("end_session.title")}>
      {failure ? <Alert type="danger">{failure}</Alert> : null}
      {data.session && !failure ? (
        <>
          <p>{t("end_session.intro")}</p>
          <p>
            <strong>
              <DeviceName device={data.session.device} />
            </strong>
            <br />
            <span className="muted">
              {t("security.session_signed_in")}: {formatDateTime(data.session.created_at, i18n.language)} ·{" "}
              {t("security.session_ip")}: {data.session.ip ?? t("security.session_ip_unknown")}
            </span>
          </p>
          <Form method="post" className="stack">
            <input type="hidden" name="token" value={data.token} />
            <button type="submit" className="btn btn-danger" disabled={busy}>
              {t("end_session.submit")}
            </button>
          </Form>
        </>
      ) : (
        next
      )}
    </Frame>
  );
}
