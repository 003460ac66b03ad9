/**
 * A local PSP that speaks the Banco Central's API Pix (OAuth2 client credentials, cob, devolução,
 * webhook) and Efí's payout API over HTTPS with client certificates required, so the live adapters
 * are tested against the protocol and not against a double of our own interface. It keeps its state
 * in memory, POSTs its callbacks to the URL registered by PUT /webhook/{chave} (+ "/pix", as the
 * standard says), and can be told to fail, to answer slowly, or to expire its tokens.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { BcbSettings } from '../../../src/providers/pix/config.ts';
import type { TestCerts } from './certs.ts';
import { FAKE_RECEIVER, type FakePixAutomatico, fakePixAutomatico } from './pix-automatico-psp.ts';
import {
  cobvBrCode,
  cobvProblem,
  cobvView,
  type FakeCobv,
  type FakeLote,
  listCobvs,
  reviseCobv,
} from './pix-psp-cobv.ts';

export const FAKE_CLIENT_ID = 'Client_Id_lastro';
export const FAKE_CLIENT_SECRET = 'Client_Secret_lastro';
export const FAKE_PIX_KEY = '0f3a6f1e-8d2b-4c5a-9e7f-1a2b3c4d5e6f';
export const FAKE_WEBHOOK_SECRET = 'W3bh00kS3cr3tF0rT3st1ngOnly';
const ISPB = '18236120';
const PROBLEM = 'https://pix.bcb.gov.br/api/v2/error';

interface FakeCob {
  txid: string;
  status: 'ATIVA' | 'CONCLUIDA';
  valor: string;
  chave: string;
  expiracao: number;
  pixCopiaECola: string;
  locId: number;
  pix: FakePix[];
}
interface FakePix {
  endToEndId: string;
  txid?: string;
  valor: string;
  chave: string;
  horario: string;
  infoPagador?: string;
}
/** The naturezas of a devolução in the API Pix; MED_* are the ones the PSP makes itself. */
export type Natureza = 'ORIGINAL' | 'RETIRADA' | 'MED_OPERACIONAL' | 'MED_FRAUDE' | 'MED_PIX_AUTOMATICO';
interface FakeRefund {
  id: string;
  rtrId: string;
  valor: string;
  status: 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';
  e2e: string;
  natureza: Natureza;
  descricao?: string;
}
interface FakePayout {
  idEnvio: string;
  e2eId: string;
  valor: string;
  chave: string;
  status: 'EM_PROCESSAMENTO' | 'REALIZADO' | 'NAO_REALIZADO';
}
interface Failure {
  method?: string;
  path: RegExp;
  status: number;
  times: number;
}

const alnum = (n: number) => {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(randomBytes(n), (byte) => chars[byte % chars.length]).join('');
};
const stamp = () => new Date().toISOString().replace(/[-:T]/g, '').slice(0, 12);
export const fakeEndToEndId = (prefix = 'E') => `${prefix}${ISPB}${stamp()}${alnum(11)}`;

/** A MED infraction notice as Efí lists it (GET /v2/gn/infracoes, src/providers/pix/efi/infractions.ts). */
export interface FakeInfraction {
  idInfracao: string;
  endToEndId: string;
  valor: string;
  status: 'ABERTA' | 'EM_DEFESA' | 'ACEITA' | 'REJEITADA' | 'CANCELADA_EFI';
  razao: string;
  tipoSituacao: string;
  defesa?: string;
  analise?: string;
  dadosAnalise: {
    abertura: string;
    prazoFinalizacao: string;
    recebimentoDefesa?: string;
    finalizacao?: string;
  };
  criadoEm: string;
  atualizadoEm: string;
}

