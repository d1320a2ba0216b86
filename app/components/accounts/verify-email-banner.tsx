import { Form, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/**
 * Above every page of an account whose e-mail is not confirmed yet (while confirmation is
 * required): what waits for it, and a plain form that sends the link again (rate limited), with
 * or without JavaScript; the answer comes back to the same page as a toast.
 */
export function VerifyEmailBanner({ email }: { email: string }) {
  const { t } = useTranslation("account");
  const location = useLocation();
  return (
    <div className="verify-banner" role="region" aria-label={t("verify.title")}>
      <p>{t("banner.text", { email })}</p>
      <Form method="post" action="/verify-email">
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
        <button type="submit" className="btn btn-secondary btn-sm">
          {t("banner.resend")}
        </button>
      </Form>
    </div>
  );
}
