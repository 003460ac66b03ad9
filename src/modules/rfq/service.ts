/**
 * The RFQ module's public face: other modules (and operators' tooling) reach quotes and pricing
 * through these. Routes call the files beside this one directly.
 */
export { executeQuote } from './execute.ts';
export { DEFAULT_RFQ_PRICING, pricingFor, type RfqPricing, setPricing } from './pricing.ts';
export { getQuote } from './quotes.ts';
