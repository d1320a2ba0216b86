import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AccountFrame as Frame } from "~/components/accounts/auth-layout";
import { loginHref } from "~/components/discovery/public-frame";
import { WELCOME_PATH } from "~/lib/welcome";
import { Alert } from "~/components/ui/form";
import { titleMeta } from "~/lib/meta";
import { usePending } from "~/lib/pending";
import { resendVerification, verifyEmail } from "~/services/accounts/verification.server";
import { AppError } from "~/services/platform/errors.server";
import { requireUser, safeRedirect } from "~/web/auth.server";
import { formValues, readForm } from "~/web/bodies.server";
import { getRequestT } from "~/web/i18n.server";
import { TOKEN_PAGE_HEADERS, tokenPageHeaders } from "~/web/security.server";
import { getOptionalUser } from "~/web/session.server";
import { redirectWithError, redirectWithSuccess } from "~/web/toast.server";

/** The link holds the confirmation token: not stored, not sent on, not indexed. */
export const headers = tokenPageHeaders;

export const meta = titleMeta("titles.verify_email");

/**
 * The link of a confirmation e-mail (`?token=`): opened signed in or not, it confirms the address
 * (or the new address of a change) and goes on with a toast; a link that cannot be used says why.
 * Without a token, a signed-in account sees where its link went and may ask for another.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  const token = new URL(request.url).searchParams.get("token");
  if (token === null) {
    if (!user) throw redirect("/login?redirectFrom=%2Fverify-email");
    return json({ failure: null, email: user.email, verified: Boolean(user.email_verified_at), signedIn: true });
  }
  const { t } = await getRequestT(request);
  try {
    const done = await verifyEmail({ token }, user);
    const message = done.purpose === "change" ? t("email_changed", { email: done.user.email }) : t("email_verified");
    // A change of address goes back to the security settings; a new account's first confirmation
    // to its "what next" page (through the login when the link is opened signed out).
    const next = done.purpose === "change" ? "/account/security" : WELCOME_PATH;
    return redirectWithSuccess(user ? next : loginHref(next), message);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return json(
      {
        failure: t(error.key, error.params),
        email: user?.email ?? null,
        verified: Boolean(user?.email_verified_at),
        signedIn: Boolean(user),
      },
      { status: error.status, headers: TOKEN_PAGE_HEADERS },
    );
  }
}

/** "Reenviar e-mail" (the banner of every page, and this page): back where it was sent from, with a toast. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const { t } = await getRequestT(request);
  let back = "/verify-email";
  try {
    const values = formValues(await readForm(request));
    back = safeRedirect(values.redirectTo, back);
    await resendVerification(user);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return redirectWithError(back, t(error.key, error.params));
  }
  return redirectWithSuccess(back, t("verification_sent"));
}

export default function VerifyEmailPage() {
  const { t } = useTranslation("account");
  const data = useLoaderData<typeof loader>();
  const busy = usePending();
  const resend =
    data.signedIn && !data.verified ? (
      <Form method="post" className="stack">
        <input type="hidden" name="redirectTo" value="/verify-email" />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {t("verify.resend")}
        </button>
      </Form>
    ) : null;
  if (data.failure) {
    return (
      <Frame signedIn={data.signedIn} title={t("verify.failed")}>
        <Alert type="danger">{data.failure}</Alert>
        {resend ?? (
          <Link
            to={data.signedIn ? "/" : "/login"}
            className={data.signedIn ? "btn btn-primary" : "btn btn-primary btn-block"}
          >
            {data.signedIn ? t("verify.home") : t("verify.sign_in")}
          </Link>
        )}
      </Frame>
    );
  }
  return (
    <Frame signedIn title={t("verify.title")}>
      {data.verified ? (
        <Alert type="success">{t("verify.done")}</Alert>
      ) : (
        <p>{t("verify.pending", { email: data.email })}</p>
      )}
      {resend}
    </Frame>
  );
}
