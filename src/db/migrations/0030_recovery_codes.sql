-- Two-factor recovery codes: a set of single-use codes an owner can log in with when the
-- authenticator app is lost. Only a SHA-256 of each code is kept (the codes carry 50 random bits, so
-- a fast hash is enough: there is no short secret to guess offline). A code is spent by a conditional
-- UPDATE of used_at, so two logins with one code cannot both pass; a new set deletes the old one.
CREATE TABLE user_recovery_codes (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  code_hash bytea NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX user_recovery_codes_hash ON user_recovery_codes (user_id, code_hash);
