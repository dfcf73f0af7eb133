package emailgateway

import (
	"bytes"
	"net/mail"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzReadEmail reads arbitrary bytes as the gateway reads a received email (the untrusted
// input of EmailMirrorMessage): it never panics, and what it posts of an email it could read
// is never empty and never holds a null character, and no attachment is larger than the email
// itself (their encodings only shrink).
func FuzzReadEmail(f *testing.F) {
	f.Add([]byte("Subject: Hi\r\nFrom: a@example.org\r\n\r\nHello\r\n"), false, true)
	f.Add([]byte("Content-Type: multipart/alternative; boundary=b\r\n\r\n--b\r\nContent-Type: text/html; charset=iso-8859-1\r\n"+
		"Content-Transfer-Encoding: quoted-printable\r\n\r\n<p>Caf=E9 <a href=3D\"x\">y</a></p>\r\n--b--\r\n"), true, false)
	f.Add([]byte("Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\nSGk=\r\n"), false, false)
	f.Add([]byte("Content-Type: multipart/mixed; boundary=B\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\nhi\r\n--B\r\n"+
		"Content-Disposition: attachment; filename=\"a.txt\"\r\nContent-Transfer-Encoding: base64\r\n\r\naGk=\r\n--B--\r\n"), false, true)
	f.Add([]byte("Content-Type: application/pdf; name=x.pdf\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n=01=FF"), false, true)
	f.Fuzz(func(t *testing.T, raw []byte, includeQuotes, preferText bool) {
		msg, err := mail.ReadMessage(bytes.NewReader(raw))
		if err != nil {
			return
		}
		_ = emailTopic(decodeHeader(msg.Header.Get("Subject")))
		parts, err := readEmailParts(msg)
		if err != nil {
			return
		}
		for _, a := range parts.attachments {
			if len(a.data) > len(raw) {
				t.Fatalf("attachment %q of %d bytes from an email of %d", a.name, len(a.data), len(raw))
			}
		}
		body, err := emailBody(parts, includeQuotes, preferText)
		if err != nil {
			return
		}
		content := emailContent(body, decodeHeader(msg.Header.Get("From")), EmailAddressOptions{})
		if strings.TrimSpace(content) == "" || strings.ContainsRune(content, 0) {
			t.Fatalf("emailContent = %q", content)
		}
	})
}

// FuzzEmailAddress: an address EncodeEmailAddress forms for any channel name decodes to its
// token and show-sender option, and DecodeEmailAddress never panics on any address.
func FuzzEmailAddress(f *testing.F) {
	f.Add("Denmark", "core.team+show-sender@testserver", true)
	f.Add("Café au lait", "@testserver", false)
	f.Fuzz(func(t *testing.T, name, address string, showSender bool) {
		const pattern, token = "%s@testserver", "abcdef0123456789abcdef0123456789"
		_, _, _ = DecodeEmailAddress(pattern, address)
		if !utf8.ValidString(name) {
			return
		}
		addr := EncodeEmailAddress(pattern, name, token, showSender)
		got, opts, err := DecodeEmailAddress(pattern, addr)
		if err != nil || got != token || opts.ShowSender != showSender {
			t.Fatalf("%q: %q decodes to %q %+v %v", name, addr, got, opts, err)
		}
	})
}
