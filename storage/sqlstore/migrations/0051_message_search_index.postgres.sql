-- The GIN index of full-text search, built after migration 50 filled the columns.
CREATE INDEX messages_search ON messages USING gin ((search_topic || search_content));
