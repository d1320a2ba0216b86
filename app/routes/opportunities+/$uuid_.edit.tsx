import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { OpportunityForm } from "~/components/marketplace/opportunity-form";
import { PageHeader } from "~/components/ui/page-header";
import { marketFormError, priceInput, redirectWithMarketToast, type PriceFields } from "~/web/market-forms.server";
import { orRefusal } from "~/web/errors.server";
import { marketTitleMeta } from "~/lib/market-meta";
import { centsToInput } from "~/lib/money";
import { requireUserFor } from "~/web/auth.server";
import { formValues, readForm } from "~/web/bodies.server";
import { getOpportunity, updateOpportunity } from "~/services/marketplace/opportunities.server";
import { pageId } from "~/web/params.server";

export const meta = marketTitleMeta("titles.opportunity_edit");

const PRICES: PriceFields = { budget_min: "budget_min_cents", budget_max: "budget_max_cents" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserFor(request, "opportunity.manage");
  const o = await orRefusal(getOpportunity(user, pageId(params, "uuid")));
  return json({
    uuid: o.uuid,
    editable: o.allowed_actions.includes("edit"),
    values: {
      title: o.title,
      description: o.description,
      category: o.category,
      skills: o.skills.join(", "),
      budget_type: o.budget_type,
      budget_min: centsToInput(o.budget_min_cents),
      budget_max: centsToInput(o.budget_max_cents),
      deadline: o.deadline ?? "",
      location_type: o.location_type,
      city: o.city ?? "",
      vacancies: String(o.vacancies),
    },
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserFor(request, "opportunity.manage");
  let values: Record<string, string> = {};
  try {
    values = formValues(await readForm(request));
    // A partial update would read an emptied price as "unchanged"; on this form it is a mistake.
    const input = priceInput(values, PRICES, { required: true });
    const updated = await updateOpportunity(user, params.uuid!, input);
    return redirectWithMarketToast(request, `/opportunities/${updated.uuid}`, "toasts.updated");
  } catch (error) {
    return marketFormError(request, error, values, PRICES);
  }
}

export default function EditOpportunityPage() {
  const { t } = useTranslation("market");
  const { uuid, editable, values } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return (
    <div className="page">
      <section className="card form-card">
        <PageHeader title={t("edit.heading")} />
        {editable ? (
          <OpportunityForm
            values={values}
            data={data}
            submitLabel={t("edit.submit")}
            busyLabel={t("edit.submitting")}
            cancelHref={`/opportunities/${uuid}`}
          />
        ) : (
          <>
            <p className="notice notice-warning">{t("edit.not_open")}</p>
            <Link to={`/opportunities/${uuid}`} className="btn btn-ghost">
              {t("details.back")}
            </Link>
          </>
        )}
      </section>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
