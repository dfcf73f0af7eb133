// Package mattermostimport converts one team of a Mattermost bulk export (export.json, one
// JSON object a line, with its data/ directory of attachments and its custom emoji images)
// into a directory in Zulip's export format (package zulipdir), which the Zulip-format import
// then loads. It follows Zulip's own converter (zerver/data_import/mattermost.py):
//
//   - the team becomes the organization; Teams lists an export's teams;
//   - users of the team become users (team admins owners, team guests guests; full name from
//     first and last name, else the username; time zone UTC; no password); users who posted
//     in the team without being in it become inactive mirror users;
//   - the team's channels become channels (private ones with protected history), their
//     description the purpose or else the header, their members the users with a channel
//     role;
//   - posts and their replies become messages in the topic "imported from mattermost";
//     @username mentions become @**Full Name**, @channel, @all and @here become @**all**;
//     reactions keep their emoji (unicode, else the organization's custom emoji); attached
//     files become uploads;
//   - direct messages and group DMs come along from an export of a single team only.
//
// Zulip passes each message through html2text; this package keeps the message's Markdown,
// which is what Mattermost stores.
//
// The export is untrusted: each line and the whole file are bounded (Limits), attachment and
// emoji paths are checked and opened through an os.Root of the export's directory, so that
// neither ".." nor a symbolic link reaches outside it, and every copied file is bounded.
//
// Imports: the standard library, emoji (the unicode emoji names) and transfer/zulipdir.
package mattermostimport
