package emailgateway

import (
	"testing"
)

// TestEmailAddressForm checks the address encoding against Zulip's encode_email_address and
// decode_email_address (zerver/tests/test_email_mirror.py's cases).
func TestEmailAddressForm(t *testing.T) {
	t.Parallel()
	const pattern, token = "%s@testserver", "abcdef0123456789abcdef0123456789"
	for _, c := range []struct {
		name       string
		showSender bool
		want       string
	}{
		{"Denmark", false, "denmark." + token + "@testserver"},
		{"core team", true, "core-team." + token + ".show-sender@testserver"},
		{"Email!Test", false, "email-test." + token + "@testserver"},
		{"Email!Test?", false, "channel." + token + "@testserver"},
		{"Café au lait", false, "cafe-au-lait." + token + "@testserver"},
		{"शिव", false, "channel." + token + "@testserver"},
		{"trailing ", false, "channel." + token + "@testserver"},
	} {
		if got := EncodeEmailAddress(pattern, c.name, token, c.showSender); got != c.want {
			t.Errorf("EncodeEmailAddress(%q) = %q, want %q", c.name, got, c.want)
		}
	}
	if got := EncodeEmailAddress("", "Denmark", token, true); got != "" {
		t.Errorf("without a pattern: %q, want empty", got)
	}
	for _, c := range []struct {
		address string
		token   string
		opts    EmailAddressOptions
	}{
		{"denmark." + token + "@testserver", token, EmailAddressOptions{}},
		{token + "@testserver", token, EmailAddressOptions{}},
		{"Denmark+" + token + "+show-sender+include-footer@testserver", token, EmailAddressOptions{ShowSender: true, IncludeFooter: true}},
		{"denmark." + token + ".include-quotes.prefer-html@TESTSERVER", token, EmailAddressOptions{IncludeQuotes: true, PreferText: new(false)}},
	} {
		got, opts, err := DecodeEmailAddress(pattern, c.address)
		if err != nil || got != c.token || opts.ShowSender != c.opts.ShowSender || opts.IncludeFooter != c.opts.IncludeFooter ||
			opts.IncludeQuotes != c.opts.IncludeQuotes || (opts.PreferText == nil) != (c.opts.PreferText == nil) {
			t.Errorf("DecodeEmailAddress(%q) = %q %+v %v, want %q %+v", c.address, got, opts, err, c.token, c.opts)
		}
	}
	for _, bad := range []string{"denmark." + token + "@example.org", "@testserver"} {
		if _, _, err := DecodeEmailAddress(pattern, bad); err == nil {
			t.Errorf("DecodeEmailAddress(%q) accepted", bad)
		}
	}
}

// TestEmailTopicAndBody checks the subject and body rules of Zulip's email mirror.
func TestEmailTopicAndBody(t *testing.T) {
	t.Parallel()
	for subject, want := range map[string]string{
		"Re: Launch":           "Launch",
		"RE: FWD: Launch":      "Launch",
		"[Fwd: Launch]":        "Launch",
		"AW: Treffen":          "Treffen",
		"Fwd:":                 "Email with no subject",
		"Bell\x07 rings\x00":   "Bell rings",
		"Replies are welcome ": "Replies are welcome",
	} {
		if got := emailTopic(subject); got != want {
			t.Errorf("emailTopic(%q) = %q, want %q", subject, got, want)
		}
	}
	if !forwardedPrefix.MatchString("Fwd: Minutes") || forwardedPrefix.MatchString("Re: Minutes") {
		t.Error("forwardedPrefix does not tell a forward from a reply")
	}
	if got := filterFooter("Text\n--\nSignature"); got != "Text" {
		t.Errorf("filterFooter: %q", got)
	}
	if got := filterFooter("a\n--\nb\n--\nc"); got != "a\n--\nb\n--\nc" {
		t.Errorf("filterFooter with two separators: %q", got)
	}
	if got := cutQuotation("Yes.\n\nOn Monday, Bob wrote:\n> Shall we?\n"); got != "Yes." {
		t.Errorf("cutQuotation: %q", got)
	}
	if got := cutQuotation("> a quote first\nthen my answer"); got != "> a quote first\nthen my answer" {
		t.Errorf("cutQuotation kept no interleaved answer: %q", got)
	}
	plain, empty := "Plain body", ""
	if _, err := emailBody(emailParts{}, false, true); err == nil {
		t.Error("an email without text parts was read")
	}
	if _, err := emailBody(emailParts{plain: &empty}, false, true); err == nil {
		t.Error("an email with empty parts was read")
	}
	htm := "<p>HTML <i>body</i></p>"
	if got, _ := emailBody(emailParts{plain: &plain, html: &htm}, false, false); got != "HTML *body*" {
		t.Errorf("prefer-html: %q", got)
	}
	if got, _ := emailBody(emailParts{plain: &plain, html: &htm}, false, true); got != plain {
		t.Errorf("prefer-text: %q", got)
	}
}
