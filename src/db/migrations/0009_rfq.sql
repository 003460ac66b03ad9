-- RFQ: per-workspace pricing of conversions and the quotes themselves (docs/rfq.md).

-- A workspace's price of converting base → quote: the spread taken from the caller's side of the
-- rate and the fee in the quote currency. Without a row the defaults of src/modules/rfq/pricing.ts
-- apply. Keyed by the pair because fixed_fee_minor is in the quote currency's minor units.
CREATE TABLE rfq_pricing (
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  base_currency text NOT NULL,
  quote_currency text NOT NULL,
  spread_bps integer NOT NULL CHECK (spread_bps BETWEEN 0 AND 9999),
  fee_bps integer NOT NULL CHECK (fee_bps BETWEEN 0 AND 10000),
  fixed_fee_minor bigint NOT NULL DEFAULT 0 CHECK (fixed_fee_minor >= 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, environment, base_currency, quote_currency),
  CHECK (base_currency <> quote_currency)
);

-- A firm quote: every figure is fixed at creation, so executing it needs no price. Rates and prices
-- are decimal strings; amounts BIGINT minor units. status is 'open' until executed or expired by the
-- sandbox helper; an open quote past expires_at reads as expired.
CREATE TABLE rfq_quotes (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  party_id uuid NOT NULL,
  side text CHECK (side IN ('buy', 'sell')),
  status text NOT NULL CHECK (status IN ('open', 'executed', 'expired')),
  base_currency text NOT NULL,
  quote_currency text NOT NULL,
  base_amount_minor bigint NOT NULL CHECK (base_amount_minor > 0),
  gross_amount_minor bigint NOT NULL CHECK (gross_amount_minor > 0),
  quote_amount_minor bigint NOT NULL CHECK (quote_amount_minor > 0),
  rate text NOT NULL,
  mid_price text NOT NULL,
  price_source text NOT NULL,
  price_as_of timestamptz NOT NULL,
  spread_bps integer NOT NULL,
  fee_bps integer NOT NULL,
  fee_minor bigint NOT NULL CHECK (fee_minor >= 0),
  fee_currency text NOT NULL,
  fixed_fee_minor bigint NOT NULL CHECK (fixed_fee_minor >= 0),
  fill_price text,
  executed_payment_id uuid UNIQUE REFERENCES payments (id),
  executed_at timestamptz,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  FOREIGN KEY (workspace_id, party_id) REFERENCES parties (workspace_id, id),
  CHECK (quote_amount_minor = gross_amount_minor - fee_minor),
  CHECK ((status = 'executed') = (executed_payment_id IS NOT NULL))
);
CREATE INDEX rfq_quotes_scope_idx ON rfq_quotes (workspace_id, environment, id DESC);
