package markdown

import "testing"

func TestWithoutCodeBlocks(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"no fence", "deploy now", "deploy now"},
		{"a code block", "before\n```\ndeploy\n```\nafter", "before\n\n\n\nafter"},
		{"a language and tildes", "~~~ python\ndeploy()\n~~~\nx", "\n\n\nx"},
		{"a longer fence closes only with itself", "````\n```\ndeploy\n````\ny", "\n\n\n\ny"},
		{"a quote stays", "```quote\ndeploy\n```", "\ndeploy\n"},
		{"code inside a quote", "```quote\nsay\n~~~\ndeploy\n~~~\n```", "\nsay\n\n\n\n"},
		{"math is code", "```math\ndeploy\n```", "\n\n"},
		{"left open", "```\ndeploy", "\n"},
		{"inline backticks", "a `deploy` b", "a `deploy` b"},
	}
	for _, tt := range tests {
		if got := WithoutCodeBlocks(tt.in); got != tt.want {
			t.Errorf("%s: WithoutCodeBlocks(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
	}
}
