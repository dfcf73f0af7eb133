package chat_test

import (
	"encoding/base64"
	"io"
	"regexp"
	"strings"
	"testing"

	chat "github.com/teamchat/chat"
)

// attachmentEmail is a multipart email from Ada to address: a text body, then the parts.
func attachmentEmail(address, text string, parts ...string) []byte {
	var b strings.Builder
	b.WriteString("From: Ada Lovelace <ada@example.org>\r\nTo: Launch <" + address + ">\r\nSubject: Files\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"XYZ\"\r\n\r\n" +
		"--XYZ\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + text + "\r\n")
	for _, p := range parts {
		b.WriteString("--XYZ\r\n" + p + "\r\n")
	}
	b.WriteString("--XYZ--\r\n")
	return []byte(b.String())
}

// TestEmailMirrorAttachments checks Zulip's extract_and_upload_attachments: each part of a
// channel email with a file name (Content-Disposition's filename, else Content-Type's name)
// is uploaded for the sender and linked after the body under its stored name, one link a line; subscribers read the
// files through the message. A file past the server's upload limit refuses the email, and
// nothing is posted.
func TestEmailMirrorAttachments(t *testing.T) {
	t.Parallel()
	for _, b := range testBackends() {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			f := newFixtureOn(t, b.open(t), withGateway, func(o *chat.Options) { o.MaxFileUploadSizeMiB = 1 })
			ctx := t.Context()
			lobby := mustChannel(t, f, "lobby", chat.NewChannelSettings{}, "member", "admin")
			addr := mustEmailAddress(t, f, "member", lobby, 0)
			plan := "Bring cake.\nAnd candles.\n"
			email := attachmentEmail(addr, "See the attached plan.",
				"Content-Type: text/plain; charset=utf-8\r\nContent-Disposition: attachment; filename=\"launch plan.txt\"\r\n"+
					"Content-Transfer-Encoding: base64\r\n\r\n"+base64.StdEncoding.EncodeToString([]byte(plan)),
				"Content-Type: application/octet-stream; name=\"data.bin\"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n=01=02=FF")
			res, err := f.svc.EmailMirrorMessage(ctx, chat.EmailMirrorMessageParams{Message: email})
			if err != nil {
				t.Fatal(err)
			}
			got := fetch(t, f, "admin", chat.GetMessagesParams{Anchor: "newest", NumBefore: 1, ApplyMarkdown: ptr(false)}).Messages
			want := regexp.MustCompile(`^From: Ada Lovelace <ada@example\.org>\nSee the attached plan\.\n\n` +
				`\[launch-plan\.txt\]\(/user_uploads/(\S+/launch-plan\.txt)\)\n\[data\.bin\]\(/user_uploads/(\S+/data\.bin)\)$`)
			if len(got) != 1 || got[0].ID != res.MessageID {
				t.Fatalf("posted %+v, want message %d", got, res.MessageID)
			}
			m := want.FindStringSubmatch(got[0].Content)
			if m == nil {
				t.Fatalf("content %q, want the body and two links (%s)", got[0].Content, want)
			}
			for i, data := range []string{plan, "\x01\x02\xff"} {
				file, err := f.svc.GetUploadedFile(ctx, f.actor("admin"), chat.GetUploadedFileParams{PathID: m[i+1]})
				if err != nil {
					t.Fatalf("the subscriber reads %s: %v", m[i+1], err)
				}
				read, err := io.ReadAll(file)
				file.Close()
				if err != nil || string(read) != data {
					t.Errorf("%s holds %q, %v; want %q", m[i+1], read, err, data)
				}
			}

			big := attachmentEmail(addr, "Too big.", "Content-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=big.bin\r\n"+
				"Content-Transfer-Encoding: base64\r\n\r\n"+base64.StdEncoding.EncodeToString(make([]byte, 1<<20+1)))
			_, err = f.svc.EmailMirrorMessage(ctx, chat.EmailMirrorMessageParams{Message: big})
			wantError(t, err, chat.CodeBadRequest, 400, "File is larger than this server's configured maximum upload size (1 MiB).")
			if after := fetch(t, f, "admin", chat.GetMessagesParams{Anchor: "newest", NumBefore: 1}).Messages; len(after) != 1 || after[0].ID != res.MessageID {
				t.Errorf("after the refused email, the newest message is %+v, want %d", after, res.MessageID)
			}
		})
	}
}
