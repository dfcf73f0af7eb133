-- Full-text search (storage/sqlstore/search.go): tsvectors of the stems of each message's
-- topic and of its content's text. The Go step of this migration fills them for the messages
-- stored before it; migration 51 indexes them once they are filled.
ALTER TABLE messages ADD COLUMN search_topic tsvector NOT NULL DEFAULT '';
ALTER TABLE messages ADD COLUMN search_content tsvector NOT NULL DEFAULT '';
