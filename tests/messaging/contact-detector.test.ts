import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CONTACT_MASK, detectContacts } from "~/services/messaging/contact-detector.server";

// What must be caught: ways people pass a contact or ask to pay outside Freela, as they write them.
const CAUGHT_FIXED = [
  "me chama no zap 11 98765-4321",
  "meu whats é (11) 98765-4321",
  "(11) 98765-4321",
  "(11)98765-4321",
  "11 98765 4321",
  "11 9 8765-4321",
  "11.98765.4321",
  "11-98765-4321",
  "+55 11 98765-4321",
  "+55 (11) 98765-4321",
  "+5511987654321",
  "5511987654321",
  "11987654321",
  "987654321",
  "98765-4321",
  "9 8765-4321",
  "3456-7890",
  "(21) 3456-7890",
  "021 98765 4321",
  "liga pra mim: 21 9 9999 8888",
  "meu cel 31 99888-7766",
  "nove nove oito sete seis cinco quatro tres dois um",
  "onze nove nove oito sete seis cinco quatro tres dois",
  "nove oito sete seis - cinco quatro três dois",
  "9 9 8 7 6 5 4 3 2",
  "9-9-8-7-6-5-4-3-2",
  "nove 9 oito 8 sete 7 seis 6",
  "11 nove oito sete seis cinco quatro três dois um",
  "me liga 11 9.8765.4321",
  "zap: 11 98765-4321",
  "whats 11 9 8765 4321 chama lá",
  "fulano@gmail.com",
  "Fulano.Silva@hotmail.com.br",
  "contato: joao_designer+freela@outlook.com",
  "fulano @ gmail . com",
  "fulano arroba gmail ponto com",
  "fulano arroba gmail.com",
  "fulano (arroba) gmail (ponto) com",
  "fulano [at] gmail [dot] com",
  "fulano at gmail dot com",
  "fulano arroba hotmail ponto com ponto br",
  "manda pro meu e-mail: ana.paula@yahoo.com.br",
  "meu gmail é joaosilva123",
  "https://wa.me/5511987654321",
  "wa.me/5511987654321",
  "http://wa.me/5511987654321?text=oi",
  "https://api.whatsapp.com/send?phone=5511987654321",
  "https://chat.whatsapp.com/AbCdEf123",
  "t.me/fulano",
  "https://t.me/fulano_dev",
  "telegram.me/fulano",
  "me chama no zap",
  "me chama no whats",
  "me chama no whatsapp",
  "me chama no wpp",
  "me chama no telegram",
  "chama no zap que a gente resolve",
  "vamos conversar pelo whatsapp?",
  "podemos falar pelo zap",
  "bora continuar no whats",
  "me add no telegram",
  "me adiciona no zap",
  "manda mensagem no meu whats",
  "qual seu whats?",
  "qual o seu zap?",
  "passa seu número",
  "me passa seu telefone",
  "me passa o seu e-mail",
  "te passo meu número",
  "me manda seu contato",
  "meu zap tá na bio",
  "meu whatsapp: onze nove...",
  "meu telegram é @fulano",
  "fala comigo no zap zap",
  "chama lá no zapzap",
  "minha chave pix é 123.456.789-09",
  "minha chave é 12345678909",
  "chave pix: fulano@gmail.com",
  "chave pix 11987654321",
  "a chave pix é 4d5e6f70-1a2b-4c3d-8e9f-0a1b2c3d4e5f",
  "4d5e6f70-1a2b-4c3d-8e9f-0a1b2c3d4e5f",
  "CPF 123.456.789-09",
  "CNPJ 11.222.333/0001-81",
  "11.222.333/0001-81",
  "faz um pix direto pra mim",
  "te pago no pix direto",
  "manda o pix pra mim que eu começo",
  "pix direto na minha conta",
  "paga por fora que sai mais barato",
  "podemos fechar por fora",
  "a gente acerta por fora",
  "te pago por fora",
  "o pagamento pode ser por fora?",
  "vamos fazer por fora da plataforma",
  "prefiro receber por fora",
  "se fechar por fora faço 20% de desconto",
  "fora da plataforma sai mais barato",
  "podemos negociar fora do site",
  "fora do Freela eu cobro menos",
  "sem passar pela plataforma",
  "sem a taxa da plataforma fica melhor",
  "pra fugir da taxa",
  "pra evitar a taxa do site",
  "pra economizar a comissão",
  "pode pagar direto pra mim",
  "pagamento direto na minha conta",
  "transferência direto na minha conta",
  "deposita direto na minha conta",
  "Me chama no ZAP!!",
  "ME CHAMA NO WHATS 11 98765 4321",
  "Olá! Tenho interesse. Meu contato: (11) 98765-4321, abraço",
  "Oi, segue meu email joao@empresa.com.br para mandar os arquivos",
  "Podemos continuar a conversa pelo WhatsApp? 11 99999-8888",
];

