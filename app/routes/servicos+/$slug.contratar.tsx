import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AnswerFields, OrderSummary } from "~/components/catalog/orders";
import { FieldsForm, FormActions, fieldsOf } from "~/components/ui/form";
import { PageHeader } from "~/components/ui/page-header";
import { config } from "~/config.server";
import { marketTitleMeta } from "~/lib/market-meta";
import { formatMoney } from "~/lib/money";
import { answersFromForm } from "~/lib/order-schemas";
import { usePending } from "~/lib/pending";
import { answersOnFields, getQuote, placeOrder } from "~/services/catalog/orders.server";
import { idFromSlug } from "~/services/discovery/public.server";
import { AppError } from "~/services/platform/errors.server";
import { requireUserFor } from "~/web/auth.server";
import { formValues, readForm } from "~/web/bodies.server";
import { orRefusal, loaderRefusal } from "~/web/errors.server";
import { marketFormError, redirectWithMarketToast } from "~/web/market-forms.server";

// Buying a ready-made service (docs/product.md, "Contratar um serviço"): the confirmation step.
// The service page's "Contratar" is a GET here (no JavaScript needed); extras are ticked here and
// the total recomputed by the same GET. Posting the form creates the order at the total shown,
// with the answers, and leads to the contract. Visitors sign in first and come back here.

export const meta = marketTitleMeta("titles.service_order");

function choiceOf(request: Request) {
  const url = new URL(request.url);
  return { package_index: url.searchParams.get("pacote") ?? "", extras: url.searchParams.getAll("extras").join(",") };
}

function serviceId(slug: string | undefined) {
  const id = idFromSlug(slug);
  if (!id) throw loaderRefusal(new AppError(404, "not_found"));
  return id;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserFor(request, "service.order", "/servicos");
  const found = await orRefusal(getQuote(serviceId(params.slug), choiceOf(request)));
  // A renamed service: the canonical address, the choice kept.
  const here = `${found.service.path}/contratar`;
  const url = new URL(request.url);
  if (url.pathname !== here) throw redirect(here + url.search, 301);
  return json({ ...found, escrow: config.PAYMENTS === "escrow" });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserFor(request, "service.order", "/servicos");
  const id = serviceId(params.slug);
  let values: Record<string, string> = {};
  try {
    values = formValues(await readForm(request));
    const order = await answersOnFields(
      placeOrder(user, id, {
        package_index: values.package_index,
        extras: values.extras,
        expected_total_cents: values.expected_total_cents,
        answers: answersFromForm(values),
      }),
    );
    return redirectWithMarketToast(request, `/contracts/${order.id}`, "services:order_placed");
  } catch (error) {
    return marketFormError(request, error, values);
  }
}

export default function ServiceOrderPage() {
  const { service, quote, extras, questions, escrow } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const { t, i18n } = useTranslation("services");
  const field = fieldsOf(data);
  const pending = usePending();
  const extrasChosen = new Set(quote.extras.map((e) => e.index));
  return (
    <div className="page">
      <PageHeader title={t("order.confirm_title")} intro={t("order.confirm_intro", { name: service.freelancer })} />
      <section className="card stack" aria-labelledby="order-service">
        <h2 id="order-service">
          <Link to={service.path}>{service.title}</Link>
        </h2>
        <OrderSummary order={quote} escrow={escrow} />
      </section>
      {extras.length ? (
        <section className="card stack" aria-labelledby="order-extras">
          <h2 id="order-extras">{t("order.choose_extras")}</h2>
          <Form method="get" className="stack">
            <input type="hidden" name="pacote" value={quote.package_index} />
            <fieldset className="choices-column">
              <legend className="visually-hidden">{t("order.choose_extras")}</legend>
              {extras.map((e, i) => (
                <label key={i} className="choice">
                  <input type="checkbox" name="extras" value={i} defaultChecked={extrasChosen.has(i)} />
                  <span>
                    {e.title} <span className="muted">+{formatMoney(e.price_cents, i18n.language)}</span>
                  </span>
                </label>
              ))}
            </fieldset>
            <div>
              <button type="submit" className="btn btn-secondary">
                {t("order.update_total")}
              </button>
            </div>
          </Form>
        </section>
      ) : null}
      <section className="card stack" aria-labelledby="order-confirm">
        <h2 id="order-confirm">
          {t("order.total")}: {formatMoney(quote.total_cents, i18n.language)}
        </h2>
        <FieldsForm data={data} className="stack" id="order-form">
          <input type="hidden" name="package_index" value={quote.package_index} />
          <input type="hidden" name="extras" value={quote.extras.map((e) => e.index).join(",")} />
          <input type="hidden" name="expected_total_cents" value={quote.total_cents} />
          {questions.length ? <h3>{t("order.questions")}</h3> : null}
          <AnswerFields questions={questions} field={field} chosen={(i) => data?.values?.[`answer_${i}`]} />
          {escrow ? <p className="muted">{t("order.payment_note")}</p> : null}
          <FormActions busy={pending} label={t("order.confirm")}>
            <Link to={service.path} className="btn btn-ghost">
              {t("order.change")}
            </Link>
          </FormActions>
        </FieldsForm>
      </section>
    </div>
  );
}
