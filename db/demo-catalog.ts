// The demo marketplace: jobs that Brazilian small businesses actually post. Budgets are in
// reais here (the seed turns them into centavos); `merchant` names the demo account posting it.

export type DemoJob = {
  merchant: string;
  category: string;
  title: string;
  description: string;
  skills: string[];
  budget: [number, number];
  hourly?: boolean;
  /** A monthly job: its proposals say what a month includes (the price is the monthly amount). */
  monthIncludes?: string;
  location?: "remote" | "onsite" | "hybrid";
  city?: string;
  vacancies?: number;
  /** Days from today; none means no deadline. */
  deadlineIn?: number;
};

export const demoJobs: DemoJob[] = [
  // desenvolvimento
  {
    merchant: "ana@freela.dev",
    category: "desenvolvimento",
    title: "Site com cardápio e encomendas para padaria",
    description:
      "A Padaria Pão de Mel quer um site simples com cardápio atualizado, fotos dos produtos, horário de funcionamento e um formulário de encomendas de bolos e salgados que chegue no nosso WhatsApp. Precisa funcionar bem no celular.",
    skills: ["React", "WhatsApp", "Responsivo"],
    budget: [2500, 4500],
    deadlineIn: 30,
  },
  {
    merchant: "carlos@freela.dev",
    category: "desenvolvimento",
    title: "API de rastreamento de entregas em Node.js",
    description:
      "Precisamos de uma API REST em Node.js e PostgreSQL para registrar coletas, status de entrega e prova de entrega com foto. Os motoristas usam um app que vai consumir essa API. Documentação em OpenAPI é obrigatória.",
    skills: ["Node.js", "PostgreSQL", "OpenAPI"],
    budget: [12000, 18000],
    deadlineIn: 60,
  },
  {
    merchant: "carlos@freela.dev",
    category: "desenvolvimento",
    title: "Painel administrativo em React para transportadora",
    description:
      "Painel web para a equipe de operações acompanhar entregas do dia, filtrar por região e exportar relatórios em CSV. Já temos a API pronta; o trabalho é só o front-end, com boa acessibilidade e testes.",
    skills: ["React", "TypeScript", "Acessibilidade"],
    budget: [9000, 14000],
    vacancies: 2,
    deadlineIn: 45,
  },
  {
    merchant: "fernanda@freela.dev",
    category: "desenvolvimento",
    title: "Agendamento online para clínica odontológica",
    description:
      "Queremos que os pacientes marquem consultas pelo site, escolhendo dentista, dia e horário, com lembrete por e-mail e WhatsApp um dia antes. Integração com Google Agenda seria um diferencial.",
    skills: ["Next.js", "Google Calendar", "E-mail"],
    budget: [6000, 10000],
    deadlineIn: 40,
  },
  {
    merchant: "luciana@freela.dev",
    category: "desenvolvimento",
    title: "Loja virtual na Nuvemshop para ateliê de moda",
    description:
      "Configurar e personalizar uma loja na Nuvemshop para o Ateliê Flor de Lis: tema com a nossa identidade, cadastro de 80 peças com variações de tamanho, frete pelos Correios e pagamento com Pix e cartão.",
    skills: ["Nuvemshop", "E-commerce", "Pix"],
    budget: [3000, 5000],
    deadlineIn: 25,
  },
  {
    merchant: "roberto@freela.dev",
    category: "desenvolvimento",
    title: "Sistema de ordens de serviço para oficina mecânica",
    description:
      "Hoje controlamos as ordens de serviço em caderno. Precisamos de um sistema web simples para abrir OS, registrar peças e mão de obra, imprimir orçamento e avisar o cliente por WhatsApp quando o carro estiver pronto.",
    skills: ["PHP", "Laravel", "MySQL"],
    budget: [7000, 12000],
    location: "hybrid",
    city: "Porto Alegre",
  },
  {
    merchant: "marcos@freela.dev",
    category: "desenvolvimento",
    title: "Manutenção do site WordPress da escola de idiomas",
    description:
      "Atualizar plugins e tema, corrigir lentidão, configurar backup automático e criar uma página de matrículas com formulário integrado ao RD Station. Contrato por hora, cerca de 20 horas por mês.",
    skills: ["WordPress", "PHP", "RD Station"],
    budget: [80, 120],
    hourly: true,
  },
  {
    merchant: "ana@freela.dev",
    category: "desenvolvimento",
    title: "Integração do caixa da padaria com emissão de NFC-e",
    description:
      "Temos um sistema de caixa antigo e precisamos emitir NFC-e automaticamente. Buscamos alguém que conheça a legislação de Minas Gerais e APIs de emissão de notas fiscais, para integrar e treinar a equipe.",
    skills: ["NFC-e", "Python", "APIs"],
    budget: [4000, 8000],
    location: "hybrid",
    city: "Belo Horizonte",
    deadlineIn: 50,
  },
  // design
  {
    merchant: "ana@freela.dev",
    category: "design",
    title: "Nova identidade visual para a Padaria Pão de Mel",
    description:
      "Vamos completar 20 anos e queremos renovar a marca: logotipo, paleta de cores, tipografia, aplicação em sacolas, embalagens de bolo e fachada. Queremos manter o clima acolhedor de padaria de bairro.",
    skills: ["Branding", "Illustrator", "Embalagens"],
    budget: [3500, 6000],
    deadlineIn: 35,
  },
  {
    merchant: "ana@freela.dev",
    category: "design",
    title: "Cardápio impresso e digital com fotos dos produtos",
    description:
      "Diagramar o cardápio da padaria em duas versões: impressa (A3, frente e verso) e digital para o QR Code das mesas. As fotos já existem; precisamos de tratamento leve e de um layout fácil de atualizar.",
    skills: ["InDesign", "Photoshop", "Diagramação"],
    budget: [800, 1500],
    deadlineIn: 15,
  },
  {
    merchant: "carlos@freela.dev",
    category: "design",
    title: "Redesenho do aplicativo dos motoristas (UX/UI)",
    description:
      "Nossos motoristas reclamam que o app é confuso. Queremos pesquisa rápida com 5 motoristas, novo fluxo de coleta e entrega e protótipo navegável no Figma, pronto para o time de desenvolvimento.",
    skills: ["Figma", "UX", "Pesquisa com usuários"],
    budget: [8000, 12000],
    deadlineIn: 40,
  },
  {
    merchant: "fernanda@freela.dev",
    category: "design",
    title: "Artes para Instagram da clínica (pacote mensal)",
    description:
      "Criar 12 artes por mês para o Instagram da Clínica Sorriso: dicas de saúde bucal, antes e depois (com autorização) e promoções. Precisamos seguir as regras do CFO para publicidade odontológica.",
    skills: ["Canva", "Photoshop", "Social media"],
    budget: [900, 1400],
  },
  {
    merchant: "luciana@freela.dev",
    category: "design",
    title: "Etiquetas e tags para a nova coleção",
    description:
      "Desenvolver etiqueta de composição, tag de preço e cartão de agradecimento para a coleção de inverno do ateliê. Arquivos prontos para gráfica, em papel kraft, com nossa logo já existente.",
    skills: ["Illustrator", "Impressos"],
    budget: [600, 1200],
    deadlineIn: 20,
  },
  {
    merchant: "roberto@freela.dev",
    category: "design",
    title: "Fachada e adesivagem da oficina",
    description:
      "Projeto de fachada em ACM com letreiro iluminado e adesivagem das duas vans da oficina. Precisamos do projeto e do acompanhamento da instalação com o fornecedor aqui em Porto Alegre.",
    skills: ["Comunicação visual", "CorelDRAW"],
    budget: [1500, 3000],
    location: "onsite",
    city: "Porto Alegre",
    deadlineIn: 30,
  },
  {
    merchant: "marcos@freela.dev",
    category: "design",
    title: "Material didático ilustrado para crianças",
    description:
      "Ilustrar e diagramar uma apostila de inglês para crianças de 6 a 9 anos, com 40 páginas, personagens recorrentes e atividades para colorir. Estilo alegre, traço limpo e entrega em PDF para impressão.",
    skills: ["Ilustração", "InDesign", "Infantil"],
    budget: [4000, 7000],
    deadlineIn: 60,
  },
  {
    merchant: "carlos@freela.dev",
    category: "design",
    title: "Apresentação institucional para investidores",
    description:
      "Transformar nosso pitch deck em uma apresentação bonita e clara, com 15 slides, gráficos de crescimento e mapa de cobertura. Temos o conteúdo; falta o design. Entrega em Google Slides e PDF.",
    skills: ["Google Slides", "Apresentações", "Infografia"],
    budget: [1200, 2500],
    deadlineIn: 10,
  },
  // marketing
  {
    merchant: "ana@freela.dev",
    category: "marketing",
    title: "Gestão do Instagram da padaria por 3 meses",
    description:
      "Procuramos social media para planejar e publicar 3 posts e 10 stories por semana, responder mensagens e criar uma campanha para o Dia das Mães. Fotos dos produtos podem ser feitas por nós ou por você na loja.",
    skills: ["Instagram", "Planejamento", "Copywriting"],
    budget: [1500, 2200],
    location: "hybrid",
    city: "Belo Horizonte",
  },
  {
    merchant: "ana@freela.dev",
    category: "marketing",
    title: "Anúncios no Google para encomendas de bolos",
    description:
      "Criar e acompanhar campanhas no Google Ads para encomendas de bolos de aniversário em Belo Horizonte, com orçamento de mídia de R$ 1.500 por mês. Queremos relatório semanal simples, sem jargão.",
    skills: ["Google Ads", "Tráfego pago"],
    budget: [900, 1600],
    deadlineIn: 20,
  },
  {
    merchant: "fernanda@freela.dev",
    category: "marketing",
    title: "Perfil no Google Meu Negócio e avaliações",
    description:
      "Otimizar o perfil da clínica no Google: fotos, categorias, horários e respostas às avaliações. Também queremos uma estratégia para pedir avaliações aos pacientes satisfeitos depois da consulta.",
    skills: ["SEO local", "Google Meu Negócio"],
    budget: [500, 900],
  },
  {
    merchant: "luciana@freela.dev",
    category: "marketing",
    title: "Campanha de lançamento da coleção de inverno",
    description:
      "Planejar o lançamento da coleção com influenciadoras locais de São Paulo, calendário de conteúdo, e-mail marketing para a base de 2.000 clientes e anúncios no Meta. Buscamos alguém com experiência em moda.",
    skills: ["Meta Ads", "Influenciadores", "E-mail marketing"],
    budget: [3000, 5500],
    deadlineIn: 28,
  },
  {
    merchant: "roberto@freela.dev",
    category: "marketing",
    title: "Tráfego pago para revisão de freios e suspensão",
    description:
      "Queremos mais clientes para revisão de freios e suspensão na Zona Norte de Porto Alegre. Campanhas no Google e no Instagram, com página de captação e acompanhamento dos contatos que chegam pelo WhatsApp.",
    skills: ["Google Ads", "Meta Ads", "Landing page"],
    budget: [1200, 2000],
  },
  {
    merchant: "marcos@freela.dev",
    category: "marketing",
    title: "Estratégia de matrículas para o segundo semestre",
    description:
      "Consultoria para montar o funil de matrículas da escola: aula experimental gratuita, nutrição por e-mail e WhatsApp e metas por canal. Entrega em um plano de 90 dias com acompanhamento quinzenal.",
    skills: ["Funil de vendas", "RD Station", "CRM"],
    budget: [2500, 4000],
    deadlineIn: 45,
  },
  {
    merchant: "carlos@freela.dev",
    category: "marketing",
    title: "Marketing B2B no LinkedIn para startup de logística",
    description:
      "Criar presença da Lima Tech no LinkedIn: linha editorial, 8 posts por mês, artigos do fundador e campanha de geração de leads para e-commerces do Nordeste.",
    skills: ["LinkedIn", "B2B", "Conteúdo"],
    budget: [2000, 3500],
  },
  {
    merchant: "fernanda@freela.dev",
    category: "marketing",
    title: "E-mail marketing para pacientes inativos",
    description:
      "Montar uma régua de e-mails para pacientes que não voltam há mais de um ano, lembrando da limpeza semestral, com segmentação por tratamento e relatório de retorno.",
    skills: ["E-mail marketing", "Mailchimp"],
    budget: [700, 1200],
    deadlineIn: 21,
  },
  // redacao
  {
    merchant: "ana@freela.dev",
    category: "redacao",
    title: "Textos para o novo site da padaria",
    description:
      "Escrever os textos das páginas Sobre nós, Produtos, Encomendas e Trabalhe conosco, contando a história da família e do fermento natural. Tom acolhedor e mineiro, com boas práticas de SEO.",
    skills: ["Copywriting", "SEO"],
    budget: [600, 1000],
    deadlineIn: 12,
  },
  {
    merchant: "fernanda@freela.dev",
    category: "redacao",
    title: "Artigos de blog sobre saúde bucal",
    description:
      "Oito artigos de 1.000 palavras por mês sobre clareamento, aparelho, implantes e cuidados com crianças. Linguagem acessível, com revisão técnica da nossa equipe antes de publicar.",
    skills: ["Redação SEO", "Saúde", "WordPress"],
    budget: [1200, 2000],
  },
  {
    merchant: "carlos@freela.dev",
    category: "redacao",
    title: "Documentação técnica da API para clientes",
    description:
      "Escrever guias de integração da nossa API de entregas: primeiros passos, autenticação, webhooks e exemplos em JavaScript e PHP. Precisa entender de APIs REST e escrever com clareza.",
    skills: ["Documentação técnica", "APIs", "Markdown"],
    budget: [3000, 5000],
    deadlineIn: 30,
  },
  {
    merchant: "luciana@freela.dev",
    category: "redacao",
    title: "Descrições de produtos para 80 peças",
    description:
      "Descrições curtas e envolventes para as peças da loja virtual, com tecido, caimento, medidas e dicas de combinação. Todas as informações técnicas já estão em uma planilha.",
    skills: ["Copywriting", "Moda", "E-commerce"],
    budget: [800, 1400],
    deadlineIn: 18,
  },
  {
    merchant: "marcos@freela.dev",
    category: "redacao",
    title: "Revisão de apostilas de português para estrangeiros",
    description:
      "Revisar gramática e clareza de três apostilas de português para estrangeiros (nível básico a intermediário), cerca de 150 páginas no total, seguindo o Novo Acordo Ortográfico.",
    skills: ["Revisão", "Português", "Didática"],
    budget: [1500, 2500],
    deadlineIn: 40,
  },
  {
    merchant: "roberto@freela.dev",
    category: "redacao",
    title: "Roteiros para vídeos curtos sobre manutenção",
    description:
      "Escrever 10 roteiros de até 60 segundos para Reels e TikTok com dicas de manutenção preventiva, em linguagem simples e bem-humorada. Eu mesmo vou gravar na oficina.",
    skills: ["Roteiro", "Reels", "TikTok"],
    budget: [500, 900],
  },
  {
    merchant: "carlos@freela.dev",
    category: "redacao",
    title: "Newsletter mensal para clientes da transportadora",
    description:
      "Produzir a newsletter mensal com novidades do produto, casos de clientes e dicas de logística para e-commerce. Cerca de 800 palavras por edição, com entrevista curta com um cliente.",
    skills: ["Newsletter", "Entrevistas", "B2B"],
    budget: [600, 1000],
  },
  // traducao
  {
    merchant: "luciana@freela.dev",
    category: "traducao",
    title: "Tradução da loja virtual para inglês e espanhol",
    description:
      "Traduzir páginas institucionais, políticas de troca e descrições de 80 produtos para vender para clientes do exterior. Precisamos de tradução natural, sem cara de tradutor automático.",
    skills: ["Inglês", "Espanhol", "E-commerce"],
    budget: [2000, 3500],
    deadlineIn: 30,
  },
  {
    merchant: "carlos@freela.dev",
    category: "traducao",
    title: "Tradução de contrato de investimento (inglês → português)",
    description:
      "Tradução de um term sheet e de um contrato de mútuo conversível com cerca de 25 páginas. Experiência com textos jurídicos é indispensável; sigilo garantido por NDA.",
    skills: ["Inglês", "Tradução jurídica"],
    budget: [2500, 4000],
    deadlineIn: 10,
  },
  {
    merchant: "marcos@freela.dev",
    category: "traducao",
    title: "Legendas em inglês para aulas gravadas",
    description:
      "Legendar em inglês 30 vídeos de aulas de português para estrangeiros, com cerca de 15 minutos cada. Arquivos SRT sincronizados, revisados e prontos para o YouTube.",
    skills: ["Legendagem", "Inglês", "SRT"],
    budget: [1800, 3000],
    deadlineIn: 35,
  },
  {
    merchant: "fernanda@freela.dev",
    category: "traducao",
    title: "Tradução de manual de equipamento odontológico",
    description:
      "Manual técnico de um scanner intraoral importado, do inglês para o português, com 60 páginas e termos técnicos da odontologia. Entrega em Word mantendo a formatação das figuras.",
    skills: ["Inglês", "Tradução técnica", "Saúde"],
    budget: [1500, 2400],
  },
  {
    merchant: "ana@freela.dev",
    category: "traducao",
    title: "Cardápio em inglês e espanhol para turistas",
    description:
      "Traduzir o cardápio da padaria (cerca de 120 itens) para inglês e espanhol, explicando pratos típicos mineiros como pão de queijo e broa de fubá de um jeito que turistas entendam.",
    skills: ["Inglês", "Espanhol", "Gastronomia"],
    budget: [400, 800],
    deadlineIn: 14,
  },
  {
    merchant: "roberto@freela.dev",
    category: "traducao",
    title: "Intérprete para visita de fornecedor argentino",
    description:
      "Precisamos de intérprete de espanhol por dois dias, na oficina em Porto Alegre, durante a visita técnica de um fornecedor de peças de Buenos Aires. Vocabulário automotivo é um diferencial.",
    skills: ["Espanhol", "Interpretação"],
    budget: [90, 150],
    hourly: true,
    location: "onsite",
    city: "Porto Alegre",
    deadlineIn: 20,
  },
  // video
  {
    merchant: "ana@freela.dev",
    category: "video",
    title: "Vídeo dos bastidores da padaria para o aniversário de 20 anos",
    description:
      "Gravar e editar um vídeo de 2 minutos mostrando a madrugada da padaria, a família e os clientes antigos, além de 5 cortes verticais para Reels. A gravação é em Belo Horizonte, em um dia.",
    skills: ["Filmagem", "Edição", "Reels"],
    budget: [2500, 4000],
    location: "onsite",
    city: "Belo Horizonte",
    deadlineIn: 30,
  },
  {
    merchant: "carlos@freela.dev",
    category: "video",
    title: "Vídeo explicativo animado do produto",
    description:
      "Motion graphics de 90 segundos explicando como a Lima Tech conecta lojas online a transportadoras locais. Temos roteiro aprovado; falta storyboard, animação, trilha e locução.",
    skills: ["After Effects", "Motion design", "Locução"],
    budget: [4000, 7000],
    deadlineIn: 30,
  },
  {
    merchant: "marcos@freela.dev",
    category: "video",
    title: "Edição de aulas gravadas para curso online",
    description:
      "Editar 40 aulas gravadas em estúdio: cortes, vinheta, legendas queimadas e exportação para a plataforma Hotmart. Material bruto entregue no Google Drive toda semana.",
    skills: ["Premiere", "Edição", "Legendas"],
    budget: [60, 90],
    hourly: true,
    vacancies: 2,
  },
  {
    merchant: "luciana@freela.dev",
    category: "video",
    title: "Filmagem do desfile da coleção no ateliê",
    description:
      "Cobertura em vídeo do desfile de lançamento no ateliê em São Paulo, com entrevistas rápidas e um vídeo final de 3 minutos, além de cortes para Reels e TikTok entregues em até uma semana.",
    skills: ["Filmagem", "Moda", "Edição"],
    budget: [2000, 3500],
    location: "onsite",
    city: "São Paulo",
    deadlineIn: 25,
  },
  {
    merchant: "fernanda@freela.dev",
    category: "video",
    title: "Vídeos curtos com depoimentos de pacientes",
    description:
      "Gravar depoimentos de 6 pacientes na clínica em Curitiba e editar vídeos de 30 a 60 segundos para redes sociais, com legendas e a identidade visual da clínica.",
    skills: ["Filmagem", "Edição", "Legendas"],
    budget: [1500, 2500],
    location: "onsite",
    city: "Curitiba",
  },
  {
    merchant: "roberto@freela.dev",
    category: "video",
    title: "Editor para vídeos semanais do YouTube da oficina",
    description:
      "Editar um vídeo por semana de 10 a 15 minutos com diagnósticos de carros reais, com cortes dinâmicos, textos na tela e miniatura. Parceria de longo prazo para quem curte carros.",
    skills: ["Edição", "YouTube", "Miniaturas"],
    budget: [250, 400],
  },
  // dados
  {
    merchant: "carlos@freela.dev",
    category: "dados",
    title: "Dashboard de entregas no Power BI",
    description:
      "Montar um painel no Power BI com prazos de entrega, atrasos por região, custo por entrega e ranking de motoristas, conectado ao nosso PostgreSQL e atualizado todos os dias.",
    skills: ["Power BI", "SQL", "PostgreSQL"],
    budget: [4000, 6500],
    deadlineIn: 30,
  },
  {
    merchant: "ana@freela.dev",
    category: "dados",
    title: "Planilha de custos e precificação dos produtos",
    description:
      "Criar uma planilha no Google Sheets para calcular o custo de cada receita (insumos, gás, mão de obra) e sugerir preço de venda com margem. Quero aprender a usar, então inclua uma aula por vídeo.",
    skills: ["Google Sheets", "Precificação", "Finanças"],
    budget: [700, 1200],
    deadlineIn: 20,
  },
  {
    merchant: "marcos@freela.dev",
    category: "dados",
    title: "Análise de evasão de alunos",
    description:
      "Analisar dados de 3 anos de matrículas e cancelamentos para entender por que os alunos desistem, com recomendações práticas. Os dados estão em planilhas exportadas do sistema acadêmico.",
    skills: ["Python", "Pandas", "Análise de dados"],
    budget: [2500, 4000],
  },
  {
    merchant: "luciana@freela.dev",
    category: "dados",
    title: "Relatório de vendas da loja virtual e do Instagram",
    description:
      "Juntar dados da Nuvemshop, do Instagram e do caixa da loja física em um relatório mensal automatizado no Looker Studio, com vendas por canal, ticket médio e peças mais vendidas.",
    skills: ["Looker Studio", "Google Sheets"],
    budget: [1500, 2500],
    deadlineIn: 30,
    monthIncludes:
      "O relatório do mês atualizado com as vendas por canal e uma reunião mensal para discutir os números.",
  },
  {
    merchant: "roberto@freela.dev",
    category: "dados",
    title: "Migração de cadastro de clientes para o novo sistema",
    description:
      "Limpar e migrar o cadastro de 4.000 clientes e veículos de planilhas antigas para o novo sistema da oficina, removendo duplicados e padronizando placas e telefones.",
    skills: ["Excel", "Limpeza de dados", "SQL"],
    budget: [800, 1500],
  },
  {
    merchant: "fernanda@freela.dev",
    category: "dados",
    title: "Indicadores de atendimento da clínica",
    description:
      "Definir e montar indicadores de faltas, tempo de espera, tratamentos mais procurados e faturamento por dentista, com base nos relatórios do sistema de gestão da clínica.",
    skills: ["Excel", "Indicadores", "Power BI"],
    budget: [1200, 2000],
    deadlineIn: 40,
  },
  // suporte
  {
    merchant: "luciana@freela.dev",
    category: "suporte",
    title: "Atendimento ao cliente no WhatsApp da loja",
    description:
      "Atender clientes da loja virtual pelo WhatsApp e Instagram de segunda a sábado, das 9h às 18h: dúvidas de tamanho, trocas e acompanhamento de pedidos. Treinamento inicial por nossa conta.",
    skills: ["Atendimento", "WhatsApp", "E-commerce"],
    budget: [25, 35],
    hourly: true,
    vacancies: 2,
  },
  {
    merchant: "carlos@freela.dev",
    category: "suporte",
    title: "Suporte técnico nível 1 para clientes da plataforma",
    description:
      "Responder chamados de lojistas sobre integração e rastreamento no Zendesk, escalar problemas para o time técnico e manter a base de conhecimento atualizada. Turno da tarde.",
    skills: ["Zendesk", "Suporte técnico"],
    budget: [30, 45],
    hourly: true,
    vacancies: 3,
  },
  {
    merchant: "fernanda@freela.dev",
    category: "suporte",
    title: "Recepção e confirmação de consultas por telefone",
    description:
      "Confirmar as consultas do dia seguinte por telefone e WhatsApp, remarcar faltas e organizar a agenda dos dentistas. Trabalho remoto, das 14h às 18h, de segunda a sexta.",
    skills: ["Atendimento", "Agenda"],
    budget: [20, 30],
    hourly: true,
  },
  {
    merchant: "marcos@freela.dev",
    category: "suporte",
    title: "Configuração de notebooks e rede da escola",
    description:
      "Formatar e configurar 15 notebooks, instalar os programas das aulas, organizar a rede Wi-Fi das salas e deixar um passo a passo para a equipe. Trabalho presencial em Salvador.",
    skills: ["Redes", "Windows", "Suporte de TI"],
    budget: [1500, 2500],
    location: "onsite",
    city: "Salvador",
    deadlineIn: 15,
  },
  {
    merchant: "ana@freela.dev",
    category: "suporte",
    title: "Assistente virtual para encomendas de fim de ano",
    description:
      "Ajuda temporária em novembro e dezembro para receber encomendas de panetones e ceias pelo WhatsApp, organizar a planilha de produção e confirmar horários de retirada com os clientes.",
    skills: ["Atendimento", "Google Sheets", "Organização"],
    budget: [22, 30],
    hourly: true,
    vacancies: 2,
  },
  // outros
  {
    merchant: "roberto@freela.dev",
    category: "outros",
    title: "Fotografia dos serviços e da equipe da oficina",
    description:
      "Sessão de fotos na oficina para o site e as redes: equipe, elevadores, diagnóstico por computador e fachada. Entrega de 40 fotos tratadas em alta resolução.",
    skills: ["Fotografia", "Lightroom"],
    budget: [800, 1500],
    location: "onsite",
    city: "Porto Alegre",
  },
  {
    merchant: "luciana@freela.dev",
    category: "outros",
    title: "Modelo fotográfica para catálogo de inverno",
    description:
      "Buscamos modelo para fotografar 30 looks da coleção de inverno em um dia de estúdio em São Paulo. Cachê fechado com direito de uso das imagens por 12 meses.",
    skills: ["Modelo", "Moda"],
    budget: [900, 1500],
    location: "onsite",
    city: "São Paulo",
    deadlineIn: 18,
  },
  {
    merchant: "fernanda@freela.dev",
    category: "outros",
    title: "Consultoria de LGPD para clínica",
    description:
      "Mapear os dados pessoais e de saúde que a clínica coleta, ajustar termos de consentimento, política de privacidade e orientar a equipe sobre o tratamento de prontuários.",
    skills: ["LGPD", "Privacidade", "Consultoria"],
    budget: [3000, 5000],
    deadlineIn: 45,
  },
  {
    merchant: "marcos@freela.dev",
    category: "outros",
    title: "Professor(a) de espanhol para turma de sábado",
    description:
      "Aulas de espanhol para uma turma de adultos aos sábados de manhã, em Salvador, por um semestre. Material didático fornecido pela escola; experiência com ensino para adultos é essencial.",
    skills: ["Espanhol", "Ensino"],
    budget: [70, 100],
    hourly: true,
    location: "onsite",
    city: "Salvador",
  },
  {
    merchant: "carlos@freela.dev",
    category: "outros",
    title: "Contador para abertura de filial em Fortaleza",
    description:
      "Apoio contábil para abrir a filial da Lima Tech em Fortaleza: inscrições, alvarás, enquadramento tributário e orientação sobre ICMS no transporte de mercadorias.",
    skills: ["Contabilidade", "Tributário"],
    budget: [2000, 3500],
    location: "hybrid",
    city: "Fortaleza",
    deadlineIn: 30,
  },
  {
    merchant: "ana@freela.dev",
    category: "outros",
    title: "Consultoria de boas práticas na cozinha (Vigilância Sanitária)",
    description:
      "Visita técnica de nutricionista para revisar o manual de boas práticas, treinar a equipe e preparar a padaria para a fiscalização da Vigilância Sanitária de Belo Horizonte.",
    skills: ["Nutrição", "Boas práticas", "Treinamento"],
    budget: [1200, 2000],
    location: "onsite",
    city: "Belo Horizonte",
    deadlineIn: 20,
  },
];

