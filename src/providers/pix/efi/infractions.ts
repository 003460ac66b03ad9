/**
 * Efí's MED API ("Endpoints exclusivos Efí", https://dev.efipay.com.br/docs/api-pix/endpoints-exclusivos-efi,
 * scopes gn.infractions.read / gn.infractions.write; the same routes in Efí's SDKs as medList and
 * medDefense):
 * - GET /v2/gn/infracoes?inicio&fim lists the infraction notices (MED) on PIX received by the account,
 *   each with idInfracao, endToEndId, valor, status (ABERTA, EM_DEFESA, ACEITA, REJEITADA,
 *   CANCELADA_EFI), razao, tipoSituacao and dadosAnalise {abertura, prazoFinalizacao, …}, paged like
 *   GET /pix (parametros.paginacao).
 * - POST /v2/gn/infracoes/:idInfracao/defesa {analise: "aceito" | "rejeitado", justificativa} sends
 *   the receiver's analysis: "rejeitado" contests the infraction, with the justification as its text.
 * The infraction itself travels between the PSPs through the BCB's DICT; this is the client side.
 */
import { type MtlsClient, PspRejected } from '../bcb/http.ts';
import { fromPspAmount } from '../bcb/money.ts';
import type { BcbSettings } from '../config.ts';
import type { Infraction } from '../provider.ts';

const STATUS: Record<string, Infraction['status']> = {
  ABERTA: 'open',
  EM_DEFESA: 'under_review',
  ACEITA: 'accepted',
  REJEITADA: 'rejected',
  CANCELADA_EFI: 'cancelled',
};

/** A bound on the pages one listing reads. */
const MAX_PAGES = 1000;
/** Efí's justificativa is one text; evidence references travel in it, one a line. */
const MAX_JUSTIFICATION = 8000;

const dateOf = (value: unknown) =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? new Date(value) : undefined;

/** An item of GET /v2/gn/infracoes as ours; an unknown status is refused, never guessed. */
export function infractionOf(item: Record<string, unknown>): Infraction {
  const status = STATUS[String(item.status)];
  if (!status) throw new PspRejected(502, { title: `unknown infraction status ${String(item.status)}` });
  const analysis = (item.dadosAnalise ?? {}) as Record<string, unknown>;
  const reason = [item.tipoSituacao, item.razao].filter((v) => typeof v === 'string' && v !== '').join(': ');
  return {
    id: String(item.idInfracao),
    endToEndId: String(item.endToEndId),
    amountMinor: fromPspAmount(item.valor),
    status,
    reason: reason || 'MED',
    openedAt: dateOf(analysis.abertura) ?? dateOf(item.criadoEm),
    deadlineAt: dateOf(analysis.prazoFinalizacao),
  };
}

export class EfiInfractions {
  constructor(
    private readonly http: MtlsClient,
    private readonly settings: BcbSettings,
  ) {}

  async list(window: { from: Date; to: Date }): Promise<Infraction[]> {
    const found: Infraction[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      const query = new URLSearchParams({
        inicio: window.from.toISOString(),
        fim: window.to.toISOString(),
        'paginacao.paginaAtual': String(page),
      });
      const response = await this.http.call('GET', `${this.settings.payoutBaseUrl}/v2/gn/infracoes?${query}`);
      if (response.status === 404) return found;
      const items = Array.isArray(response.body?.infracoes) ? response.body.infracoes : [];
      found.push(...items.map(infractionOf));
      const pages = Number(response.body?.parametros?.paginacao?.quantidadeDePaginas ?? 1);
      if (!(page + 1 < pages)) return found;
    }
    return found;
  }

  async defend(input: { infractionId: string; text: string; evidence: readonly string[] }): Promise<void> {
    const justificativa = [input.text, ...input.evidence].join('\n').slice(0, MAX_JUSTIFICATION);
    const response = await this.http.call(
      'POST',
      `${this.settings.payoutBaseUrl}/v2/gn/infracoes/${encodeURIComponent(input.infractionId)}/defesa`,
      { analise: 'rejeitado', justificativa },
    );
    if (response.status === 404) throw new PspRejected(404, response.body ?? {});
  }
}
