import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ApplicationCard } from "~/components/marketplace/application-card";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { EmptyState, PageHeader } from "~/components/ui/page-header";
import { Pagination } from "~/components/ui/pagination";
import { listFromUrl } from "~/web/market-forms.server";
import { marketTitleMeta } from "~/lib/market-meta";
import { listAwaitingConfirmation } from "~/services/marketplace/applications.server";
import { requireUser } from "~/web/auth.server";

export const meta = marketTitleMeta("titles.awaiting_confirmation");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { list } = await listFromUrl(request, ["page"], (q) => listAwaitingConfirmation(user, q));
  return json({ ...list, role: user.account_type });
}

export default function AwaitingConfirmationPage() {
  const { t } = useTranslation("market");
  const { data, meta, role } = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <PageHeader title={t(`awaiting_page.heading_${role}`)} intro={t(`awaiting_page.intro_${role}`)} />
      {data.length ? (
        <div className="app-list">
          {data.map((item) => (
            <ApplicationCard key={item.id} item={item} viewer={role} />
          ))}
        </div>
      ) : (
        <EmptyState title={t("awaiting_page.empty_title")} text={t("awaiting_page.empty_text")} />
      )}
      <Pagination meta={meta} />
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
