-- Shared lists of enforcement documents: a set names an attached policy (policy:<id>) or its organization's ceiling
-- (ceiling:<orgId>) by name instead of listing their documents' hashes, and the list's current documents live here,
-- once. A shared policy's rewrite then changes one row with one version, which the feed sends once; every follower
-- resolves again the sets naming it. Versions come from the same sequence as the sets', under the same lock, so a
-- reader sees sets and lists in one order.
CREATE TABLE enforcement_shared (
    name        text PRIMARY KEY,
    org_id      uuid NOT NULL,
    documents   jsonb NOT NULL,
    version     bigint NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX enforcement_shared_version ON enforcement_shared (version);
