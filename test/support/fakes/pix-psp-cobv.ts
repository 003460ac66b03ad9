/**
 * The fake PSP's charges with a due date, as the BCB API Pix has them (github.com/bacen/pix-api,
 * openapi.yaml v2.9.0, tags CobV and LoteCobV): PUT/GET/PATCH /cobv/{txid}, GET /cobv and PUT/GET
 * /lotecobv/{id}. A
 * lote's requests are created at once (CRIADA) or refused (NEGADA) when invalid. What a payer pays
 * is told by the test (payCobv's valor), as the payer's PSP computes it from the terms.
 */
export interface FakeCobv {
  txid: string;
  status: 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR';
  /** cobv.revisao: 0 as created, + 1 per PATCH. */
  revisao?: number;
  // biome-ignore lint/suspicious/noExplicitAny: the request body as the PSP stored it
  request: any;
  pixCopiaECola: string;
  locId: number;
  pix: { endToEndId: string; txid: string; valor: string; chave: string; horario: string }[];
}

export interface FakeLote {
  id: string;
  descricao: string;
  cobsv: { txid: string; status: 'EM_PROCESSAMENTO' | 'CRIADA' | 'NEGADA'; problema?: { title: string } }[];
}

const VALOR = /^\d{1,10}\.\d{2}$/;

/** What the fake checks of a CobVSolicitada: the fields the standard requires, and the key. */
// biome-ignore lint/suspicious/noExplicitAny: a request body read field by field
export function cobvProblem(body: any, pixKey: string): string | undefined {
  if (typeof body?.calendario?.dataDeVencimento !== 'string') return 'calendario.dataDeVencimento';
  if (!(body?.devedor?.cpf || body?.devedor?.cnpj) || typeof body?.devedor?.nome !== 'string')
    return 'devedor';
  if (typeof body?.valor?.original !== 'string' || !VALOR.test(body.valor.original)) return 'valor.original';
  if (body.chave !== pixKey) return 'chave';
  for (const part of ['multa', 'juros', 'abatimento']) {
    const value = body.valor[part];
    if (value && (typeof value.modalidade !== 'number' || !VALOR.test(value.valorPerc)))
      return `valor.${part}`;
  }
  return undefined;
}

export const cobvView = (cobv: FakeCobv) => ({
  ...cobv.request,
  calendario: { criacao: new Date().toISOString(), ...cobv.request.calendario },
  txid: cobv.txid,
  revisao: cobv.revisao ?? 0,
  loc: { id: cobv.locId, location: `pix.example.com/qr/v2/cobv/${cobv.txid}`, tipoCob: 'cobv' },
  status: cobv.status,
  pixCopiaECola: cobv.pixCopiaECola,
  ...(cobv.pix.length ? { pix: cobv.pix } : {}),
});

export const cobvBrCode = (txid: string) =>
  `00020101021226870014br.gov.bcb.pix2565pix.example.com/qr/v2/cobv/${txid}5204000053039865802BR5913LASTRO FAKE PSP6009SAO PAULO62070503***6304ABCD`;

/**
 * PATCH /cobv/{txid} as the standard's CobVOperacaoInvalida has it: only an ATIVA cobv changes, and
 * status REMOVIDA_PELO_USUARIO_RECEBEDOR comes alone. The problem's detail, or undefined once revised
 * (its fields replaced, its revisao + 1).
 */
// biome-ignore lint/suspicious/noExplicitAny: a request body read field by field
export function reviseCobv(cobv: FakeCobv, body: any, pixKey: string): string | undefined {
  if (cobv.status !== 'ATIVA') return 'A cobrança não está ATIVA';
  const { status, ...changes } = body ?? {};
  if (status !== undefined) {
    if (status !== 'REMOVIDA_PELO_USUARIO_RECEBEDOR') return 'cob.status';
    if (Object.keys(changes).length > 0) return 'remoção juntamente com outras alterações';
    cobv.status = status;
  } else {
    const revised = { ...cobv.request, ...changes, valor: changes.valor ?? cobv.request.valor };
    const problem = cobvProblem(revised, pixKey);
    if (problem) return problem;
    cobv.request = revised;
  }
  cobv.revisao = (cobv.revisao ?? 0) + 1;
  return undefined;
}

/** GET /cobv: inicio and fim required (the cobvs created between), status and cpf/cnpj filters, paginacao. */
export function listCobvs(cobvs: Iterable<FakeCobv & { criacao?: string }>, url: URL) {
  const inicio = url.searchParams.get('inicio');
  const fim = url.searchParams.get('fim');
  if (!inicio || !fim || fim < inicio)
    return { status: 400, body: { title: 'CobVConsultaInvalida', status: 400 } };
  const status = url.searchParams.get('status');
  const cpf = url.searchParams.get('cpf');
  const page = Number(url.searchParams.get('paginacao.paginaAtual') ?? 0);
  const perPage = Number(url.searchParams.get('paginacao.itensPorPagina') ?? 100);
  const all = [...cobvs].filter(
    (cobv) => (!status || cobv.status === status) && (!cpf || cobv.request?.devedor?.cpf === cpf),
  );
  return {
    status: 200,
    body: {
      parametros: {
        inicio,
        fim,
        paginacao: {
          paginaAtual: page,
          itensPorPagina: perPage,
          quantidadeDePaginas: Math.ceil(all.length / perPage),
          quantidadeTotalDeItens: all.length,
        },
      },
      cobs: all.slice(page * perPage, (page + 1) * perPage).map(cobvView),
    },
  };
}
