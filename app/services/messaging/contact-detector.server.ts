// Ways off the platform in a text (docs/product.md, "Contatos antes do pagamento"): phone numbers
// (Brazilian formats, digits written as Portuguese words, mixed), e-mail addresses (also
// "fulano arroba gmail ponto com"), WhatsApp and Telegram links, invitations to talk on them,
// Pix keys and requests to pay outside Freela. Pure: no I/O, the same text gives the same spans.
// What it must catch and must leave alone is tests/messaging/contact-detector.test.ts.

export type ContactKind = "phone" | "email" | "link" | "app" | "pix" | "off_platform";
export type ContactSpan = { start: number; end: number; kind: ContactKind };
export type ContactScan = { spans: ContactSpan[]; masked: string };

/** What the other side reads in place of a contact. */
export const CONTACT_MASK = "•••";

// Lower case without accents, one character for one (the spans index the original text).
const fold = (text: string) =>
  Array.from(text, (ch) => {
    const base = ch.toLowerCase().normalize("NFD")[0] ?? ch;
    return ch.length === base.length ? base : ch;
  }).join("");

const DIGIT_WORDS: Record<string, string> = {
  zero: "0",
  um: "1",
  uma: "1",
  dois: "2",
  duas: "2",
  tres: "3",
  quatro: "4",
  cinco: "5",
  seis: "6",
  meia: "6",
  sete: "7",
  oito: "8",
  nove: "9",
};

// A run of digits and digit words joined by what people put between them in a phone number.
const TOKEN = `(?:\\d+|${Object.keys(DIGIT_WORDS).join("|")})`;
const SEP = String.raw`(?:[\s.\-–_*/]{1,3}|\s*[()]\s*|\s*\+\s*|\s+e\s+)?`;
const RUN = new RegExp(String.raw`(?<![\w@])\+?\s*\(?\s*${TOKEN}(?:${SEP}${TOKEN})*\)?(?![\w@])`, "g");

// Ordinary numbers that look like long runs: dates, CEPs, money, thousands, times.
const NOT_PHONE = [
  /^\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}$/, // 12/03/2026, 12.03.2026, 12-03-2026
  /^\d{4}[/.-]\d{1,2}[/.-]\d{1,2}$/, // 2026-03-12
  /^\d{5}-?\d{3}$/, // CEP 01310-100
  /^\d{2}\.\d{3}-\d{3}$/, // CEP 01.310-100
  /^\d{1,3}(?:\.\d{3})+$/, // 1.500.000
  /^\d{1,3}(?:\s\d{3})+$/, // 1 500 000
];

function phoneDigits(run: string): string | null {
  const words = run.match(new RegExp(`[a-z]+`, "g")) ?? [];
  const digits = run.replace(/[a-z]+/g, (w) => DIGIT_WORDS[w] ?? "").replace(/\D/g, "");
  const trimmed = run.replace(/^[\s(+]+|[\s)]+$/g, "");
  if (words.length === 0 && NOT_PHONE.some((re) => re.test(trimmed))) return null;
  // Digit words alone: seven or more spelled digits are a number being passed on.
  if (words.length >= 3) return digits.length >= 8 ? digits : null;
  let local = digits;
  if (/^55\d{10,11}$/.test(local) && (run.includes("+") || /^\D*55\D/.test(run) || local.length >= 12)) {
    local = local.slice(2);
  }
  if (/^0\d{10,11}$/.test(local)) local = local.slice(1);
  const grouped = /\d[\s.\-–_*]+\d/.test(run);
  // One digit at a time, spaced out: "9 9 8 7 6 5 4 3 2".
  if (/^(?:\d[\s.\-–_*]+){7,}\d$/.test(trimmed)) return digits;
  if (local.length === 8) return grouped && /^[2-9]/.test(local) && /\d{4}\D+\d{4}$/.test(trimmed) ? digits : null;
  if (local.length === 9) return /^9/.test(local) ? digits : null;
  if (local.length === 10) return /^[1-9][1-9][2-9]/.test(local) ? digits : null;
  if (local.length === 11) return /^[1-9][1-9]9/.test(local) ? digits : null;
  return null;
}

function* phones(folded: string): Generator<ContactSpan> {
  for (const m of folded.matchAll(RUN)) {
    const start = m.index;
    const before = folded.slice(Math.max(0, start - 4), start);
    const after = folded.slice(start + m[0].length, start + m[0].length + 3);
    if (/r\$\s*$/.test(before) || /^,\d/.test(after)) continue; // money
    if (!/\d|nove|oito|sete|seis|cinco|quatro|tres|dois|zero/.test(m[0])) continue;
    if (phoneDigits(m[0].trim()) === null) continue;
    const lead = m[0].length - m[0].trimStart().length;
    yield { start: start + lead, end: start + m[0].trimEnd().length, kind: "phone" };
  }
}

