package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/teamchat/chat/transfer/mattermostimport"
	"github.com/teamchat/chat/transfer/slackimport"
)

// otherServer is the server whose export --from names, or that the file is detected as: a
// .zip is Slack's workspace export; a file whose first line is a Mattermost bulk export's
// version line is Mattermost's. Anything else (backups, Zulip exports) is "".
func (c *importCmd) otherServer() string {
	if c.From != "" {
		return c.From
	}
	if strings.EqualFold(filepath.Ext(c.File), ".zip") {
		return "slack"
	}
	f, err := os.Open(c.File)
	if err != nil {
		return ""
	}
	defer f.Close()
	line, _ := bufio.NewReaderSize(f, 4096).Peek(256)
	if bytes.HasPrefix(bytes.TrimSpace(line), []byte(`{"type":"version"`)) {
		return "mattermost"
	}
	return ""
}

// convert turns another server's export into a directory in Zulip's export format, as Zulip's
// importers do (a temporary directory the caller removes with its parent), and returns it.
func (c *importCmd) convert(ctx context.Context, from string, logger *slog.Logger) (string, error) {
	tmp, err := os.MkdirTemp("", "chatserver-import-")
	if err != nil {
		return "", err
	}
	out := filepath.Join(tmp, "realm")
	switch from {
	case "slack":
		st, err := slackimport.ConvertSlack(ctx, c.File, out, slackimport.Options{Domain: c.Domain, Subdomain: c.Name, Logger: logger})
		if err != nil {
			os.RemoveAll(tmp)
			return "", fmt.Errorf("converting the Slack export: %w", err)
		}
		logger.Info("Slack export converted", "users", st.Users, "channels", st.Channels, "messages", st.Messages)
	case "mattermost":
		st, err := mattermostimport.ConvertMattermost(ctx, c.File, c.Team, out, mattermostimport.Options{Logger: logger})
		if err != nil {
			os.RemoveAll(tmp)
			return "", fmt.Errorf("converting the Mattermost export: %w", err)
		}
		logger.Info("Mattermost export converted", "team", c.Team, "users", st.Users, "channels", st.Channels, "messages", st.Messages)
	default:
		os.RemoveAll(tmp)
		return "", fmt.Errorf("unknown --from %q", from)
	}
	return out, nil
}
