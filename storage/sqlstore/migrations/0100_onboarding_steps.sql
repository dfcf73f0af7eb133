-- The onboarding steps (Zulip's one-time notices and actions) each user has marked as read.

CREATE TABLE onboarding_steps (
	user_id BIGINT NOT NULL,
	step TEXT NOT NULL,
	PRIMARY KEY (user_id, step)
);
