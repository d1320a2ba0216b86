import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { OpportunityForm } from "~/components/marketplace/opportunity-form";
import { PageHeader } from "~/components/ui/page-header";
import { marketFormError, priceInput, redirectWithMarketToast, type PriceFields } from "~/web/market-forms.server";
import { marketTitleMeta } from "~/lib/market-meta";
import { requireUserFor } from "~/web/auth.server";
import { formValues, readForm } from "~/web/bodies.server";
import { createOpportunity } from "~/services/marketplace/opportunities.server";

export const meta = marketTitleMeta("titles.opportunity_create");

const PRICES: PriceFields = { budget_min: "budget_min_cents", budget_max: "budget_max_cents" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserFor(request, "opportunity.create");
  return json(null);
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserFor(request, "opportunity.create");
  let values: Record<string, string> = {};
  try {
    values = formValues(await readForm(request));
    const created = await createOpportunity(user, priceInput(values, PRICES));
    return redirectWithMarketToast(request, `/opportunities/${created.uuid}`, "toasts.created");
  } catch (error) {
    return marketFormError(request, error, values, PRICES);
  }
}

export default function CreateOpportunityPage() {
  const { t } = useTranslation("market");
  const data = useActionData<typeof action>();
  return (
    <div className="page">
      <section className="card form-card">
        <PageHeader title={t("create.heading")} intro={t("create.intro")} />
        <OpportunityForm
          values={{}}
          data={data}
          submitLabel={t("create.submit")}
          busyLabel={t("create.submitting")}
          cancelHref="/opportunities"
        />
      </section>
    </div>
  );
}
