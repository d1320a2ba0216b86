// The i18next instances the server renders pages with (app/entry.server.tsx): one per language,
// with the answers of their hottest calls remembered.
import i18next from "i18next";
import { LRUCache } from "lru-cache";
import { initReactI18next } from "react-i18next";
import { i18nOptions } from "./i18n.server";

// One i18next instance per language, made once: the translations never change while the
// server runs, and making an instance for every page cost ~0.6 ms of CPU. Renders only read it.
const instances = new Map<string, Promise<typeof i18next>>();
export function i18nFor(lng: string) {
  let instance = instances.get(lng);
  if (!instance) {
    const created = i18next.createInstance();
    instance = created
      .use(initReactI18next)
      .init({ ...i18nOptions, lng })
      .then(() => memoizeTranslations(memoizeLanguageCodes(created)));
    instances.set(lng, instance);
  }
  return instance;
}

/**
 * i18next normalises the language code ("pt-BR") with Intl.getCanonicalLocales several times
 * for every t() call; a page makes hundreds of calls, and that was ~5% of its CPU. The answer
 * only depends on the code, so it is remembered (codes come from supportedLngs: a few).
 */
function memoizeLanguageCodes(instance: typeof i18next) {
  const utils = instance.services.languageUtils as { formatLanguageCode(code: string): string };
  const format = utils.formatLanguageCode.bind(utils);
  const known = new Map<string, string>();
  utils.formatLanguageCode = (code: string) => {
    let formatted = known.get(code);
    if (formatted === undefined) {
      formatted = format(code);
      if (known.size < 32) known.set(code, formatted);
    }
    return formatted;
  };
  return instance;
}

/** Options react-i18next's t() passes to every call; anything else (count, values) is a variable. */
const FIXED_OPTIONS = ["lng", "lngs", "ns", "keyPrefix"];
const LABELS_KEPT = 5_000;
const WITH_VALUES_KEPT = 2_000;

/**
 * A page translates ~300 strings (each t() call costs ~5-8 µs in i18next: ~10% of a list page's
 * CPU). The text depends only on the language, namespaces, key and the values interpolated, and
 * translations never change while the server runs, so it is remembered:
 * - labels without variables, most of them repeated on every card: kept (up to LABELS_KEPT);
 * - calls whose variables are plain strings and numbers (a card's dates and counts, the same on
 *   the first page for everybody): the least recently used dropped past WITH_VALUES_KEPT, as
 *   some values (names, titles) come up once.
 * Calls with anything else among their options (objects, React elements) go through.
 */
function memoizeTranslations(instance: typeof i18next) {
  const translate = instance.t.bind(instance) as (key: unknown, options?: Record<string, unknown>) => unknown;
  const labels = new Map<string, string>();
  const withValues = new LRUCache<string, string>({ max: WITH_VALUES_KEPT });
  instance.t = ((key: unknown, options?: Record<string, unknown>) => {
    if (typeof key !== "string") return translate(key, options);
    let id = `${FIXED_OPTIONS.map((name) => String(options?.[name] ?? "")).join("|")}|${key}`;
    let values = "";
    for (const name in options) {
      if (FIXED_OPTIONS.includes(name)) continue;
      const value = options[name];
      const type = typeof value;
      if (type !== "string" && type !== "number" && value !== undefined) return translate(key, options);
      // The type goes in too: the count 1 and the text "1" may translate differently.
      values += `|${name}=${type[0]}${String(value)}`;
    }
    id += values;
    const known = values ? withValues.get(id) : labels.get(id);
    if (known !== undefined) return known;
    const text = translate(key, options);
    if (typeof text !== "string") return text;
    if (values) withValues.set(id, text);
    else if (labels.size < LABELS_KEPT) labels.set(id, text);
    return text;
  }) as typeof instance.t;
  return instance;
}
