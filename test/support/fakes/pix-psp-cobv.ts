/**
 * The fake PSP's charges with a due date, as the BCB API Pix has them (github.com/bacen/pix-api,
 * openapi.yaml v2.9.0, tags CobV and LoteCobV): PUT/GET /cobv/{txid} and PUT/GET /lotecobv/{id}. A
 * lote's requests are created at once (CRIADA) or refused (NEGADA) when invalid. What a payer pays
 * is told by the test (payCobv's valor), as the payer's PSP computes it from the terms.
 */
export interface FakeCobv {
  txid: string;
  status: 'ATIVA' | 'CONCLUIDA';
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
  revisao: 0,
  loc: { id: cobv.locId, location: `pix.example.com/qr/v2/cobv/${cobv.txid}`, tipoCob: 'cobv' },
  status: cobv.status,
  pixCopiaECola: cobv.pixCopiaECola,
  ...(cobv.pix.length ? { pix: cobv.pix } : {}),
});

export const cobvBrCode = (txid: string) =>
  `00020101021226870014br.gov.bcb.pix2565pix.example.com/qr/v2/cobv/${txid}5204000053039865802BR5913LASTRO FAKE PSP6009SAO PAULO62070503***6304ABCD`;
