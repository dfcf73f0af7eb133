-- The users with a live event queue in each process sharing the store (node), as the process
-- last reported them (seen_at, UNIX milliseconds): a user with a recent report from any node
-- is not off Zulip, so gets no missed-message email.

CREATE TABLE live_queue_owners (
	node TEXT NOT NULL,
	owner BIGINT NOT NULL,
	seen_at BIGINT NOT NULL,
	PRIMARY KEY (node, owner)
);
CREATE INDEX live_queue_owners_owner ON live_queue_owners (owner, seen_at);
