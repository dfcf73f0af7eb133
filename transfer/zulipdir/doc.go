// Package zulipdir writes a directory in Zulip's export format, the common output of the
// importers of other products (transfer/slackimport, transfer/mattermostimport) and the input
// of the Zulip-format import: realm.json with the zerver_* tables, messages-000001.json and
// the following message files, attachment.json, and uploads/, avatars/ and emoji/, each with
// its records.json beside the files it lists.
//
// The rows are defined here once, for the converters, for transfer's export and for its
// import: the fields Zulip's own converters write (zerver/data_import/import_util.py) and
// Zulip's export (zerver/lib/export.py), plus this server's own under teamchat_ names, left
// out when empty. A converter's ids are its own, remapped by the import; its rendered_content
// is null (the import renders); users carry no password.
//
// It also holds what both converters share: id sequences, the UserMessage rows of a message
// and their flags, the names of uploaded files (Zulip's sanitize_name) and their path ids,
// and the truncation of topics and message bodies.
//
// Imports: the standard library and golang.org/x/text only. A Writer is used by one goroutine;
// every path it creates is checked to stay inside its directory.
package zulipdir
