/** The checkout page's words, in Brazilian Portuguese and English, beside those every hosted page shares. */
import type { Locale } from '../../../platform/hosted-page/locale.ts';
import { pageMessagesFor } from '../../../platform/hosted-page/messages.ts';

const PT = {
  ...pageMessagesFor('pt-BR'),
  pageTitle: 'Pagamento',
  amount: 'Valor (R$)',
  amountHint: 'Por exemplo: 25,90',
  name: 'Nome completo',
  document: 'CPF ou CNPJ',
  documentHint: 'Usado só para identificar o pagamento.',
  submit: 'Gerar código PIX',
  working: 'Gerando o código…',
  invalidName: 'Informe seu nome.',
  invalidDocument: 'CPF ou CNPJ inválido: confira os números.',
  missingDocument: 'Informe o CPF ou CNPJ.',
  invalidAmount: 'Informe um valor válido, como 25,90.',
  failedToStart: 'Não foi possível gerar o pagamento. Tente de novo.',
  waiting: 'Aguardando o pagamento…',
  paid: 'Pagamento confirmado. Obrigado!',
  expired: 'Este código PIX expirou. Recarregue a página para gerar outro.',
  failed: 'O pagamento não foi concluído.',
  validUntil: 'Válido até',
  unavailable: 'Link indisponível',
  unknownLink: 'Este link de pagamento não existe. Confira o endereço com quem o enviou.',
  inactiveLink: 'Este link de pagamento não está aceitando pagamentos no momento.',
  expiredLink: 'Este link de pagamento expirou e não aceita mais pagamentos.',
  productionOffLink:
    'Este link de pagamento ainda não aceita pagamentos: a conta de quem o enviou não está habilitada para receber pagamentos reais.',
  noscript: 'Ative o JavaScript para pagar por esta página.',
};

export type Messages = typeof PT;

const EN: Messages = {
  ...pageMessagesFor('en'),
  pageTitle: 'Payment',
  amount: 'Amount (R$)',
  amountHint: 'For example: 25.90',
  name: 'Full name',
  document: 'CPF or CNPJ',
  documentHint: 'Used only to identify the payment.',
  submit: 'Get PIX code',
  working: 'Creating the code…',
  invalidName: 'Enter your name.',
  invalidDocument: 'Invalid CPF or CNPJ: check the digits.',
  missingDocument: 'Enter the CPF or CNPJ.',
  invalidAmount: 'Enter a valid amount, such as 25.90.',
  failedToStart: 'The payment could not be created. Please try again.',
  waiting: 'Waiting for the payment…',
  paid: 'Payment confirmed. Thank you!',
  expired: 'This PIX code has expired. Reload the page to get a new one.',
  failed: 'The payment did not go through.',
  validUntil: 'Valid until',
  unavailable: 'Link unavailable',
  unknownLink: 'This payment link does not exist. Check the address with whoever sent it.',
  inactiveLink: 'This payment link is not taking payments right now.',
  expiredLink: 'This payment link has expired and takes no more payments.',
  productionOffLink:
    "This payment link is not taking payments yet: its owner's account is not enabled for real payments.",
  noscript: 'Turn on JavaScript to pay on this page.',
};

export const messagesFor = (locale: Locale): Messages => (locale === 'en' ? EN : PT);
