-- Enrollment sessions: one per setup-screen submission or device-flow start, from the right setup code until the
-- hub sends the browser back. The state handed to the hub is stored only as its SHA-256, and is used once.

CREATE TABLE enrollment_session (
    id           text PRIMARY KEY,                -- device flow: the id the CLI polls; setup screen: random
    kind         text        NOT NULL CHECK (kind IN ('browser', 'device')),
    state_hash   text        NOT NULL UNIQUE,     -- SHA-256 (hex) of the state sent through the hub
    binding_hash text,                            -- setup screen: SHA-256 (hex) of the browser's session cookie
    status       text        NOT NULL DEFAULT 'pending'
                             CHECK (status IN ('pending', 'exchanging', 'enrolled', 'failed')),
    error        text,                            -- why it failed, for the poller; never a token
    created_at   timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL
);

CREATE INDEX enrollment_session_expires ON enrollment_session (expires_at);
