-- Spend reservations (docs/spend.md "Admission: reserve, then settle"): before the inference proxy forwards a call
-- it holds the call's largest possible cost against every limit that applies; settling writes the ledger row and
-- removes the hold in one transaction, releasing removes it with nothing spent. A hold counts toward every limit of
-- its organization, project and sandbox until it is removed or expires_at passes (a replica killed mid-stream must
-- not hold budget forever). Holds expired for a day are purged by later settlements of the organization; until then
-- a late settlement still finds its hold. project_id and sandbox_id carry no foreign key, like the ledger's: a call
-- in flight when its project is deleted keeps counting toward the organization until it is settled or expires.
CREATE TABLE spend_reservations (
    id           uuid PRIMARY KEY,
    org_id       uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    project_id   uuid NOT NULL,
    sandbox_id   uuid,
    held_micros  bigint NOT NULL CHECK (held_micros >= 0),
    reserved_at  timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL CHECK (expires_at > reserved_at)
);
-- The live holds of one organization, project or sandbox are summed by these, with every reservation that applies.
CREATE INDEX spend_reservations_org ON spend_reservations (org_id, expires_at);
CREATE INDEX spend_reservations_project ON spend_reservations (project_id, expires_at);
CREATE INDEX spend_reservations_sandbox ON spend_reservations (sandbox_id, expires_at) WHERE sandbox_id IS NOT NULL;