/** The job of the demo's hourly contract (db/seed-hourly.ts hires Júlia on it). */
export const demoHourlyJob: DemoJob = {
  merchant: "ana@freela.dev",
  category: "desenvolvimento",
  title: "Ajustes semanais no site da Padaria Pão de Mel",
  description:
    "Pequenas melhorias toda semana no site da padaria: encomendas, cardápio e campanhas. Pagamento por hora, com as horas lançadas dia a dia.",
  skills: ["React", "TypeScript", "Acessibilidade"],
  budget: [60, 120],
  hourly: true,
};

export const coverLetterOpenings = [
  "Olá! Li com atenção a descrição e tenho experiência com trabalhos bem parecidos.",
  "Bom dia! Esse projeto tem tudo a ver com o que faço há alguns anos.",
  "Oi, tudo bem? Gostei muito da proposta e acredito que posso ajudar.",
  "Olá! Trabalho com pequenos negócios e entendo a correria do dia a dia.",
  "Boa tarde! Vi a vaga e separei alguns exemplos do meu portfólio para você.",
];

export const coverLetterClosings = [
  "Posso começar já na próxima semana e mando atualizações a cada etapa.",
  "Se quiser, marcamos uma chamada de 15 minutos para alinhar os detalhes.",
  "Trabalho com prazos claros e entregas parciais para você acompanhar tudo.",
  "Tenho disponibilidade imediata e referências de clientes anteriores.",
];

