-- Variable-amount subscriptions: the amount the receiver set for the next cycle (at or above the
-- floor, valorMinimoRecebedor), taken by that cycle when it is scheduled; and the payer's maximum
-- when the PSP reports one (the API Pix v2.9.0 does not carry it, so it is usually unknown).
ALTER TABLE subscriptions ADD COLUMN next_amount_minor bigint CHECK (next_amount_minor > 0);
ALTER TABLE subscriptions ADD COLUMN payer_maximum_minor bigint CHECK (payer_maximum_minor > 0);

-- Each payment attempt of a cycle as it ended: its day, paid or failed, and on a failure the PSP's
-- rejection code and description (API Pix CobRTentativas tentativas[].rejeicao, or the cobr's
-- encerramento.rejeicao when the rejection ended it).
ALTER TABLE subscription_cycles ADD COLUMN attempt_history jsonb NOT NULL DEFAULT '[]';

-- The PSP's Pix Automático notifications name a recurrence by idRec and a cycle by txid, never a
-- workspace: each is found by that id.
CREATE INDEX subscriptions_provider_ref_idx ON subscriptions (provider_ref) WHERE provider_ref IS NOT NULL;
CREATE INDEX subscription_cycles_txid_idx ON subscription_cycles (txid) WHERE txid IS NOT NULL;
