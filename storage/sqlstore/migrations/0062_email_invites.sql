-- Email invitations: the invitee's address (empty for reusable links), whether the one
-- account it creates exists, and whether the inviter asked to be told.

ALTER TABLE invites ADD COLUMN email TEXT NOT NULL DEFAULT '';
ALTER TABLE invites ADD COLUMN used BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE invites ADD COLUMN notify_referrer_on_join BOOLEAN NOT NULL DEFAULT FALSE;
