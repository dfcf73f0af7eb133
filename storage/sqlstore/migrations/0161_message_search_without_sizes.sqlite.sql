-- The search index without its token counts (SQLite only): FTS5 keeps each message's count of
-- tokens per column in a table of its own (message_search_docsize), read only by ranking
-- functions such as bm25, which search does not use (it orders by id). columnsize = 0 drops
-- that table: a message's entry is written to one b-tree fewer. The entries are copied into
-- the new table in the one migration transaction.
CREATE VIRTUAL TABLE message_search_unsized USING fts5(topic, content, tokenize = 'unicode61 remove_diacritics 0', columnsize = 0);
INSERT INTO message_search_unsized (rowid, topic, content)
	SELECT rowid, topic, content FROM message_search ORDER BY rowid;
DROP TABLE message_search;
ALTER TABLE message_search_unsized RENAME TO message_search;
