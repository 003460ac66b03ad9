-- RFC 6238 §5.2: a one-time code is accepted once. The last time step accepted per user is kept here,
-- and a code is taken only by a conditional UPDATE that raises it, so two requests with one code
-- cannot both pass, on any number of API processes.
ALTER TABLE users ADD COLUMN totp_last_step bigint;
