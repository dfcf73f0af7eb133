package conversations

import (
	"bytes"
	"net/mail"
	"testing"
)

// FuzzReadEmailParts reads arbitrary emails as the gateway does: no panic, and no body or
// attachment larger than the email itself (their encodings only shrink).
func FuzzReadEmailParts(f *testing.F) {
	for _, s := range []string{
		"Subject: x\r\n\r\nhello",
		"Content-Type: multipart/mixed; boundary=B\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\nhi\r\n--B\r\n" +
			"Content-Disposition: attachment; filename=\"a.txt\"\r\nContent-Transfer-Encoding: base64\r\n\r\naGk=\r\n--B--\r\n",
		"Content-Type: application/pdf; name=x.pdf\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n=01=FF",
		"Content-Type: multipart/alternative; boundary=C\r\n\r\n--C\r\nContent-Type: text/html; charset=latin1\r\n\r\n<p>caf\xe9</p>\r\n--C--",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		msg, err := mail.ReadMessage(bytes.NewReader(raw))
		if err != nil {
			return
		}
		parts, err := readEmailParts(msg)
		if err != nil {
			return
		}
		for _, a := range parts.attachments {
			if len(a.data) > len(raw) {
				t.Fatalf("attachment %q of %d bytes from an email of %d", a.name, len(a.data), len(raw))
			}
		}
	})
}
