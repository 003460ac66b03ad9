/**
 * The fake PSP's Pix Automático endpoints (BCB API Pix, github.com/bacen/pix-api openapi.yaml v2.9.0,
 * tags Rec and CobR): POST /rec, GET and PATCH /rec/{idRec}, PUT, GET and PATCH /cobr/{txid}. The test plays
 * the payer: it approves, refuses or cancels a recurrence and pays or rejects a cobr. PUT /webhookrec
 * and /webhookcobr register where `notifyRec` and `notifyCobr` POST {"recs": [...]} and
 * {"cobsr": [...]} (the registered URL + /rec or /cobr, as the spec's callbacks say).
 */
export interface FakeRec {
  idRec: string;
  status: 'CRIADA' | 'APROVADA' | 'REJEITADA' | 'EXPIRADA' | 'CANCELADA';
  body: Record<string, unknown>;
  cancelledBy?: 'USUARIO_PAGADOR' | 'USUARIO_RECEBEDOR';
}
/** One settlement attempt of a cobr (CobRTentativas): the due date's (AGND), then each retry (NTAG). */
export interface FakeAttempt {
  dataLiquidacao: string;
  tipo: 'AGND' | 'NTAG';
  status: 'SOLICITADA' | 'AGENDADA' | 'PAGA' | 'CANCELADA' | 'REJEITADA' | 'EXPIRADA';
  endToEndId: string;
  rejeicao?: FakeRejection;
}
/** Why an attempt or a cobr was rejected (API Pix rejeicao). */
export interface FakeRejection {
  codigo: string;
  descricao: string;
}
export interface FakeCobr {
  txid: string;
  idRec: string;
  status: 'CRIADA' | 'ATIVA' | 'CONCLUIDA' | 'EXPIRADA' | 'REJEITADA' | 'CANCELADA';
  dueDate: string;
  valor: string;
  endToEndId?: string;
  tentativas: FakeAttempt[];
  encerramento?: { rejeicao: FakeRejection };
  /** The day the cobr was received, as the receiver's calendar had it (to check the 2-10 day window). */
  receivedOn: string;
}

export interface FakePixAutomatico {
  recs: Map<string, FakeRec>;
  cobrs: Map<string, FakeCobr>;
  /** The payer answers at their PSP. */
  answer(idRec: string, status: 'APROVADA' | 'REJEITADA'): void;
  /** The payer cancels the authorisation at their PSP. */
  cancelByPayer(idRec: string): void;
  /**
   * The cobr's current attempt: paid (CONCLUIDA with an end-to-end id) or rejected for good
   * (REJEITADA: the cobr ends, as an AC05-style rejection ends it).
   */
  settle(txid: string, status: 'CONCLUIDA' | 'REJEITADA', endToEndId?: string, why?: FakeRejection): void;
  /** The payer's PSP rejects the current attempt (no funds): the cobr stays ATIVA, open to a retry. */
  rejectAttempt(txid: string, why?: FakeRejection): void;
  /** The URLs PUT /webhookrec and /webhookcobr registered. */
  webhooks: { rec?: string; cobr?: string };
  /** POSTs {"recs": [the rec]} to the registered URL + /rec: what the payer did, as the PSP tells it. */
  notifyRec(idRec: string): Promise<{ status: number; body: unknown }>;
  /** POSTs {"cobsr": [the cobr]} to the registered URL + /cobr. */
  notifyCobr(txid: string): Promise<{ status: number; body: unknown }>;
  /** The PSP's calendar day (YYYY-MM-DD); a test on a moved clock sets its own. */
  today: () => string;
}

/** The receiver's account at this PSP: a cobr must name it (CobRSolicitada.recebedor). */
export const FAKE_RECEIVER = { conta: '012682', tipoConta: 'CORRENTE', agencia: '9708' } as const;

/**
 * Why the PSP refuses a cobr's recebedor (API Pix DadosBancariosRecebedor: conta ≤ 20 and tipoConta
 * required, agencia ≤ 4; an account not the receiver's is refused too), or undefined.
 */
// biome-ignore lint/suspicious/noExplicitAny: a request body read field by field
function recebedorProblem(recebedor: any): string | undefined {
  if (typeof recebedor !== 'object' || recebedor === null) return 'O objeto cobr.recebedor é obrigatório';
  const { conta, tipoConta, agencia } = recebedor;
  if (typeof conta !== 'string' || conta.length === 0 || conta.length > 20)
    return 'O objeto cobr.recebedor não respeita o schema';
  if (!['CORRENTE', 'POUPANCA', 'PAGAMENTO'].includes(tipoConta))
    return 'O objeto cobr.recebedor não respeita o schema';
  if (agencia !== undefined && (typeof agencia !== 'string' || agencia.length > 4))
    return 'O objeto cobr.recebedor não respeita o schema';
  if (conta !== FAKE_RECEIVER.conta || (agencia !== undefined && agencia !== FAKE_RECEIVER.agencia))
    return 'Os campos cobr.recebedor.conta e cobr.recebedor.agencia correspondem a uma conta que não pertence a este usuário recebedor';
  return undefined;
}

