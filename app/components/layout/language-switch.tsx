import { Form, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { supportedLngs, type Lng } from "~/lib/i18n";

const SHORT: Record<Lng, string> = { "pt-BR": "PT", en: "EN", es: "ES" };

/** Posts the chosen language; the server keeps it in a cookie and sends the user back. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  return (
    <Form method="post" action="/language" className="language-switch" reloadDocument>
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      {supportedLngs.map((lng) => (
        <button
          key={lng}
          type="submit"
          name="lng"
          value={lng}
          className={i18n.language === lng ? "active" : undefined}
          aria-pressed={i18n.language === lng}
          title={t(`language.${lng}`)}
        >
          {SHORT[lng]}
        </button>
      ))}
    </Form>
  );
}
