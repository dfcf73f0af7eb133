package topics_test

import (
	"testing"

	"github.com/teamchat/chat/topics"
)

func TestCleanRefusesWhatZulipRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want, err string
	}{
		{"lunch", "lunch", ""},
		{"  spaced  \n", "spaced", ""},
		{"general chat", "", ""},
		{"(no topic)", "", ""},
		{"Test\n\rTopic", "", "Invalid character in topic, at position 5!"},
		{"editing\nfun", "", "Invalid character in topic, at position 8!"},
		{"Test\ufffeTopic", "", "Invalid character in topic, at position 5!"},
		{"tab\there", "", "Invalid character in topic, at position 4!"},
		{"ünï\u0007", "", "Invalid character in topic, at position 4!"},
		{"a\x00b", "", "Topic must not contain null bytes"},
		{"emoji 🎉 and \u200b zero-width space", "emoji 🎉 and \u200b zero-width space", ""},
	}
	for _, tt := range tests {
		got, err := topics.Clean(tt.in, "general chat")
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if got != tt.want || gotErr != tt.err {
			t.Errorf("Clean(%q) = %q, %q; want %q, %q", tt.in, got, gotErr, tt.want, tt.err)
		}
	}
}
