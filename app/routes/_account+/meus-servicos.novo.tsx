import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ServiceForm } from "~/components/catalog/service-form";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { PageHeader } from "~/components/ui/page-header";
import { marketTitleMeta } from "~/lib/market-meta";
import { createService } from "~/services/catalog/services.server";
import { requireUserFor } from "~/web/auth.server";
import { formValues, readForm } from "~/web/bodies.server";
import {
  publishSaved,
  redirectWithServicesToast,
  serviceFormError,
  serviceFormInput,
  serviceFormStep,
} from "~/web/service-form.server";

export const meta = marketTitleMeta("services:mine.new_title");

/** A new service starts with one package and no extras, FAQ or questions. */
const EMPTY = { packages_rows: "1", extras_rows: "0", faq_rows: "0", questions_rows: "0" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserFor(request, "service.manage");
  return json(null);
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserFor(request, "service.manage");
  const step = await serviceFormStep(request);
  if (step) return step;
  let values: Record<string, string> = {};
  try {
    values = formValues(await readForm(request));
    // A post naming none of the form's buttons (an older page, a crafted form) saves nothing.
    if (values.intent !== "save" && values.intent !== "save_publish") return redirect("/meus-servicos/novo");
    const created = await createService(user, serviceFormInput(values));
    if (values.intent === "save_publish") return await publishSaved(request, user, created.id);
    return await redirectWithServicesToast(request, `/meus-servicos/${created.id}`, "service_created");
  } catch (error) {
    return serviceFormError(request, error, values);
  }
}

export default function NewServicePage() {
  const { t } = useTranslation("services");
  const data = useActionData<typeof action>();
  return (
    <div className="page">
      <section className="card form-card">
        <PageHeader title={t("mine.new_title")} intro={t("mine.new_intro")} />
        <ServiceForm values={EMPTY} data={data} cancelHref="/meus-servicos" />
      </section>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
