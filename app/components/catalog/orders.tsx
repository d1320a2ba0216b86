import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { OrderJson, Quote } from "~/services/catalog/orders.server";
import { Field, FormCard, FormActions, SelectField, TextAreaField, fieldsOf, useRefusal } from "~/components/ui/form";
import { Facts } from "~/components/ui/facts";
import { ANSWER_MAX } from "~/lib/order-schemas";
import { formatMoney } from "~/lib/money";
import { usePending } from "~/lib/pending";
import type { ServiceQuestion } from "~/lib/service-schemas";

// Buying a ready-made service (docs/product.md, "Contratar um serviço"): the package and extras
// as confirmed (the confirmation page and the contract's order box), the buyer's answers and the
// package's revisions on the contract page.

type Summary = Pick<Quote, "package" | "extras" | "total_cents" | "delivery_days">;

/** The package, what it includes, the extras, the total, the days and the revisions. */
export function OrderSummary({ order, escrow }: { order: Summary; escrow: boolean }) {
  const { t, i18n } = useTranslation("services");
  const money = (cents: number) => formatMoney(cents, i18n.language);
  return (
    <>
      <Facts
        items={[
          { label: t("order.package"), value: `${order.package.name} · ${money(order.package.price_cents)}` },
          {
            label: t("order.extras"),
            value: order.extras.length
              ? order.extras.map((e) => `${e.title} (+${money(e.price_cents)})`).join(" · ")
              : t("order.no_extras"),
            wide: true,
          },
          { label: t("order.total"), value: money(order.total_cents), valueClass: "fact-strong" },
          {
            label: t("order.delivery"),
            value: t(escrow ? "order.delivery_from_funding" : "order.delivery_no_payments", {
              count: order.delivery_days,
            }),
          },
          {
            label: t("order.revisions"),
            value:
              order.package.revisions === 0
                ? t("public.revisions_zero")
                : t("public.revisions", { count: order.package.revisions }),
          },
        ]}
      />
      <h3>{t("public.includes")}</h3>
      <ul className="service-includes">
        {order.package.includes.map((line, i) => (
          <li key={i}>{line}</li>
        ))}
      </ul>
    </>
  );
}

/** The questions as form fields (`answer_N`): a text, a choice, or a note for a file. */
export function AnswerFields({
  questions,
  field,
  chosen,
  filesApart = false,
}: {
  questions: ServiceQuestion[];
  field: ReturnType<typeof fieldsOf>;
  chosen: (i: number) => string | undefined;
  /** The file questions have forms of their own (the contract page): no note for them here. */
  filesApart?: boolean;
}) {
  const { t } = useTranslation("services");
  return (
    <>
      {questions.map((q, i) => {
        const label = q.required ? q.text : `${q.text} (${t("order.optional")})`;
        if (q.kind === "file") {
          if (filesApart) return null;
          return (
            <p key={i}>
              <strong>{q.text}</strong> <span className="muted">{t("order.file_later")}</span>
            </p>
          );
        }
        if (q.kind === "choice") {
          return (
            <SelectField
              key={i}
              {...field(`answer_${i}`)}
              value={chosen(i)}
              label={label}
              options={(q.choices ?? []).map((c) => ({ value: c, label: c }))}
              anyLabel={t("order.choose")}
            />
          );
        }
        return (
          <TextAreaField key={i} {...field(`answer_${i}`, chosen(i))} label={label} maxLength={ANSWER_MAX} rows={3} />
        );
      })}
    </>
  );
}

/**
 * The contract's order box: the service, the package as confirmed, the revisions used, and the
 * buyer's answers (the buyer may answer or correct them until the first delivery).
 */
export function ContractOrder({ order, escrow, mayAnswer }: { order: OrderJson; escrow: boolean; mayAnswer: boolean }) {
  const { t } = useTranslation("services");
  const refusal = useRefusal("order_answers");
  const pending = usePending("order_answers");
  const given = (i: number) => order.answers?.[i]?.answer ?? undefined;
  const field = fieldsOf(refusal);
  const answerable = order.questions.some((q) => q.kind !== "file");
  return (
    <section className="card stack" aria-labelledby="order-title" id="order">
      <h2 id="order-title">{t("order.box_title")}</h2>
      <p>
        {t("order.box_service")}: <Link to={order.service.path}>{order.service.title}</Link>
      </p>
      <OrderSummary order={order} escrow={escrow} />
      <p>
        <strong>{t("order.revisions_count", { used: order.revisions_used, allowed: order.revisions_allowed })}</strong>
      </p>
      {order.questions.length ? (
        <>
          <h3>{t("order.answers")}</h3>
          {order.answers ? (
            <dl className="facts">
              {order.answers.map((a, i) => (
                <div key={i} className="wide">
                  <dt>{a.question}</dt>
                  <dd className="prose">
                    {a.file ? (
                      // Downloaded by the two sides only (a contract's file).
                      <a href={a.file.path} className="link" download>
                        {a.answer}
                      </a>
                    ) : (
                      (a.answer ?? (a.kind === "file" ? t("order.file_missing") : t("order.no_answer")))
                    )}
                  </dd>
                </div>
              ))}
            </dl>
          ) : (
            <p className="muted">{t("order.no_answers")}</p>
          )}
        </>
      ) : null}
      {mayAnswer && answerable ? (
        <FormCard
          name="order-answers"
          title={t("order.answer_submit")}
          refusal={refusal}
          intent="order_answers"
          className="stack"
        >
          <AnswerFields
            questions={order.questions}
            field={field}
            chosen={(i) => refusal?.values?.[`answer_${i}`] ?? given(i)}
            filesApart
          />
          <FormActions busy={pending} label={t("order.answer_submit")} />
        </FormCard>
      ) : null}
      {mayAnswer
        ? order.questions.map((q, i) =>
            q.kind === "file" ? <FileAnswerForm key={i} index={i} question={q.text} /> : null,
          )
        : null}
    </section>
  );
}

/**
 * A file question's own form (multipart, apart from the text answers: nothing typed there is
 * lost): one file, sent as `files` with the question's index; a new one replaces the last.
 */
function FileAnswerForm({ index, question }: { index: number; question: string }) {
  const { t } = useTranslation("services");
  const sent = useRefusal("order_file");
  const refusal = sent?.values?.question === String(index) ? sent : null;
  const pending = usePending("order_file");
  const field = fieldsOf(refusal);
  return (
    <FormCard
      name={`order-file-${index}`}
      title={question}
      intro={t("order.file_intro")}
      refusal={refusal}
      intent="order_file"
      encType="multipart/form-data"
      className="stack"
    >
      <input type="hidden" name="question" value={index} />
      <Field {...field("files")} type="file" label={t("order.file_label")} hint={t("order.file_hint")} />
      <FormActions busy={pending} label={t("order.file_submit")} />
    </FormCard>
  );
}
