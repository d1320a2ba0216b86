import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ADMIN_NAV } from "~/components/admin/nav";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { PageHeader } from "~/components/ui/page-header";
import { adminTitleMeta } from "~/lib/admin-meta";
import { requireOperator } from "~/web/operator.server";

export const meta = adminTitleMeta("titles.overview");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  return json(null);
}

export default function AdminOverview() {
  const { t } = useTranslation("admin");
  return (
    <div className="page">
      <PageHeader title={t("overview.heading")} intro={t("overview.intro")} />
      <ul className="admin-grid">
        {ADMIN_NAV.filter((item) => item.to !== "/admin").map((item) => (
          <li key={item.to} className="card queue-item">
            <Link to={item.to} className="link">
              {t(item.label)}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
