-- The usage ledger's priced buckets (docs/spend.md, "The ledger"). A row kept only input and output tokens, though
-- the proxy prices cache reads, cache writes (one-hour writes dearer), reasoning, audio and image parts and web
-- searches each at its own rate; these columns let a reader see what a call was charged for. Every token column is
-- a part of input_tokens or output_tokens, which keep their meaning (input_tokens: every input token, cached or not):
--   cache_read_tokens, cache_write_tokens            parts of input_tokens
--   cache_write_1h_tokens                            the part of cache_write_tokens written for one hour
--   input_audio_tokens, input_image_tokens           parts of the uncached input
--   cache_read_audio_tokens, cache_read_image_tokens parts of cache_read_tokens
--   reasoning_tokens, output_audio_tokens            parts of output_tokens
--   web_searches                                     server-side searches billed per request (not tokens)
--
-- Older rows carry 0 in every new column: their breakdown was never recorded, so 0 there means "not kept", and their
-- input_tokens already include any cache reads and writes.
--
-- Cheap on a big table: ADD COLUMN with a constant default and NOT NULL only changes the catalog on PostgreSQL 11+
-- (no rewrite, no scan), and the check is added NOT VALID so that it does not scan the existing rows either (they
-- all hold the default 0, which passes it); it holds for every row written from now on.
ALTER TABLE usage_ledger
    ADD COLUMN cache_read_tokens       bigint NOT NULL DEFAULT 0,
    ADD COLUMN cache_write_tokens      bigint NOT NULL DEFAULT 0,
    ADD COLUMN cache_write_1h_tokens   bigint NOT NULL DEFAULT 0,
    ADD COLUMN reasoning_tokens        bigint NOT NULL DEFAULT 0,
    ADD COLUMN input_audio_tokens      bigint NOT NULL DEFAULT 0,
    ADD COLUMN cache_read_audio_tokens bigint NOT NULL DEFAULT 0,
    ADD COLUMN output_audio_tokens     bigint NOT NULL DEFAULT 0,
    ADD COLUMN input_image_tokens      bigint NOT NULL DEFAULT 0,
    ADD COLUMN cache_read_image_tokens bigint NOT NULL DEFAULT 0,
    ADD COLUMN web_searches            bigint NOT NULL DEFAULT 0,
    ADD CONSTRAINT usage_ledger_buckets_non_negative CHECK (
        cache_read_tokens >= 0 AND cache_write_tokens >= 0 AND cache_write_1h_tokens >= 0 AND reasoning_tokens >= 0
        AND input_audio_tokens >= 0 AND cache_read_audio_tokens >= 0 AND output_audio_tokens >= 0
        AND input_image_tokens >= 0 AND cache_read_image_tokens >= 0 AND web_searches >= 0) NOT VALID;
