-- Each set remembers the hash of its sandbox's own (embedded) document at the set's revision: a write of a shared
-- policy then re-publishes every sandbox it reaches by hashes alone, without reading, serialising and hashing each
-- sandbox's own document again. own_known is false for a row written before this column (or by a writer that did not
-- tell the own document apart): the next re-publish of that sandbox reads its document once and records it.
ALTER TABLE sandbox_enforcement
    ADD COLUMN own_sha256 text,
    ADD COLUMN own_known  boolean NOT NULL DEFAULT false;
