import { config } from "~/config.server";
import { formatRange } from "~/lib/money";
import { savedSearchListPath, type SavedFilters } from "~/lib/saved-searches";
import { db } from "../../../db";
import type { OutboxRow } from "../../../db/schema";
import { displayNameOf } from "../accounts/users.server";
import { emailLocale, fixedT } from "../platform/i18n.server";
import type { Mail } from "../platform/mail.server";
import type { DigestPayload } from "./saved-searches.server";
import { savedSearchUnsubscribeUrl } from "./saved-searches.server";

type Recipient = { email: string; locale: string | null; display_name: string | null; full_name: string };

/**
 * The digest of a saved search (saved-searches.server.ts queued it with the ids of its new
 * matches), in the user's language; every link from APP_URL. Null when there is nothing to send
 * any more: the search was deleted or its e-mails turned off, or every match was taken down.
 */
export async function composeDigestEmail(row: OutboxRow, user: Recipient): Promise<Mail | null> {
  if (!row.payload) return null;
  const payload = JSON.parse(row.payload) as DigestPayload;
  const [search, opportunities] = await Promise.all([
    db
      .selectFrom("saved_searches")
      .select(["id", "name", "filters", "frequency"])
      .where("id", "=", payload.search_id)
      .where("user_id", "=", row.user_id)
      .executeTakeFirst(),
    payload.ids.length
      ? db
          .selectFrom("opportunities")
          .select([
            "id",
            "uuid",
            "title",
            "budget_type",
            "budget_min_cents",
            "budget_max_cents",
            "location_type",
            "city",
          ])
          .where("id", "in", payload.ids)
          .where("hidden_at", "is", null)
          .orderBy("id", "desc")
          .execute()
      : [],
  ]);
  if (!search || search.frequency === "off" || opportunities.length === 0) return null;
  const lng = emailLocale(user.locale);
  const t = fixedT(lng, "market");
  const lines = opportunities.flatMap((o) => [
    `- ${o.title}`,
    `  ${formatRange(o.budget_min_cents, o.budget_max_cents, lng)}${t(`budget_suffix.${o.budget_type}`)} · ${
      o.location_type === "remote" || !o.city ? t(`location_types.${o.location_type}`) : o.city
    }`,
    `  ${config.APP_URL}/opportunities/${o.uuid}`,
  ]);
  const unsubscribe = savedSearchUnsubscribeUrl(search.id);
  const text = [
    t("email.greeting", { name: displayNameOf(user) }),
    "",
    t("saved_searches.email.intro", { count: opportunities.length, name: search.name }),
    "",
    ...lines,
    "",
    ...(payload.more ? [t("saved_searches.email.more")] : []),
    t("saved_searches.email.all", {
      link: `${config.APP_URL}${savedSearchListPath(JSON.parse(search.filters) as SavedFilters)}`,
    }),
    "",
    "-- ",
    t("saved_searches.email.footer", {
      name: search.name,
      frequency: t(`saved_searches.frequencies.${search.frequency}`),
      unsubscribe,
      manage: `${config.APP_URL}/buscas-salvas`,
    }),
  ].join("\n");
  return {
    to: user.email,
    subject: t("saved_searches.email.subject", { name: search.name }),
    text,
    // RFC 2369 and RFC 8058: a mail program's own unsubscribe button POSTs to the link.
    headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}
