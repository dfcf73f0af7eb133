-- Full-text search (storage/sqlstore/search.go): the stems of each message's topic and of
-- its content's text, space-separated, in an FTS5 table whose rowid is the message id. The
-- Go step of this migration indexes the messages stored before it.
CREATE VIRTUAL TABLE message_search USING fts5(topic, content, tokenize = 'unicode61 remove_diacritics 0');