export const merchantCounterMessages = [
  "Gostei da proposta, mas o orçamento está apertado. Conseguimos fechar neste valor?",
  "Podemos ajustar o prazo? Precisamos disso um pouco antes.",
  "Topa fazer por este valor se eu fornecer as fotos e os textos?",
  "Consigo pagar isso agora e o restante em um segundo projeto. Pode ser?",
];

export const freelancerCounterMessages = [
  "Entendo! Consigo chegar neste valor se o prazo puder ser um pouco maior.",
  "Fechado no prazo, mas preciso manter um valor mais próximo do original.",
  "Posso reduzir o escopo da primeira entrega para caber no orçamento.",
  "Faço por este valor com duas rodadas de ajustes incluídas.",
];

export const rejectionMessages = [
  "Obrigada pela proposta! Dessa vez fechamos com alguém da região.",
  "Agradeço o interesse, mas optamos por um perfil mais próximo do que precisamos.",
  null,
];

/** The demo freelancers' ready-made services (docs/product.md, "Serviços prontos"): by e-mail, as the form takes them. */
export const demoServices = [
  {
    freelancer: "julia@freela.dev",
    title: "Landing page em React pronta em uma semana",
    category: "desenvolvimento",
    description:
      "Crio a página de apresentação do seu negócio em React e TypeScript, rápida, acessível e pronta para celular, com formulário de contato e botão do WhatsApp.",
    skills: ["React", "TypeScript", "Acessibilidade"],
    packages: [
      {
        name: "Essencial",
        includes: ["Uma página", "Formulário de contato"],
        price_cents: 90_000,
        delivery_days: 7,
        revisions: 1,
      },
      {
        name: "Completo",
        includes: ["Até três seções extras", "Formulário de contato", "Botão do WhatsApp", "Publicação no seu domínio"],
        price_cents: 180_000,
        delivery_days: 10,
        revisions: 3,
      },
    ],
    extras: [{ title: "Entrega em 3 dias", price_cents: 40_000, extra_days: 0 }],
    faq: [{ question: "Preciso ter domínio?", answer: "Não: se ainda não tiver, ajudo você a registrar um." }],
    questions: [
      { text: "Qual é o endereço do seu site atual, se houver?", kind: "text", required: false },
      { text: "Envie seu logotipo", kind: "file", required: true },
    ],
  },
  {
    freelancer: "julia@freela.dev",
    title: "Revisão de acessibilidade do seu site",
    category: "desenvolvimento",
    description:
      "Avalio o seu site com leitores de tela e pelo teclado e entrego um relatório com cada problema, onde está e como corrigir, em ordem de prioridade.",
    skills: ["Acessibilidade"],
    packages: [
      {
        name: "Relatório",
        includes: ["Até 10 páginas", "Relatório em PDF"],
        price_cents: 60_000,
        delivery_days: 5,
        revisions: 0,
      },
    ],
    extras: [],
    faq: [],
    questions: [{ text: "Quais páginas devo avaliar?", kind: "text", required: true }],
  },
  {
    freelancer: "pedro@freela.dev",
    title: "Logotipo e identidade visual para pequenos negócios",
    category: "design",
    description:
      "Desenho o logotipo da sua marca com as cores e as fontes que combinam com ela, e entrego os arquivos para impressão, para o site e para as redes sociais.",
    skills: ["Branding", "Figma"],
    packages: [
      {
        name: "Logotipo",
        includes: ["Duas propostas", "Arquivos PNG e SVG"],
        price_cents: 35_000,
        delivery_days: 5,
        revisions: 2,
      },
      {
        name: "Marca",
        includes: ["Três propostas", "Paleta de cores", "Manual de uso"],
        price_cents: 80_000,
        delivery_days: 10,
        revisions: 3,
      },
      {
        name: "Marca e redes",
        includes: ["Tudo da Marca", "Modelos para Instagram", "Cartão de visita"],
        price_cents: 140_000,
        delivery_days: 15,
        revisions: 4,
      },
    ],
    extras: [{ title: "Arquivos editáveis do Figma", price_cents: 15_000, extra_days: 1 }],
    faq: [],
    questions: [
      {
        text: "Qual estilo combina com a sua marca?",
        kind: "choice",
        choices: ["Moderno", "Clássico", "Divertido"],
        required: true,
      },
    ],
  },
];