const phonesWritten = [
  "(11) 99876-5432",
  "11 99876 5432",
  "11 9 9876 5432",
  "+55 21 99876-5432",
  "21998765432",
  "(31)3222-1100",
  "0xx11 99876-5432",
  "99876.5432",
  "nove nove oito sete meia cinco quatro três dois",
  "9 9 8 7 6 5 4 3 2 1",
];
const phoneLead = [
  "meu número é",
  "liga pra",
  "anota aí:",
  "qualquer coisa",
  "me chama:",
  "tel",
  "cel.",
  "fone",
  "whats",
  "contato",
];
const emailsWritten = [
  "maria.souza@gmail.com",
  "maria souza arroba gmail ponto com",
  "mariasouza arroba hotmail ponto com",
  "maria(arroba)outlook(ponto)com",
  "maria @ yahoo . com . br",
  "contato@mariadesign.com.br",
];
const emailLead = ["meu e-mail:", "manda pra", "me escreve em", "email", "pode mandar o briefing pra"];
const appInvites = [
  "me chama no zap",
  "chama no whats",
  "bora falar no wpp",
  "a gente conversa melhor pelo whatsapp",
  "me add no telegram",
  "segue no zap que explico",
  "me chama no zapzap",
  "continuamos no whats?",
];
const offPlatform = [
  "te pago por fora",
  "paga por fora",
  "vamos fechar por fora",
  "a gente acerta por fora do site",
  "faço mais barato fora da plataforma",
  "sem passar pela plataforma",
  "pra não pagar a taxa do site",
  "pix direto",
];
const tails = ["", " ok?", ", combinado?", " abraço", "!"];

const CAUGHT = [
  ...CAUGHT_FIXED,
  ...phoneLead.flatMap((lead, i) => phonesWritten.map((p, j) => `${lead} ${p}${tails[(i + j) % tails.length]}`)),
  ...emailLead.flatMap((lead, i) => emailsWritten.map((e, j) => `${lead} ${e}${tails[(i + j) % tails.length]}`)),
  ...appInvites.flatMap((a) => [`Oi! ${a}`, `${a} que é mais rápido`]),
  ...offPlatform.flatMap((o) => [`Olha, ${o}`, `${o}, pode ser?`]),
];