const rx = (source: string) => new RegExp(source, "g");
const APPS = String.raw`(?:zap\s?zap|zapzap|zap|zapp|whats\s?app|whatsapp|whats|wpp|wts|whats?|uats|telegram|telegrama|tg|signal)\b`;

// A CPF or CNPJ with its check digits right (a form's mask "000.000.000-00" is none).
function checkDigitsRight(found: string): boolean {
  const digits = [...found.replace(/\D/g, "")].map(Number);
  if (new Set(digits).size === 1) return false;
  const check = (body: number[], weights: number[]) => {
    const rest = body.reduce((sum, d, i) => sum + d * weights[i], 0) % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  if (digits.length === 11) {
    const w = (n: number) => Array.from({ length: n }, (_, i) => n + 1 - i);
    return check(digits.slice(0, 9), w(9)) === digits[9] && check(digits.slice(0, 10), w(10)) === digits[10];
  }
  const w12 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
  return check(digits.slice(0, 12), w12) === digits[12] && check(digits.slice(0, 13), [6, ...w12]) === digits[13];
}

const PATTERNS: [ContactKind, RegExp, ((found: string) => boolean)?][] = [
  // E-mail addresses, written or spelled out.
  ["email", rx(String.raw`[\w.+-]+\s*@\s*[\w-]+(?:\s*\.\s*[a-z]{2,})+`)],
  [
    "email",
    rx(
      String.raw`[\w.+-]+\s*[([]?\s*(?:arroba|\(at\)|\[at\]|at)\s*[)\]]?\s*[\w-]+(?:\s*[([]?\s*(?:ponto|dot|\.)\s*[)\]]?\s*(?:com|br|net|org|io|me|co)\b)+`,
    ),
  ],
  [
    "email",
    rx(
      String.raw`\b(?:meu|minha|no meu|pelo meu)\s+(?:gmail|hotmail|outlook|yahoo|icloud|bol|uol)\b\s*(?:e|:|eh)?\s*[\w.+-]+`,
    ),
  ],
  // Links to a WhatsApp or Telegram chat.
  [
    "link",
    rx(
      String.raw`(?:https?:\/\/)?(?:www\.)?(?:wa\.me|api\.whatsapp\.com|chat\.whatsapp\.com|web\.whatsapp\.com|wa\.link|whatsapp\.com|t\.me|telegram\.me|telegram\.dog)(?:\/[^\s]*)?`,
    ),
  ],
  // Invitations to talk there.
  [
    "app",
    rx(
      String.raw`\b(?:me|te|nos|a gente)?\s*(?:chama|chame|chamar|chamo|liga|ligue|ligar|add|adiciona|adicione|adicionar|fala|fale|falar|falamos|conversa|converse|conversar|conversamos|continua|continuar|continuamos|segue|seguir|seguimos|vamos|vem|chamei|procura|procure|me acha|chama la|manda msg|manda mensagem|manda uma mensagem|me encontra|contato|contatar|me passa|passa|passo|te passo|chamando)\b(?:\s+[\w,]+){0,4}?\s+(?:no|pelo|via|por|num|pro|pra|la no|do|meu|o|um)\s+(?:meu\s+|o\s+|seu\s+)?${APPS}`,
    ),
  ],
  ["app", rx(String.raw`\b(?:meu|minha|teu|seu|nosso)\s+${APPS}`)],
  [
    "app",
    rx(
      String.raw`\b(?:qual|passa|manda|me passa|me manda|me da|me de|me fala|me informa|informa|envia|me envia)\s+(?:o\s+|a\s+|ai\s+)?(?:seu|sua|teu|tua)\s+(?:zap|whats|whatsapp|wpp|telegram|celular|cel|telefone|fone|numero|contato|e-?mail|email|insta|instagram)\b`,
    ),
  ],
  [
    "app",
    rx(
      String.raw`\b(?:me|te)\s+(?:passa|passo|manda|mando|envia|envio|da|dou)\s+(?:o\s+|meu\s+|teu\s+|seu\s+)?(?:numero|contato|celular|telefone|zap|whats)\b`,
    ),
  ],
  ["app", rx(String.raw`\b${APPS}\s*[:=]\s*`)],
  // Pix: keys and asking to be paid by one directly.
  ["pix", rx(String.raw`\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)],
  ["pix", rx(String.raw`(?<!\d)\d{3}\.?\d{3}\.?\d{3}-\d{2}(?!\d)`), checkDigitsRight], // CPF
  ["pix", rx(String.raw`(?<!\d)\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}(?!\d)`), checkDigitsRight], // CNPJ
  [
    "pix",
    rx(
      String.raw`\b(?:minha|sua|tua|a|uma|essa|nossa)\s+chave(?:\s+(?:do|de|no))?\s+pix\b|\bchave\s+(?:do\s+|de\s+)?pix\s*(?:e|eh|:|=|segue|vai)|\b(?:minha|sua|tua)\s+chave\b`,
    ),
  ],
  [
    "pix",
    rx(
      String.raw`\b(?:faz|faco|faca|fazer|manda|mando|mandar|envia|envio|joga|jogo|cai|caiu|me paga|te pago|pago|pagar|paga|recebo|receber|deposita)\s+(?:um\s+|o\s+|no\s+|via\s+|por\s+|pelo\s+)?pix\s+(?:direto|pra mim|para mim|pra voce|para voce|pra vc|na minha conta|no meu|pro meu|no cpf|no celular)|\bpix\s+direto\b`,
    ),
  ],
  // Paying outside Freela.
  [
    "off_platform",
    rx(
      String.raw`\b(?:pag\w*|acert\w*|combin\w*|fech\w*|negoci\w*|resolv\w*|transf\w*|dinheiro|valor|deposit\w*|faz\w*|receb\w*|cobr\w*|trabalh\w*|servico|projeto)\b(?:\s+[\w$,]+){0,4}?\s+por\s+fora\b`,
    ),
  ],
  ["off_platform", rx(String.raw`\bpor\s+fora\s+(?:da|do)\s+(?:plataforma|site|freela|app|aplicativo|sistema)\b`)],
  ["off_platform", rx(String.raw`\bfora\s+(?:da|do)\s+(?:plataforma|site|freela|app|aplicativo|sistema)\b`)],
  [
    "off_platform",
    rx(
      String.raw`\bsem\s+(?:passar\s+)?(?:pela|pelo|a|o)\s+(?:plataforma|site|freela|app|intermediario|intermediacao)\b`,
    ),
  ],
  [
    "off_platform",
    rx(
      String.raw`\b(?:sem|evitar|fugir\s+da|fugir\s+das|economizar|nao\s+pagar|livrar\s+da|pular)\s+(?:a\s+|as\s+|essa\s+|essas\s+)?(?:taxa|taxas|comissao|comissoes|porcentagem)\b(?:\s+(?:da|do|de)\s+(?:plataforma|site|freela|app)\b)?`,
    ),
  ],
  [
    "off_platform",
    rx(
      String.raw`\b(?:pag\w*|acert\w*|deposit\w*|transf\w*)\s+(?:direto|diretamente)\s+(?:pra|para|a|em|na|no|com|via|por|comigo|entre)\b|\b(?:transferencia|deposito|pagamento|ted|doc)\s+direto\s+(?:na|no|pra|para)\s+(?:minha|meu|sua|seu)\b|\bdireto\s+(?:na|para a|pra)\s+minha\s+conta\b`,
    ),
  ],
];

/** The contacts and payment requests found in `text`, in order, merged where they overlap, and the text with each replaced by CONTACT_MASK. */
export function detectContacts(text: string): ContactScan {
  const folded = fold(text);
  const found: ContactSpan[] = [...phones(folded)];
  for (const [kind, re, valid] of PATTERNS) {
    for (const m of folded.matchAll(re)) {
      if (valid && !valid(m[0])) continue;
      const lead = m[0].length - m[0].trimStart().length;
      const end = m.index + m[0].trimEnd().length;
      if (end > m.index + lead) found.push({ start: m.index + lead, end, kind });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const spans: ContactSpan[] = [];
  for (const span of found) {
    const last = spans.at(-1);
    // Overlapping, or apart by spaces only ("me chama no zap 11 9…"): one span.
    if (last && (span.start <= last.end || /^\s+$/.test(text.slice(last.end, span.start)))) {
      last.end = Math.max(last.end, span.end);
    } else spans.push({ ...span });
  }
  let masked = "";
  let at = 0;
  for (const span of spans) {
    masked += text.slice(at, span.start) + CONTACT_MASK;
    at = span.end;
  }
  return { spans, masked: masked + text.slice(at) };
}