export interface FakePsp {
  /** https://127.0.0.1:port */
  url: string;
  /** Settings that point Lastro at this PSP with the test's client certificate. */
  settings(webhookUrl: string, overrides?: Partial<BcbSettings>): BcbSettings;
  /** The same as environment variables, for a server started as a child process. */
  env(webhookUrl: string): Record<string, string>;
  cobs: Map<string, FakeCob>;
  /** Charges with a due date (PUT /cobv/{txid}) and their lotes (PUT /lotecobv/{id}). */
  cobvs: Map<string, FakeCobv>;
  lotes: Map<string, FakeLote>;
  /** Lotes PUT from now on stay EM_PROCESSAMENTO, their cobvs not yet created, until releaseLotes. */
  holdLotes(): void;
  /** Creates (or refuses) the held lotes' requests, as the PSP finishing in the background would. */
  releaseLotes(): void;
  /** A payer pays the cobv `valor` (what its terms ask that day): CONCLUIDA, and the callback unless notify false. */
  payCobv(
    txid: string,
    valor: string,
    notify?: boolean,
  ): Promise<{ endToEndId: string; callback?: CallbackResult }>;
  refunds: Map<string, FakeRefund>;
  payouts: Map<string, FakePayout>;
  webhooks: Map<string, string>;
  /** Every call: method and path, and how many access tokens were issued. */
  calls: { method: string; path: string }[];
  tokensIssued(): number;
  /** The next `times` calls matching answer `status` (5xx: RFC 7807 body). */
  failNext(failure: Omit<Failure, 'times'> & { times?: number }): void;
  /** Answers every call this much later. */
  delayMs: number;
  /** The most items a page of GET /pix holds, whatever the caller asks (to test paging). */
  pageSize: number;
  /** Forgets every token issued: the next call with one gets 401. */
  revokeTokens(): void;
  /** PIX received on the key without a cob (a static key, a copied key). */
  received: FakePix[];
  /** A buyer pays the cob: it becomes CONCLUIDA with a new PIX, and the callback is POSTed (unless notify false). */
  pay(txid: string, notify?: boolean): Promise<{ endToEndId: string; callback?: CallbackResult }>;
  settleRefund(
    id: string,
    status: 'DEVOLVIDO' | 'NAO_REALIZADO',
    notify?: boolean,
  ): Promise<CallbackResult | undefined>;
  settlePayout(
    idEnvio: string,
    status: 'REALIZADO' | 'NAO_REALIZADO',
    notify?: boolean,
  ): Promise<CallbackResult | undefined>;
  /**
   * The PSP returns (part of) a received PIX itself, as MED does: a devolução with an id of its own
   * choosing, DEVOLVIDO unless told, visible in GET /pix/{e2eid}, the cob's pix[] and the callback.
   */
  medReturn(
    endToEndId: string,
    input: { valor: string; natureza: Natureza; status?: FakeRefund['status']; notify?: boolean },
  ): Promise<{ id: string; callback?: CallbackResult }>;
  /** A payer sends a PIX to the key with no txid: it is received, and the callback POSTed. */
  receive(input: {
    valor: string;
    infoPagador?: string;
    notify?: boolean;
  }): Promise<{ endToEndId: string; callback?: CallbackResult }>;
  /** A received PIX as the PSP shows it (GET /pix/{e2eid}): with its devoluções. */
  pixView(endToEndId: string): Record<string, unknown> | undefined;
  /** POSTs a callback body to the registered webhook (+ "/pix"); `url` replaces it (a forged call). */
  callback(body: unknown, url?: string): Promise<CallbackResult>;
  /** Pix Automático: its recurrences and recurring charges, and the payer's side of them. */
  automatic: FakePixAutomatico;
  /** MED infraction notices on received PIX, by idInfracao (Efí GET /v2/gn/infracoes). */
  infractions: Map<string, FakeInfraction>;
  /** The payer's bank opens a MED infraction on a received PIX: listed as ABERTA; answers its id. */
  openInfraction(endToEndId: string, input?: { valor?: string; razao?: string; prazo?: string }): string;
  /** The PSP decides it: ACEITA (the money goes back to the payer), REJEITADA or CANCELADA_EFI. */
  decideInfraction(id: string, status: 'ACEITA' | 'REJEITADA' | 'CANCELADA_EFI'): void;
  close(): Promise<void>;
}

export interface CallbackResult {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: Lastro's JSON answer
  body: any;
}