// Ordinary sentences with numbers that are no contact.
const ORDINARY_FIXED = [
  "O valor fica em R$ 1.500,00",
  "Consigo fazer por R$ 12.000,00 em duas etapas",
  "Orçamento: R$ 10.000.000,00 (dez milhões)",
  "R$1.234.567,89",
  "Entrego em 12/03/2026",
  "Prazo até 2026-03-12",
  "Começo no dia 01.04.2026",
  "De 12/03/2026 a 30/04/2026",
  "O CEP é 01310-100",
  "CEP 01.310-100, Avenida Paulista",
  "Endereço: Rua Augusta, 1500, CEP 01305-000",
  "São 1.000.000 de visualizações por mês",
  "10.000.000 de acessos no ano passado",
  "Atendo das 8h às 18h",
  "Horário: 08:00 às 17:30",
  "Reunião às 14h30",
  "Desconto de 15% no pacote",
  "Aumento de 3,5% ao mês",
  "Versão 2.10.3 do app",
  "Node 20.11.1 e React 18.2.0",
  "Atualizei para a v1.2.3-beta.4",
  "São 3 etapas de 5 dias cada",
  "Marco 2 de 4 entregue",
  "Etapa 1: protótipo; etapa 2: layout; etapa 3: código",
  "Tenho 12 anos de experiência e 350 projetos",
  "Fiz 2 landing pages e 3 logos",
  "Meu portfólio: https://www.behance.net/mariasouza",
  "Veja https://github.com/joaosilva/projeto-123",
  "Repositório em github.com/fulano/app",
  "Portfólio em https://dribbble.com/fulano",
  "Site de exemplo: https://www.loja123.com.br/produtos/456",
  "Tenho um bot de WhatsApp pronto para integrar",
  "O sistema manda notificações pelo WhatsApp Business API",
  "Integração com a API do Telegram",
  "Preciso de um chatbot para WhatsApp",
  "A pintura por fora da casa leva 3 dias",
  "Limpeza por fora e por dentro",
  "O pagamento pelo Freela é garantido",
  "Pagamento via Pix pela plataforma, certo?",
  "Posso começar amanhã às 9h",
  "Entrego 20 artes por mês",
  "Resolução 1920x1080",
  "Tamanho 1080 x 1920 pixels",
  "Um ou dois dias no máximo",
  "Uma semana para o primeiro marco",
  "Faço três versões e duas revisões",
  "São vinte e cinco páginas",
  "ISBN 978-85-333-0227-3",
  "Protocolo 2026/000123",
  "Nota fiscal nº 12345",
  "Pedido #45678",
  "Fiquei em 1º lugar num concurso em 2019",
  "Trabalho com Figma há 5 anos, desde 2021",
  "Entre 2020 e 2024 atendi 150 clientes",
  "Prazo de 30, 45 ou 60 dias",
  "Tabela com 1500 2000 linhas",
  "Página 12 de 200",
  "Seção 4.2.1 do documento",
  "Artigo 5º, inciso 10",
  "Temperatura entre 18 e 25 graus",
  "Peso de 2,5 kg",
  "Envio o arquivo em PDF de 3 MB",
  "Coordenadas -23.5505, -46.6333",
  "Um abraço e até amanhã",
  "Obrigado pela oportunidade!",
  "Nota 4,8 de 5 no meu perfil",
  "Meu e-mail de cadastro já está verificado",
  "Testei no meu celular e ficou ótimo",
  "Recebi a notificação no e-mail",
  "O formulário de contato do site precisa de validação",
  "Preciso de um campo de telefone no formulário",
  "Campo de CPF com máscara 000.000.000-00",
  "O campo aceita o formato (00) 00000-0000",
  "Vou usar o protocolo HTTP/2",
  "Porta 3000 ou 8080",
  "IP 192.168.0.1",
  "Entrega em 10 dias úteis",
  "Faço por 2.500 reais",
  "Parcelo em 3x de R$ 500,00",
  "Total: 1.250,00",
  "O logo tem 3 cores: #FF0000, #00FF00 e #0000FF",
  "Ano de 2026, mês 03",
  "Semana 12 do projeto",
  "Sprint 4 de 10",
  "Horas estimadas: 40h",
  "Valor por hora R$ 80",
  "Aceito a contraproposta de R$ 2.000,00 em 15 dias",
  "Tenho disponibilidade de segunda a sexta, 9h-18h",
  "Faço em 7 dias, com 2 revisões",
  "Entrego o marco 1 até 15/04",
  "Data: 15/04/2026 às 10h",
  "Mais de 1.000 seguidores",
  "Publiquei 250 posts",
  "Crescimento de 120% em 6 meses",
  "123 avaliações positivas",
  "Estou no nível 3 de 5",
  "Tenho 2 monitores 27 polegadas",
  "A casa tem 120 m²",
  "Apartamento 42, bloco B",
  "Número 1500, sala 12",
  "Km 23 da rodovia",
  "Lote 7, quadra 12",
];

