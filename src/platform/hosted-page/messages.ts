/** The words every hosted page shares (the sandbox mark, whom the payer pays, the BR Code block). */
import type { Locale } from './locale.ts';

const PT = {
  payWithPix: 'Pagamento via PIX',
  payWithPixTo: 'Pagamento via PIX para',
  testMark: 'Ambiente de teste: nenhum dinheiro real é cobrado.',
  scan: 'Escaneie o QR code no app do seu banco',
  qrAlt: 'QR code do PIX',
  copyLabel: 'PIX copia e cola',
  copy: 'Copiar código',
  copied: 'Código copiado.',
  copyFailed: 'Não foi possível copiar: selecione o texto e copie.',
};

export type PageMessages = typeof PT;

const EN: PageMessages = {
  payWithPix: 'Pay with PIX',
  payWithPixTo: 'Pay with PIX to',
  testMark: 'Test environment: no real money is charged.',
  scan: "Scan the QR code in your bank's app",
  qrAlt: 'PIX QR code',
  copyLabel: 'PIX copy-paste code',
  copy: 'Copy code',
  copied: 'Code copied.',
  copyFailed: 'Could not copy: select the text and copy it.',
};

export const pageMessagesFor = (locale: Locale): PageMessages => (locale === 'en' ? EN : PT);
