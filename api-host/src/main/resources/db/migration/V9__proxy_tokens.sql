-- Proxy tokens: how a separate egress proxy replica authenticates to the platform's proxy feed
-- (GET /v1/egress/feed). Installation-wide (a proxy serves sandboxes of every organization); only the SHA-256 of a
-- token is kept.
CREATE TABLE proxy_tokens (
    id          uuid PRIMARY KEY,
    name        text NOT NULL,
    token_hash  bytea NOT NULL UNIQUE,
    prefix      text NOT NULL,
    created_by  text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at  timestamptz
);
