import { formatCnpj, formatCpf } from "@brazilian-utils/brazilian-utils";
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { formatDateTime } from "~/lib/format";
import { marketTitleMeta } from "~/lib/market-meta";
import { formatMoney } from "~/lib/money";
import { getReceipt, type ReceiptParty } from "~/services/payments/finance.server";
import { requireUser } from "~/web/auth.server";
import { orRefusal } from "~/web/errors.server";
import { pageId } from "~/web/params.server";

export const meta = marketTitleMeta("titles.receipt");

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ receipt: await orRefusal(getReceipt(user, pageId(params, "id"))) });
}

/** A receipt to print (the browser's print keeps only the receipt: see .receipt in app.css). */
export default function ReceiptPage() {
  const { t, i18n } = useTranslation("market");
  const { receipt: r } = useLoaderData<typeof loader>();
  const money = (cents: number) => formatMoney(cents, i18n.language);
  return (
    <div className="page page-narrow">
      <p className="no-print">
        <Link to="/financeiro" className="link">
          ← {t("finance.back")}
        </Link>
      </p>
      <article className="card receipt" aria-labelledby="receipt-title">
        <h2 id="receipt-title">{t(`finance.receipt_title.${r.kind}`)}</h2>
        <dl className="facts">
          <div>
            <dt>{t("finance.date")}</dt>
            <dd>{formatDateTime(r.created_at, i18n.language)}</dd>
          </div>
          <div>
            <dt>{t("finance.amount")}</dt>
            <dd className="fact-strong">{money(r.amount_cents)}</dd>
          </div>
          {r.fee_cents ? (
            <div>
              <dt>{t("finance.fee")}</dt>
              <dd>{money(r.fee_cents)}</dd>
            </div>
          ) : null}
          {r.freelancer_cents ? (
            <div>
              <dt>{t("finance.to_freelancer")}</dt>
              <dd>{money(r.freelancer_cents)}</dd>
            </div>
          ) : null}
          {r.refund_cents ? (
            <div>
              <dt>{t("finance.to_merchant")}</dt>
              <dd>{money(r.refund_cents)}</dd>
            </div>
          ) : null}
          {r.contract ? (
            <div>
              <dt>{t("finance.contract")}</dt>
              <dd>
                {r.contract.title}
                {r.milestone ? ` · ${r.milestone}` : ""}
              </dd>
            </div>
          ) : null}
          {r.merchant ? (
            <div>
              <dt>{t("finance.merchant")}</dt>
              <dd>
                <PartyName party={r.merchant} />
              </dd>
            </div>
          ) : null}
          {r.freelancer ? (
            <div>
              <dt>{t("finance.freelancer")}</dt>
              <dd>
                <PartyName party={r.freelancer} />
              </dd>
            </div>
          ) : null}
          {r.payout ? (
            <div>
              <dt>{t("finance.pix_key")}</dt>
              <dd>
                {r.payout.pix_key} ({t(`finance.key_types.${r.payout.key_type}`)}) · {r.payout.holder_name}
              </dd>
            </div>
          ) : null}
          {r.e2e_id ? (
            <div>
              <dt>{t("finance.e2e_id")}</dt>
              <dd>
                <code>{r.e2e_id}</code>
              </dd>
            </div>
          ) : null}
          <div>
            <dt>{t("finance.transaction")}</dt>
            <dd>
              <code>{r.id}</code>
            </dd>
          </div>
        </dl>
        <p className="muted small">{t("finance.receipt_note")}</p>
      </article>
    </div>
  );
}

/** "Marta Lojista · Marta Design Ltda · CNPJ 11.222.333/0001-81": what is known of a party. */
function PartyName({ party }: { party: ReceiptParty }) {
  const { t } = useTranslation("market");
  return (
    <>
      {party.name}
      {party.company_name ? ` · ${party.company_name}` : ""}
      {party.document ? ` · ${documentLabel(party.document, t)}` : ""}
    </>
  );
}

function documentLabel(document: string, t: (key: string) => string) {
  if (document.length === 14) return `${t("finance.cnpj")} ${formatCnpj(document)}`;
  if (document.length === 11) return `${t("finance.cpf")} ${formatCpf(document)}`;
  return document;
}

export const ErrorBoundary = MarketErrorBoundary;
