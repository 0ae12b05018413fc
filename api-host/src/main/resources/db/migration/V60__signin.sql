-- The embedded sign-in provider (on when oidc.issuer is not set): its signing key, local accounts, registered
-- clients, authorization codes, refresh tokens and browser sessions. Secrets are stored sealed (the key) or hashed
-- (codes, refresh tokens, session ids, passwords), never in the clear.
CREATE TABLE signin_keys (
    purpose     text PRIMARY KEY,
    kid         text NOT NULL,
    sealed_jwk  text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE signin_accounts (
    id             uuid PRIMARY KEY,
    email          text NOT NULL,
    name           text NOT NULL,
    password_hash  text NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX signin_accounts_email ON signin_accounts (lower(email));

CREATE TABLE signin_clients (
    client_id      text PRIMARY KEY,
    client_name    text,
    redirect_uris  text NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE signin_codes (
    code_hash       bytea PRIMARY KEY,
    client_id       text NOT NULL REFERENCES signin_clients ON DELETE CASCADE,
    account_id      uuid NOT NULL REFERENCES signin_accounts ON DELETE CASCADE,
    redirect_uri    text NOT NULL,
    code_challenge  text NOT NULL,
    resource        text NOT NULL,
    expires_at      timestamptz NOT NULL,
    used_at         timestamptz
);

CREATE TABLE signin_refresh_tokens (
    token_hash  bytea PRIMARY KEY,
    family      uuid NOT NULL,
    client_id   text NOT NULL REFERENCES signin_clients ON DELETE CASCADE,
    account_id  uuid NOT NULL REFERENCES signin_accounts ON DELETE CASCADE,
    resource    text NOT NULL,
    expires_at  timestamptz NOT NULL,
    rotated_at  timestamptz,
    revoked_at  timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX signin_refresh_tokens_family ON signin_refresh_tokens (family);

-- Browser sessions (both providers): the cookie holds a random id, the row its hash.
CREATE TABLE signin_sessions (
    id_hash     bytea PRIMARY KEY,
    user_id     uuid NOT NULL REFERENCES users ON DELETE CASCADE,
    expires_at  timestamptz NOT NULL,
    revoked_at  timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX signin_sessions_user ON signin_sessions (user_id);
