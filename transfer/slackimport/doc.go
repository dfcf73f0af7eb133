// Package slackimport converts a Slack export (the workspace zip) into a directory in Zulip's
// export format (package zulipdir), which the Zulip-format import then loads. It follows
// Zulip's own converter (zerver/data_import/slack.py and slack_message_conversion.py):
//
//   - users.json: users, with their role (primary owner and owners, admins, guests for
//     restricted users), time zone, bots, custom profile fields (phone, skype, custom);
//     users sharing an address merge. Users the export names without describing become
//     inactive mirror users; integration bots become bot users. No user gets a password.
//   - channels.json and groups.json: public and private channels (private ones with
//     protected history), their members, #general and #random as default channels;
//     mpims.json: direct-message groups; dms.json: direct messages.
//   - the daily message files: messages in time order, threads as topics named by date and
//     first words (or one topic "imported from Slack"), reactions (skin tones merged, Slack's
//     emoji names mapped to Zulip's), files, and the markup: *bold*, _italic_, ~strike~,
//     <links|labels>, <mailto:...>, <@user> and <#channel> mentions, <!channel>/<!here>/
//     <!everyone>, Block Kit blocks and attachments of integrations.
//
// The export is untrusted: the zip is read in place (nothing is extracted, so no entry name
// can reach the file system), entry names are checked, every entry and the total are bounded
// (Limits), and downloads are bounded and, with NewHTTPFetcher, restricted to Slack's hosts.
//
// Slack's API is not called. An export has no custom emoji: Options.CustomEmoji (the list of
// Slack's emoji.list) supplies them, else reactions with custom emoji are skipped. Files,
// avatars and emoji images are downloaded only through Options.Fetch; without it files
// become links to Slack and users get a Gravatar.
//
// Imports: the standard library, emoji (the unicode emoji names) and transfer/zulipdir.
package slackimport
