-- Governance events whose sandboxes were re-enforced: every platform replica hears each event (LISTEN/NOTIFY); the
-- first to insert its id re-publishes the sandboxes it reaches, in the same transaction, so a policy change is
-- re-enforced once across replicas, not once per replica.
CREATE TABLE governance_applied (
    event_id    bigint PRIMARY KEY,
    applied_at  timestamptz NOT NULL DEFAULT now()
);