type Send = (status: number, body: unknown) => void;
let e2eSequence = 0;
/** An end-to-end id for an attempt (CobRTentativas requires one), unique within the fake. */
const fakeE2e = () =>
  `E18236120${new Date().toISOString().replace(/[-:T]/g, '').slice(0, 12)}${String(++e2eSequence).padStart(11, '0')}`;
type Problem = (status: number, name: string, title: string) => void;

const recView = (rec: FakeRec) => ({
  ...rec.body,
  idRec: rec.idRec,
  status: rec.status,
  ...(rec.cancelledBy
    ? {
        encerramento: {
          cancelamento: { solicitante: rec.cancelledBy, codigo: 'ACCL', descricao: 'cancelada' },
        },
      }
    : {}),
});
const cobrView = (cobr: FakeCobr) => ({
  idRec: cobr.idRec,
  txid: cobr.txid,
  calendario: { dataDeVencimento: cobr.dueDate },
  valor: { original: cobr.valor },
  status: cobr.status,
  tentativas: cobr.tentativas.map((attempt) => ({ ...attempt })),
  ...(cobr.encerramento ? { encerramento: cobr.encerramento } : {}),
});

/** Where the spec's callback goes: {webhookUrl}/rec, the suffix landing in a query the URL leaves open. */
async function post(registered: string | undefined, suffix: string, body: unknown) {
  if (!registered) throw new Error(`no webhook${suffix} registered`);
  const res = await fetch(`${registered}${suffix}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const DEFAULT_REJECTION: FakeRejection = { codigo: 'AM02', descricao: 'Valor não permitido' };

/** A PIX the PSP received, as GET /pix lists it. */
export interface PaidCobr {
  endToEndId: string;
  txid: string;
  valor: string;
}

/** `onPaid` hears each cobr paid, so the PSP's GET /pix lists its PIX as a real PSP's does. */
export function fakePixAutomatico(onPaid: (pix: PaidCobr) => void = () => {}) {
  const recs = new Map<string, FakeRec>();
  const cobrs = new Map<string, FakeCobr>();
  let sequence = 0;
  const api: FakePixAutomatico = {
    recs,
    cobrs,
    today: () => new Date().toISOString().slice(0, 10),
    answer(idRec, status) {
      recs.get(idRec)!.status = status;
    },
    cancelByPayer(idRec) {
      const rec = recs.get(idRec)!;
      rec.status = 'CANCELADA';
      rec.cancelledBy = 'USUARIO_PAGADOR';
    },
    settle(txid, status, endToEndId, why) {
      const cobr = cobrs.get(txid)!;
      cobr.status = status;
      cobr.endToEndId = endToEndId;
      const attempt = cobr.tentativas.at(-1)!;
      attempt.status = status === 'CONCLUIDA' ? 'PAGA' : 'REJEITADA';
      if (endToEndId) attempt.endToEndId = endToEndId;
      if (status === 'REJEITADA') {
        attempt.rejeicao = why ?? DEFAULT_REJECTION;
        cobr.encerramento = { rejeicao: attempt.rejeicao };
      }
      if (status === 'CONCLUIDA' && endToEndId) onPaid({ endToEndId, txid, valor: cobr.valor });
    },
    rejectAttempt(txid, why) {
      const attempt = cobrs.get(txid)!.tentativas.at(-1)!;
      if (attempt.status !== 'AGENDADA' && attempt.status !== 'SOLICITADA')
        throw new Error(`attempt of ${txid} is ${attempt.status}`);
      attempt.status = 'REJEITADA';
      attempt.rejeicao = why ?? DEFAULT_REJECTION;
    },
    webhooks: {},
    notifyRec: (idRec) => post(api.webhooks.rec, '/rec', { recs: [recView(recs.get(idRec)!)] }),
    notifyCobr: (txid) => post(api.webhooks.cobr, '/cobr', { cobsr: [cobrView(cobrs.get(txid)!)] }),
  };
  // biome-ignore lint/suspicious/noExplicitAny: a request body read field by field
  function route(method: string, path: string, body: any, reply: Send, refuse: Problem): boolean {
    const send = (status: number, json: unknown) => {
      reply(status, json);
      return true;
    };
    const problem = (status: number, name: string, title: string) => {
      refuse(status, name, title);
      return true;
    };
    const webhookPath = /^\/v2\/webhook(rec|cobr)$/.exec(path);
    if (webhookPath && method === 'PUT') {
      if (typeof body?.webhookUrl !== 'string') return problem(400, 'WebhookOperacaoInvalida', 'webhookUrl');
      api.webhooks[webhookPath[1] as 'rec' | 'cobr'] = body.webhookUrl;
      return send(200, {});
    }
    if (path === '/v2/rec' && method === 'POST') {
      const fixed = body?.valor?.valorRec;
      const floor = body?.valor?.valorMinimoRecebedor;
      if (
        !body?.vinculo?.devedor?.nome ||
        !body?.calendario?.dataInicial ||
        (fixed === undefined) === (floor === undefined)
      )
        return problem(400, 'RecOperacaoInvalida', 'Recorrência inválida');
      const policy = body.politicaRetentativa === 'PERMITE_3R_7D' ? 'R' : 'N';
      const idRec = `R${policy}18236120${api.today().replaceAll('-', '')}${String(++sequence).padStart(11, '0')}`;
      const rec: FakeRec = { idRec, status: 'CRIADA', body };
      recs.set(idRec, rec);
      return send(201, recView(rec));
    }
    const recPath = /^\/v2\/rec\/([^/]+)$/.exec(path);
    if (recPath) {
      const rec = recs.get(decodeURIComponent(recPath[1]!));
      if (!rec) return problem(404, 'NaoEncontrado', 'Recorrência não encontrada');
      if (method === 'PATCH' && body?.status === 'CANCELADA') {
        rec.status = 'CANCELADA';
        rec.cancelledBy = 'USUARIO_RECEBEDOR';
      }
      return send(200, recView(rec));
    }
    const retryPath = /^\/v2\/cobr\/([^/]+)\/retentativa\/([^/]+)$/.exec(path);
    if (retryPath && method === 'POST') return retry(retryPath[1]!, retryPath[2]!, send, problem);
    const cobrPath = /^\/v2\/cobr\/([^/]+)$/.exec(path);
    if (!cobrPath) return false;
    const txid = cobrPath[1]!;
    if (method === 'GET' || method === 'PATCH') {
      const cobr = cobrs.get(txid);
      if (!cobr) return problem(404, 'NaoEncontrado', 'Cobrança não encontrada');
      if (method === 'GET') return send(200, cobrView(cobr));
      if (body?.status !== 'CANCELADA') return problem(400, 'CobROperacaoInvalida', 'status inválido');
      // Only a cobr still waiting can be withdrawn: a paid or ended one stays as it is.
      if (cobr.status !== 'CRIADA' && cobr.status !== 'ATIVA')
        return problem(400, 'CobROperacaoInvalida', `cobrança ${cobr.status}`);
      cobr.status = 'CANCELADA';
      return send(200, cobrView(cobr));
    }
    if (method !== 'PUT') return false;
    if (cobrs.has(txid)) return problem(400, 'CobROperacaoInvalida', 'txid já utilizado');
    const refused = recebedorProblem(body?.recebedor);
    if (refused) return problem(400, 'CobROperacaoInvalida', refused);
    const rec = recs.get(body?.idRec);
    if (rec?.status !== 'APROVADA') return problem(400, 'CobROperacaoInvalida', 'recorrência não aprovada');
    const cobr: FakeCobr = {
      txid,
      idRec: rec.idRec,
      status: 'ATIVA',
      dueDate: String(body?.calendario?.dataDeVencimento),
      valor: String(body?.valor?.original),
      receivedOn: api.today(),
      tentativas: [
        {
          dataLiquidacao: String(body?.calendario?.dataDeVencimento),
          tipo: 'AGND',
          status: 'AGENDADA',
          endToEndId: fakeE2e(),
        },
      ],
    };
    cobrs.set(txid, cobr);
    return send(201, cobrView(cobr));
  }
  /**
   * POST /cobr/{txid}/retentativa/{data}, refused as the API Pix lists (CobROperacaoInvalida): a
   * recurrence whose policy is NAO_PERMITE, an attempt still SOLICITADA or AGENDADA (or one paid), an
   * attempt already for that date, a date not in the future; and, as PERMITE_3R_7D says, more than
   * 3 retries or a date past the 7 days after the due date.
   */
  function retry(
    txid: string,
    data: string,
    send: (s: number, b: unknown) => boolean,
    problem: (s: number, n: string, t: string) => boolean,
  ) {
    const cobr = cobrs.get(txid);
    if (!cobr) return problem(404, 'CobRNaoEncontrado', 'Cobrança não encontrada');
    const invalid = (title: string) => problem(400, 'CobROperacaoInvalida', title);
    if (recs.get(cobr.idRec)?.body.politicaRetentativa !== 'PERMITE_3R_7D')
      return invalid('A política configurada na recorrência não permite retentativa de cobrança.');
    if (cobr.status !== 'ATIVA') return invalid(`cobrança ${cobr.status}`);
    if (cobr.tentativas.some((t) => ['SOLICITADA', 'AGENDADA', 'PAGA'].includes(t.status)))
      return invalid('Existe uma tentativa com status SOLICITADA ou AGENDADA.');
    if (cobr.tentativas.some((t) => t.dataLiquidacao === data))
      return invalid('Existe uma tentativa vigente para a data informada.');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(data) || data <= api.today())
      return invalid('O parâmetro data não corresponde a uma data futura.');
    const last = new Date(Date.parse(`${cobr.dueDate}T00:00:00Z`) + 7 * 86_400_000)
      .toISOString()
      .slice(0, 10);
    if (data > last || cobr.tentativas.filter((t) => t.tipo === 'NTAG').length >= 3)
      return invalid('A retentativa não respeita a política PERMITE_3R_7D.');
    cobr.tentativas.push({ dataLiquidacao: data, tipo: 'NTAG', status: 'SOLICITADA', endToEndId: fakeE2e() });
    return send(201, cobrView(cobr));
  }

  return { api, route };
}
