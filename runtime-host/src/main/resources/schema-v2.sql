-- Memory's full-text index moved to RAM (Lucene, rebuilt from this table at startup): the FTS5 copy and
-- the triggers that kept it are dropped, so a memory write no longer pays for a second index on disk.
DROP TRIGGER IF EXISTS memory_ai
;;
DROP TRIGGER IF EXISTS memory_ad
;;
DROP TABLE IF EXISTS memory_fts
;;