const prices = ["R$ 1.500,00", "R$ 800", "R$ 2.350,90", "R$ 15.000,00", "1.200 reais"];
const dates = ["12/03/2026", "01/12/2025", "2026-05-20", "30.06.2026", "3 de março"];
const ceps = ["01310-100", "04538-132", "20040-002", "30130-010", "70040-906"];
const quantities = ["3 páginas", "10 artes", "1.500 produtos", "200 fotos", "12 vídeos"];
const hours = ["8h às 18h", "9h30", "das 14h às 16h", "10:00", "até as 22h"];
const templatesOrdinary: [string[], (v: string) => string][] = [
  [prices, (v) => `Posso fazer por ${v} no total`],
  [prices, (v) => `O orçamento ficou em ${v}, com nota`],
  [dates, (v) => `Entrego o primeiro marco em ${v}`],
  [dates, (v) => `A reunião ficou para ${v}`],
  [ceps, (v) => `Moro perto, CEP ${v}`],
  [ceps, (v) => `O frete para o CEP ${v} é grátis`],
  [quantities, (v) => `São ${v} ao todo`],
  [quantities, (v) => `Já entreguei ${v} este mês`],
  [hours, (v) => `Trabalho ${v}`],
  [hours, (v) => `Disponível ${v} de segunda a sexta`],
];
const ORDINARY = [
  ...ORDINARY_FIXED,
  ...templatesOrdinary.flatMap(([values, write]) => values.map(write)),
  ...prices.flatMap((p) => dates.map((d) => `Fechado: ${p}, entrega ${d}`)),
  ...quantities.flatMap((q) => hours.map((h) => `Faço ${q} por dia, ${h}`)),
];

describe("contact detector, fixed tables", () => {
  it("has 200+ phrasings each way", () => {
    expect(CAUGHT.length).toBeGreaterThanOrEqual(200);
    expect(ORDINARY.length).toBeGreaterThanOrEqual(200);
  });

  it.each(CAUGHT)("catches %j", (text) => {
    const { spans, masked } = detectContacts(text);
    expect(spans.length).toBeGreaterThan(0);
    expect(masked).toContain(CONTACT_MASK);
  });

  it.each(ORDINARY)("leaves %j alone", (text) => {
    expect(detectContacts(text)).toEqual({ spans: [], masked: text });
  });

  it("masks only the contact and keeps the rest of the text", () => {
    const text = "Olá, posso começar dia 12/03/2026 por R$ 1.500,00. Me liga: (11) 98765-4321. Abraço";
    const { spans, masked } = detectContacts(text);
    expect(spans).toEqual([{ start: 60, end: 75, kind: "phone" }]);
    expect(masked).toBe(`Olá, posso começar dia 12/03/2026 por R$ 1.500,00. Me liga: ${CONTACT_MASK}. Abraço`);
  });

  it("names what it found", () => {
    const kinds = (t: string) => detectContacts(t).spans.map((s) => s.kind);
    expect(kinds("ana@gmail.com")).toEqual(["email"]);
    expect(kinds("wa.me/5511987654321")).toEqual(["link"]);
    expect(kinds("me chama no zap")).toEqual(["app"]);
    expect(kinds("CNPJ 11.222.333/0001-81")).toEqual(["pix"]);
    expect(kinds("te pago por fora")).toEqual(["off_platform"]);
  });

  it("keeps accented and non-Latin characters in place", () => {
    const text = "Ótimo 😀 ação: fulano@gmail.com — até já";
    expect(detectContacts(text).masked).toBe(`Ótimo 😀 ação: ${CONTACT_MASK} — até já`);
  });
});

