import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FilterForm, FilterInput, FilterSelect, ListFrame, TableCard } from "~/components/admin/ui";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { PageHeader } from "~/components/ui/page-header";
import { USER_STATUSES } from "~/lib/admin-constants";
import { adminTitleMeta } from "~/lib/admin-meta";
import { formatDate, formatDateTime } from "~/lib/format";
import { listMembers } from "~/services/operator/members.server";
import { getRequestT } from "~/web/i18n.server";
import { queryFromUrl, readWithoutRefused } from "~/web/market-forms.server";
import { requireOperator } from "~/web/operator.server";

export const meta = adminTitleMeta("titles.users");

const FIELDS = ["q", "role", "status", "page"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  const query = queryFromUrl(request, FIELDS);
  const { list, refused } = await readWithoutRefused({ ...query }, listMembers);
  const { t } = await getRequestT(request);
  const errors = Object.fromEntries(Object.entries(refused).map(([field, key]) => [field, t(key)]));
  return json({ ...list, filters: query, errors });
}

export default function UsersPage() {
  const { t, i18n } = useTranslation("admin");
  const { data, meta, filters, errors } = useLoaderData<typeof loader>();
  const active = Object.keys(filters).some((k) => k !== "page");
  return (
    <div className="page">
      <PageHeader title={t("users.heading")} intro={t("users.intro")} />
      <FilterForm active={active}>
        <FilterInput name="q" type="search" label={t("users.search")} value={filters.q} error={errors.q} />
        <FilterSelect
          name="role"
          label={t("users.role")}
          anyLabel={t("audit.any")}
          value={filters.role}
          options={(["merchant", "freelancer", "operator"] as const).map((v) => ({
            value: v,
            label: t(`users.roles.${v}`),
          }))}
          error={errors.role}
        />
        <FilterSelect
          name="status"
          label={t("users.standing")}
          anyLabel={t("audit.any")}
          value={filters.status}
          options={USER_STATUSES.map((v) => ({ value: v, label: t(`users.statuses.${v}`) }))}
          error={errors.status}
        />
      </FilterForm>
      <ListFrame count={data.length} empty={t("users.empty")} meta={meta}>
        <TableCard
          caption={t("users.heading")}
          columns={[t("users.name"), t("users.email"), t("users.role"), t("users.standing"), t("users.since")]}
        >
          <tbody>
            {data.map((u) => (
              <tr key={u.id}>
                <td>
                  <Link to={`/admin/users/${u.id}`} className="link">
                    {u.name}
                  </Link>
                </td>
                <td>{u.email}</td>
                <td>{t(`users.roles.${u.account_type}`)}</td>
                <td>
                  {u.status === "suspended" && u.suspended_until
                    ? t("users.suspended_until", { date: formatDateTime(u.suspended_until, i18n.language) })
                    : t(`users.statuses.${u.status}`)}
                  {u.profile_hidden ? ` · ${t("users.statuses.profile_hidden")}` : ""}
                </td>
                <td>{formatDate(u.created_at, i18n.language)}</td>
              </tr>
            ))}
          </tbody>
        </TableCard>
      </ListFrame>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
