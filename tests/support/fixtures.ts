// Small real files shared by the unit and browser tests.

/** A 1×1 PNG. */
export const PNG_1X1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

/** A valid opportunity (API field names, centavos). */
export const validOpportunity = {
  title: "Loja virtual para confeitaria",
  description: "Loja com catálogo de bolos, encomendas pelo WhatsApp e pagamento via Pix.",
  category: "desenvolvimento",
  skills: ["Shopify", "Pix"],
  budget_type: "fixed",
  budget_min_cents: 200_000,
  budget_max_cents: 450_000,
  location_type: "remote",
  vacancies: 1,
};

/** A valid application to it. */
export const validApplication = {
  cover_letter: "Já fiz três lojas para confeitarias e posso entregar em duas semanas.",
  price_cents: 350_000,
  delivery_days: 14,
};