// Generated variants: any Brazilian mobile number, written any of the usual ways; any address.
const digit = fc.integer({ min: 0, max: 9 });
const ddd = fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 9 })).map(([a, b]) => `${a}${b}`);
const mobile = fc.tuple(ddd, fc.array(digit, { minLength: 8, maxLength: 8 })).map(([d, rest]) => ({
  ddd: d,
  number: `9${rest.join("")}`,
}));
const WORDS = ["zero", "um", "dois", "três", "quatro", "cinco", "seis", "sete", "oito", "nove"];
const writeMobile = fc.constantFrom(
  ({ ddd: d, number: n }: { ddd: string; number: string }) => `(${d}) ${n.slice(0, 5)}-${n.slice(5)}`,
  ({ ddd: d, number: n }: { ddd: string; number: string }) => `${d} ${n.slice(0, 1)} ${n.slice(1, 5)} ${n.slice(5)}`,
  ({ ddd: d, number: n }: { ddd: string; number: string }) => `+55 ${d} ${n}`,
  ({ ddd: d, number: n }: { ddd: string; number: string }) => `55${d}${n}`,
  ({ ddd: d, number: n }: { ddd: string; number: string }) => `${d}.${n.slice(0, 5)}.${n.slice(5)}`,
  ({ number: n }: { ddd: string; number: string }) => `${n.slice(0, 5)}-${n.slice(5)}`,
  ({ number: n }: { ddd: string; number: string }) => [...n].map((c) => WORDS[Number(c)]).join(" "),
  ({ number: n }: { ddd: string; number: string }) => [...n].map((c, i) => (i % 2 ? WORDS[Number(c)] : c)).join(" "),
);
const filler = fc.constantFrom("", "Oi! ", "Olá, tudo bem? ", "Segue: ", "Pode me chamar ", "Qualquer dúvida ");
const after = fc.constantFrom("", ".", " obrigado", ", abraço", " — até mais");
const user = fc.stringMatching(/^[a-z][a-z0-9._]{1,15}[a-z0-9]$/);
const domain = fc.constantFrom("gmail", "hotmail", "outlook", "yahoo", "empresa", "icloud");
const tld = fc.constantFrom("com", "com.br", "net", "org");
const writeEmail = fc.constantFrom(
  (u: string, d: string, t: string) => `${u}@${d}.${t}`,
  (u: string, d: string, t: string) => `${u} @ ${d} . ${t.replace(".", " . ")}`,
  (u: string, d: string, t: string) => `${u} arroba ${d} ponto ${t.replace(".", " ponto ")}`,
  (u: string, d: string, t: string) => `${u}(arroba)${d}(ponto)${t.replace(".", "(ponto)")}`,
);

describe("contact detector, generated variants", () => {
  it("catches any mobile number however it is written, and masks all of its digits", () => {
    fc.assert(
      fc.property(mobile, writeMobile, filler, after, (phone, write, before, end) => {
        const written = write(phone);
        const { masked, spans } = detectContacts(`${before}${written}${end}`);
        expect(spans.length).toBeGreaterThan(0);
        expect(masked.replace(/\D/g, "")).not.toContain(phone.number.slice(-4));
      }),
      { numRuns: 300 },
    );
  });

  it("catches any e-mail address, written or spelled out", () => {
    fc.assert(
      fc.property(user, domain, tld, writeEmail, filler, after, (u, d, t, write, before, end) => {
        const { masked } = detectContacts(`${before}${write(u, d, t)}${end}`);
        expect(masked).not.toContain(u);
      }),
      { numRuns: 300 },
    );
  });

  it("leaves prices, dates, CEPs and percentages alone whatever their values", () => {
    const price = fc
      .integer({ min: 1, max: 99_999_999 })
      .map((c) => `R$ ${(c / 100).toLocaleString("pt-BR", { minimumFractionDigits: 2 })}`);
    const date = fc
      .date({ min: new Date("2000-01-01"), max: new Date("2099-12-31"), noInvalidDate: true })
      .map((d) => d.toLocaleDateString("pt-BR", { timeZone: "UTC" }));
    const cep = fc
      .tuple(fc.integer({ min: 1000, max: 99999 }), fc.integer({ min: 0, max: 999 }))
      .map(([a, b]) => `${String(a).padStart(5, "0")}-${String(b).padStart(3, "0")}`);
    const percent = fc.float({ min: 0, max: 1000, noNaN: true }).map((p) => `${p.toFixed(1).replace(".", ",")}%`);
    const sentence = fc
      .tuple(price, date, cep, percent)
      .map(([p, d, c, pc]) => `Fica ${p} com entrega em ${d}, CEP ${c}, desconto de ${pc}`);
    fc.assert(
      fc.property(sentence, (text) => {
        expect(detectContacts(text).spans).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
