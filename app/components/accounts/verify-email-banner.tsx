import { Form, Link, useLocation } from "@remix-run/react";
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

/**
 * Above every page of an account whose address bounced for good or marked an e-mail as spam
 * (email-suppressions.server.ts): no e-mail reaches it, and the way to change it.
 */
export function UndeliverableEmailBanner({ email }: { email: string }) {
  const { t } = useTranslation("account");
  return (
    <div className="verify-banner" role="region" aria-label={t("banner.undeliverable_link")}>
      <p>{t("banner.undeliverable", { email })}</p>
      <Link to="/account/security#email" className="btn btn-secondary btn-sm">
        {t("banner.undeliverable_link")}
      </Link>
    </div>
  );
}
