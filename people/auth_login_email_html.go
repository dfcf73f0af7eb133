package people

import (
	"context"
	"html/template"
	"strings"
)

// HTMLMailer is an optional capability of a Mailer: a message with an HTML alternative
// (multipart/alternative), as Zulip sends its emails. The mail package's senders have it.
type HTMLMailer interface {
	SendHTML(ctx context.Context, to, subject, text, html string) error
}

// loginTemplate is the HTML part of the "new login" email, after Zulip's
// notify_new_login.html (its wording, not its styling); html/template escapes every value.
var loginTemplate = template.Must(template.New("login").Parse(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>New login</title></head>
<body style="font-family: 'Helvetica Neue', Helvetica, Arial, sans-serif; font-size: 14px;">
<p>Hello {{.Name}},</p>
<p>This is a notice that there was a login to your account ({{.Email}}) on {{.Org}}.</p>
<ul>
<li>Organization: <a href="{{.URL}}">{{.URL}}</a></li>
<li>Email: <a href="mailto:{{.Email}}">{{.Email}}</a></li>
<li>Time: {{.Time}}</li>
<li>Device: {{.Device}}</li>
<li>IP address: {{.Address}}</li>
</ul>
<p>If you do not recognize this login, or think your account may have been accessed without your approval, change your password and contact your organization's administrators.</p>
<p><a href="{{.Preferences}}">Manage email preferences</a> (you can turn these emails off in your notification settings).</p>
</body></html>
`))

// loginData is what loginTemplate shows.
type loginData struct {
	Name, Email, Org, URL, Time, Device, Address, Preferences string
}

// loginHTML is the HTML part of a login email.
func loginHTML(d loginData) (string, error) {
	var b strings.Builder
	if err := loginTemplate.Execute(&b, d); err != nil {
		return "", err
	}
	return b.String(), nil
}
