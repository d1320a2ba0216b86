import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ContractCard } from "~/components/contracts/contract";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { EmptyState, PageHeader } from "~/components/ui/page-header";
import { Pagination, StatusTabs } from "~/components/ui/pagination";
import { CONTRACT_STATUSES } from "~/lib/market-constants";
import { listFromUrl } from "~/web/market-forms.server";
import { marketTitleMeta } from "~/lib/market-meta";
import { requireUser } from "~/web/auth.server";
import { listContracts } from "~/services/contracts/contracts.server";

export const meta = marketTitleMeta("titles.contracts");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { list, query } = await listFromUrl(request, ["status", "page"], (q) => listContracts(user, q));
  return json({ ...list, status: query.status ?? null, viewer: user.account_type, now: Date.now() });
}

export default function ContractsPage() {
  const { t } = useTranslation("market");
  const { data, meta, status, viewer, now } = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <PageHeader title={t("contracts.heading")} intro={t(`contracts.intro_${viewer}`)} />
      <StatusTabs
        statuses={CONTRACT_STATUSES}
        current={status}
        label={t("contracts.status_filter")}
        names="contract_status"
        allKey="contracts.all"
      />
      {data.length ? (
        <div className="app-list">
          {data.map((item) => (
            <ContractCard key={item.id} item={item} viewer={viewer} now={now} />
          ))}
        </div>
      ) : (
        <EmptyState
          title={t("contracts.empty_title")}
          text={status ? t("contracts.empty_filtered") : t(`contracts.empty_${viewer}`)}
        />
      )}
      <Pagination meta={meta} />
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
