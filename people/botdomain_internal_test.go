package people

import "testing"

// TestPasswordStrong checks the password policy, Zulip's by default and its development
// settings' under WeakPasswords.
func TestPasswordStrong(t *testing.T) {
	t.Parallel()
	long := string(make([]rune, PasswordMaxLength+1))
	for _, c := range []struct {
		weak     bool
		password string
		want     bool
	}{
		{false, "temp", false},
		{false, "secret", true},
		{false, long, false},
		{true, "temp", true},
		{true, "", false},
		{true, long, false},
	} {
		s := &Service{cfg: Config{WeakPasswords: c.weak}}
		if got := s.passwordStrong(c.password); got != c.want {
			t.Errorf("weak=%v passwordStrong(%q) = %v, want %v", c.weak, c.password, got, c.want)
		}
	}
}
