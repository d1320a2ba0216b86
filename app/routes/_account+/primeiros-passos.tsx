import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { PageHeader } from "~/components/ui/page-header";
import { config } from "~/config.server";
import { marketTitleMeta } from "~/lib/market-meta";
import { requireUser } from "~/web/auth.server";

// "Primeiros passos": the first page after a new account confirms its e-mail (docs/product.md,
// "Cadastro"), a few next steps for its account type. Read from the session's user alone.

export const meta = marketTitleMeta("welcome.title");

type Step = { key: string; to: string; done?: boolean };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const escrow = config.PAYMENTS === "escrow";
  const profileDone = user.bio.trim() !== "" && (user.account_type === "merchant" || user.skills !== "[]");
  const profile: Step = { key: "profile", to: "/pages/profile-setting", done: profileDone };
  const steps: Step[] =
    user.account_type === "merchant"
      ? [profile, { key: "publish", to: "/opportunities/create" }]
      : [
          profile,
          ...(escrow ? [{ key: "payout_key", to: "/financeiro#key-title" }] : []),
          { key: "browse", to: "/opportunities" },
        ];
  return json({ role: user.account_type, steps, escrow, feePercent: config.PLATFORM_FEE_BPS / 100 });
}

export default function WelcomePage() {
  const { t } = useTranslation();
  const { role, steps, escrow, feePercent } = useLoaderData<typeof loader>();
  const step = (key: string) => `welcome.${role}.${key}`;
  return (
    <div className="page welcome-page">
      <PageHeader title={t("welcome.title")} intro={t(`welcome.${role}.intro`)} />
      <section className="card" aria-labelledby="welcome-steps">
        <h2 id="welcome-steps" className="visually-hidden">
          {t("welcome.steps")}
        </h2>
        <ol className="welcome-steps">
          {steps.map((s) => (
            <li key={s.key}>
              <div>
                <h3>
                  {t(`${step(s.key)}_title`)}
                  {s.done ? (
                    <>
                      {" "}
                      <span className="badge badge-success">{t("welcome.done")}</span>
                    </>
                  ) : null}
                </h3>
                <p className="muted">{t(`${step(s.key)}_text`)}</p>
              </div>
              <Link to={s.to} className="btn btn-secondary btn-sm">
                {t(`${step(s.key)}_cta`)}
              </Link>
            </li>
          ))}
        </ol>
      </section>
      {role === "merchant" && escrow ? (
        <section className="card" aria-labelledby="welcome-escrow">
          <h2 id="welcome-escrow">{t("welcome.escrow_title")}</h2>
          <ol className="stack">
            <li>{t("welcome.escrow_1")}</li>
            <li>{t("welcome.escrow_2", { percent: feePercent })}</li>
            <li>{t("welcome.escrow_3")}</li>
          </ol>
        </section>
      ) : null}
      <p>
        <Link to="/" className="link">
          {t("welcome.later")}
        </Link>
      </p>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
