import { crc32, deflateSync } from "node:zlib";

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

/**
 * A real PNG of `width` × `height` black pixels (1-bit grayscale), small on disk however large it
 * is on screen: 20 000 × 20 000 px is about 50 KB.
 */
export function pngOfSize(width: number, height: number): Uint8Array<ArrayBuffer> {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth; color type 0 (grayscale), then compression, filter, interlace 0
  const row = 1 + Math.ceil(width / 8);
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.alloc(row * height), { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
  return new Uint8Array(png);
}

/** A valid ready-made service (API field names, centavos): two packages, an extra, a FAQ, two questions. */
export const validService = {
  title: "Logotipo para sua confeitaria",
  category: "design",
  description: "Crio o logotipo da sua marca com três propostas, arquivos para impressão e redes sociais.",
  skills: ["Illustrator", "Branding"],
  packages: [
    { name: "Básico", includes: ["Uma proposta", "Arquivo PNG"], price_cents: 15_000, delivery_days: 5, revisions: 1 },
    {
      name: "Completo",
      includes: ["Três propostas", "Arquivos vetoriais", "Manual da marca"],
      price_cents: 45_000,
      delivery_days: 3,
      revisions: 3,
    },
  ],
  extras: [{ title: "Entrega em 24 horas", price_cents: 8_000, extra_days: 0 }],
  faq: [{ question: "Posso pedir mudanças?", answer: "Sim, dentro das revisões do pacote." }],
  questions: [
    { text: "Qual é o nome da marca?", kind: "text", required: true },
    { text: "Qual estilo você prefere?", kind: "choice", choices: ["Moderno", "Clássico"], required: false },
  ],
};