export async function startFakePsp(certs: TestCerts): Promise<FakePsp> {
  const cobs = new Map<string, FakeCob>();
  const cobvs = new Map<string, FakeCobv>();
  const lotes = new Map<string, FakeLote>();
  // biome-ignore lint/suspicious/noExplicitAny: the requests of a lote still being processed
  const heldLotes = new Map<string, any[]>();
  let holdingLotes = false;
  const refunds = new Map<string, FakeRefund>();
  const payouts = new Map<string, FakePayout>();
  const webhooks = new Map<string, string>();
  const tokens = new Set<string>();
  const calls: { method: string; path: string }[] = [];
  const failures: Failure[] = [];
  let issued = 0;
  let locIds = 1000;
  const automatic = fakePixAutomatico((pix) =>
    received.push({ ...pix, chave: FAKE_PIX_KEY, horario: new Date().toISOString() }),
  );

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const problem = (res: ServerResponse, status: number, name: string, title: string, detail?: string) =>
    send(res, status, { type: `${PROBLEM}/${name}`, title, status, ...(detail ? { detail } : {}) });
  const efiError = (res: ServerResponse, status: number, nome: string, mensagem: string) =>
    send(res, status, { nome, mensagem });

  const cobView = (cob: FakeCob) => ({
    calendario: { criacao: new Date().toISOString(), expiracao: cob.expiracao },
    txid: cob.txid,
    revisao: 0,
    loc: { id: cob.locId, location: `pix.example.com/qr/v2/${cob.txid}`, tipoCob: 'cob' },
    location: `pix.example.com/qr/v2/${cob.txid}`,
    status: cob.status,
    valor: { original: cob.valor },
    chave: cob.chave,
    pixCopiaECola: cob.pixCopiaECola,
    ...(cob.pix.length ? { pix: cob.pix.map(pixItem) } : {}),
  });
  const received: FakePix[] = [];
  const infractions = new Map<string, FakeInfraction>();
  /** Efí's MED API: GET /v2/gn/infracoes (one page per paginacao.paginaAtual) and POST …/:id/defesa. */
  const infractionRoute = (res: ServerResponse, method: string, url: URL, body: Record<string, unknown>) => {
    if (url.pathname === '/v2/gn/infracoes' && method === 'GET') {
      const inicio = Date.parse(url.searchParams.get('inicio') ?? '');
      const fim = Date.parse(url.searchParams.get('fim') ?? '');
      if (Number.isNaN(inicio) || Number.isNaN(fim))
        return efiError(res, 400, 'parametros_invalidos', 'inicio e fim');
      const page = Number(url.searchParams.get('paginacao.paginaAtual') ?? 0);
      const all = [...infractions.values()].filter(
        (i) => Date.parse(i.criadoEm) >= inicio && Date.parse(i.criadoEm) < fim,
      );
      const perPage = fake.pageSize;
      return send(res, 200, {
        parametros: {
          inicio: url.searchParams.get('inicio'),
          fim: url.searchParams.get('fim'),
          paginacao: {
            paginaAtual: page,
            itensPorPagina: perPage,
            quantidadeDePaginas: Math.ceil(all.length / perPage),
            quantidadeTotalDeItens: all.length,
          },
        },
        infracoes: all.slice(page * perPage, (page + 1) * perPage),
      });
    }
    const defense = /^\/v2\/gn\/infracoes\/([^/]+)\/defesa$/.exec(url.pathname);
    if (!defense || method !== 'POST')
      return problem(res, 404, 'NaoEncontrado', `no route ${method} ${url.pathname}`);
    const infraction = infractions.get(decodeURIComponent(defense[1]!));
    if (!infraction) return efiError(res, 404, 'infracao_nao_encontrada', 'Infração não encontrada');
    if (!['aceito', 'rejeitado'].includes(String(body.analise)) || typeof body.justificativa !== 'string')
      return efiError(res, 400, 'parametros_invalidos', 'analise ou justificativa');
    if (infraction.status !== 'ABERTA')
      return efiError(res, 400, 'infracao_nao_aberta', 'Infração não aceita defesa');
    const now = new Date().toISOString();
    Object.assign(infraction, {
      status: 'EM_DEFESA',
      analise: body.analise,
      defesa: body.justificativa,
      atualizadoEm: now,
      dadosAnalise: { ...infraction.dadosAnalise, recebimentoDefesa: now },
    });
    return send(res, 201, {});
  };
  const refundView = (r: FakeRefund) => ({
    id: r.id,
    rtrId: r.rtrId,
    valor: r.valor,
    natureza: r.natureza,
    ...(r.descricao ? { descricao: r.descricao } : {}),
    horario: {
      solicitacao: new Date().toISOString(),
      ...(r.status === 'DEVOLVIDO' ? { liquidacao: new Date().toISOString() } : {}),
    },
    status: r.status,
  });
  const findPix = (e2e: string) =>
    [
      ...[...cobs.values()].flatMap((cob) => cob.pix),
      ...[...cobvs.values()].flatMap((cobv) => cobv.pix),
    ].find((pix) => pix.endToEndId === e2e) ?? received.find((pix) => pix.endToEndId === e2e);
  const pixItem = (pix: FakePix) => {
    const devolucoes = [...refunds.values()].filter((r) => r.e2e === pix.endToEndId).map(refundView);
    return { ...pix, ...(devolucoes.length ? { devolucoes } : {}) };
  };
  /** GET /pix?inicio&fim, one page of paginacao.itensPorPagina (default 100) at paginacao.paginaAtual. */
  const pixPage = (url: URL) => {
    const inicio = url.searchParams.get('inicio') ?? '';
    const fim = url.searchParams.get('fim') ?? '';
    const perPage = Number(url.searchParams.get('paginacao.itensPorPagina') ?? fake.pageSize);
    const page = Number(url.searchParams.get('paginacao.paginaAtual') ?? 0);
    const inWindow = [
      ...[
        ...[...cobs.values()].flatMap((cob) => cob.pix),
        ...[...cobvs.values()].flatMap((cobv) => cobv.pix),
      ],
      ...received,
    ]
      .filter(
        (pix) => Date.parse(pix.horario) >= Date.parse(inicio) && Date.parse(pix.horario) < Date.parse(fim),
      )
      .sort((a, b) => a.horario.localeCompare(b.horario));
    const itensPorPagina = Math.min(perPage, fake.pageSize);
    return {
      parametros: {
        inicio,
        fim,
        paginacao: {
          paginaAtual: page,
          itensPorPagina,
          quantidadeDePaginas: Math.ceil(inWindow.length / itensPorPagina),
          quantidadeTotalDeItens: inWindow.length,
        },
      },
      pix: inWindow.slice(page * itensPorPagina, (page + 1) * itensPorPagina).map(pixItem),
    };
  };
  const payoutView = (p: FakePayout) => ({
    endToEndId: p.e2eId,
    idEnvio: p.idEnvio,
    valor: p.valor,
    chave: FAKE_PIX_KEY,
    status: p.status,
    horario: { solicitacao: new Date().toISOString() },
    favorecido: { chave: p.chave },
  });

  async function route(req: IncomingMessage, res: ServerResponse, raw: string) {
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'https://fake').pathname;
    calls.push({ method, path });
    const failure = failures.find(
      (f) => f.times > 0 && f.path.test(path) && (!f.method || f.method === method),
    );
    if (failure) {
      failure.times--;
      return problem(res, failure.status, 'ServicoIndisponivel', 'Serviço indisponível');
    }
    if (method === 'POST' && path === '/oauth/token') {
      const basic = Buffer.from(`${FAKE_CLIENT_ID}:${FAKE_CLIENT_SECRET}`).toString('base64');
      const grant = raw.includes('client_credentials');
      if (req.headers.authorization !== `Basic ${basic}` || !grant)
        return efiError(res, 401, 'invalid_client', 'bad client');
      const token = alnum(40);
      tokens.add(token);
      issued++;
      return send(res, 200, {
        access_token: token,
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'cob.write pix.write',
      });
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !tokens.has(bearer)) return problem(res, 401, 'AcessoNegado', 'Acesso negado');
    // biome-ignore lint/suspicious/noExplicitAny: a request body read field by field
    let body: any = {};
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      return problem(res, 400, 'RequisicaoInvalida', 'JSON inválido');
    }
    const cobPath = /^\/v2\/cob\/([^/]+)$/.exec(path);
    if (cobPath) {
      const txid = cobPath[1]!;
      if (!/^[a-zA-Z0-9]{26,35}$/.test(txid))
        return problem(res, 400, 'CobOperacaoInvalida', 'Cobrança inválida', 'txid');
      if (method === 'GET') {
        const cob = cobs.get(txid);
        return cob
          ? send(res, 200, cobView(cob))
          : problem(res, 404, 'CobNaoEncontrado', 'Cobrança não encontrada');
      }
      if (method !== 'PUT') return problem(res, 405, 'RequisicaoInvalida', 'método');
      if (cobs.has(txid))
        return problem(res, 400, 'CobOperacaoInvalida', 'Cobrança inválida', 'txid já utilizado');
      const valor = body?.valor?.original;
      if (typeof valor !== 'string' || !/^\d{1,10}\.\d{2}$/.test(valor) || body.chave !== FAKE_PIX_KEY) {
        return problem(res, 400, 'CobOperacaoInvalida', 'Cobrança inválida', 'valor.original ou chave');
      }
      const cob: FakeCob = {
        txid,
        status: 'ATIVA',
        valor,
        chave: body.chave,
        expiracao: Number(body.calendario?.expiracao ?? 86400),
        pixCopiaECola: `00020101021226830014br.gov.bcb.pix2561pix.example.com/qr/v2/${txid}5204000053039865802BR5913LASTRO FAKE PSP6009SAO PAULO62070503***6304ABCD`,
        locId: locIds++,
        pix: [],
      };
      cobs.set(txid, cob);
      return send(res, 201, cobView(cob));
    }
    if (path === '/v2/cobv' && method === 'GET') {
      const listed = listCobvs(cobvs.values(), new URL(req.url ?? '/', 'https://fake'));
      return send(res, listed.status, listed.body);
    }
    const cobvAnswer = cobvRoute(method, path, body);
    if (cobvAnswer) return send(res, cobvAnswer.status, cobvAnswer.body);
    const refundPath = /^\/v2\/pix\/([^/]+)\/devolucao\/([^/]+)$/.exec(path);
    if (refundPath) {
      const [, e2e, id] = refundPath as unknown as [string, string, string];
      const key = `${e2e}/${id}`;
      if (method === 'GET') {
        const found = refunds.get(key);
        return found
          ? send(res, 200, refundView(found))
          : problem(res, 404, 'NaoEncontrado', 'Devolução não encontrada');
      }
      if (!/^[a-zA-Z0-9]{1,35}$/.test(id)) return problem(res, 400, 'PixDevolucaoInvalida', 'id inválido');
      const existing = refunds.get(key);
      if (existing) return send(res, 201, refundView(existing));
      if (!findPix(e2e)) return problem(res, 404, 'PixNaoEncontrado', 'Pix não encontrado');
      if (typeof body.valor !== 'string' || !/^\d{1,10}\.\d{2}$/.test(body.valor)) {
        return problem(res, 400, 'PixDevolucaoInvalida', 'valor inválido');
      }
      const refund: FakeRefund = {
        id,
        rtrId: fakeEndToEndId('D'),
        valor: body.valor,
        status: 'EM_PROCESSAMENTO',
        e2e,
        natureza: body.natureza ?? 'ORIGINAL',
      };
      refunds.set(key, refund);
      return send(res, 201, refundView(refund));
    }
    if (path === '/v2/pix' && method === 'GET')
      return send(res, 200, pixPage(new URL(req.url ?? '/', 'https://fake')));
    const pixPath = /^\/v2\/pix\/([^/]+)$/.exec(path);
    if (pixPath && method === 'GET') {
      const pix = findPix(decodeURIComponent(pixPath[1]!));
      return pix ? send(res, 200, pixItem(pix)) : problem(res, 404, 'PixNaoEncontrado', 'Pix não encontrado');
    }
    const webhookPath = /^\/v2\/webhook\/([^/]+)$/.exec(path);
    if (webhookPath && method === 'PUT') {
      if (typeof body.webhookUrl !== 'string')
        return problem(res, 400, 'WebhookOperacaoInvalida', 'webhookUrl');
      webhooks.set(decodeURIComponent(webhookPath[1]!), body.webhookUrl);
      return send(res, 200, {});
    }
    const payoutPath = /^\/v3\/gn\/pix\/([^/]+)$/.exec(path);
    if (payoutPath && method === 'PUT') {
      const idEnvio = payoutPath[1]!;
      if (!/^[a-zA-Z0-9]{1,35}$/.test(idEnvio)) return efiError(res, 400, 'valor_invalido', 'idEnvio');
      if (payouts.has(idEnvio)) return efiError(res, 409, 'id_envio_duplicado', 'idEnvio já utilizado');
      if (body?.pagador?.chave !== FAKE_PIX_KEY || typeof body?.favorecido?.chave !== 'string') {
        return efiError(res, 400, 'chave_invalida', 'pagador ou favorecido');
      }
      if (typeof body.valor !== 'string' || !/^\d{1,10}\.\d{2}$/.test(body.valor)) {
        return efiError(res, 400, 'valor_invalido', 'valor');
      }
      const payout: FakePayout = {
        idEnvio,
        e2eId: fakeEndToEndId(),
        valor: body.valor,
        chave: body.favorecido.chave,
        status: 'EM_PROCESSAMENTO',
      };
      payouts.set(idEnvio, payout);
      return send(res, 201, {
        idEnvio,
        e2eId: payout.e2eId,
        valor: payout.valor,
        horario: { solicitacao: new Date().toISOString() },
        status: payout.status,
      });
    }
    const sentPath = /^\/v2\/gn\/pix\/enviados\/id-envio\/([^/]+)$/.exec(path);
    if (sentPath && method === 'GET') {
      const payout = payouts.get(sentPath[1]!);
      return payout
        ? send(res, 200, payoutView(payout))
        : efiError(res, 404, 'envio_nao_encontrado', 'não encontrado');
    }
    const answer = (status: number, json: unknown) => send(res, status, json);
    const refuse = (status: number, name: string, title: string) => problem(res, status, name, title);
    if (automatic.route(method, path, body, answer, refuse)) return;
    if (path.startsWith('/v2/gn/infracoes'))
      return infractionRoute(res, method, new URL(req.url ?? '/', 'https://fake'), body);
    return problem(res, 404, 'NaoEncontrado', `no route ${method} ${path}`);
  }

  /** PUT/GET /cobv/{txid} and /lotecobv/{id}; undefined for any other path. */
  // biome-ignore lint/suspicious/noExplicitAny: a request body read field by field
  function cobvRoute(method: string, path: string, body: any): { status: number; body: unknown } | undefined {
    const notFound = (title: string) => ({
      status: 404,
      body: { type: `${PROBLEM}/CobVNaoEncontrada`, title, status: 404 },
    });
    const invalid = (detail: string) => ({
      status: 400,
      body: { type: `${PROBLEM}/CobVOperacaoInvalida`, title: 'Cobrança inválida', status: 400, detail },
    });
    const create = createCobv;
    const cobvPath = /^\/v2\/cobv\/([a-zA-Z0-9]{26,35})$/.exec(path);
    if (cobvPath) {
      const txid = cobvPath[1]!;
      const existing = cobvs.get(txid);
      if (method === 'GET')
        return existing ? { status: 200, body: cobvView(existing) } : notFound('Cobrança não encontrada');
      if (method === 'PATCH') {
        if (!existing) return notFound('Cobrança não encontrada');
        const refused = reviseCobv(existing, body, FAKE_PIX_KEY);
        return refused ? invalid(refused) : { status: 200, body: cobvView(existing) };
      }
      if (existing) return invalid('txid já utilizado');
      const problem = cobvProblem(body, FAKE_PIX_KEY);
      return problem ? invalid(problem) : { status: 201, body: cobvView(create(txid, body)) };
    }
    const lotePath = /^\/v2\/lotecobv\/([^/]+)$/.exec(path);
    if (!lotePath) return undefined;
    const id = lotePath[1]!;
    if (method === 'GET') {
      const lote = lotes.get(id);
      return lote
        ? { status: 200, body: { ...lote, id: Number(id), criacao: new Date().toISOString() } }
        : notFound('Lote não encontrado');
    }
    if (!Array.isArray(body?.cobsv)) return invalid('cobsv');
    const lote: FakeLote = { id, descricao: String(body.descricao ?? ''), cobsv: [] };
    lotes.set(id, lote);
    if (holdingLotes) {
      heldLotes.set(id, body.cobsv);
      // biome-ignore lint/suspicious/noExplicitAny: a request body read field by field
      lote.cobsv = body.cobsv.map((item: any) => ({ txid: item.txid, status: 'EM_PROCESSAMENTO' }));
    } else processLote(lote, body.cobsv);
    return { status: 202, body: {} };
  }

  // biome-ignore lint/suspicious/noExplicitAny: the lote's requests as PUT
  function processLote(lote: FakeLote, requests: any[]) {
    lote.cobsv = [];
    for (const { txid, ...request } of requests) {
      const problem =
        cobvProblem(request, FAKE_PIX_KEY) ?? (cobvs.has(txid) ? 'txid já utilizado' : undefined);
      if (!problem) createCobv(txid, request);
      lote.cobsv.push(
        problem ? { txid, status: 'NEGADA', problema: { title: problem } } : { txid, status: 'CRIADA' },
      );
    }
  }

  function createCobv(txid: string, request: unknown): FakeCobv {
    const cobv = {
      txid,
      status: 'ATIVA' as const,
      request,
      pixCopiaECola: cobvBrCode(txid),
      locId: locIds++,
      pix: [],
    };
    cobvs.set(txid, cobv);
    return cobv;
  }

  const server: Server = createServer(
    {
      key: readFileSync(certs.serverKeyFile),
      cert: readFileSync(certs.serverCertFile),
      ca: readFileSync(certs.caFile),
      requestCert: true,
      rejectUnauthorized: true,
    },
    (req, res) => {
      if (!(req.socket as TLSSocket).authorized) return problem(res, 401, 'AcessoNegado', 'certificado');
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const answer = () => void route(req, res, Buffer.concat(chunks).toString('utf8'));
        if (fake.delayMs > 0) setTimeout(answer, fake.delayMs);
        else answer();
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const url = `https://127.0.0.1:${port}`;

  async function callback(body: unknown, target?: string): Promise<CallbackResult> {
    const registered = webhooks.get(FAKE_PIX_KEY);
    const to = target ?? (registered ? `${registered}/pix` : undefined);
    if (!to) throw new Error('no webhook registered for the key');
    const res = await fetch(to, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }

  const fake: FakePsp = {
    url,
    settings: (webhookUrl, overrides = {}) => ({
      baseUrl: `${url}/v2`,
      tokenUrl: `${url}/oauth/token`,
      payoutBaseUrl: url,
      clientId: FAKE_CLIENT_ID,
      clientSecret: FAKE_CLIENT_SECRET,
      certFile: certs.clientCertFile,
      keyFile: certs.clientKeyFile,
      caFile: certs.caFile,
      pixKey: FAKE_PIX_KEY,
      webhookUrl,
      webhookSecret: FAKE_WEBHOOK_SECRET,
      timeoutMs: 3000,
      receiver: {
        account: FAKE_RECEIVER.conta,
        accountType: FAKE_RECEIVER.tipoConta,
        branch: FAKE_RECEIVER.agencia,
      },
      ...overrides,
    }),
    env: (webhookUrl) => ({
      PIX_PROVIDER: 'bcb',
      PIX_BCB_BASE_URL: `${url}/v2`,
      PIX_BCB_TOKEN_URL: `${url}/oauth/token`,
      PIX_BCB_CLIENT_ID: FAKE_CLIENT_ID,
      PIX_BCB_CLIENT_SECRET: FAKE_CLIENT_SECRET,
      PIX_BCB_CERT_FILE: certs.clientCertFile,
      PIX_BCB_KEY_FILE: certs.clientKeyFile,
      PIX_BCB_CA_FILE: certs.caFile,
      PIX_BCB_PIX_KEY: FAKE_PIX_KEY,
      PIX_WEBHOOK_URL: webhookUrl,
      PIX_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET,
      PIX_RECEIVER_ACCOUNT: FAKE_RECEIVER.conta,
      PIX_RECEIVER_ACCOUNT_TYPE: FAKE_RECEIVER.tipoConta,
      PIX_RECEIVER_BRANCH: FAKE_RECEIVER.agencia,
    }),
    cobs,
    cobvs,
    lotes,
    holdLotes: () => {
      holdingLotes = true;
    },
    releaseLotes: () => {
      holdingLotes = false;
      for (const [id, requests] of heldLotes) processLote(lotes.get(id)!, requests);
      heldLotes.clear();
    },
    automatic: automatic.api,
    received,
    refunds,
    payouts,
    webhooks,
    calls,
    tokensIssued: () => issued,
    failNext: (failure) => failures.push({ ...failure, times: failure.times ?? 1 }),
    delayMs: 0,
    pageSize: 100,
    revokeTokens: () => tokens.clear(),
    async pay(txid, notify = true) {
      const cob = cobs.get(txid);
      if (cob?.status !== 'ATIVA') throw new Error(`cob ${txid} cannot be paid`);
      const pix = {
        endToEndId: fakeEndToEndId(),
        txid,
        valor: cob.valor,
        chave: cob.chave,
        horario: new Date().toISOString(),
      };
      cob.pix.push(pix);
      cob.status = 'CONCLUIDA';
      return { endToEndId: pix.endToEndId, callback: notify ? await callback({ pix: [pix] }) : undefined };
    },
    async payCobv(txid, valor, notify = true) {
      const cobv = cobvs.get(txid);
      if (cobv?.status !== 'ATIVA') throw new Error(`cobv ${txid} cannot be paid`);
      const pix = {
        endToEndId: fakeEndToEndId(),
        txid,
        valor,
        chave: FAKE_PIX_KEY,
        horario: new Date().toISOString(),
      };
      cobv.pix.push(pix);
      cobv.status = 'CONCLUIDA';
      return { endToEndId: pix.endToEndId, callback: notify ? await callback({ pix: [pix] }) : undefined };
    },
    async settleRefund(id, status, notify = true) {
      const refund = [...refunds.values()].find((r) => r.id === id);
      if (!refund) throw new Error(`no devolução ${id}`);
      refund.status = status;
      if (!notify) return undefined;
      const pix = findPix(refund.e2e)!;
      return callback({ pix: [{ ...pix, devolucoes: [refundView(refund)] }] });
    },
    async medReturn(endToEndId, input) {
      const pix = findPix(endToEndId);
      if (!pix) throw new Error(`no PIX ${endToEndId}`);
      // The PSP's own id: not one of Lastro's (32 hex digits), as a MED devolução's never is.
      const id = `MED${alnum(20)}`;
      const refund: FakeRefund = {
        id,
        rtrId: fakeEndToEndId('D'),
        valor: input.valor,
        status: input.status ?? 'DEVOLVIDO',
        e2e: endToEndId,
        natureza: input.natureza,
        descricao: 'Devolução MED',
      };
      refunds.set(`${endToEndId}/${id}`, refund);
      if (input.notify === false) return { id };
      return { id, callback: await callback({ pix: [{ ...pix, devolucoes: [refundView(refund)] }] }) };
    },
    async receive(input) {
      const pix: FakePix = {
        endToEndId: fakeEndToEndId(),
        valor: input.valor,
        chave: FAKE_PIX_KEY,
        horario: new Date().toISOString(),
        ...(input.infoPagador ? { infoPagador: input.infoPagador } : {}),
      };
      received.push(pix);
      return {
        endToEndId: pix.endToEndId,
        callback: input.notify === false ? undefined : await callback({ pix: [pix] }),
      };
    },
    pixView: (endToEndId) => {
      const pix = findPix(endToEndId);
      return pix && pixItem(pix);
    },
    async settlePayout(idEnvio, status, notify = true) {
      const payout = payouts.get(idEnvio);
      if (!payout) throw new Error(`no payout ${idEnvio}`);
      payout.status = status;
      if (!notify) return undefined;
      return callback({
        pix: [
          {
            endToEndId: payout.e2eId,
            valor: payout.valor,
            chave: payout.chave,
            horario: new Date().toISOString(),
            status,
            tipo: 'SOLICITACAO',
            gnExtras: {
              idEnvio,
              ...(status === 'NAO_REALIZADO' ? { erro: { codigo: 'AC03', motivo: 'conta inválida' } } : {}),
            },
          },
        ],
      });
    },
    callback,
    infractions,
    openInfraction(endToEndId, input = {}) {
      const pix = findPix(endToEndId);
      if (!pix) throw new Error(`no PIX ${endToEndId}`);
      const now = new Date();
      const id = `INF${alnum(17)}`;
      infractions.set(id, {
        idInfracao: id,
        endToEndId,
        valor: input.valor ?? pix.valor,
        status: 'ABERTA',
        razao: input.razao ?? 'Pagador relata golpe',
        tipoSituacao: 'golpe',
        dadosAnalise: {
          abertura: now.toISOString(),
          prazoFinalizacao: input.prazo ?? new Date(now.getTime() + 7 * 24 * 3600_000).toISOString(),
        },
        criadoEm: now.toISOString(),
        atualizadoEm: now.toISOString(),
      });
      return id;
    },
    decideInfraction(id, status) {
      const infraction = infractions.get(id);
      if (!infraction) throw new Error(`no infraction ${id}`);
      const now = new Date().toISOString();
      Object.assign(infraction, {
        status,
        atualizadoEm: now,
        dadosAnalise: { ...infraction.dadosAnalise, finalizacao: now },
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
