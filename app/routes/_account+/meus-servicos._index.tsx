import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { ConfirmLink } from "~/components/ui/confirm";
import { PageRefusal } from "~/components/ui/form";
import { EmptyState, PageHeader } from "~/components/ui/page-header";
import { Pagination } from "~/components/ui/pagination";
import { marketTitleMeta } from "~/lib/market-meta";
import { formatMoney } from "~/lib/money";
import { usePending } from "~/lib/pending";
import { listMyServices, pauseService, publishService, type ServiceJson } from "~/services/catalog/services.server";
import { requireUserFor } from "~/web/auth.server";
import { intentAction } from "~/web/intent-action.server";
import { listFromUrl } from "~/web/market-forms.server";

export const meta = marketTitleMeta("services:mine.title");

const HERE = "/meus-servicos";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserFor(request, "service.manage");
  const { list } = await listFromUrl(request, ["page"], (q) => listMyServices(user, q));
  return json(list);
}

/** Publishing and pausing from the list; archiving and deleting confirm on the service's page. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserFor(request, "service.manage");
  return intentAction(
    request,
    { here: HERE, toasts: "services" },
    {
      publish: { run: ({ values }) => publishService(user, values.id ?? ""), toast: "service_published" },
      pause: { run: ({ values }) => pauseService(user, values.id ?? ""), toast: "service_paused" },
    },
  );
}

export default function MyServicesPage() {
  const { t } = useTranslation("services");
  const { data, meta } = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <PageHeader
        title={t("mine.title")}
        intro={t("mine.intro")}
        actions={
          <Link to={`${HERE}/novo`} className="btn btn-primary">
            {t("mine.new")}
          </Link>
        }
      />
      <PageRefusal />
      {data.length ? (
        <ul className="my-services" aria-label={t("mine.title")}>
          {data.map((s) => (
            <MyServiceCard key={s.id} service={s} />
          ))}
        </ul>
      ) : (
        <EmptyState
          title={t("mine.empty_title")}
          text={t("mine.empty_text")}
          action={
            <Link to={`${HERE}/novo`} className="btn btn-primary">
              {t("mine.new")}
            </Link>
          }
        />
      )}
      <Pagination meta={meta} />
    </div>
  );
}

/** One service: its status, price, what an operator or the pre-moderation says, and its moves. */
function MyServiceCard({
  service: s,
}: {
  service: Pick<
    ServiceJson,
    "id" | "title" | "slug" | "status" | "price_from_cents" | "moderation" | "allowed_actions"
  >;
}) {
  const { t, i18n } = useTranslation("services");
  const busy = usePending();
  const page = `${HERE}/${s.id}`;
  const move = (intent: "publish" | "pause") => (
    <Form method="post" className="inline-form">
      <input type="hidden" name="id" value={s.id} />
      <button type="submit" name="intent" value={intent} className="btn btn-ghost" disabled={busy}>
        {t(`mine.actions.${intent}`)}
        <span className="sr-only"> {s.title}</span>
      </button>
    </Form>
  );
  return (
    <li className="card my-service">
      <div className="my-service-head">
        <h3>
          <Link to={page}>{s.title}</Link>
        </h3>
        <span className={`badge service-status-${s.status}`}>{t(`public.preview_status.${s.status}`)}</span>
      </div>
      <p className="muted">
        {t("public.from")} {formatMoney(s.price_from_cents, i18n.language)}
      </p>
      {s.moderation?.hidden ? (
        <p className="status-reason">{t("mine.hidden", { reason: s.moderation.hidden_reason ?? "" })}</p>
      ) : null}
      {s.status === "pending" ? <p className="field-hint">{t("mine.pending_note")}</p> : null}
      <div className="my-service-actions">
        {s.allowed_actions.includes("edit") ? (
          <Link to={page} className="btn btn-ghost">
            {t("mine.actions.edit")}
            <span className="sr-only"> {s.title}</span>
          </Link>
        ) : null}
        {s.status === "published" && !s.moderation?.hidden ? (
          <Link to={`/servicos/${s.slug}-${s.id}`} className="btn btn-ghost">
            {t("mine.actions.view")}
            <span className="sr-only"> {s.title}</span>
          </Link>
        ) : null}
        {s.allowed_actions.includes("publish") ? move("publish") : null}
        {s.allowed_actions.includes("pause") ? move("pause") : null}
        {s.allowed_actions.includes("archive") ? (
          <ConfirmLink from={page} intent="archive">
            {t("mine.actions.archive")}
            <span className="sr-only"> {s.title}</span>
          </ConfirmLink>
        ) : null}
        {s.allowed_actions.includes("delete") ? (
          <ConfirmLink from={page} intent="delete">
            {t("mine.actions.delete")}
            <span className="sr-only"> {s.title}</span>
          </ConfirmLink>
        ) : null}
      </div>
    </li>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
